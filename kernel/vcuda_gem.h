/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: buffer objects.
 */
#ifndef _VCUDA_GEM_H_
#define _VCUDA_GEM_H_

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <drm/drm_gem_shmem_helper.h>

struct drm_device;
struct mm_struct;
struct drm_file;

/**
 * struct vcuda_bo - A buffer object.
 *
 * The pages are allocated and pinned when the object is created and stay
 * until it is freed, so @base.pages is valid for the object's lifetime.
 */
struct vcuda_bo {
	/** @base: The shmem GEM object; must stay first (it is kfree'd). */
	struct drm_gem_shmem_object base;

	/** @placement: &enum drm_vcuda_bo_placement. */
	u32 placement;

	/** @flags: DRM_VCUDA_BO_HOST_* flags, recorded. */
	u32 flags;

	/** @charged: Bytes charged to device memory or host_pinned. */
	u64 charged;

	/** @pinned: Whether the pages are pinned. */
	bool pinned;

	/**
	 * @userptr: Made of the caller's own pages by BO_USERPTR: the shmem
	 * helper does not manage it, only @base.pages is used.
	 */
	bool userptr;

	/** @mm: For a userptr object, the mm charged for the pinned pages. */
	struct mm_struct *mm;

	/** @ipc_id: ID in &vcuda_device.ipc once exported, else zero. */
	u32 ipc_id;

	/** @ipc_uid: Effective user of the first exporter. */
	kuid_t ipc_uid;

	/** @ipc_secret: Random part of the IPC token. */
	u8 ipc_secret[16];

	/** @gpuva_lock: Protects the object's list of GPU mappings. */
	struct mutex gpuva_lock;
};

static inline struct vcuda_bo *to_vcuda_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vcuda_bo, base);
}

struct drm_gem_object *vcuda_gem_create_object(struct drm_device *drm,
					       size_t size);
struct page *vcuda_bo_page(struct vcuda_bo *bo, u64 offset);

int vcuda_ioctl_bo_create(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vcuda_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vcuda_ioctl_bo_userptr(struct drm_device *drm, void *data,
			   struct drm_file *file);

#endif /* _VCUDA_GEM_H_ */
