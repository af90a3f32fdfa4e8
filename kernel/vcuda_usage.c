// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: engine busy time and utilization.
 */

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>

#include "vcuda_drv.h"
#include "vcuda_usage.h"

/**
 * DOC: Busy time and utilization
 *
 * Each device and each client (DRM file) counts, per engine class, the
 * time the class was busy: the compute engine while at least one launch
 * is running on a worker (from the COMPUTE_WAIT that hands it out to its
 * COMPUTE_DONE, or to its withdrawal by a fault, a time-out or a
 * destruction), a copy engine while it executes commands of a queue
 * (vcuda_engine.c). Overlapping activity counts once, so busy time never
 * runs faster than the clock: it is the union of the active intervals,
 * kept as a count of active units (@vcuda_busy.active) and the time the
 * count last left zero.
 *
 * The device's sysfs shows the totals (``busy_compute_ns``,
 * ``busy_copy_ns``) and the utilization of the last complete sampling
 * window of %VCUDA_UTIL_WINDOW_MS (``utilization_compute``,
 * ``utilization_copy``); fdinfo shows the client's totals
 * (``drm-engine-compute``, ``drm-engine-copy``).
 *
 * Windows need no timer. They are aligned on multiples of the window in
 * CLOCK_MONOTONIC, and every change of @vcuda_busy.active, like every
 * read, first closes the windows that have ended since the last change
 * (vcuda_busy_roll()): between two changes the activity is constant, so
 * the busy time at any window boundary in between is known exactly.
 */

#define VCUDA_UTIL_WINDOW_NS	((u64)VCUDA_UTIL_WINDOW_MS * NSEC_PER_MSEC)

/* Busy time at @t, no earlier than the last change; lock held. */
static u64 vcuda_busy_at(const struct vcuda_busy *b, u64 t)
{
	lockdep_assert_held(&b->lock);

	return b->total + (b->active && t > b->since ? t - b->since : 0);
}

/* Closes the windows that ended before @now; lock held. */
static void vcuda_busy_roll(struct vcuda_busy *b, u64 now)
{
	u64 w = div64_u64(now, VCUDA_UTIL_WINDOW_NS);
	u64 busy;

	lockdep_assert_held(&b->lock);

	if (w <= b->window)
		return;

	if (w == b->window + 1) {
		busy = vcuda_busy_at(b, w * VCUDA_UTIL_WINDOW_NS) -
		       b->window_busy;
		b->last_util = min_t(u64, 100,
				     div64_u64(busy * 100, VCUDA_UTIL_WINDOW_NS));
	} else {
		/* Whole windows passed without a change. */
		b->last_util = b->active ? 100 : 0;
	}
	b->window = w;
	b->window_busy = vcuda_busy_at(b, w * VCUDA_UTIL_WINDOW_NS);
}

/**
 * vcuda_busy_init() - Initialize a busy-time counter.
 * @b: Counter.
 */
void vcuda_busy_init(struct vcuda_busy *b)
{
	spin_lock_init(&b->lock);
	b->active = 0;
	b->last_util = 0;
	b->since = 0;
	b->total = 0;
	b->window = div64_u64(ktime_get_ns(), VCUDA_UTIL_WINDOW_NS);
	b->window_busy = 0;
}

/**
 * vcuda_busy_begin() - A unit of the engine class becomes active.
 * @b: Counter.
 *
 * Context: Any context but hard interrupts; may nest in spinlocks.
 */
void vcuda_busy_begin(struct vcuda_busy *b)
{
	u64 now = ktime_get_ns();

	spin_lock(&b->lock);
	vcuda_busy_roll(b, now);
	if (!b->active++)
		b->since = now;
	spin_unlock(&b->lock);
}

/**
 * vcuda_busy_end() - A unit made active by vcuda_busy_begin() stops.
 * @b: Counter.
 *
 * Context: Any context but hard interrupts; may nest in spinlocks.
 */
void vcuda_busy_end(struct vcuda_busy *b)
{
	u64 now = ktime_get_ns();

	spin_lock(&b->lock);
	vcuda_busy_roll(b, now);
	if (!WARN_ON_ONCE(!b->active) && !--b->active)
		b->total += now > b->since ? now - b->since : 0;
	spin_unlock(&b->lock);
}

/**
 * vcuda_busy_ns() - Busy time so far.
 * @b: Counter.
 *
 * Return: Nanoseconds, including the activity in progress.
 */
u64 vcuda_busy_ns(struct vcuda_busy *b)
{
	u64 now = ktime_get_ns(), ns;

	spin_lock(&b->lock);
	vcuda_busy_roll(b, now);
	ns = vcuda_busy_at(b, now);
	spin_unlock(&b->lock);
	return ns;
}

/**
 * vcuda_busy_utilization() - Utilization of the last complete window.
 * @b: Counter.
 *
 * Return: Percent, 0 to 100.
 */
u32 vcuda_busy_utilization(struct vcuda_busy *b)
{
	u64 now = ktime_get_ns();
	u32 util;

	spin_lock(&b->lock);
	vcuda_busy_roll(b, now);
	util = b->last_util;
	spin_unlock(&b->lock);
	return util;
}

static bool vcuda_usage_try_reserve(struct vcuda_usage *u, u32 count)
{
	int jobs = atomic_read(&u->jobs);

	do {
		if (jobs + count > vcuda_max_queued_jobs)
			return false;
	} while (!atomic_try_cmpxchg(&u->jobs, &jobs, jobs + count));
	return true;
}

/**
 * vcuda_usage_reserve_jobs() - Make room for a client's new jobs.
 * @u: The client's counters.
 * @count: Jobs about to be created, at most ``max_queued_jobs``.
 *
 * A client has at most ``max_queued_jobs`` jobs alive, as a GPU's ring
 * holds so many commands: past it, SUBMIT waits until earlier jobs are
 * freed, which bounds the kernel memory a client can tie up in jobs that
 * wait for something that never comes.
 *
 * Return: 0 with @count jobs reserved, which vcuda_usage_release_jobs()
 * gives back (job by job as they are freed); -ERESTARTSYS if a signal
 * came first.
 */
int vcuda_usage_reserve_jobs(struct vcuda_usage *u, u32 count)
{
	return wait_event_interruptible(u->jobs_wq,
					vcuda_usage_try_reserve(u, count));
}

/**
 * vcuda_usage_release_jobs() - Give back reserved jobs.
 * @u: The client's counters.
 * @count: Jobs freed, or reserved and never created.
 *
 * Context: Any context.
 */
void vcuda_usage_release_jobs(struct vcuda_usage *u, u32 count)
{
	atomic_sub(count, &u->jobs);
	if (wq_has_sleeper(&u->jobs_wq))
		wake_up_all(&u->jobs_wq);
}

/**
 * vcuda_usage_create() - Allocate a client's busy-time counters.
 *
 * Return: The counters with one reference, or NULL.
 */
struct vcuda_usage *vcuda_usage_create(void)
{
	struct vcuda_usage *u;
	int i;

	u = kzalloc(sizeof(*u), VCUDA_GFP_CLIENT);
	if (!u)
		return NULL;
	kref_init(&u->refcount);
	for (i = 0; i < VCUDA_ENGINE_CLASSES; i++)
		vcuda_busy_init(&u->busy[i]);
	atomic_set(&u->jobs, 0);
	init_waitqueue_head(&u->jobs_wq);
	return u;
}

static void vcuda_usage_release(struct kref *kref)
{
	kfree(container_of(kref, struct vcuda_usage, refcount));
}

/**
 * vcuda_usage_put() - Drop a reference to a client's counters.
 * @u: Counters.
 */
void vcuda_usage_put(struct vcuda_usage *u)
{
	kref_put(&u->refcount, vcuda_usage_release);
}
