/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: hand-off of launches to userspace compute workers.
 */
#ifndef _VCUDA_COMPUTE_H_
#define _VCUDA_COMPUTE_H_

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "vcuda_drm.h"
#include "vcuda_engine.h"

struct drm_device;
struct drm_file;
struct vcuda_job;

/**
 * enum vcuda_launch_state - Where a job's current launch command is.
 *
 * @VCUDA_LAUNCH_IDLE: Not posted: the job runs another command, or none.
 * @VCUDA_LAUNCH_READY: Posted, waiting for a worker.
 * @VCUDA_LAUNCH_TAKEN: Handed to a worker by COMPUTE_WAIT.
 * @VCUDA_LAUNCH_REPORTED: Reported by COMPUTE_DONE; the job's queue has
 *	not yet moved past it.
 */
enum vcuda_launch_state {
	VCUDA_LAUNCH_IDLE,
	VCUDA_LAUNCH_READY,
	VCUDA_LAUNCH_TAKEN,
	VCUDA_LAUNCH_REPORTED,
};

/**
 * struct vcuda_launch - The launch command a job is at.
 *
 * Embedded in &struct vcuda_job: a job has at most one launch posted at a
 * time. Linked in &vcuda_compute.ready or &vcuda_compute.taken while
 * READY or TAKEN, under &vcuda_compute.lock.
 */
struct vcuda_launch {
	/** @link: Entry in a list of &struct vcuda_compute. */
	struct list_head link;

	/** @job: The job, alive while the launch is posted. */
	struct vcuda_job *job;

	/** @id: Token given to the worker; unique in the context. */
	u64 id;

	/** @descriptor: From &struct drm_vcuda_cmd_launch. */
	u64 descriptor;

	/** @queue_id: Queue of the job. */
	u32 queue_id;

	/** @priority: Priority of that queue. */
	u32 priority;

	/** @state: &enum vcuda_launch_state. */
	enum vcuda_launch_state state;

	/** @taker: Thread group ID of the worker that took it, if TAKEN. */
	pid_t taker;
};

/**
 * struct vcuda_compute - A context's compute hand-off.
 */
struct vcuda_compute {
	/** @lock: Protects everything below. */
	spinlock_t lock;

	/** @ready: Posted launches, FIFO, one list per queue priority. */
	struct list_head ready[VCUDA_NUM_PRIORITIES];

	/** @taken: Launches handed to workers, not yet reported. */
	struct list_head taken;

	/** @last_launch_id: The last launch ID given out. */
	u64 last_launch_id;

	/**
	 * @error: Zero while workers may wait; -EIO once the context has
	 * faulted, -ENOENT once it is destroyed.
	 */
	int error;

	/** @wq: Where workers wait, exclusively: one wake-up per launch. */
	wait_queue_head_t wq;
};

void vcuda_compute_init(struct vcuda_compute *c);
void vcuda_compute_post(struct vcuda_compute *c, struct vcuda_launch *l);
void vcuda_compute_withdraw(struct vcuda_compute *c, struct vcuda_launch *l);
void vcuda_compute_stop(struct vcuda_compute *c, int error);
void vcuda_compute_abandon(struct vcuda_compute *c, pid_t taker);
int vcuda_compute_check_launch(const struct drm_vcuda_cmd *cmd);

int vcuda_ioctl_compute_wait(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vcuda_ioctl_compute_done(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* _VCUDA_COMPUTE_H_ */
