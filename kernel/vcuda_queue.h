/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: queues.
 */
#ifndef _VCUDA_QUEUE_H_
#define _VCUDA_QUEUE_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/gpu_scheduler.h>

#include "vcuda_engine.h"

struct drm_device;
struct drm_file;
struct vcuda_ctx;
struct vcuda_device;
struct vcuda_file;
struct vcuda_usage;

/* Longest pause between two looks at an unsatisfied semaphore. */
#define VCUDA_SEM_POLL_MAX_MS	250

/* Jobs a queue's scheduler lets run at once (on the ring). */
#define VCUDA_QUEUE_CREDITS	64

/**
 * struct vcuda_queue - A queue of jobs on one engine of a context.
 */
struct vcuda_queue {
	/** @refcount: Held by the file's table, jobs and tear-down. */
	struct kref refcount;

	/** @vdev: Device; the queue holds a reference to its DRM device. */
	struct vcuda_device *vdev;

	/** @ctx: Context, referenced. */
	struct vcuda_ctx *ctx;

	/** @usage: Busy time of the queue's client, referenced. */
	struct vcuda_usage *usage;

	/** @id: ID in the file. */
	u32 id;

	/** @engine: &enum drm_vcuda_engine. */
	u32 engine;

	/** @priority: &enum drm_vcuda_queue_priority. */
	u32 priority;

	/** @ctx_link: Entry in &vcuda_ctx.queues. */
	struct list_head ctx_link;

	/** @name: Name of the scheduler. */
	char name[16];

	/** @sched: The queue's own scheduler. */
	struct drm_gpu_scheduler sched;

	/** @entity: The scheduler's only entity. */
	struct drm_sched_entity entity;

	/**
	 * @submit_lock: Keeps arming and pushing of jobs in order, and
	 * submitters out once the queue is killed.
	 */
	struct mutex submit_lock;

	/** @lock: Protects @ring, @dead and the jobs' ring state. */
	spinlock_t lock;

	/** @ring: Jobs given to the hardware, in order: &vcuda_job.ring_link. */
	struct list_head ring;

	/** @dead: Destroyed: jobs that reach the ring are cancelled. */
	bool dead;

	/** @exec_lock: Serializes executing the ring's commands. */
	struct mutex exec_lock;

	/** @exec_work: Executes a compute queue's ring on vcuda_wq. */
	struct work_struct exec_work;

	/** @poll_work: Kicks the ring again later, for semaphores. */
	struct delayed_work poll_work;

	/**
	 * @engine_state: &enum vcuda_engine_state of a copy queue, under
	 * the device's &vcuda_engines.lock.
	 */
	u32 engine_state;

	/** @engine_link: Entry in a run list of &struct vcuda_engines. */
	struct list_head engine_link;

	/** @sem_waiting: The ring's head waits for a semaphore. */
	bool sem_waiting;

	/**
	 * @sem_wait_start: Jiffies when the ring's head started waiting for
	 * a semaphore, or zero; under @exec_lock.
	 */
	unsigned long sem_wait_start;

	/** @fence_context: Fence context of the hardware fences. */
	u64 fence_context;

	/** @fence_seqno: Last hardware fence sequence number. */
	u64 fence_seqno;

	/** @job_count: Jobs of the queue not yet freed. */
	atomic_t job_count;

	/** @idle_wq: Woken when @job_count drops to zero. */
	wait_queue_head_t idle_wq;

	/** @fini_work: Tears the scheduler down once the queue is killed. */
	struct work_struct fini_work;
};

static inline struct vcuda_queue *vcuda_queue_get(struct vcuda_queue *q)
{
	kref_get(&q->refcount);
	return q;
}

void vcuda_queue_put(struct vcuda_queue *q);
struct vcuda_queue *vcuda_queue_lookup(struct vcuda_file *vfile, u32 id);
void vcuda_queue_kill(struct vcuda_queue *q);
void vcuda_queue_kick(struct vcuda_queue *q);
void vcuda_queue_kick_sem_waiters(struct vcuda_ctx *ctx);

int vcuda_ioctl_queue_create(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vcuda_ioctl_queue_destroy(struct drm_device *drm, void *data,
			      struct drm_file *file);

#endif /* _VCUDA_QUEUE_H_ */
