// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: jobs and the scheduler callbacks.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <drm/gpu_scheduler.h>

#include "vcuda_compat.h"
#include "vcuda_copy.h"
#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_ring.h"
#include "vcuda_usage.h"

/**
 * DOC: Jobs and the ring
 *
 * A job carries a validated array of commands. Its life:
 *
 * 1. SUBMIT (vcuda_submit.c) creates it, adds its waits as scheduler
 *    dependencies, arms it and pushes it to its queue's entity.
 * 2. Once its dependencies have signalled, and after every earlier job of
 *    the queue, the scheduler calls vcuda_job_run(). That initializes the
 *    job's hardware fence (@vcuda_job.done_fence), which the scheduler
 *    chains to the job's finished fence (the one syncobjs got), and puts
 *    the job at the tail of the queue's ring, the list of jobs the
 *    "hardware" is working on, in order.
 * 3. vcuda_queue_exec() (vcuda_ring.c) runs the commands of the job at the head of the
 *    ring, in order: on a copy engine for a copy queue (vcuda_engine.c,
 *    which shares the engines among the device's copy queues by
 *    priority), on vcuda_wq or in the caller of COMPUTE_DONE for a compute
 *    queue. NOP, TIMESTAMP, COPY, FILL and semaphores run right there
 *    (vcuda_copy.c); a semaphore acquire not yet satisfied stops the ring
 *    until a release in the context or the next poll, which backs off
 *    from one jiffy to %VCUDA_SEM_POLL_MAX_MS (vcuda_sem_poll_delay()). A LAUNCH is
 *    posted to the context's compute hand-off (vcuda_compute.c) and the
 *    ring stops: a worker takes it with COMPUTE_WAIT, runs it and reports
 *    it with COMPUTE_DONE, which moves the job past the launch and runs
 *    the ring again. So a queue's launches reach workers one at a time and
 *    in order, and the next job starts only once the previous one is
 *    done.
 * 4. When the last command is done, the job leaves the ring and its
 *    hardware fence signals; the scheduler signals the finished fence,
 *    which signals the syncobjs, and later calls vcuda_job_free().
 *
 * A job leaves the ring exactly once, under &vcuda_queue.lock, either
 * completed or cancelled, and whoever removes it signals its fence: that
 * is the only rule that keeps completion, cancellation (vcuda_queue_cancel()
 * on destruction or fault) and time-outs apart. Code that works on a
 * job outside the lock holds a reference and checks @vcuda_job.in_ring
 * again afterwards.
 *
 * Errors carried by the fences: -EIO for the job whose command faulted
 * and for every job of a faulted context, -ETIMEDOUT for a job that ran
 * past the time-out, -ECANCELED for the jobs of a destroyed queue.
 *
 * Time-outs: the scheduler calls vcuda_job_timedout() when a job has run
 * for ``job_timeout_ms``. Following the scheduler's protocol, it stops the
 * scheduler, faults the context (which fails the job), gives the stopped
 * jobs their hardware fences back and restarts it.
 *
 * Locking order (docs/architecture.md has the module's whole order):
 * &vcuda_queue.exec_lock, then &vcuda_ctx.queues_lock, then
 * &vcuda_queue.lock, then &vcuda_compute.lock. Fences are signalled with
 * none of the spinlocks held.
 */

static const char *vcuda_fence_get_driver_name(struct dma_fence *fence)
{
	return "vcuda";
}

static const char *vcuda_fence_get_timeline_name(struct dma_fence *fence)
{
	return "vcuda-queue";
}

static const struct dma_fence_ops vcuda_fence_ops = {
	.get_driver_name = vcuda_fence_get_driver_name,
	.get_timeline_name = vcuda_fence_get_timeline_name,
};

/*
 * A hardware fence carries its own lock: it can outlive its queue (the
 * scheduler's finished fence, held by syncobjs, holds it).
 */
struct vcuda_hw_fence {
	struct dma_fence base;
	spinlock_t lock;	/* The fence's lock. */
};

static inline struct vcuda_job *to_vcuda_job(struct drm_sched_job *sjob)
{
	return container_of(sjob, struct vcuda_job, base);
}

/**
 * vcuda_job_alloc() - Allocate a job for a queue.
 * @q: Queue.
 * @cmds: Validated commands, kvmalloc'ed; the job owns them on success.
 * @cmd_count: Number of commands, at least one.
 *
 * The job takes one of the jobs its client reserved with
 * vcuda_usage_reserve_jobs(), and gives it back when freed.
 *
 * Return: The job with one reference, or NULL.
 */
struct vcuda_job *vcuda_job_alloc(struct vcuda_queue *q,
				  struct drm_vcuda_cmd *cmds, u32 cmd_count)
{
	struct vcuda_hw_fence *hw_fence;
	struct vcuda_job *job;

	job = kzalloc(sizeof(*job), VCUDA_GFP_CLIENT);
	if (!job)
		return NULL;

	hw_fence = kzalloc(sizeof(*hw_fence), VCUDA_GFP_CLIENT);
	if (!hw_fence) {
		kfree(job);
		return NULL;
	}
	spin_lock_init(&hw_fence->lock);
	job->done_fence = &hw_fence->base;

	kref_init(&job->refcount);
	job->cmds = cmds;
	job->cmd_count = cmd_count;
	INIT_LIST_HEAD(&job->ring_link);
	INIT_LIST_HEAD(&job->launch.link);
	job->launch.job = job;
	job->launch.queue_id = q->id;
	job->launch.priority = q->priority;
	job->queue = vcuda_queue_get(q);
	atomic_inc(&q->job_count);
	atomic_inc(&q->vdev->live.jobs);
	return job;
}

static void vcuda_job_release(struct kref *kref)
{
	struct vcuda_job *job = container_of(kref, struct vcuda_job, refcount);
	struct vcuda_queue *q = job->queue;

	if (job->fence_init)
		dma_fence_put(job->done_fence);
	else
		kfree(job->done_fence);
	kvfree(job->cmds);
	kfree(job);

	atomic_dec(&q->vdev->live.jobs);
	if (atomic_dec_and_test(&q->job_count))
		wake_up_all(&q->idle_wq);
	vcuda_usage_release_jobs(q->usage, 1);
	vcuda_queue_put(q);
}

/**
 * vcuda_job_put() - Drop a reference to a job.
 * @job: Job.
 */
void vcuda_job_put(struct vcuda_job *job)
{
	kref_put(&job->refcount, vcuda_job_release);
}

/**
 * vcuda_job_signal() - Signal a job's hardware fence.
 * @job: Job, just taken off its ring; it may be freed right after.
 * @error: Error to set on the fence, or zero.
 */
void vcuda_job_signal(struct vcuda_job *job, int error)
{
	struct dma_fence *fence = dma_fence_get(job->done_fence);

	if (error)
		dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

/**
 * vcuda_job_fault() - Fault a job's context because of the job.
 * @job: Job whose command faulted, unless it was cancelled meanwhile.
 * @kind: &enum drm_vcuda_fault_kind.
 * @addr: Faulting address.
 */
void vcuda_job_fault(struct vcuda_job *job, u32 kind, u64 addr)
{
	struct vcuda_queue *q = job->queue;
	bool running;

	spin_lock(&q->lock);
	running = job->in_ring;
	if (running)
		job->error = kind == DRM_VCUDA_FAULT_TIMEOUT ? -ETIMEDOUT : -EIO;
	spin_unlock(&q->lock);

	/*
	 * A job cancelled meanwhile (its queue or context destroyed, its
	 * context faulted by another job) does not fault anything: its
	 * address space may already be gone.
	 */
	if (running)
		vcuda_ctx_fault(q->ctx, kind, addr, q->id);
}

/**
 * vcuda_job_launch_done() - A worker reported a job's launch.
 * @job: Job, whose launch was taken off the context's lists.
 * @fault_kind: &enum drm_vcuda_fault_kind reported.
 * @fault_addr: Faulting address reported.
 */
void vcuda_job_launch_done(struct vcuda_job *job, u32 fault_kind,
			   u64 fault_addr)
{
	struct vcuda_queue *q = job->queue;

	if (fault_kind != DRM_VCUDA_FAULT_NONE) {
		vcuda_job_fault(job, fault_kind, fault_addr);
		return;
	}

	spin_lock(&q->lock);
	if (job->in_ring &&
	    READ_ONCE(job->launch.state) == VCUDA_LAUNCH_REPORTED) {
		WRITE_ONCE(job->launch.state, VCUDA_LAUNCH_IDLE);
		job->next_cmd++;
	}
	spin_unlock(&q->lock);

	vcuda_queue_exec(q, 0);
}

static struct dma_fence *vcuda_job_run(struct drm_sched_job *sjob)
{
	struct vcuda_job *job = to_vcuda_job(sjob);
	struct vcuda_queue *q = job->queue;
	bool posted = false;
	int error = 0;

	dma_fence_init(job->done_fence, &vcuda_fence_ops,
		       &container_of(job->done_fence, struct vcuda_hw_fence,
				     base)->lock,
		       q->fence_context, ++q->fence_seqno);
	job->fence_init = true;

	spin_lock(&q->lock);
	if (q->dead) {
		error = -ECANCELED;
	} else if (vcuda_ctx_faulted(q->ctx)) {
		error = -EIO;
	} else {
		list_add_tail(&job->ring_link, &q->ring);
		WRITE_ONCE(job->in_ring, true);
		/*
		 * Fast path: a job that starts an idle ring with a launch is
		 * posted right away, without a trip through vcuda_wq. Nothing
		 * else can be running this job's commands yet.
		 */
		if (list_is_first(&job->ring_link, &q->ring) &&
		    job->cmds[0].op == DRM_VCUDA_CMD_LAUNCH) {
			job->launch.descriptor = job->cmds[0].u.launch.descriptor;
			vcuda_compute_post(&q->ctx->compute, &job->launch);
			posted = true;
		}
	}
	spin_unlock(&q->lock);

	if (error)
		vcuda_job_signal(job, error);
	else if (!posted)
		vcuda_queue_kick(q);

	/* The scheduler takes this reference. */
	return dma_fence_get(job->done_fence);
}

static enum drm_gpu_sched_stat vcuda_job_timedout(struct drm_sched_job *sjob)
{
	struct vcuda_job *job = to_vcuda_job(sjob);
	struct vcuda_queue *q = job->queue;
	struct drm_sched_job *pending;

	drm_sched_stop(&q->sched, sjob);

	/* Nothing to do if the job completed just now. */
	vcuda_job_fault(job, DRM_VCUDA_FAULT_TIMEOUT, 0);

	/*
	 * drm_sched_stop() detached the pending jobs from their hardware
	 * fences; reattach them so that drm_sched_start() completes those
	 * that are done (all of this queue's, now) with their fence's error.
	 */
	list_for_each_entry(pending, &q->sched.pending_list, list) {
		if (!pending->s_fence->parent)
			pending->s_fence->parent =
				dma_fence_get(to_vcuda_job(pending)->done_fence);
	}
	vcuda_sched_start(&q->sched);

	return VCUDA_SCHED_STAT_HANDLED;
}

static void vcuda_job_free(struct drm_sched_job *sjob)
{
	drm_sched_job_cleanup(sjob);
	vcuda_job_put(to_vcuda_job(sjob));
}

const struct drm_sched_backend_ops vcuda_sched_ops = {
	.run_job = vcuda_job_run,
	.timedout_job = vcuda_job_timedout,
	.free_job = vcuda_job_free,
};
