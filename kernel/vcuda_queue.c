// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: queues, each with its own scheduler.
 */

#include <linux/dma-fence.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/gpu_scheduler.h>

#include "vcuda_compat.h"
#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_ring.h"
#include "vcuda_usage.h"

/**
 * DOC: Queues
 *
 * A queue is a stream of jobs on one engine of a context: the compute
 * engine (launches, run by the process's workers) or a copy engine
 * (copies and fills, run by the kernel). Each queue has its own
 * &drm_gpu_scheduler with a single &drm_sched_entity, the 1:1 model of
 * panthor and xe: the scheduler only resolves the jobs' dependencies,
 * keeps them in submission order and times them out; the queue's ring
 * (vcuda_ring.c) executes them. The schedulers' work items run on the
 * module's vcuda_sched_wq; the job time-out is ``job_timeout_ms``, and
 * for compute queues, when that is 0, ``compute_timeout_ms`` (10 minutes
 * by default): a launch ends only when its process reports it, and
 * without a bound one that never does would keep its fence, and whoever
 * waits for it in other processes, waiting forever.
 *
 * Who executes a ring (vcuda_queue_kick()): a copy queue's ring is run by
 * the device's copy engines (vcuda_engine.c); a compute queue's ring by
 * its own work item on vcuda_wq, which hands launches to the context's
 * workers (vcuda_compute.c).
 *
 * The queue's priority orders the launches of its context's queues for
 * the workers (vcuda_compute.c), the copy queues of the device for the
 * copy engines (vcuda_engine.c), and is the entity's priority.
 *
 * Killing a queue (QUEUE_DESTROY, or its context's destruction) is
 * immediate for userspace: the ID is gone, submitters are shut out, the
 * jobs on the ring fail with -ECANCELED, and so does every job that
 * reaches the ring later. Jobs still waiting for their dependencies stay
 * in the entity until those signal (the scheduler never drops a job with
 * unsignalled dependencies); vcuda_queue_fini_work() waits for that on
 * vcuda_fini_wq, then for every job to be freed, and only then finalizes the
 * scheduler, whose pending jobs would otherwise leak.
 */

static void vcuda_queue_release(struct kref *kref)
{
	struct vcuda_queue *q = container_of(kref, struct vcuda_queue,
					     refcount);
	struct drm_device *drm = &q->vdev->drm;

	atomic_dec(&q->vdev->live.queues);
	vcuda_usage_put(q->usage);
	vcuda_ctx_put(q->ctx);
	mutex_destroy(&q->exec_lock);
	mutex_destroy(&q->submit_lock);
	kfree(q);
	drm_dev_put(drm);
}

/**
 * vcuda_queue_put() - Drop a reference to a queue.
 * @q: Queue.
 */
void vcuda_queue_put(struct vcuda_queue *q)
{
	kref_put(&q->refcount, vcuda_queue_release);
}

/**
 * vcuda_queue_lookup() - Find a queue of a file by ID.
 * @vfile: File.
 * @id: Queue ID.
 *
 * Return: The queue with a new reference, or NULL.
 */
struct vcuda_queue *vcuda_queue_lookup(struct vcuda_file *vfile, u32 id)
{
	struct vcuda_queue *q;

	xa_lock(&vfile->queues);
	q = xa_load(&vfile->queues, id);
	if (q)
		vcuda_queue_get(q);
	xa_unlock(&vfile->queues);
	return q;
}

static void vcuda_queue_fini_work(struct work_struct *work)
{
	struct vcuda_queue *q = container_of(work, struct vcuda_queue,
					     fini_work);

	/* Waits for queued jobs to reach run_job(), which cancels them. */
	drm_sched_entity_destroy(&q->entity);
	wait_event(q->idle_wq, !atomic_read(&q->job_count));
	cancel_delayed_work_sync(&q->poll_work);
	cancel_work_sync(&q->exec_work);
	if (q->engine == DRM_VCUDA_ENGINE_COPY)
		vcuda_engine_remove(q);
	drm_sched_fini(&q->sched);
	vcuda_queue_put(q);
}

/**
 * vcuda_queue_kill() - Stop a queue and cancel its jobs.
 * @q: Queue, already removed from its file's table and context.
 *
 * Jobs not finished fail with -ECANCELED; the scheduler is torn down
 * asynchronously once they are all gone.
 */
void vcuda_queue_kill(struct vcuda_queue *q)
{
	mutex_lock(&q->submit_lock);
	spin_lock(&q->lock);
	q->dead = true;
	spin_unlock(&q->lock);
	mutex_unlock(&q->submit_lock);

	vcuda_queue_cancel(q, -ECANCELED);

	vcuda_queue_get(q);
	queue_work(vcuda_fini_wq, &q->fini_work);
}

/**
 * vcuda_queue_kick() - Have a queue's ring executed.
 * @q: Queue, alive.
 *
 * Context: Process context.
 */
void vcuda_queue_kick(struct vcuda_queue *q)
{
	if (q->engine == DRM_VCUDA_ENGINE_COPY)
		vcuda_engine_kick(q);
	else
		queue_work(vcuda_wq, &q->exec_work);
}

/**
 * vcuda_queue_kick_sem_waiters() - Run the queues of a context that wait
 * for a semaphore.
 * @ctx: Context whose memory a semaphore release just wrote.
 *
 * Context: Process context; takes &vcuda_ctx.queues_lock.
 */
void vcuda_queue_kick_sem_waiters(struct vcuda_ctx *ctx)
{
	struct vcuda_queue *q;

	mutex_lock(&ctx->queues_lock);
	list_for_each_entry(q, &ctx->queues, ctx_link) {
		if (READ_ONCE(q->sem_waiting))
			vcuda_queue_kick(q);
	}
	mutex_unlock(&ctx->queues_lock);
}

static const enum drm_sched_priority vcuda_sched_prio[] = {
	[DRM_VCUDA_QUEUE_PRIORITY_LOW] = DRM_SCHED_PRIORITY_LOW,
	[DRM_VCUDA_QUEUE_PRIORITY_NORMAL] = DRM_SCHED_PRIORITY_NORMAL,
	[DRM_VCUDA_QUEUE_PRIORITY_HIGH] = DRM_SCHED_PRIORITY_HIGH,
};

static struct vcuda_queue *vcuda_queue_create(struct vcuda_ctx *ctx,
					      struct vcuda_usage *usage,
					      u32 engine, u32 priority)
{
	struct vcuda_device *vdev = ctx->vdev;
	struct drm_gpu_scheduler *sched_list[1];
	struct vcuda_queue *q;
	int ret;

	q = kzalloc(sizeof(*q), VCUDA_GFP_CLIENT);
	if (!q)
		return ERR_PTR(-ENOMEM);

	kref_init(&q->refcount);
	q->vdev = vdev;
	q->engine = engine;
	q->priority = priority;
	INIT_LIST_HEAD(&q->ctx_link);
	mutex_init(&q->submit_lock);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->ring);
	mutex_init(&q->exec_lock);
	INIT_WORK(&q->exec_work, vcuda_queue_exec_work);
	INIT_DELAYED_WORK(&q->poll_work, vcuda_queue_poll_work);
	q->engine_state = VCUDA_ENGINE_IDLE;
	INIT_LIST_HEAD(&q->engine_link);
	q->fence_context = dma_fence_context_alloc(1);
	atomic_set(&q->job_count, 0);
	init_waitqueue_head(&q->idle_wq);
	INIT_WORK(&q->fini_work, vcuda_queue_fini_work);
	snprintf(q->name, sizeof(q->name), "vcuda-%s%u",
		 engine == DRM_VCUDA_ENGINE_COMPUTE ? "compute" : "copy",
		 vdev->index);

	ret = vcuda_sched_init(&q->sched, &vcuda_sched_ops, vcuda_sched_wq,
			       VCUDA_QUEUE_CREDITS,
			       engine == DRM_VCUDA_ENGINE_COMPUTE ?
			       vdev->compute_timeout : vdev->job_timeout, q->name,
			       vdev->drm.dev);
	if (ret)
		goto err_free;

	sched_list[0] = &q->sched;
	ret = drm_sched_entity_init(&q->entity, vcuda_sched_prio[priority],
				    sched_list, 1, NULL);
	if (ret)
		goto err_sched;

	q->ctx = vcuda_ctx_get(ctx);
	q->usage = vcuda_usage_get(usage);
	drm_dev_get(&vdev->drm);
	atomic_inc(&vdev->live.queues);
	return q;

err_sched:
	drm_sched_fini(&q->sched);
err_free:
	mutex_destroy(&q->exec_lock);
	mutex_destroy(&q->submit_lock);
	kfree(q);
	return ERR_PTR(ret);
}

/* Undoes vcuda_queue_create() for a queue that never had a job. */
static void vcuda_queue_destroy_unused(struct vcuda_queue *q)
{
	drm_sched_entity_destroy(&q->entity);
	drm_sched_fini(&q->sched);
	vcuda_queue_put(q);
}

/**
 * vcuda_ioctl_queue_create() - DRM_IOCTL_VCUDA_QUEUE_CREATE.
 * @drm: Device.
 * @data: &struct drm_vcuda_queue_create.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for bad arguments, -ENOENT for an unknown context,
 * -EIO if it has faulted, -ENOSPC when the file has ``max_queues``
 * queues, -ENOMEM.
 */
int vcuda_ioctl_queue_create(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct vcuda_file *vfile = to_vcuda_file(file);
	struct drm_vcuda_queue_create *args = data;
	struct vcuda_queue *q;
	struct vcuda_ctx *ctx;
	u32 id;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->engine != DRM_VCUDA_ENGINE_COMPUTE &&
	    args->engine != DRM_VCUDA_ENGINE_COPY)
		return -EINVAL;
	if (args->priority > DRM_VCUDA_QUEUE_PRIORITY_HIGH)
		return -EINVAL;

	mutex_lock(&vfile->lock);
	ctx = vcuda_ctx_lookup(vfile, args->ctx_id);
	if (!ctx) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (vcuda_ctx_faulted(ctx)) {
		ret = -EIO;
		goto out_put_ctx;
	}
	if (vfile->nr_queues >= vcuda_max_queues) {
		ret = -ENOSPC;
		goto out_put_ctx;
	}

	q = vcuda_queue_create(ctx, vfile->usage, args->engine,
			       args->priority);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto out_put_ctx;
	}

	/* Reserve the ID first: the queue must know it before it shows. */
	ret = xa_alloc_cyclic(&vfile->queues, &id, NULL, XA_LIMIT(1, U32_MAX),
			      &vfile->next_queue_id, VCUDA_GFP_CLIENT);
	if (ret < 0) {
		vcuda_queue_destroy_unused(q);
		goto out_put_ctx;
	}
	q->id = id;
	ret = xa_err(xa_store(&vfile->queues, id, q, VCUDA_GFP_CLIENT));
	if (ret) {
		xa_erase(&vfile->queues, id);
		vcuda_queue_destroy_unused(q);
		goto out_put_ctx;
	}

	mutex_lock(&ctx->queues_lock);
	list_add_tail(&q->ctx_link, &ctx->queues);
	mutex_unlock(&ctx->queues_lock);
	args->queue_id = id;
	vfile->nr_queues++;

out_put_ctx:
	vcuda_ctx_put(ctx);
out_unlock:
	mutex_unlock(&vfile->lock);
	return ret < 0 ? ret : 0;
}

/**
 * vcuda_ioctl_queue_destroy() - DRM_IOCTL_VCUDA_QUEUE_DESTROY.
 * @drm: Device.
 * @data: &struct drm_vcuda_queue_destroy.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero padding, -ENOENT for an unknown ID.
 */
int vcuda_ioctl_queue_destroy(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct vcuda_file *vfile = to_vcuda_file(file);
	struct drm_vcuda_queue_destroy *args = data;
	struct vcuda_queue *q;

	if (args->pad)
		return -EINVAL;

	mutex_lock(&vfile->lock);
	q = xa_erase(&vfile->queues, args->queue_id);
	if (q) {
		mutex_lock(&q->ctx->queues_lock);
		list_del_init(&q->ctx_link);
		mutex_unlock(&q->ctx->queues_lock);
		vfile->nr_queues--;
	}
	mutex_unlock(&vfile->lock);
	if (!q)
		return -ENOENT;

	vcuda_queue_kill(q);
	vcuda_queue_put(q);
	return 0;
}
