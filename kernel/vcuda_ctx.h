/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: contexts.
 */
#ifndef _VCUDA_CTX_H_
#define _VCUDA_CTX_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "vcuda_compute.h"

struct drm_device;
struct drm_file;
struct vcuda_device;
struct vcuda_file;
struct vcuda_vm;

/**
 * struct vcuda_ctx - A context: an address space, queues, a fault state.
 */
struct vcuda_ctx {
	/** @refcount: Held by the file's table, queues and lookups. */
	struct kref refcount;

	/** @vdev: Device. */
	struct vcuda_device *vdev;

	/** @id: ID in the file. */
	u32 id;

	/** @pid: Thread group ID of the creator: its process. */
	pid_t pid;

	/** @client_id: &drm_file.client_id of the file, for debugfs. */
	u64 client_id;

	/** @comm: Name of the creator's process, for fault reports. */
	char comm[TASK_COMM_LEN];

	/** @dev_link: Entry in &vcuda_device.ctx_list while alive. */
	struct list_head dev_link;

	/** @vm: The address space. */
	struct vcuda_vm *vm;

	/** @fault_lock: Protects the fault state. */
	spinlock_t fault_lock;

	/** @fault_kind: First fault, &enum drm_vcuda_fault_kind; sticky. */
	u32 fault_kind;

	/** @fault_queue_id: Queue of the first fault. */
	u32 fault_queue_id;

	/** @fault_addr: Address of the first fault. */
	u64 fault_addr;

	/** @queues_lock: Protects @queues. */
	struct mutex queues_lock;

	/** @queues: The context's queues, by &vcuda_queue.ctx_link. */
	struct list_head queues;

	/** @compute: Hand-off of launches to the context's workers. */
	struct vcuda_compute compute;
};

static inline struct vcuda_ctx *vcuda_ctx_get(struct vcuda_ctx *ctx)
{
	kref_get(&ctx->refcount);
	return ctx;
}

void vcuda_ctx_put(struct vcuda_ctx *ctx);
struct vcuda_ctx *vcuda_ctx_lookup(struct vcuda_file *vfile, u32 id);
bool vcuda_ctx_faulted(struct vcuda_ctx *ctx);
void vcuda_ctx_fault(struct vcuda_ctx *ctx, u32 kind, u64 addr, u32 queue_id);
void vcuda_ctx_file_close(struct vcuda_file *vfile);
void vcuda_ctx_file_abandon(struct vcuda_file *vfile, pid_t taker);
void vcuda_device_reset(struct vcuda_device *vdev);
void vcuda_device_fault_all(struct vcuda_device *vdev);
const char *vcuda_fault_name(u32 kind);

int vcuda_ioctl_ctx_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int vcuda_ioctl_ctx_destroy(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vcuda_ioctl_ctx_get_state(struct drm_device *drm, void *data,
			      struct drm_file *file);
int vcuda_ioctl_device_reset(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* _VCUDA_CTX_H_ */
