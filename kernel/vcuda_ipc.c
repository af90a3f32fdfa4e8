// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: sharing buffer objects between processes by token.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/random.h>
#include <linux/string.h>
#include <crypto/algapi.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "vcuda_drv.h"
#include "vcuda_gem.h"
#include "vcuda_ipc.h"

/**
 * DOC: IPC
 *
 * cudaIpcGetMemHandle()/cudaIpcOpenMemHandle() share device memory between
 * processes with a 64-byte token. DRM_VCUDA_IPC_EXPORT gives a buffer
 * object an entry in its device's IPC table, once, with a random 128-bit
 * secret and the exporter's effective user, and returns the token:
 *
 * ====== ==== ===========================================
 * offset size
 * ====== ==== ===========================================
 * 0      4    magic "vCDA"
 * 4      4    device index
 * 8      4    IPC ID (entry in the device's table)
 * 12     4    zero
 * 16     16   secret
 * 32     24   zero
 * ====== ==== ===========================================
 *
 * DRM_VCUDA_IPC_IMPORT checks the token (-EINVAL if malformed or of
 * another device, -ENOENT if its ID and secret name no live object),
 * refuses a process of another effective user without CAP_SYS_ADMIN
 * (-EACCES), and creates a handle to the same object in the caller's
 * file, which can then mmap and bind it like its own.
 *
 * The table holds no reference: an object leaves it when it is freed
 * (vcuda_ipc_forget()), so a token is valid exactly as long as the
 * exporter (or anyone else) keeps the object alive, as with CUDA.
 * Objects made by BO_USERPTR cannot be exported.
 */

#define VCUDA_IPC_MAGIC		0x41444376	/* "vCDA", little-endian */

struct vcuda_ipc_token {
	__le32 magic;
	__le32 index;
	__le32 id;
	__le32 zero;
	u8 secret[16];
	u8 reserved[24];
};

static_assert(sizeof(struct vcuda_ipc_token) ==
	      sizeof(struct drm_vcuda_ipc_handle));

/**
 * vcuda_ipc_forget() - Remove a buffer object being freed from the table.
 * @bo: Buffer object.
 */
void vcuda_ipc_forget(struct vcuda_bo *bo)
{
	struct vcuda_device *vdev = to_vcuda_device(bo->base.base.dev);

	if (bo->ipc_id)
		xa_erase(&vdev->ipc, bo->ipc_id);
}

/**
 * vcuda_ioctl_ipc_export() - DRM_IOCTL_VCUDA_IPC_EXPORT.
 * @drm: Device.
 * @data: &struct drm_vcuda_ipc_export.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero flags or a userptr object, -ENOENT for
 * an unknown handle, -EBUSY when the table is full, -ENOMEM.
 */
int vcuda_ioctl_ipc_export(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_ipc_export *args = data;
	struct vcuda_ipc_token token = {};
	struct drm_gem_object *obj;
	struct vcuda_bo *bo;
	int ret = 0;
	u32 id;

	if (args->flags)
		return -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vcuda_bo(obj);
	if (bo->kind == VCUDA_BO_USERPTR) {
		ret = -EINVAL;
		goto out_put;
	}

	mutex_lock(&vdev->ipc_lock);
	if (!bo->ipc_id) {
		get_random_bytes(bo->ipc_secret, sizeof(bo->ipc_secret));
		bo->ipc_uid = current_euid();
		ret = xa_alloc_cyclic(&vdev->ipc, &id, bo, XA_LIMIT(1, U32_MAX),
				      &vdev->next_ipc_id, VCUDA_GFP_CLIENT);
		if (ret >= 0) {
			bo->ipc_id = id;
			ret = 0;
		}
	}
	if (!ret) {
		token.magic = cpu_to_le32(VCUDA_IPC_MAGIC);
		token.index = cpu_to_le32(vdev->index);
		token.id = cpu_to_le32(bo->ipc_id);
		memcpy(token.secret, bo->ipc_secret, sizeof(token.secret));
	}
	mutex_unlock(&vdev->ipc_lock);

	if (!ret)
		memcpy(&args->token, &token, sizeof(token));
out_put:
	drm_gem_object_put(obj);
	return ret;
}

/**
 * vcuda_ioctl_ipc_import() - DRM_IOCTL_VCUDA_IPC_IMPORT.
 * @drm: Device.
 * @data: &struct drm_vcuda_ipc_import.
 * @file: DRM file.
 *
 * Return: 0; -EINVAL for non-zero flags, or a malformed token or one of
 * another device; -ENOENT for a token naming no live object; -EACCES for
 * an object exported by another user; -ENOMEM.
 */
int vcuda_ioctl_ipc_import(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_ipc_import *args = data;
	struct vcuda_bo *bo, *found = NULL;
	struct vcuda_ipc_token token;
	u32 handle;
	int ret;

	memcpy(&token, &args->token, sizeof(token));
	if (args->flags || le32_to_cpu(token.magic) != VCUDA_IPC_MAGIC ||
	    token.zero || memchr_inv(token.reserved, 0, sizeof(token.reserved)))
		return -EINVAL;
	if (le32_to_cpu(token.index) != vdev->index)
		return -EINVAL;

	xa_lock(&vdev->ipc);
	bo = xa_load(&vdev->ipc, le32_to_cpu(token.id));
	/* An object whose last reference is going is as good as gone. */
	if (bo && kref_get_unless_zero(&bo->base.base.refcount))
		found = bo;
	xa_unlock(&vdev->ipc);
	if (!found)
		return -ENOENT;

	if (crypto_memneq(token.secret, found->ipc_secret,
			  sizeof(token.secret))) {
		ret = -ENOENT;
		goto out_put;
	}
	if (!uid_eq(found->ipc_uid, current_euid()) &&
	    !capable(CAP_SYS_ADMIN)) {
		ret = -EACCES;
		goto out_put;
	}

	ret = drm_gem_handle_create(file, &found->base.base, &handle);
	if (!ret) {
		args->handle = handle;
		args->size = found->base.base.size;
	}
out_put:
	drm_gem_object_put(&found->base.base);
	return ret;
}
