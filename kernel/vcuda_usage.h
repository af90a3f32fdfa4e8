/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: engine busy time and utilization.
 */
#ifndef _VCUDA_USAGE_H_
#define _VCUDA_USAGE_H_

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vcuda_drm.h"

/* Engine classes accounted: the values of &enum drm_vcuda_engine. */
#define VCUDA_ENGINE_CLASSES	(DRM_VCUDA_ENGINE_COPY + 1)

/* The utilization sampling window, in milliseconds. */
#define VCUDA_UTIL_WINDOW_MS	1000

/**
 * struct vcuda_busy - Busy time of one engine class.
 *
 * The engine class is busy while at least one of its units (a launch
 * running on a worker, a copy engine executing a queue) is active.
 */
struct vcuda_busy {
	/** @lock: Protects everything below. */
	spinlock_t lock;

	/** @active: Units active now. */
	u32 active;

	/** @last_util: Percent busy of the last complete window. */
	u32 last_util;

	/** @since: When @active last went from zero to one, ns. */
	u64 since;

	/** @total: Busy time accumulated before @since, ns. */
	u64 total;

	/** @window: Index of the current sampling window. */
	u64 window;

	/** @window_busy: Busy time at the start of @window, ns. */
	u64 window_busy;
};

/**
 * struct vcuda_usage - Busy time of one client (DRM file), per engine
 * class.
 *
 * Reference-counted: queues of the client hold it, and may outlive the
 * file by the time their tear-down takes.
 */
struct vcuda_usage {
	/** @refcount: Held by the file and its queues. */
	struct kref refcount;

	/** @busy: Busy time per &enum drm_vcuda_engine. */
	struct vcuda_busy busy[VCUDA_ENGINE_CLASSES];

	/**
	 * @jobs: Jobs of the client submitted (or being submitted) and not
	 * yet freed, at most ``max_queued_jobs``.
	 */
	atomic_t jobs;

	/** @jobs_wq: Woken when a job of the client is freed. */
	wait_queue_head_t jobs_wq;
};

void vcuda_busy_init(struct vcuda_busy *b);
void vcuda_busy_begin(struct vcuda_busy *b);
void vcuda_busy_end(struct vcuda_busy *b);
u64 vcuda_busy_ns(struct vcuda_busy *b);
u32 vcuda_busy_utilization(struct vcuda_busy *b);

int vcuda_usage_reserve_jobs(struct vcuda_usage *u, u32 count);
void vcuda_usage_release_jobs(struct vcuda_usage *u, u32 count);

struct vcuda_usage *vcuda_usage_create(void);
void vcuda_usage_put(struct vcuda_usage *u);

static inline struct vcuda_usage *vcuda_usage_get(struct vcuda_usage *u)
{
	kref_get(&u->refcount);
	return u;
}

#endif /* _VCUDA_USAGE_H_ */
