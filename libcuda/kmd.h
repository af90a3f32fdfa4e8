/* SPDX-License-Identifier: MIT */
/*
 * kmd: the kernel-mode driver interface. Every ioctl libcuda issues goes
 * through a function here, so this file is where a CUDA call turns into
 * an ioctl on the vcuda render node. Functions return 0 or a negative
 * errno, never a CUresult: callers map errors to what CUDA would return.
 */
#ifndef VCUDA_KMD_H
#define VCUDA_KMD_H

#include <stddef.h>
#include <stdint.h>

#include "vcuda_drm.h"

/* Opens every vcuda render node; returns the number found (fds[] filled). */
int kmd_open_all(int *fds, int max);

int kmd_device_info(int fd, struct drm_vcuda_device_info *info);
int kmd_memory_info(int fd, struct drm_vcuda_memory_info *info);
/* Faults every context of the device (CAP_SYS_ADMIN). */
int kmd_device_reset(int fd);

int kmd_ctx_create(int fd, uint32_t *ctx_id);
int kmd_ctx_destroy(int fd, uint32_t ctx_id);
int kmd_ctx_get_state(int fd, uint32_t ctx_id,
		      struct drm_vcuda_ctx_get_state *state);

int kmd_bo_create(int fd, uint64_t size, uint32_t placement, uint32_t flags,
		  uint32_t *handle);
/* A buffer object of the caller's pages [addr, addr + size), pinned. */
int kmd_bo_userptr(int fd, uint64_t addr, uint64_t size, uint32_t *handle);
int kmd_bo_close(int fd, uint32_t handle);
int kmd_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
/* @flags: 0 or DRM_VCUDA_VM_BIND_READONLY. */
int kmd_vm_map(int fd, uint32_t ctx_id, uint32_t handle, uint64_t va,
	       uint64_t size, uint32_t flags);
int kmd_vm_unmap(int fd, uint32_t ctx_id, uint64_t va, uint64_t size);
/* Reserves [va, va + size) without mapping it (MAP_SPARSE); kmd_vm_unmap
 * of exactly that range releases it once nothing is mapped inside. */
int kmd_vm_reserve(int fd, uint32_t ctx_id, uint64_t va, uint64_t size);

/* A dma-buf file descriptor of @handle (PRIME), close-on-exec. */
int kmd_prime_export(int fd, uint32_t handle, int *dmabuf);
/*
 * A handle on @fd for @dmabuf: the object itself if it is of this
 * device (then the handle the file already has, if any: see gem_ref.h),
 * else a peer object.
 */
int kmd_prime_import(int fd, int dmabuf, uint32_t *handle);
/* An IPC token for @handle, and a new handle on @fd from one. */
int kmd_ipc_export(int fd, uint32_t handle, struct drm_vcuda_ipc_handle *token);
int kmd_ipc_import(int fd, const struct drm_vcuda_ipc_handle *token,
		   uint32_t *handle, uint64_t *size);

int kmd_queue_create(int fd, uint32_t ctx_id, uint32_t engine,
		     uint32_t priority, uint32_t *queue_id);
int kmd_queue_destroy(int fd, uint32_t queue_id);

/* At most this many sync operations per job (DRM_VCUDA_SUBMIT's limit). */
#define KMD_MAX_SYNCS 64

/*
 * Submits one job of @count commands to @queue_id with @nsyncs sync
 * operations (waits and signals, see &struct drm_vcuda_sync_op).
 */
int kmd_submit(int fd, uint32_t queue_id, const struct drm_vcuda_cmd *cmds,
	       uint32_t count, const struct drm_vcuda_sync_op *syncs,
	       uint32_t nsyncs);

int kmd_compute_wait(int fd, uint32_t ctx_id, uint64_t timeout_ns,
		     struct drm_vcuda_compute_wait *out);
int kmd_compute_done(int fd, uint32_t ctx_id, uint64_t launch_id,
		     uint32_t fault_kind, uint64_t fault_addr);

int kmd_syncobj_create(int fd, uint32_t *handle);
int kmd_syncobj_destroy(int fd, uint32_t handle);
/* Puts the fence at (@src, @src_point) at (@dst, @dst_point). */
int kmd_syncobj_transfer(int fd, uint32_t dst, uint64_t dst_point,
			 uint32_t src, uint64_t src_point);
/* Waits until @handle's timeline reaches @point. */
/* A handle on @to_fd for syncobj @handle of @from_fd (another device's). */
int kmd_syncobj_share(int from_fd, uint32_t handle, int to_fd, uint32_t *out);
int kmd_syncobj_wait(int fd, uint32_t handle, uint64_t point);
/* Reads the timeline's signalled value. */
int kmd_syncobj_query(int fd, uint32_t handle, uint64_t *value);

#endif
