/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: the copy engine.
 */
#ifndef _VCUDA_COPY_H_
#define _VCUDA_COPY_H_

#include <linux/types.h>

#include "vcuda_drm.h"

struct vcuda_job;

/**
 * struct vcuda_fault - A fault raised by a command.
 */
struct vcuda_fault {
	/** @kind: &enum drm_vcuda_fault_kind; NONE if there was none. */
	u32 kind;

	/** @addr: Faulting GPU virtual address. */
	u64 addr;
};

/**
 * struct vcuda_cmd_progress - How far a copy or fill got when its time
 * slice ended; all zero when the command starts.
 */
struct vcuda_cmd_progress {
	/** @slice: Slice of a 3D copy the command is at. */
	u64 slice;

	/** @row: Row of the slice (or of the fill) it is at. */
	u64 row;

	/** @offset: Bytes of that row already done. */
	u64 offset;
};

/**
 * enum vcuda_cmd_status - What became of a command run for a while.
 *
 * @VCUDA_CMD_DONE: Done, faulted, or its job was cancelled meanwhile.
 * @VCUDA_CMD_WAIT: A semaphore acquire that is not satisfied yet.
 * @VCUDA_CMD_YIELD: A copy or fill ran out of time; its progress is kept
 *	in the job, and it goes on from there when run again.
 */
enum vcuda_cmd_status {
	VCUDA_CMD_DONE,
	VCUDA_CMD_WAIT,
	VCUDA_CMD_YIELD,
};

int vcuda_copy_check_cmd(const struct drm_vcuda_cmd *cmd);
enum vcuda_cmd_status vcuda_copy_exec_cmd(struct vcuda_job *job,
					  const struct drm_vcuda_cmd *cmd,
					  u64 deadline,
					  struct vcuda_fault *fault);

#endif /* _VCUDA_COPY_H_ */
