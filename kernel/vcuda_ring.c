// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: a queue's ring, the jobs the "hardware" works on, and its
 * execution.
 */

#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/workqueue.h>

#include "vcuda_compute.h"
#include "vcuda_copy.h"
#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_ring.h"

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
