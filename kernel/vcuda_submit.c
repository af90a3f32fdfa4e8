// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: job submission.
 */

#include <linux/dma-fence-chain.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_syncobj.h>
#include <drm/gpu_scheduler.h>

#include "vcuda_compat.h"
#include "vcuda_compute.h"
#include "vcuda_copy.h"
#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_submit.h"
#include "vcuda_usage.h"

/**
 * DOC: Submission
 *
 * DRM_VCUDA_SUBMIT queues 1 to 64 jobs on one queue, all or none: every
 * job is built and validated, and everything it needs is looked up and
 * allocated, before the first one is armed. A file has at most
 * ``max_queued_jobs`` jobs alive (submitted and not yet freed); past it,
 * SUBMIT first waits for room, interruptibly, as a full ring would. Then, under the queue's
 * &vcuda_queue.submit_lock, each job is armed, its finished fence is
 * installed in the syncobjs it signals, and it is pushed to the queue's
 * entity; nothing in that phase can fail.
 *
 * Commands are checked against the queue's engine: LAUNCH only on compute
 * queues, COPY and FILL only on copy queues, NOP, TIMESTAMP, SEM_ACQUIRE
 * and SEM_RELEASE anywhere.
 *
 * Sync operations: a wait resolves the syncobj's fence at the point (zero
 * for binary syncobjs, any point for timelines) when the job is built,
 * and the fence becomes a scheduler dependency, so the job does not start
 * before it signals. The point must already have a fence: waiting for a
 * point nobody has submitted yet fails with -EINVAL, as does a wait in a
 * job on a point signalled by an earlier job of the same submission (jobs
 * of one queue run in order anyway). A signal installs the job's
 * finished fence: replacing the fence of a binary syncobj, or adding it at
 * a non-zero point of a timeline with a preallocated &dma_fence_chain.
 */

struct vcuda_signal {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

struct vcuda_pending_job {
	struct vcuda_job *job;
	bool sched_init;
	u32 signal_count;
	struct vcuda_signal *signals;
};

static int vcuda_submit_check_cmds(struct vcuda_queue *q,
				   const struct drm_vcuda_cmd *cmds, u32 count)
{
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		const struct drm_vcuda_cmd *cmd = &cmds[i];

		switch (cmd->op) {
		case DRM_VCUDA_CMD_NOP:
		case DRM_VCUDA_CMD_TIMESTAMP:
		case DRM_VCUDA_CMD_SEM_ACQUIRE:
		case DRM_VCUDA_CMD_SEM_RELEASE:
			ret = vcuda_copy_check_cmd(cmd);
			break;
		case DRM_VCUDA_CMD_COPY:
		case DRM_VCUDA_CMD_FILL:
			ret = q->engine == DRM_VCUDA_ENGINE_COPY ?
			      vcuda_copy_check_cmd(cmd) : -EINVAL;
			break;
		case DRM_VCUDA_CMD_LAUNCH:
			ret = q->engine == DRM_VCUDA_ENGINE_COMPUTE ?
			      vcuda_compute_check_launch(cmd) : -EINVAL;
			break;
		default:
			ret = -EINVAL;
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int vcuda_submit_check_sync(const struct drm_vcuda_sync_op *sync)
{
	u32 type = sync->flags & DRM_VCUDA_SYNC_OP_HANDLE_TYPE_MASK;
	bool signal = sync->flags & DRM_VCUDA_SYNC_OP_SIGNAL;

	if (sync->flags & ~(DRM_VCUDA_SYNC_OP_HANDLE_TYPE_MASK |
			    DRM_VCUDA_SYNC_OP_SIGNAL))
		return -EINVAL;

	switch (type) {
	case DRM_VCUDA_SYNC_OP_HANDLE_TYPE_SYNCOBJ:
		return sync->point ? -EINVAL : 0;
	case DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ:
		return signal && !sync->point ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

static void vcuda_pending_job_fini(struct vcuda_pending_job *pj)
{
	u32 i;

	for (i = 0; i < pj->signal_count; i++) {
		dma_fence_chain_free(pj->signals[i].chain);
		drm_syncobj_put(pj->signals[i].syncobj);
	}
	kfree(pj->signals);

	/* Set only while the job was not pushed. */
	if (pj->job) {
		if (pj->sched_init)
			drm_sched_job_cleanup(&pj->job->base);
		vcuda_job_put(pj->job);
	}
}

/*
 * Copies a job's commands and sync operations in and checks them; counts
 * the signals.
 */
static int vcuda_submit_copy_in(struct vcuda_queue *q,
				const struct drm_vcuda_job *ujob,
				struct drm_vcuda_cmd **cmds_out,
				struct drm_vcuda_sync_op **syncs_out,
				u32 *nsignals)
{
	struct drm_vcuda_sync_op *syncs;
	struct drm_vcuda_cmd *cmds;
	u32 i;
	int ret;

	cmds = vcuda_obj_array_copy(&ujob->cmds, 1, VCUDA_MAX_CMDS,
				    sizeof(*cmds));
	if (IS_ERR(cmds))
		return PTR_ERR(cmds);

	syncs = vcuda_obj_array_copy(&ujob->syncs, 0, VCUDA_MAX_SYNCS,
				     sizeof(*syncs));
	if (IS_ERR(syncs)) {
		ret = PTR_ERR(syncs);
		goto err_free_cmds;
	}

	ret = vcuda_submit_check_cmds(q, cmds, ujob->cmds.count);
	if (ret)
		goto err_free_syncs;

	*nsignals = 0;
	for (i = 0; i < ujob->syncs.count; i++) {
		ret = vcuda_submit_check_sync(&syncs[i]);
		if (ret)
			goto err_free_syncs;
		if (syncs[i].flags & DRM_VCUDA_SYNC_OP_SIGNAL)
			(*nsignals)++;
	}

	*cmds_out = cmds;
	*syncs_out = syncs;
	return 0;

err_free_syncs:
	kvfree(syncs);
err_free_cmds:
	kvfree(cmds);
	return ret;
}

/* Makes the fence at a wait's point a scheduler dependency of the job. */
static int vcuda_submit_add_wait(struct vcuda_pending_job *pj,
				 struct drm_file *file,
				 const struct drm_vcuda_sync_op *sync)
{
	struct dma_fence *fence;
	int ret;

	ret = drm_syncobj_find_fence(file, sync->handle, sync->point, 0,
				     &fence);
	if (ret)
		return ret;
	/* Consumes the reference, even on failure. */
	return drm_sched_job_add_dependency(&pj->job->base, fence);
}

/*
 * Looks up a signal's syncobj and, for a timeline, preallocates the chain
 * node of its point: vcuda_submit_commit() must not fail.
 */
static int vcuda_submit_add_signal(struct vcuda_pending_job *pj,
				   struct drm_file *file,
				   const struct drm_vcuda_sync_op *sync)
{
	struct vcuda_signal *sig = &pj->signals[pj->signal_count];

	sig->syncobj = drm_syncobj_find(file, sync->handle);
	if (!sig->syncobj)
		return -ENOENT;
	/* From here on, vcuda_pending_job_fini() releases it. */
	pj->signal_count++;
	sig->point = sync->point;

	if ((sync->flags & DRM_VCUDA_SYNC_OP_HANDLE_TYPE_MASK) ==
	    DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ) {
		sig->chain = dma_fence_chain_alloc();
		if (!sig->chain)
			return -ENOMEM;
	}
	return 0;
}

static int vcuda_submit_add_syncs(struct vcuda_pending_job *pj,
				  struct drm_file *file,
				  const struct drm_vcuda_sync_op *syncs,
				  u32 count)
{
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		if (syncs[i].flags & DRM_VCUDA_SYNC_OP_SIGNAL)
			ret = vcuda_submit_add_signal(pj, file, &syncs[i]);
		else
			ret = vcuda_submit_add_wait(pj, file, &syncs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Builds one job of a submission. On failure, what @pj already holds is
 * released by vcuda_pending_job_fini().
 */
static int vcuda_submit_prepare(struct vcuda_queue *q, struct drm_file *file,
				const struct drm_vcuda_job *ujob,
				struct vcuda_pending_job *pj)
{
	struct drm_vcuda_sync_op *syncs;
	struct drm_vcuda_cmd *cmds;
	u32 nsignals;
	int ret;

	ret = vcuda_submit_copy_in(q, ujob, &cmds, &syncs, &nsignals);
	if (ret)
		return ret;

	pj->job = vcuda_job_alloc(q, cmds, ujob->cmds.count);
	if (!pj->job) {
		kvfree(cmds);
		ret = -ENOMEM;
		goto out_free_syncs;
	}
	/* The job owns the commands now. */

	ret = vcuda_sched_job_init(&pj->job->base, &q->entity, q, file);
	if (ret)
		goto out_free_syncs;
	pj->sched_init = true;

	if (nsignals) {
		pj->signals = kcalloc(nsignals, sizeof(*pj->signals),
				      VCUDA_GFP_CLIENT);
		if (!pj->signals) {
			ret = -ENOMEM;
			goto out_free_syncs;
		}
	}

	ret = vcuda_submit_add_syncs(pj, file, syncs, ujob->syncs.count);

out_free_syncs:
	kvfree(syncs);
	return ret;
}

/* Arms and pushes a prepared job; cannot fail. submit_lock held. */
static void vcuda_submit_commit(struct vcuda_pending_job *pj)
{
	struct vcuda_job *job = pj->job;
	struct dma_fence *fence;
	u32 i;

	lockdep_assert_held(&job->queue->submit_lock);

	drm_sched_job_arm(&job->base);
	fence = &job->base.s_fence->finished;

	for (i = 0; i < pj->signal_count; i++) {
		struct vcuda_signal *sig = &pj->signals[i];

		if (sig->chain) {
			drm_syncobj_add_point(sig->syncobj, sig->chain, fence,
					      sig->point);
			sig->chain = NULL;
		} else {
			drm_syncobj_replace_fence(sig->syncobj, fence);
		}
	}

	drm_sched_entity_push_job(&job->base);
	/* The scheduler owns the job now. */
	pj->job = NULL;
}

/**
 * vcuda_ioctl_submit() - DRM_IOCTL_VCUDA_SUBMIT.
 * @drm: Device.
 * @data: &struct drm_vcuda_submit.
 * @file: DRM file.
 *
 * Waits, interruptibly, while the file has ``max_queued_jobs`` jobs
 * alive (vcuda_usage_reserve_jobs()); only then enters the device
 * (drm_dev_enter()), so that the wait does not hold up an unplug.
 *
 * Return: 0; -EINVAL for bad arguments, including a wait on a point
 * without a fence; -ENOENT for an unknown queue or syncobj; -EIO if the
 * queue's context has faulted; -EFAULT; -ENOMEM; -ERESTARTSYS (-EINTR)
 * when a signal interrupts the wait for room; -ENODEV once the device is
 * unplugged.
 */
int vcuda_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_vcuda_submit *args = data;
	struct vcuda_pending_job *pjobs = NULL;
	struct drm_vcuda_job *ujobs;
	struct vcuda_queue *q;
	u32 i, count, unused;
	int idx, ret = 0;

	if (args->flags)
		return -EINVAL;

	ujobs = vcuda_obj_array_copy(&args->jobs, 1, VCUDA_MAX_JOBS,
				     sizeof(*ujobs));
	if (IS_ERR(ujobs))
		return PTR_ERR(ujobs);
	count = args->jobs.count;

	q = vcuda_queue_lookup(to_vcuda_file(file), args->queue_id);
	if (!q) {
		ret = -ENOENT;
		goto out_free_ujobs;
	}
	if (vcuda_ctx_faulted(q->ctx)) {
		ret = -EIO;
		goto out_put_queue;
	}

	ret = vcuda_usage_reserve_jobs(q->usage, count);
	if (ret)
		goto out_put_queue;
	unused = count;

	/* After the wait for room, which must not hold up an unplug. */
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_release;
	}

	pjobs = kcalloc(count, sizeof(*pjobs), VCUDA_GFP_CLIENT);
	if (!pjobs) {
		ret = -ENOMEM;
		goto out_exit;
	}

	for (i = 0; i < count && !ret; i++)
		ret = vcuda_submit_prepare(q, file, &ujobs[i], &pjobs[i]);
	/* Each job created holds one reserved job until it is freed. */
	for (i = 0; i < count; i++)
		if (pjobs[i].job)
			unused--;

	if (!ret) {
		mutex_lock(&q->submit_lock);
		if (q->dead)
			ret = -ENOENT;
		else if (vcuda_ctx_faulted(q->ctx))
			ret = -EIO;
		for (i = 0; i < count && !ret; i++)
			vcuda_submit_commit(&pjobs[i]);
		mutex_unlock(&q->submit_lock);
	}

	for (i = 0; i < count; i++)
		vcuda_pending_job_fini(&pjobs[i]);
	kfree(pjobs);
out_exit:
	drm_dev_exit(idx);
out_release:
	vcuda_usage_release_jobs(q->usage, unused);
out_put_queue:
	vcuda_queue_put(q);
out_free_ujobs:
	kvfree(ujobs);
	return ret;
}
