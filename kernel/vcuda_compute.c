// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: hand-off of launch commands to userspace compute workers.
 */

#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "vcuda_compute.h"
#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_usage.h"

/**
 * DOC: Compute hand-off
 *
 * The compute engine is the process itself: kernels are run by worker
 * threads of the process that owns the context. A worker loops:
 *
 * 1. DRM_IOCTL_VCUDA_COMPUTE_WAIT blocks until a launch of the context is
 *    ready, and returns its descriptor (opaque to the kernel: userspace's
 *    launch record), its queue and a launch ID;
 * 2. the worker runs the launch;
 * 3. DRM_IOCTL_VCUDA_COMPUTE_DONE reports it by launch ID, with a fault
 *    kind (NONE if it went well) and address.
 *
 * How a LAUNCH command becomes a COMPUTE_WAIT result: when the job at the
 * head of a compute queue's ring reaches a LAUNCH command,
 * vcuda_queue_exec() (or vcuda_job_run(), for a job that starts an idle
 * ring with a launch) fills the job's &struct vcuda_launch and posts it
 * here: it goes on the context's ready list for its queue's priority and
 * one waiting worker is woken (waits are exclusive, so N launches wake N
 * workers). COMPUTE_WAIT takes the oldest launch of the highest priority,
 * gives it the next launch ID of the context and moves it to the taken
 * list. COMPUTE_DONE finds it there by ID, marks it REPORTED and calls
 * vcuda_job_launch_done(), which moves the job to its next command and
 * runs the ring again; after the job's last command its hardware fence
 * signals, and through the scheduler's finished fence the syncobjs the
 * job signals. A reported fault instead faults the context.
 *
 * Since a queue's ring only moves past a launch once it is reported, at
 * most one launch per queue is ever posted: launches of one queue reach
 * workers one at a time and in order, while different queues' launches
 * run concurrently on different workers.
 *
 * From the COMPUTE_WAIT that takes a launch to its COMPUTE_DONE (or its
 * withdrawal), the launch counts as running: the compute engine is busy
 * for the device and for the queue's client (vcuda_usage.c).
 *
 * A process that exits with launches it took and did not report (its
 * workers killed, say, while the DRM file lives on in another process
 * that shares it) has them reported as DRM_VCUDA_FAULT_LAUNCH faults when
 * it closes its files (vcuda_compute_abandon(), from the file's flush):
 * their fences signal with -EIO instead of never. A file that closes for
 * good destroys its contexts anyway, which cancels their jobs.
 *
 * Each launch is handed to exactly one worker. COMPUTE_DONE fails with
 * -ENOENT for an ID not taken or already reported, or for a launch
 * withdrawn because its queue was destroyed or its context faulted or
 * timed out. Once the context has faulted, COMPUTE_WAIT fails with -EIO;
 * once it is destroyed, with -ENOENT; both wake every waiting worker.
 */

/* A launch starts or stops running on a worker; hand-off lock held. */
static void vcuda_launch_account(struct vcuda_launch *l, bool running)
{
	struct vcuda_queue *q = l->job->queue;
	struct vcuda_busy *dev = &q->vdev->busy[DRM_VCUDA_ENGINE_COMPUTE];
	struct vcuda_busy *client = &q->usage->busy[DRM_VCUDA_ENGINE_COMPUTE];

	lockdep_assert_held(&q->ctx->compute.lock);

	if (running) {
		vcuda_busy_begin(dev);
		vcuda_busy_begin(client);
	} else {
		vcuda_busy_end(client);
		vcuda_busy_end(dev);
	}
}

/**
 * vcuda_compute_init() - Initialize a context's hand-off.
 * @c: Hand-off.
 */
void vcuda_compute_init(struct vcuda_compute *c)
{
	int i;

	spin_lock_init(&c->lock);
	for (i = 0; i < VCUDA_NUM_PRIORITIES; i++)
		INIT_LIST_HEAD(&c->ready[i]);
	INIT_LIST_HEAD(&c->taken);
	init_waitqueue_head(&c->wq);
}

/**
 * vcuda_compute_post() - Make a launch available to the workers.
 * @c: Hand-off.
 * @l: Launch, IDLE, with its descriptor set.
 *
 * Context: Called with the job's &vcuda_queue.lock held.
 */
void vcuda_compute_post(struct vcuda_compute *c, struct vcuda_launch *l)
{
	lockdep_assert_held(&l->job->queue->lock);

	spin_lock(&c->lock);
	WRITE_ONCE(l->state, VCUDA_LAUNCH_READY);
	list_add_tail(&l->link, &c->ready[l->priority]);
	spin_unlock(&c->lock);
	wake_up(&c->wq);
}

/**
 * vcuda_compute_withdraw() - Take a launch back from the workers.
 * @c: Hand-off.
 * @l: Launch in any state; IDLE afterwards.
 *
 * Context: Called with the job's &vcuda_queue.lock held.
 */
void vcuda_compute_withdraw(struct vcuda_compute *c, struct vcuda_launch *l)
{
	lockdep_assert_held(&l->job->queue->lock);

	spin_lock(&c->lock);
	if (l->state == VCUDA_LAUNCH_TAKEN)
		vcuda_launch_account(l, false);
	list_del_init(&l->link);
	WRITE_ONCE(l->state, VCUDA_LAUNCH_IDLE);
	spin_unlock(&c->lock);
}

/**
 * vcuda_compute_stop() - Turn the workers away.
 * @c: Hand-off.
 * @error: -EIO (faulted) or -ENOENT (destroyed, which prevails).
 */
void vcuda_compute_stop(struct vcuda_compute *c, int error)
{
	spin_lock(&c->lock);
	if (c->error != -ENOENT)
		c->error = error;
	spin_unlock(&c->lock);
	wake_up_all(&c->wq);
}

/* Takes a taken launch off the list as reported; lock held. */
static struct vcuda_job *vcuda_compute_report_locked(struct vcuda_compute *c,
						     struct vcuda_launch *l)
{
	lockdep_assert_held(&c->lock);
	list_del_init(&l->link);
	vcuda_launch_account(l, false);
	WRITE_ONCE(l->state, VCUDA_LAUNCH_REPORTED);
	return vcuda_job_get(l->job);
}

/**
 * vcuda_compute_abandon() - A process exits with launches it took.
 * @c: Hand-off.
 * @taker: Thread group ID of the exiting process.
 *
 * Each launch it took and did not report is reported for it, as a
 * DRM_VCUDA_FAULT_LAUNCH fault: no one else could report it, and its
 * fence, which other processes may wait for, must signal.
 */
void vcuda_compute_abandon(struct vcuda_compute *c, pid_t taker)
{
	for (;;) {
		struct vcuda_job *job = NULL;
		struct vcuda_launch *l;

		spin_lock(&c->lock);
		list_for_each_entry(l, &c->taken, link) {
			if (l->taker == taker) {
				job = vcuda_compute_report_locked(c, l);
				break;
			}
		}
		spin_unlock(&c->lock);
		if (!job)
			return;
		vcuda_job_launch_done(job, DRM_VCUDA_FAULT_LAUNCH, 0);
		vcuda_job_put(job);
	}
}

/**
 * vcuda_compute_check_launch() - Validate a LAUNCH command.
 * @cmd: Command.
 *
 * Return: 0 or -EINVAL.
 */
int vcuda_compute_check_launch(const struct drm_vcuda_cmd *cmd)
{
	const size_t used = sizeof(cmd->u.launch) / sizeof(u64);
	size_t i;

	if (cmd->flags)
		return -EINVAL;
	for (i = used; i < ARRAY_SIZE(cmd->u.raw); i++)
		if (cmd->u.raw[i])
			return -EINVAL;
	return 0;
}

/* Takes a ready launch if there is one; sets *ret if the wait is over. */
static bool vcuda_compute_try_take(struct vcuda_compute *c,
				   struct drm_vcuda_compute_wait *args,
				   int *ret)
{
	struct vcuda_launch *l = NULL;
	int prio;

	spin_lock(&c->lock);
	if (c->error) {
		*ret = c->error;
		spin_unlock(&c->lock);
		return true;
	}
	for (prio = VCUDA_NUM_PRIORITIES - 1; prio >= 0 && !l; prio--)
		l = list_first_entry_or_null(&c->ready[prio],
					     struct vcuda_launch, link);
	if (l) {
		l->id = ++c->last_launch_id;
		l->taker = task_tgid_nr(current);
		WRITE_ONCE(l->state, VCUDA_LAUNCH_TAKEN);
		vcuda_launch_account(l, true);
		list_move_tail(&l->link, &c->taken);
		args->launch_id = l->id;
		args->descriptor = l->descriptor;
		args->queue_id = l->queue_id;
		*ret = 0;
	}
	spin_unlock(&c->lock);
	return l;
}

static bool vcuda_compute_has_ready(struct vcuda_compute *c)
{
	bool ready = false;
	int prio;

	spin_lock(&c->lock);
	for (prio = 0; prio < VCUDA_NUM_PRIORITIES; prio++)
		ready |= !list_empty(&c->ready[prio]);
	spin_unlock(&c->lock);
	return ready;
}

/**
 * vcuda_ioctl_compute_wait() - DRM_IOCTL_VCUDA_COMPUTE_WAIT.
 * @drm: Device.
 * @data: &struct drm_vcuda_compute_wait.
 * @file: DRM file.
 *
 * Return: 0 with a launch; -EINVAL for bad arguments; -ENOENT for an
 * unknown or destroyed context; -EIO if it has faulted; -ETIMEDOUT;
 * -ERESTARTSYS on a signal.
 */
int vcuda_ioctl_compute_wait(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vcuda_compute_wait *args = data;
	struct vcuda_compute *c;
	struct vcuda_ctx *ctx;
	DEFINE_WAIT(wait);
	long timeout;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;

	ctx = vcuda_ctx_lookup(to_vcuda_file(file), args->ctx_id);
	if (!ctx)
		return -ENOENT;
	c = &ctx->compute;

	if (!args->timeout_ns)
		timeout = MAX_SCHEDULE_TIMEOUT;
	else
		timeout = max_t(u64, 1, min_t(u64, MAX_SCHEDULE_TIMEOUT - 1,
					      nsecs_to_jiffies64(args->timeout_ns)));

	for (;;) {
		prepare_to_wait_exclusive(&c->wq, &wait, TASK_INTERRUPTIBLE);
		if (vcuda_compute_try_take(c, args, &ret))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (!timeout) {
			ret = -ETIMEDOUT;
			break;
		}
		timeout = schedule_timeout(timeout);
	}
	finish_wait(&c->wq, &wait);

	/* A wake-up meant for a launch must not be lost with this worker. */
	if (ret && vcuda_compute_has_ready(c))
		wake_up(&c->wq);

	vcuda_ctx_put(ctx);
	return ret;
}

/**
 * vcuda_ioctl_compute_done() - DRM_IOCTL_VCUDA_COMPUTE_DONE.
 * @drm: Device.
 * @data: &struct drm_vcuda_compute_done.
 * @file: DRM file.
 *
 * Return: 0; -EINVAL for an unknown fault kind, or an address without a
 * fault; -ENOENT for an unknown context or a launch not outstanding.
 */
int vcuda_ioctl_compute_done(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vcuda_compute_done *args = data;
	struct vcuda_launch *l, *found = NULL;
	struct vcuda_job *job = NULL;
	struct vcuda_compute *c;
	struct vcuda_ctx *ctx;

	if (args->fault_kind > DRM_VCUDA_FAULT_RESOURCES)
		return -EINVAL;
	if (args->fault_kind == DRM_VCUDA_FAULT_NONE && args->fault_addr)
		return -EINVAL;

	ctx = vcuda_ctx_lookup(to_vcuda_file(file), args->ctx_id);
	if (!ctx)
		return -ENOENT;
	c = &ctx->compute;

	spin_lock(&c->lock);
	list_for_each_entry(l, &c->taken, link) {
		if (l->id == args->launch_id) {
			found = l;
			break;
		}
	}
	if (found)
		job = vcuda_compute_report_locked(c, found);
	spin_unlock(&c->lock);

	if (job) {
		vcuda_job_launch_done(job, args->fault_kind, args->fault_addr);
		vcuda_job_put(job);
	}
	vcuda_ctx_put(ctx);
	return job ? 0 : -ENOENT;
}
