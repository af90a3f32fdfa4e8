/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: wrappers over kernel APIs whose form differs between the 6.12
 * releases the module builds against.
 */
#ifndef _VCUDA_COMPAT_H_
#define _VCUDA_COMPAT_H_

#include <linux/module.h>
#include <drm/drm_file.h>
#include <drm/gpu_scheduler.h>

/* Written by kernel/compat/gen-compat.sh into the build tree. */
#include "vcuda_compat_gen.h"

/**
 * DOC: Kernel API compatibility
 *
 * Debian's 6.12 stable kernels carry backports that change the signatures
 * of scheduler functions between releases (drm_sched_init() took
 * positional arguments in 6.12.107 and takes &struct drm_sched_init_args
 * in 6.12.117). The version number cannot tell which form a kernel has,
 * so the build compiles one small snippet per form (kernel/compat/\*.c)
 * against the kernel headers and writes vcuda_compat_gen.h, which defines
 * VCUDA_HAVE_<SNIPPET> for each snippet that compiled. The inline
 * functions below hide the differences from the rest of the module.
 */

/**
 * vcuda_sched_init() - Initialize a scheduler with one run-queue per
 * priority, no hang limit and no shared score.
 * @sched: Scheduler to initialize.
 * @ops: Backend operations.
 * @submit_wq: Workqueue that runs the scheduler's work items.
 * @credit_limit: Jobs in flight at once.
 * @timeout: Job time-out, in jiffies, or MAX_SCHEDULE_TIMEOUT.
 * @name: Name, for debugging.
 * @dev: Device, for debugging.
 *
 * Return: 0 or a negative error code.
 */
static inline int vcuda_sched_init(struct drm_gpu_scheduler *sched,
				   const struct drm_sched_backend_ops *ops,
				   struct workqueue_struct *submit_wq,
				   u32 credit_limit, long timeout,
				   const char *name, struct device *dev)
{
#ifdef VCUDA_HAVE_SCHED_INIT_ARGS
	const struct drm_sched_init_args args = {
		.ops = ops,
		.submit_wq = submit_wq,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credit_limit,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#else
	return drm_sched_init(sched, ops, submit_wq, DRM_SCHED_PRIORITY_COUNT,
			      credit_limit, 0, timeout, NULL, NULL, name, dev);
#endif
}

/**
 * vcuda_sched_job_init() - Initialize a scheduler job of one credit.
 * @job: Job to initialize.
 * @entity: Entity the job will be pushed to.
 * @owner: Owner, for debugging.
 * @file: DRM file of the submitter, for tracing.
 *
 * Return: 0 or a negative error code.
 */
static inline int vcuda_sched_job_init(struct drm_sched_job *job,
				       struct drm_sched_entity *entity,
				       void *owner, struct drm_file *file)
{
#ifdef VCUDA_HAVE_SCHED_JOB_INIT_CLIENT_ID
	return drm_sched_job_init(job, entity, 1, owner, file->client_id);
#else
	return drm_sched_job_init(job, entity, 1, owner);
#endif
}

/**
 * vcuda_sched_start() - Restart a scheduler stopped by drm_sched_stop().
 * @sched: Scheduler to restart.
 */
static inline void vcuda_sched_start(struct drm_gpu_scheduler *sched)
{
#ifdef VCUDA_HAVE_SCHED_START_ERRNO
	drm_sched_start(sched, 0);
#else
	drm_sched_start(sched);
#endif
}

/*
 * What a time-out handler returns once it has dealt with the job:
 * DRM_GPU_SCHED_STAT_NOMINAL, renamed DRM_GPU_SCHED_STAT_RESET later.
 */
#ifdef VCUDA_HAVE_SCHED_STAT_RESET
#define VCUDA_SCHED_STAT_HANDLED DRM_GPU_SCHED_STAT_RESET
#else
#define VCUDA_SCHED_STAT_HANDLED DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * VCUDA_MODULE_IMPORT_NS(NS) - import symbol namespace NS, whether the
 * kernel's MODULE_IMPORT_NS() takes an identifier or a string literal.
 */
#ifdef VCUDA_HAVE_MODULE_IMPORT_NS_IDENT
#define VCUDA_MODULE_IMPORT_NS(ns) MODULE_IMPORT_NS(ns)
#else
#define VCUDA_MODULE_IMPORT_NS(ns) MODULE_IMPORT_NS(__stringify(ns))
#endif

#endif /* _VCUDA_COMPAT_H_ */
