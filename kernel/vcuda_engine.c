// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: the copy engines: which copy queue runs when.
 */

#include <drm/drm_drv.h>

#include "vcuda_drv.h"
#include "vcuda_engine.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_ring.h"
#include "vcuda_usage.h"

/**
 * DOC: Copy engines
 *
 * A device has %VCUDA_COPY_ENGINES copy engines (the copy_engine_count of
 * the device query, CUDA's asyncEngineCount), shared by the copy queues of
 * every context. An engine is a work item on vcuda_wq that executes the
 * commands of one queue's ring at a time (vcuda_queue_exec()).
 *
 * A copy queue with something to execute (a job reached its ring, a
 * semaphore it waits for may have changed) is *kicked*: it joins the
 * device's run list of its priority, and an idle engine is started. An
 * engine takes the first queue of the highest non-empty priority, runs it
 * for a time slice of %VCUDA_COPY_SLICE_NS (a copy or fill that is still
 * running when the slice ends yields between two of its chunks, and goes
 * on from there next time, vcuda_copy.c), and puts it back at the tail of
 * its list if it still has work. So at most %VCUDA_COPY_ENGINES
 * copy queues run at once, higher priorities first, and queues of one
 * priority share the engines round-robin. A queue is never run by two
 * engines at once: its &vcuda_queue.engine_state says whether it is idle,
 * queued, running, or running and kicked again (then it is queued again
 * when its slice ends).
 *
 * An engine counts as busy (vcuda_usage.c) while it runs a queue, for the
 * device and for the queue's client.
 *
 * The run lists hold no reference to queues: a queue's tear-down
 * (vcuda_queue_fini_work()) takes it out with vcuda_engine_remove(), which
 * waits for an engine running it to let go; by then the queue is dead and
 * its ring empty, so nothing kicks it again. An engine's work item holds
 * a reference to the DRM device from the kick that starts it to its very
 * last statement, so the device outlives it.
 */

/* Starts an idle engine, if there is one; lock held. */
static void vcuda_engine_wake(struct vcuda_engines *es)
{
	struct vcuda_device *vdev = container_of(es, struct vcuda_device,
						 copy_engines);
	int i;

	lockdep_assert_held(&es->lock);

	for (i = 0; i < VCUDA_COPY_ENGINES; i++) {
		struct vcuda_copy_engine *e = &es->engine[i];

		if (e->idle) {
			e->idle = false;
			drm_dev_get(&vdev->drm);
			queue_work(vcuda_wq, &e->work);
			return;
		}
	}
}

/* The next queue to run, taken off its run list; lock held. */
static struct vcuda_queue *vcuda_engine_pick(struct vcuda_engines *es)
{
	struct vcuda_queue *q;
	int prio;

	lockdep_assert_held(&es->lock);

	for (prio = VCUDA_NUM_PRIORITIES - 1; prio >= 0; prio--) {
		q = list_first_entry_or_null(&es->runnable[prio],
					     struct vcuda_queue, engine_link);
		if (q) {
			list_del_init(&q->engine_link);
			q->engine_state = VCUDA_ENGINE_RUNNING;
			return q;
		}
	}
	return NULL;
}

static void vcuda_engine_work(struct work_struct *work)
{
	struct vcuda_copy_engine *e = container_of(work,
						   struct vcuda_copy_engine,
						   work);
	struct vcuda_engines *es = e->engines;
	struct vcuda_device *vdev = container_of(es, struct vcuda_device,
						 copy_engines);

	for (;;) {
		struct vcuda_busy *client;
		struct vcuda_queue *q;
		bool more;

		spin_lock(&es->lock);
		q = vcuda_engine_pick(es);
		if (!q) {
			e->idle = true;
			spin_unlock(&es->lock);
			break;
		}
		spin_unlock(&es->lock);

		client = &q->usage->busy[DRM_VCUDA_ENGINE_COPY];
		vcuda_busy_begin(es->busy);
		vcuda_busy_begin(client);
		more = vcuda_queue_exec(q, VCUDA_COPY_SLICE_NS);
		vcuda_busy_end(client);
		vcuda_busy_end(es->busy);

		spin_lock(&es->lock);
		if (more || q->engine_state == VCUDA_ENGINE_KICKED) {
			q->engine_state = VCUDA_ENGINE_QUEUED;
			list_add_tail(&q->engine_link, &es->runnable[q->priority]);
		} else {
			q->engine_state = VCUDA_ENGINE_IDLE;
		}
		spin_unlock(&es->lock);
		/* q may be freed as soon as it is idle and this is seen. */
		wake_up_all(&es->idle_wq);
		cond_resched();
	}

	/* The last thing this work item does: it may free the device. */
	drm_dev_put(&vdev->drm);
}

/**
 * vcuda_engines_init() - Initialize a device's copy engines.
 * @vdev: Device.
 */
void vcuda_engines_init(struct vcuda_device *vdev)
{
	struct vcuda_engines *es = &vdev->copy_engines;
	int i;

	spin_lock_init(&es->lock);
	for (i = 0; i < VCUDA_NUM_PRIORITIES; i++)
		INIT_LIST_HEAD(&es->runnable[i]);
	for (i = 0; i < VCUDA_COPY_ENGINES; i++) {
		INIT_WORK(&es->engine[i].work, vcuda_engine_work);
		es->engine[i].engines = es;
		es->engine[i].idle = true;
	}
	init_waitqueue_head(&es->idle_wq);
	es->busy = &vdev->busy[DRM_VCUDA_ENGINE_COPY];
}

/**
 * vcuda_engine_kick() - A copy queue has something to execute.
 * @q: Copy queue, alive.
 *
 * Context: Any process context; takes the engines' spinlock.
 */
void vcuda_engine_kick(struct vcuda_queue *q)
{
	struct vcuda_engines *es = &q->vdev->copy_engines;

	spin_lock(&es->lock);
	switch (q->engine_state) {
	case VCUDA_ENGINE_IDLE:
		q->engine_state = VCUDA_ENGINE_QUEUED;
		list_add_tail(&q->engine_link, &es->runnable[q->priority]);
		vcuda_engine_wake(es);
		break;
	case VCUDA_ENGINE_RUNNING:
		q->engine_state = VCUDA_ENGINE_KICKED;
		break;
	default:
		break;
	}
	spin_unlock(&es->lock);
}

static bool vcuda_engine_let_go(struct vcuda_engines *es, struct vcuda_queue *q)
{
	bool idle;

	spin_lock(&es->lock);
	if (q->engine_state == VCUDA_ENGINE_QUEUED) {
		list_del_init(&q->engine_link);
		q->engine_state = VCUDA_ENGINE_IDLE;
	}
	idle = q->engine_state == VCUDA_ENGINE_IDLE;
	spin_unlock(&es->lock);
	return idle;
}

/**
 * vcuda_engine_remove() - Take a dead copy queue away from the engines.
 * @q: Queue, killed: nothing kicks it any more.
 *
 * Waits for an engine running the queue to finish with it.
 */
void vcuda_engine_remove(struct vcuda_queue *q)
{
	struct vcuda_engines *es = &q->vdev->copy_engines;

	wait_event(es->idle_wq, vcuda_engine_let_go(es, q));
}
