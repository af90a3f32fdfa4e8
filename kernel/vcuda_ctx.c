// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: contexts and their sticky fault state.
 */

#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_print.h>

#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_ring.h"
#include "vcuda_vm.h"

/**
 * DOC: Contexts
 *
 * A context is what a CUDA context is: an address space (vcuda_vm.c),
 * queues (vcuda_queue.c), the hand-off of its launches to its process's
 * worker threads (vcuda_compute.c), and a fault state.
 *
 * Contexts belong to the DRM file that created them; their IDs mean
 * nothing to other files. The file's table holds one reference; queues
 * and lookups hold others.
 *
 * Faults: the first fault of a context (a launch reported faulty by a
 * worker, a copy touching an unmapped or read-only address, a time-out)
 * is recorded and never cleared. It is logged once, like NVIDIA's Xid
 * lines: device, process, kind and address. The log is rate-limited per
 * device (10 lines per 5 seconds, then a count of those suppressed; the
 * ``faults`` attribute counts every one), and the process name is the
 * creator's with control characters replaced by '?', so that no process
 * can flood the kernel log or forge lines in it. From then on the context
 * runs nothing: the jobs on its queues' rings fail at once with -EIO (the
 * faulting job with -EIO, or -ETIMEDOUT for a time-out), jobs reaching a
 * ring later fail with -EIO, posted launches are withdrawn (their
 * COMPUTE_DONE gets -ENOENT), workers in COMPUTE_WAIT return -EIO, and
 * SUBMIT and QUEUE_CREATE fail with -EIO. VM_BIND still works, so that
 * memory can be unmapped and freed.
 *
 * A device reset (DRM_VCUDA_DEVICE_RESET with CAP_SYS_ADMIN, or writing
 * 1 to the device's ``reset`` attribute in sysfs) faults every live
 * context of the device with DRM_VCUDA_FAULT_RESET; the device keeps a
 * list of them. Each first fault counts as one Xid event in the device's
 * ``faults`` attribute.
 *
 * Compute mode: creation checks the device's mode under the device's
 * context lock, with the context list it adds to: in
 * DRM_VCUDA_COMPUTE_MODE_PROHIBITED it fails with -EPERM; in
 * DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS with -EBUSY if a live context
 * of the device belongs to another process (thread group). Contexts
 * that exist when the mode changes are not affected.
 *
 * Destruction (CTX_DESTROY or closing the file) wakes the workers with
 * -ENOENT, kills the queues (their unfinished jobs fail with -ECANCELED)
 * and closes the address space, which drops the buffer objects'
 * references at once; the structure itself goes when its last reference
 * does.
 */

static const char *const vcuda_fault_names[] = {
	[DRM_VCUDA_FAULT_NONE] = "no fault",
	[DRM_VCUDA_FAULT_UNMAPPED] = "MMU fault, unmapped address",
	[DRM_VCUDA_FAULT_READ_ONLY] = "MMU fault, write to read-only page",
	[DRM_VCUDA_FAULT_MISALIGNED] = "misaligned address",
	[DRM_VCUDA_FAULT_TRAP] = "trap",
	[DRM_VCUDA_FAULT_ASSERT] = "device-side assert",
	[DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION] = "illegal instruction",
	[DRM_VCUDA_FAULT_TIMEOUT] = "job time-out",
	[DRM_VCUDA_FAULT_RESET] = "device reset",
	[DRM_VCUDA_FAULT_LAUNCH] = "invalid launch",
	[DRM_VCUDA_FAULT_RESOURCES] = "out of resources",
};

/* NVIDIA's Xid numbers for the same events. */
static const u8 vcuda_fault_xids[] = {
	[DRM_VCUDA_FAULT_NONE] = 0,
	[DRM_VCUDA_FAULT_UNMAPPED] = 31,
	[DRM_VCUDA_FAULT_READ_ONLY] = 31,
	[DRM_VCUDA_FAULT_MISALIGNED] = 13,
	[DRM_VCUDA_FAULT_TRAP] = 13,
	[DRM_VCUDA_FAULT_ASSERT] = 13,
	[DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION] = 13,
	[DRM_VCUDA_FAULT_TIMEOUT] = 8,
	[DRM_VCUDA_FAULT_RESET] = 43,
	[DRM_VCUDA_FAULT_LAUNCH] = 13,
	[DRM_VCUDA_FAULT_RESOURCES] = 13,
};

/* Every kind COMPUTE_DONE accepts has a name and an Xid. */
static_assert(ARRAY_SIZE(vcuda_fault_names) == DRM_VCUDA_FAULT_RESOURCES + 1);
static_assert(ARRAY_SIZE(vcuda_fault_xids) == DRM_VCUDA_FAULT_RESOURCES + 1);

/**
 * vcuda_fault_name() - What a fault kind means, in words.
 * @kind: &enum drm_vcuda_fault_kind.
 *
 * Return: A constant string.
 */
const char *vcuda_fault_name(u32 kind)
{
	return kind < ARRAY_SIZE(vcuda_fault_names) ? vcuda_fault_names[kind] :
	       "unknown";
}

static void vcuda_ctx_release(struct kref *kref)
{
	struct vcuda_ctx *ctx = container_of(kref, struct vcuda_ctx, refcount);

	atomic_dec(&ctx->vdev->live.ctxs);
	vcuda_vm_put(ctx->vm);
	mutex_destroy(&ctx->queues_lock);
	kfree(ctx);
}

/**
 * vcuda_ctx_put() - Drop a reference to a context.
 * @ctx: Context.
 */
void vcuda_ctx_put(struct vcuda_ctx *ctx)
{
	kref_put(&ctx->refcount, vcuda_ctx_release);
}

/**
 * vcuda_ctx_lookup() - Find a context of a file by ID.
 * @vfile: File.
 * @id: Context ID.
 *
 * Return: The context with a new reference, or NULL.
 */
struct vcuda_ctx *vcuda_ctx_lookup(struct vcuda_file *vfile, u32 id)
{
	struct vcuda_ctx *ctx;

	xa_lock(&vfile->ctxs);
	ctx = xa_load(&vfile->ctxs, id);
	if (ctx)
		vcuda_ctx_get(ctx);
	xa_unlock(&vfile->ctxs);
	return ctx;
}

/**
 * vcuda_ctx_faulted() - Whether a context has faulted.
 * @ctx: Context.
 *
 * Return: True once the context has faulted.
 */
bool vcuda_ctx_faulted(struct vcuda_ctx *ctx)
{
	return READ_ONCE(ctx->fault_kind) != DRM_VCUDA_FAULT_NONE;
}

/**
 * vcuda_ctx_fault() - Fault a context.
 * @ctx: Context.
 * @kind: &enum drm_vcuda_fault_kind, not NONE.
 * @addr: Faulting address, or zero.
 * @queue_id: Queue of the faulting job, or zero.
 *
 * Records the fault if it is the context's first, then fails the work of
 * every queue of the context. A job that caused the fault has its
 * &vcuda_job.error set by the caller beforehand.
 *
 * Context: Process context; takes &vcuda_ctx.queues_lock.
 */
void vcuda_ctx_fault(struct vcuda_ctx *ctx, u32 kind, u64 addr, u32 queue_id)
{
	struct vcuda_device *vdev = ctx->vdev;
	struct vcuda_queue *q;
	bool first;

	spin_lock(&ctx->fault_lock);
	first = ctx->fault_kind == DRM_VCUDA_FAULT_NONE;
	if (first) {
		ctx->fault_addr = addr;
		ctx->fault_queue_id = queue_id;
		WRITE_ONCE(ctx->fault_kind, kind);
	}
	spin_unlock(&ctx->fault_lock);

	if (first)
		atomic64_inc(&vdev->faults);
	/* Every fault counts; the log gets a bounded share of them. */
	if (first && __ratelimit(&vdev->xid_ratelimit))
		dev_err(vdev->drm.dev,
			"Xid (vcuda %u): %u, pid=%d, name=%s, ctx %u, queue %u: %s at 0x%llx\n",
			vdev->index, vcuda_fault_xids[kind], ctx->pid,
			ctx->comm, ctx->id, queue_id, vcuda_fault_names[kind],
			addr);

	vcuda_compute_stop(&ctx->compute, -EIO);

	mutex_lock(&ctx->queues_lock);
	list_for_each_entry(q, &ctx->queues, ctx_link)
		vcuda_queue_cancel(q, -EIO);
	mutex_unlock(&ctx->queues_lock);
}

/*
 * The process name, as fault reports and debugfs print it: a process
 * names itself (prctl(PR_SET_NAME)), so control characters, a newline
 * that would forge a log line among them, become '?'.
 */
static void vcuda_ctx_set_comm(struct vcuda_ctx *ctx, struct task_struct *task)
{
	char *c;

	get_task_comm(ctx->comm, task);
	for (c = ctx->comm; *c; c++)
		if (!isprint(*c))
			*c = '?';
}

/*
 * Destroys a context already removed from its file's table, with the
 * file's lock held; consumes the table's reference.
 */
static void vcuda_ctx_kill(struct vcuda_file *vfile, struct vcuda_ctx *ctx)
{
	struct vcuda_queue *q, *tmp;
	LIST_HEAD(queues);

	lockdep_assert_held(&vfile->lock);

	mutex_lock(&ctx->vdev->ctx_lock);
	list_del_init(&ctx->dev_link);
	mutex_unlock(&ctx->vdev->ctx_lock);

	vcuda_compute_stop(&ctx->compute, -ENOENT);

	mutex_lock(&ctx->queues_lock);
	list_splice_init(&ctx->queues, &queues);
	mutex_unlock(&ctx->queues_lock);

	list_for_each_entry_safe(q, tmp, &queues, ctx_link) {
		list_del_init(&q->ctx_link);
		xa_erase(&vfile->queues, q->id);
		vfile->nr_queues--;
		vcuda_queue_kill(q);
		/* The file's table's reference. */
		vcuda_queue_put(q);
	}

	vcuda_vm_close(ctx->vm);
	vfile->nr_ctxs--;
	vcuda_ctx_put(ctx);
}

/**
 * vcuda_ctx_file_close() - Destroy every context of a file.
 * @vfile: File being closed.
 */
void vcuda_ctx_file_close(struct vcuda_file *vfile)
{
	struct vcuda_ctx *ctx;
	unsigned long id;

	mutex_lock(&vfile->lock);
	xa_for_each(&vfile->ctxs, id, ctx) {
		xa_erase(&vfile->ctxs, id);
		vcuda_ctx_kill(vfile, ctx);
	}
	mutex_unlock(&vfile->lock);
}

/**
 * vcuda_ctx_file_abandon() - A process that shares a file exits.
 * @vfile: File.
 * @taker: Thread group ID of the exiting process.
 *
 * Reports, as faults, the launches of the file's contexts that the
 * process took and did not report (vcuda_compute_abandon()).
 */
void vcuda_ctx_file_abandon(struct vcuda_file *vfile, pid_t taker)
{
	struct vcuda_ctx *ctx;
	unsigned long id = 0;

	for (;; id++) {
		xa_lock(&vfile->ctxs);
		ctx = xa_find(&vfile->ctxs, &id, ULONG_MAX, XA_PRESENT);
		if (ctx)
			vcuda_ctx_get(ctx);
		xa_unlock(&vfile->ctxs);
		if (!ctx)
			return;
		vcuda_compute_abandon(&ctx->compute, taker);
		vcuda_ctx_put(ctx);
	}
}

/* Whether the compute mode lets @ctx be created; device's ctx_lock held. */
static int vcuda_ctx_admit(struct vcuda_device *vdev, struct vcuda_ctx *ctx)
{
	struct vcuda_ctx *other;

	lockdep_assert_held(&vdev->ctx_lock);

	switch (vdev->compute_mode) {
	case DRM_VCUDA_COMPUTE_MODE_PROHIBITED:
		return -EPERM;
	case DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS:
		list_for_each_entry(other, &vdev->ctx_list, dev_link)
			if (other->pid != ctx->pid)
				return -EBUSY;
		return 0;
	default:
		return 0;
	}
}

/* A new context, not visible yet, with its own address space. */
static struct vcuda_ctx *vcuda_ctx_alloc(struct vcuda_file *vfile,
					 struct drm_file *file)
{
	struct vcuda_ctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), VCUDA_GFP_CLIENT);
	if (!ctx)
		return ERR_PTR(-ENOMEM);

	kref_init(&ctx->refcount);
	ctx->vdev = vfile->vdev;
	ctx->pid = task_tgid_nr(current);
	ctx->client_id = file->client_id;
	vcuda_ctx_set_comm(ctx, current->group_leader);
	spin_lock_init(&ctx->fault_lock);
	mutex_init(&ctx->queues_lock);
	INIT_LIST_HEAD(&ctx->queues);
	INIT_LIST_HEAD(&ctx->dev_link);
	vcuda_compute_init(&ctx->compute);

	ctx->vm = vcuda_vm_create(vfile->vdev);
	if (IS_ERR(ctx->vm)) {
		ret = PTR_ERR(ctx->vm);
		goto err_free_ctx;
	}
	atomic_inc(&vfile->vdev->live.ctxs);
	return ctx;

err_free_ctx:
	mutex_destroy(&ctx->queues_lock);
	kfree(ctx);
	return ERR_PTR(ret);
}

/*
 * Gives a new context its ID in the file and adds it to the device's
 * list, if the file's limit and the device's compute mode allow it. The
 * ID is returned through @id: once the locks are dropped the context may
 * already be destroyed by a CTX_DESTROY that guessed it.
 */
static int vcuda_ctx_publish(struct vcuda_file *vfile, struct vcuda_ctx *ctx,
			     u32 *id)
{
	struct vcuda_device *vdev = vfile->vdev;
	int ret;

	mutex_lock(&vfile->lock);
	mutex_lock(&vdev->ctx_lock);
	if (vfile->nr_ctxs >= vcuda_max_contexts) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	ret = vcuda_ctx_admit(vdev, ctx);
	if (ret)
		goto out_unlock;

	/* Reserve the ID first: the context must know it before it shows. */
	ret = xa_alloc_cyclic(&vfile->ctxs, id, NULL, XA_LIMIT(1, U32_MAX),
			      &vfile->next_ctx_id, VCUDA_GFP_CLIENT);
	if (ret < 0)
		goto out_unlock;
	ctx->id = *id;
	ret = xa_err(xa_store(&vfile->ctxs, *id, ctx, VCUDA_GFP_CLIENT));
	if (ret) {
		xa_erase(&vfile->ctxs, *id);
		goto out_unlock;
	}

	list_add_tail(&ctx->dev_link, &vdev->ctx_list);
	vfile->nr_ctxs++;

out_unlock:
	mutex_unlock(&vdev->ctx_lock);
	mutex_unlock(&vfile->lock);
	return ret;
}

/**
 * vcuda_ioctl_ctx_create() - DRM_IOCTL_VCUDA_CTX_CREATE.
 * @drm: Device.
 * @data: &struct drm_vcuda_ctx_create.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero flags, -ENOMEM, -EPERM when the
 * device's compute mode is prohibited, -EBUSY when another process holds
 * the device in exclusive-process mode, -ENOSPC when the file has
 * ``max_contexts`` contexts.
 */
int vcuda_ioctl_ctx_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct vcuda_file *vfile = to_vcuda_file(file);
	struct drm_vcuda_ctx_create *args = data;
	struct vcuda_ctx *ctx;
	u32 id;
	int ret;

	if (args->flags)
		return -EINVAL;

	ctx = vcuda_ctx_alloc(vfile, file);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);

	ret = vcuda_ctx_publish(vfile, ctx, &id);
	if (ret)
		goto err_put_ctx;

	args->ctx_id = id;
	return 0;

err_put_ctx:
	vcuda_vm_close(ctx->vm);
	vcuda_ctx_put(ctx);
	return ret;
}

/**
 * vcuda_ioctl_ctx_destroy() - DRM_IOCTL_VCUDA_CTX_DESTROY.
 * @drm: Device.
 * @data: &struct drm_vcuda_ctx_destroy.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero padding, -ENOENT for an unknown ID.
 */
int vcuda_ioctl_ctx_destroy(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct vcuda_file *vfile = to_vcuda_file(file);
	struct drm_vcuda_ctx_destroy *args = data;
	struct vcuda_ctx *ctx;

	if (args->pad)
		return -EINVAL;

	mutex_lock(&vfile->lock);
	ctx = xa_erase(&vfile->ctxs, args->ctx_id);
	if (ctx)
		vcuda_ctx_kill(vfile, ctx);
	mutex_unlock(&vfile->lock);

	return ctx ? 0 : -ENOENT;
}

/**
 * vcuda_ioctl_ctx_get_state() - DRM_IOCTL_VCUDA_CTX_GET_STATE.
 * @drm: Device.
 * @data: &struct drm_vcuda_ctx_get_state.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero padding, -ENOENT for an unknown ID.
 */
int vcuda_ioctl_ctx_get_state(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vcuda_ctx_get_state *args = data;
	struct vcuda_ctx *ctx;

	if (args->pad)
		return -EINVAL;

	ctx = vcuda_ctx_lookup(to_vcuda_file(file), args->ctx_id);
	if (!ctx)
		return -ENOENT;

	spin_lock(&ctx->fault_lock);
	args->fault_kind = ctx->fault_kind;
	args->fault_addr = ctx->fault_addr;
	args->fault_queue_id = ctx->fault_queue_id;
	spin_unlock(&ctx->fault_lock);

	vcuda_ctx_put(ctx);
	return 0;
}

/**
 * vcuda_ioctl_device_reset() - DRM_IOCTL_VCUDA_DEVICE_RESET.
 * @drm: Device.
 * @data: &struct drm_vcuda_device_reset.
 * @file: DRM file.
 *
 * Faults every live context of the device, of every file, with
 * DRM_VCUDA_FAULT_RESET: their work fails and they must be destroyed.
 * New contexts work normally.
 *
 * Return: 0, -EPERM without CAP_SYS_ADMIN, -EINVAL for non-zero flags or
 * padding.
 */
int vcuda_ioctl_device_reset(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vcuda_device_reset *args = data;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (args->flags || args->pad)
		return -EINVAL;

	vcuda_device_reset(to_vcuda_device(drm));
	return 0;
}

/**
 * vcuda_device_reset() - Reset a device.
 * @vdev: Device.
 *
 * Faults every live context of the device, of every file, with
 * DRM_VCUDA_FAULT_RESET: their work fails and they must be destroyed.
 * New contexts work normally.
 */
void vcuda_device_reset(struct vcuda_device *vdev)
{
	dev_info(vdev->drm.dev, "vcuda %u: reset by pid %d\n", vdev->index,
		 task_tgid_nr(current));
	vcuda_device_fault_all(vdev);
}

/**
 * vcuda_device_fault_all() - Fault every live context of a device.
 * @vdev: Device.
 *
 * With DRM_VCUDA_FAULT_RESET, as a reset does; the device's removal does
 * it too (vcuda_remove()).
 *
 * Context: Process context; takes &vcuda_device.ctx_lock.
 */
void vcuda_device_fault_all(struct vcuda_device *vdev)
{
	struct vcuda_ctx *ctx;

	mutex_lock(&vdev->ctx_lock);
	list_for_each_entry(ctx, &vdev->ctx_list, dev_link)
		vcuda_ctx_fault(ctx, DRM_VCUDA_FAULT_RESET, 0, 0);
	mutex_unlock(&vdev->ctx_lock);
}
