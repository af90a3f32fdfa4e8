// SPDX-License-Identifier: MIT
/*
 * The ioctl layer. Each function fills one uAPI structure, issues one
 * ioctl and returns 0 or -errno. Nothing here keeps state.
 */
#include "kmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

static int kmd_ioctl(int fd, unsigned long request, void *arg)
{
	/* drmIoctl restarts on EINTR and EAGAIN. */
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

static int is_vcuda(int fd)
{
	drmVersionPtr version = drmGetVersion(fd);
	int match;

	if (!version)
		return 0;
	match = strcmp(version->name, DRM_VCUDA_DRIVER_NAME) == 0;
	drmFreeVersion(version);
	return match;
}

int kmd_open_all(int *fds, int max)
{
	int found = 0;

	/* Render nodes are renderD128 .. renderD191 (DRM_MAX_MINOR). */
	for (int minor = 128; minor < 192 && found < max; minor++) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_vcuda(fd))
			fds[found++] = fd;
		else
			close(fd);
	}
	return found;
}

static int dev_query(int fd, uint32_t type, void *buf, uint32_t size)
{
	struct drm_vcuda_dev_query query = {
		.type = type,
		.size = size,
		.pointer = (uintptr_t)buf,
	};

	memset(buf, 0, size);
	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_DEV_QUERY, &query);
}

int kmd_device_info(int fd, struct drm_vcuda_device_info *info)
{
	return dev_query(fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO, info,
			 sizeof(*info));
}

int kmd_memory_info(int fd, struct drm_vcuda_memory_info *info)
{
	return dev_query(fd, DRM_VCUDA_DEV_QUERY_MEMORY_INFO, info,
			 sizeof(*info));
}

int kmd_device_reset(int fd)
{
	struct drm_vcuda_device_reset args = { 0 };

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &args);
}

int kmd_ctx_create(int fd, uint32_t *ctx_id)
{
	struct drm_vcuda_ctx_create args = { 0 };
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_CTX_CREATE, &args);

	if (!err)
		*ctx_id = args.ctx_id;
	return err;
}

int kmd_ctx_destroy(int fd, uint32_t ctx_id)
{
	struct drm_vcuda_ctx_destroy args = { .ctx_id = ctx_id };

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_CTX_DESTROY, &args);
}

int kmd_ctx_get_state(int fd, uint32_t ctx_id,
		      struct drm_vcuda_ctx_get_state *state)
{
	memset(state, 0, sizeof(*state));
	state->ctx_id = ctx_id;
	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_CTX_GET_STATE, state);
}

int kmd_bo_create(int fd, uint64_t size, uint32_t placement, uint32_t flags,
		  uint32_t *handle)
{
	struct drm_vcuda_bo_create args = {
		.size = size,
		.placement = placement,
		.flags = flags,
	};
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_BO_CREATE, &args);

	if (!err)
		*handle = args.handle;
	return err;
}

int kmd_bo_userptr(int fd, uint64_t addr, uint64_t size, uint32_t *handle)
{
	struct drm_vcuda_bo_userptr args = { .addr = addr, .size = size };
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_BO_USERPTR, &args);

	if (!err)
		*handle = args.handle;
	return err;
}

int kmd_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	return kmd_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

int kmd_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_vcuda_bo_mmap_offset args = { .handle = handle };
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_BO_MMAP_OFFSET, &args);

	if (!err)
		*offset = args.offset;
	return err;
}

static int vm_bind_one(int fd, uint32_t ctx_id,
		       const struct drm_vcuda_vm_bind_op *op)
{
	struct drm_vcuda_vm_bind args = {
		.ctx_id = ctx_id,
		.ops = DRM_VCUDA_OBJ_ARRAY(1, op),
	};

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_VM_BIND, &args);
}

int kmd_vm_map(int fd, uint32_t ctx_id, uint32_t handle, uint64_t va,
	       uint64_t size, uint32_t flags)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP | flags,
		.bo_handle = handle,
		.va = va,
		.size = size,
	};

	return vm_bind_one(fd, ctx_id, &op);
}

int kmd_vm_unmap(int fd, uint32_t ctx_id, uint64_t va, uint64_t size)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_UNMAP,
		.va = va,
		.size = size,
	};

	return vm_bind_one(fd, ctx_id, &op);
}

int kmd_vm_reserve(int fd, uint32_t ctx_id, uint64_t va, uint64_t size)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE,
		.va = va,
		.size = size,
	};

	return vm_bind_one(fd, ctx_id, &op);
}

int kmd_prime_export(int fd, uint32_t handle, int *dmabuf)
{
	return drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR, dmabuf)
	       ? -errno : 0;
}

int kmd_prime_import(int fd, int dmabuf, uint32_t *handle)
{
	return drmPrimeFDToHandle(fd, dmabuf, handle) ? -errno : 0;
}

int kmd_ipc_export(int fd, uint32_t handle, struct drm_vcuda_ipc_handle *token)
{
	struct drm_vcuda_ipc_export args = { .handle = handle };
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_IPC_EXPORT, &args);

	if (!err)
		*token = args.token;
	return err;
}

int kmd_ipc_import(int fd, const struct drm_vcuda_ipc_handle *token,
		   uint32_t *handle, uint64_t *size)
{
	struct drm_vcuda_ipc_import args = { .token = *token };
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_IPC_IMPORT, &args);

	if (!err) {
		*handle = args.handle;
		*size = args.size;
	}
	return err;
}

int kmd_queue_create(int fd, uint32_t ctx_id, uint32_t engine,
		     uint32_t priority, uint32_t *queue_id)
{
	struct drm_vcuda_queue_create args = {
		.ctx_id = ctx_id,
		.engine = engine,
		.priority = priority,
	};
	int err = kmd_ioctl(fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &args);

	if (!err)
		*queue_id = args.queue_id;
	return err;
}

int kmd_queue_destroy(int fd, uint32_t queue_id)
{
	struct drm_vcuda_queue_destroy args = { .queue_id = queue_id };

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_QUEUE_DESTROY, &args);
}

int kmd_submit(int fd, uint32_t queue_id, const struct drm_vcuda_cmd *cmds,
	       uint32_t count, const struct drm_vcuda_sync_op *syncs,
	       uint32_t nsyncs)
{
	struct drm_vcuda_job job = {
		.cmds = DRM_VCUDA_OBJ_ARRAY(count, cmds),
		.syncs = DRM_VCUDA_OBJ_ARRAY(nsyncs, syncs),
	};
	struct drm_vcuda_submit args = {
		.queue_id = queue_id,
		.jobs = DRM_VCUDA_OBJ_ARRAY(1, &job),
	};

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_SUBMIT, &args);
}

int kmd_compute_wait(int fd, uint32_t ctx_id, uint64_t timeout_ns,
		     struct drm_vcuda_compute_wait *out)
{
	memset(out, 0, sizeof(*out));
	out->ctx_id = ctx_id;
	out->timeout_ns = timeout_ns;
	/* Not drmIoctl: a signal must be able to interrupt the wait. */
	return ioctl(fd, DRM_IOCTL_VCUDA_COMPUTE_WAIT, out) ? -errno : 0;
}

int kmd_compute_done(int fd, uint32_t ctx_id, uint64_t launch_id,
		     uint32_t fault_kind, uint64_t fault_addr)
{
	struct drm_vcuda_compute_done args = {
		.ctx_id = ctx_id,
		.fault_kind = fault_kind,
		.launch_id = launch_id,
		.fault_addr = fault_addr,
	};

	return kmd_ioctl(fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &args);
}

int kmd_syncobj_create(int fd, uint32_t *handle)
{
	return drmSyncobjCreate(fd, 0, handle) ? -errno : 0;
}

int kmd_syncobj_destroy(int fd, uint32_t handle)
{
	return drmSyncobjDestroy(fd, handle) ? -errno : 0;
}

int kmd_syncobj_transfer(int fd, uint32_t dst, uint64_t dst_point,
			 uint32_t src, uint64_t src_point)
{
	return drmSyncobjTransfer(fd, dst, dst_point, src, src_point, 0) ?
	       -errno : 0;
}

int kmd_syncobj_share(int from_fd, uint32_t handle, int to_fd, uint32_t *out)
{
	int obj_fd, err;

	if (drmSyncobjHandleToFD(from_fd, handle, &obj_fd))
		return -errno;
	err = drmSyncobjFDToHandle(to_fd, obj_fd, out) ? -errno : 0;
	close(obj_fd);
	return err;
}

int kmd_syncobj_wait(int fd, uint32_t handle, uint64_t point)
{
	/* WAIT_FOR_SUBMIT: the point may be added by a submit in flight. */
	int err = drmSyncobjTimelineWait(fd, &handle, &point, 1, INT64_MAX,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
					 NULL);

	return err ? -errno : 0;
}

int kmd_syncobj_query(int fd, uint32_t handle, uint64_t *value)
{
	return drmSyncobjQuery(fd, &handle, value, 1) ? -errno : 0;
}
