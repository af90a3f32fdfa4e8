/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: jobs.
 */
#ifndef _VCUDA_JOB_H_
#define _VCUDA_JOB_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <drm/gpu_scheduler.h>

#include "vcuda_compute.h"
#include "vcuda_copy.h"
#include "vcuda_drm.h"

struct dma_fence;
struct vcuda_queue;

/**
 * struct vcuda_job - A job: commands run in order on a queue.
 */
struct vcuda_job {
	/** @base: The scheduler job. */
	struct drm_sched_job base;

	/**
	 * @refcount: Held by the scheduler until free_job, and briefly by
	 * whoever executes or reports a command of the job.
	 */
	struct kref refcount;

	/** @queue: Queue, referenced. */
	struct vcuda_queue *queue;

	/**
	 * @done_fence: Hardware fence, allocated with the job, initialized
	 * when the job runs, signalled when it leaves the ring.
	 */
	struct dma_fence *done_fence;

	/** @fence_init: Whether @done_fence is initialized. */
	bool fence_init;

	/** @in_ring: On &vcuda_queue.ring (under &vcuda_queue.lock). */
	bool in_ring;

	/** @ring_link: Entry in &vcuda_queue.ring. */
	struct list_head ring_link;

	/** @error: Error to fail the job with, set on its own fault. */
	int error;

	/** @cmd_count: Number of commands. */
	u32 cmd_count;

	/** @next_cmd: Index of the command to run next. */
	u32 next_cmd;

	/**
	 * @progress: How far the copy or fill at @next_cmd got, under
	 * &vcuda_queue.exec_lock.
	 */
	struct vcuda_cmd_progress progress;

	/** @cmds: The commands, validated. */
	struct drm_vcuda_cmd *cmds;

	/** @launch: The launch command the job is at, if any. */
	struct vcuda_launch launch;
};

static inline struct vcuda_job *vcuda_job_get(struct vcuda_job *job)
{
	kref_get(&job->refcount);
	return job;
}

extern const struct drm_sched_backend_ops vcuda_sched_ops;

struct vcuda_job *vcuda_job_alloc(struct vcuda_queue *q,
				  struct drm_vcuda_cmd *cmds, u32 cmd_count);
void vcuda_job_put(struct vcuda_job *job);
void vcuda_job_signal(struct vcuda_job *job, int error);
void vcuda_job_fault(struct vcuda_job *job, u32 kind, u64 addr);
void vcuda_job_launch_done(struct vcuda_job *job, u32 fault_kind,
			   u64 fault_addr);

#endif /* _VCUDA_JOB_H_ */
