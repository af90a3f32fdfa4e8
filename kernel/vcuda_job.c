// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: jobs, the scheduler callbacks and the execution of a queue's
 * ring.
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
 * 3. vcuda_queue_exec() runs the commands of the job at the head of the
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
 * Locking order: &vcuda_queue.exec_lock, then &vcuda_ctx.queues_lock, then
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

/* Signals a job's hardware fence; the job may be freed right after. */
static void vcuda_job_signal(struct vcuda_job *job, int error)
{
	struct dma_fence *fence = dma_fence_get(job->done_fence);

	if (error)
		dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

/**
 * vcuda_queue_cancel() - Fail every job on a queue's ring.
 * @q: Queue.
 * @error: Error for the jobs that have none of their own.
 *
 * Withdraws their launches from the workers first.
 */
void vcuda_queue_cancel(struct vcuda_queue *q, int error)
{
	struct vcuda_compute *c = &q->ctx->compute;
	struct vcuda_job *job, *tmp;
	LIST_HEAD(cancelled);

	spin_lock(&q->lock);
	list_for_each_entry_safe(job, tmp, &q->ring, ring_link) {
		vcuda_compute_withdraw(c, &job->launch);
		WRITE_ONCE(job->in_ring, false);
		list_move_tail(&job->ring_link, &cancelled);
	}
	spin_unlock(&q->lock);

	list_for_each_entry_safe(job, tmp, &cancelled, ring_link) {
		list_del_init(&job->ring_link);
		vcuda_job_signal(job, job->error ? job->error : error);
	}
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

/*
 * How long an unsatisfied semaphore acquire waits before it looks again:
 * an eighth of the time it has waited so far, from one jiffy up to
 * %VCUDA_SEM_POLL_MAX_MS. A release by the context's own queues kicks
 * the waiters at once; only memory written by the CPU is noticed late,
 * by at most an eighth of the wait, so that a thousand queues waiting on
 * semaphores nobody releases cost a few polls a second each, not one a
 * jiffy. Exec lock held.
 */
static unsigned long vcuda_sem_poll_delay(struct vcuda_queue *q)
{
	unsigned long waited;

	lockdep_assert_held(&q->exec_lock);

	atomic64_inc(&q->vdev->sem_polls);
	if (!q->sem_wait_start)
		q->sem_wait_start = jiffies ?: 1;
	waited = jiffies - q->sem_wait_start;
	return clamp(waited / 8, 1ul, msecs_to_jiffies(VCUDA_SEM_POLL_MAX_MS));
}

/**
 * vcuda_queue_exec() - Run the commands of a queue's ring.
 * @q: Queue.
 * @budget_ns: Time to stop after, or zero for no limit.
 *
 * Runs until the ring is empty, its head job waits for a worker or a
 * semaphore, or @budget_ns has passed.
 *
 * Context: Process context.
 *
 * Return: True if it stopped because the budget was spent while a command
 * was ready to run or a copy or fill was half done.
 */
bool vcuda_queue_exec(struct vcuda_queue *q, u64 budget_ns)
{
	struct vcuda_compute *c = &q->ctx->compute;
	u64 deadline = budget_ns ? ktime_get_ns() + budget_ns : 0;
	bool more = false;

	mutex_lock(&q->exec_lock);
	WRITE_ONCE(q->sem_waiting, false);
	for (;;) {
		struct vcuda_fault fault = {};
		const struct drm_vcuda_cmd *cmd;
		enum vcuda_cmd_status status;
		struct vcuda_job *job;

		spin_lock(&q->lock);
		job = list_first_entry_or_null(&q->ring, struct vcuda_job,
					       ring_link);
		/* Only this function moves a launch out of IDLE. */
		if (!job || READ_ONCE(job->launch.state) != VCUDA_LAUNCH_IDLE) {
			spin_unlock(&q->lock);
			if (!job)
				q->sem_wait_start = 0;
			break;
		}

		if (job->next_cmd == job->cmd_count) {
			list_del_init(&job->ring_link);
			WRITE_ONCE(job->in_ring, false);
			spin_unlock(&q->lock);
			vcuda_job_signal(job, 0);
			continue;
		}

		cmd = &job->cmds[job->next_cmd];
		if (cmd->op == DRM_VCUDA_CMD_LAUNCH) {
			job->launch.descriptor = cmd->u.launch.descriptor;
			vcuda_compute_post(c, &job->launch);
			spin_unlock(&q->lock);
			break;
		}

		if (deadline && ktime_get_ns() >= deadline) {
			spin_unlock(&q->lock);
			more = true;
			break;
		}

		vcuda_job_get(job);
		spin_unlock(&q->lock);

		status = vcuda_copy_exec_cmd(job, cmd, deadline, &fault);

		if (status == VCUDA_CMD_WAIT) {
			/* A semaphore not reached yet: look again later. */
			WRITE_ONCE(q->sem_waiting, true);
			mod_delayed_work(vcuda_wq, &q->poll_work,
					 vcuda_sem_poll_delay(q));
			vcuda_job_put(job);
			break;
		}
		q->sem_wait_start = 0;
		if (status == VCUDA_CMD_YIELD) {
			/* The slice is spent inside a copy or fill. */
			vcuda_job_put(job);
			more = true;
			break;
		}

		if (fault.kind != DRM_VCUDA_FAULT_NONE) {
			vcuda_job_fault(job, fault.kind, fault.addr);
		} else {
			spin_lock(&q->lock);
			if (job->in_ring) {
				job->next_cmd++;
				job->progress = (struct vcuda_cmd_progress){};
			}
			spin_unlock(&q->lock);
		}
		vcuda_job_put(job);
	}
	mutex_unlock(&q->exec_lock);
	return more;
}

/**
 * vcuda_queue_poll_work() - &vcuda_queue.poll_work.
 * @work: The work item.
 */
void vcuda_queue_poll_work(struct work_struct *work)
{
	vcuda_queue_kick(container_of(to_delayed_work(work),
				      struct vcuda_queue, poll_work));
}

/**
 * vcuda_queue_exec_work() - &vcuda_queue.exec_work, for compute queues.
 * @work: The work item.
 */
void vcuda_queue_exec_work(struct work_struct *work)
{
	vcuda_queue_exec(container_of(work, struct vcuda_queue, exec_work), 0);
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
