/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: buffer objects.
 */
#ifndef _VCUDA_GEM_H_
#define _VCUDA_GEM_H_

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <drm/drm_gem_shmem_helper.h>

struct drm_device;
struct drm_file;
struct drm_printer;
struct mm_struct;
struct vcuda_device;

/*
 * The device address space: where page-table entries point. A buffer
 * object owns the segment @vcuda_bo.seg of it; the device address of its
 * byte at offset O is seg << VCUDA_DEVADDR_SEG_SHIFT | O.
 */
#define VCUDA_DEVADDR_SEG_SHIFT	40
#define VCUDA_DEVADDR_MAX_SEG	((1u << (64 - VCUDA_DEVADDR_SEG_SHIFT)) - 1)
#define VCUDA_BO_MAX_SIZE	BIT_ULL(VCUDA_DEVADDR_SEG_SHIFT)

/**
 * enum vcuda_bo_kind - How a buffer object got its pages.
 *
 * @VCUDA_BO_SHMEM: Its own shmem pages (BO_CREATE).
 * @VCUDA_BO_USERPTR: The pinned pages of a process (BO_USERPTR).
 * @VCUDA_BO_PEER: The pages of a buffer object of another vcuda device,
 *	imported as a dma-buf (vcuda_prime.c).
 */
enum vcuda_bo_kind {
	VCUDA_BO_SHMEM,
	VCUDA_BO_USERPTR,
	VCUDA_BO_PEER,
};

/**
 * struct vcuda_bo - A buffer object.
 *
 * The pages are allocated and pinned when the object is created and stay
 * until it is freed, so @pages is valid for the object's lifetime.
 */
struct vcuda_bo {
	/** @base: The shmem GEM object; must stay first (it is kfree'd). */
	struct drm_gem_shmem_object base;

	/** @kind: &enum vcuda_bo_kind. */
	u32 kind;

	/** @placement: &enum drm_vcuda_bo_placement. */
	u32 placement;

	/** @flags: DRM_VCUDA_BO_HOST_* flags, recorded. */
	u32 flags;

	/** @charged: Bytes charged to device memory or host_pinned. */
	u64 charged;

	/** @pinned: Whether the pages are pinned. */
	bool pinned;

	/**
	 * @pages: The backing pages, one per page of the object; set once
	 * they are pinned, valid until the object is freed.
	 */
	struct page **pages;

	/** @seg: Segment of the device address space, or zero. */
	u32 seg;

	/**
	 * @mm: For a userptr or host object, the mm whose pinned_vm is
	 * charged for the pages (vcuda_pin_charge()), grabbed.
	 */
	struct mm_struct *mm;

	/** @peer: For a peer object, the exporter's object, referenced. */
	struct vcuda_bo *peer;

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
struct mm_struct *vcuda_pin_charge(unsigned long npages);
void vcuda_pin_uncharge(struct mm_struct *mm, unsigned long npages);
int vcuda_bo_register(struct vcuda_bo *bo);
void vcuda_bo_unregister(struct vcuda_bo *bo);
struct vcuda_bo *vcuda_bo_from_devaddr(struct vcuda_device *vdev, u64 addr,
				       u64 *offset);
void vcuda_gem_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/**
 * vcuda_bo_devaddr() - The device address of a byte of a buffer object.
 * @bo: Buffer object, registered.
 * @offset: Offset in the object.
 *
 * Return: The device address.
 */
static inline u64 vcuda_bo_devaddr(const struct vcuda_bo *bo, u64 offset)
{
	return (u64)bo->seg << VCUDA_DEVADDR_SEG_SHIFT | offset;
}

/**
 * vcuda_bo_page() - The page at an offset of a buffer object.
 * @bo: Buffer object, alive.
 * @offset: Byte offset, less than the object's size.
 *
 * Return: The page, without taking a reference.
 */
static inline struct page *vcuda_bo_page(struct vcuda_bo *bo, u64 offset)
{
	return bo->pages[offset >> PAGE_SHIFT];
}

int vcuda_ioctl_bo_create(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vcuda_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file);
int vcuda_ioctl_bo_userptr(struct drm_device *drm, void *data,
			   struct drm_file *file);

#endif /* _VCUDA_GEM_H_ */
