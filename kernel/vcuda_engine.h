/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: the copy engines.
 */
#ifndef _VCUDA_ENGINE_H_
#define _VCUDA_ENGINE_H_

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vcuda_drm.h"

struct vcuda_busy;
struct vcuda_device;
struct vcuda_queue;

/* Copy engines of a device: CUDA's asyncEngineCount. */
#define VCUDA_COPY_ENGINES	2

/* Queue priorities, the index of the run lists. */
#define VCUDA_NUM_PRIORITIES	(DRM_VCUDA_QUEUE_PRIORITY_HIGH + 1)

/* How long an engine runs one queue before it serves the others, ns. */
#define VCUDA_COPY_SLICE_NS	(2 * NSEC_PER_MSEC)

/**
 * enum vcuda_engine_state - Where a copy queue is, for the engines.
 *
 * @VCUDA_ENGINE_IDLE: Nothing to run.
 * @VCUDA_ENGINE_QUEUED: In a run list, waiting for an engine.
 * @VCUDA_ENGINE_RUNNING: An engine is running it.
 * @VCUDA_ENGINE_KICKED: Running, and kicked meanwhile: run it again.
 */
enum vcuda_engine_state {
	VCUDA_ENGINE_IDLE,
	VCUDA_ENGINE_QUEUED,
	VCUDA_ENGINE_RUNNING,
	VCUDA_ENGINE_KICKED,
};

/**
 * struct vcuda_copy_engine - One copy engine: a work item on vcuda_wq.
 */
struct vcuda_copy_engine {
	/** @work: Runs queues from the run lists until they are empty. */
	struct work_struct work;

	/** @engines: The device's engines. */
	struct vcuda_engines *engines;

	/** @idle: No work item queued or running (under the lock). */
	bool idle;
};

/**
 * struct vcuda_engines - A device's copy engines and their run lists.
 */
struct vcuda_engines {
	/** @lock: Protects the run lists, the states and @idle flags. */
	spinlock_t lock;

	/** @runnable: Queued copy queues, FIFO, one list per priority. */
	struct list_head runnable[VCUDA_NUM_PRIORITIES];

	/** @engine: The engines. */
	struct vcuda_copy_engine engine[VCUDA_COPY_ENGINES];

	/** @idle_wq: Woken when an engine lets go of a queue. */
	wait_queue_head_t idle_wq;

	/** @busy: The device's copy busy time. */
	struct vcuda_busy *busy;
};

void vcuda_engines_init(struct vcuda_device *vdev);
void vcuda_engine_kick(struct vcuda_queue *q);
void vcuda_engine_remove(struct vcuda_queue *q);

#endif /* _VCUDA_ENGINE_H_ */
