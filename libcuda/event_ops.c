// SPDX-License-Identifier: MIT
/*
 * Events as stream work: cuEventRecord and cuStreamWaitEvent, submitted
 * or captured through the one enqueue path (enqueue.c).
 */
#include "api.h"
#include "context.h"
#include "enqueue.h"
#include "event.h"
#include "kmd.h"
#include "stream.h"

/* Enqueues @op on @hstream, held: another thread may destroy it meanwhile. */
static CUresult enqueue_held(struct CUctx_st *ctx, CUstream hstream,
			     const struct stream_op *op)
{
	struct CUstream_st *s = stream_hold(ctx, hstream);
	CUresult res = stream_enqueue(s, op);

	stream_put(s);
	return res;
}

/* Records @op->u.event on @s: the event's next point follows @s's work. */
static CUresult submit_record(struct CUstream_st *s, const struct stream_op *op)
{
	struct drm_vcuda_cmd cmd = { .op = DRM_VCUDA_CMD_NOP };
	struct CUevent_st *e = op->u.event;
	struct timeline_point signal;
	uint64_t stream_point;
	CUresult res;

	if (e->ipc)
		return ipc_event_record(e, s);
	if (e->ts_va) {
		cmd.op = DRM_VCUDA_CMD_TIMESTAMP;
		cmd.u.timestamp.dst = e->ts_va;
	}
	/* The lock orders recordings: points are added in increasing order. */
	pthread_mutex_lock(&e->lock);
	signal = (struct timeline_point){ e->syncobj, e->point + 1 };
	res = stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &cmd, 1, &signal,
			    &stream_point);
	if (res == CUDA_SUCCESS) {
		e->point = signal.point;
		e->source = (struct timeline_point){ s->syncobj, stream_point };
	}
	pthread_mutex_unlock(&e->lock);
	return res;
}

CUDA_EXPORT CUresult cuEventRecord(CUevent e, CUstream hstream)
{
	struct CUctx_st *ctx;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (e->ctx != ctx)
		return CUDA_ERROR_INVALID_HANDLE;
	return enqueue_held(ctx, hstream, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD, .u.event = e,
		.submit = submit_record,
	});
}

/*
 * A stream of one device waiting for an event of another: syncobj
 * handles belong to a device's file, so the event's timeline is shared
 * into the stream's for as long as it takes to copy the fence over.
 */
static CUresult wait_other_device(struct CUstream_st *s, CUevent e,
				  struct timeline_point wait)
{
	int fd = s->ctx->dev->fd;
	CUresult res;
	int err = kmd_syncobj_share(e->ctx->dev->fd, wait.syncobj, fd,
				    &wait.syncobj);

	if (err)
		return result_from_errno(err);
	res = stream_add_wait(s, &wait);
	kmd_syncobj_destroy(fd, wait.syncobj);
	return res;
}

/* @s's next work waits for @op->u.event's last recording. */
static CUresult submit_wait(struct CUstream_st *s, const struct stream_op *op)
{
	struct CUevent_st *e = op->u.event;
	struct timeline_point wait, source;
	CUresult res;

	if (e->ipc)
		return ipc_event_wait(s, e);
	pthread_mutex_lock(&e->lock);
	wait = (struct timeline_point){ e->syncobj, e->point };
	source = e->source;
	pthread_mutex_unlock(&e->lock);
	if (wait.point == 0)
		return CUDA_SUCCESS;
	if (s->ctx->dev != e->ctx->dev)
		return wait_other_device(s, e, wait);
	res = stream_add_wait(s, &wait);
	if (res == CUDA_SUCCESS)
		stream_note_follows(s, &source);
	return res;
}

CUDA_EXPORT CUresult cuStreamWaitEvent(CUstream hstream, CUevent e,
				       unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags & ~CU_EVENT_WAIT_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	/* Waiting for an event of a capture joins it (enqueue.c). */
	return enqueue_held(ctx, hstream, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT, .u.event = e,
		.submit = submit_wait,
	});
}
