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

int vcuda_copy_check_cmd(const struct drm_vcuda_cmd *cmd);
bool vcuda_copy_exec_cmd(struct vcuda_job *job, const struct drm_vcuda_cmd *cmd,
			 struct vcuda_fault *fault);

#endif /* _VCUDA_COPY_H_ */
