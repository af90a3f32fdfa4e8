// SPDX-License-Identifier: MIT
/*
 * Events. An event has its own timeline syncobj: recording submits a job
 * on the stream (a TIMESTAMP command into the event's slot, unless timing
 * is disabled) that signals the event's next point, so waiting for an
 * event never depends on its stream staying alive. Elapsed time is the
 * difference of two device timestamps.
 */
#include <stdlib.h>

#include "api.h"
#include "event.h"
#include "context.h"
#include "ctx_limits.h"
#include "enqueue.h"
#include "kmd.h"
#include "mempool.h"
#include "slots.h"
#include "stream.h"

static CUresult event_enter(CUevent e, struct CUctx_st **ctx)
{
	CUresult res = ctx_enter(ctx);

	if (res != CUDA_SUCCESS)
		return res;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* The point of the event's last recording, or 0. */
static uint64_t recorded_point(CUevent e)
{
	uint64_t point;

	pthread_mutex_lock(&e->lock);
	point = e->point;
	pthread_mutex_unlock(&e->lock);
	return point;
}

CUresult event_new(struct CUctx_st *ctx, unsigned int flags,
		   struct CUevent_st **out)
{
	struct CUevent_st *e = calloc(1, sizeof(*e));
	CUresult res;

	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->ctx = ctx;
	e->flags = flags;
	pthread_mutex_init(&e->lock, NULL);
	res = result_from_errno(kmd_syncobj_create(ctx->dev->fd, &e->syncobj));
	if (res == CUDA_SUCCESS && !(flags & CU_EVENT_DISABLE_TIMING)) {
		res = slot_alloc(ctx, &e->ts_va);
		if (res != CUDA_SUCCESS)
			kmd_syncobj_destroy(ctx->dev->fd, e->syncobj);
	}
	if (res != CUDA_SUCCESS) {
		free(e);
		return res;
	}
	*out = e;
	return CUDA_SUCCESS;
}

void event_free(struct CUevent_st *e)
{
	if (e->ipc)
		ipc_event_destroy(e);
	if (e->ts_va)
		slot_free(e->ctx, e->ts_va);
	kmd_syncobj_destroy(e->ctx->dev->fd, e->syncobj);
	pthread_mutex_destroy(&e->lock);
	free(e->capture_nodes);
	free(e);
}

CUDA_EXPORT CUresult cuEventCreate(CUevent *out, unsigned int flags)
{
	const unsigned int known = CU_EVENT_BLOCKING_SYNC |
				   CU_EVENT_DISABLE_TIMING |
				   CU_EVENT_INTERPROCESS;
	struct CUctx_st *ctx;
	struct CUevent_st *e;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	/* An interprocess event cannot time: nothing to compare it with. */
	if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING))
		return CUDA_ERROR_INVALID_VALUE;
	res = event_new(ctx, flags, &e);
	if (res == CUDA_SUCCESS && (flags & CU_EVENT_INTERPROCESS)) {
		res = ipc_event_create(e);
		if (res != CUDA_SUCCESS)
			event_free(e);
	}
	if (res == CUDA_SUCCESS)
		*out = e;
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
	return stream_enqueue(stream_resolve(ctx, hstream), &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD, .u.event = e,
		.submit = submit_record,
	});
}

CUDA_EXPORT CUresult cuEventQuery(CUevent e)
{
	struct CUctx_st *ctx;
	uint64_t point, done;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (e->ipc)
		return ipc_event_query(e);
	point = recorded_point(e);
	if (point == 0)
		return CUDA_SUCCESS;
	if (kmd_syncobj_query(e->ctx->dev->fd, e->syncobj, &done))
		return CUDA_ERROR_UNKNOWN;
	return done < point ? CUDA_ERROR_NOT_READY : ctx_check_fault(e->ctx);
}

static CUresult wait_recorded(CUevent e)
{
	uint64_t point = recorded_point(e);
	int err;

	if (point == 0)
		return CUDA_SUCCESS;
	err = kmd_syncobj_wait(e->ctx->dev->fd, e->syncobj, point);
	return err ? result_from_errno(err) : ctx_check_fault(e->ctx);
}

CUDA_EXPORT CUresult cuEventSynchronize(CUevent e)
{
	struct CUctx_st *ctx;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = e->ipc ? ipc_event_synchronize(e) : wait_recorded(e);
	ctx_flush_printf(e->ctx);
	mempool_release_idle();
	return res;
}

/* The device time @e was recorded at, once it has completed. */
static CUresult timestamp_of(CUevent e, uint64_t *ns)
{
	uint64_t point = recorded_point(e), done;

	if (!e->ts_va || point == 0)
		return CUDA_ERROR_INVALID_HANDLE;
	if (kmd_syncobj_query(e->ctx->dev->fd, e->syncobj, &done))
		return CUDA_ERROR_UNKNOWN;
	if (done < point)
		return CUDA_ERROR_NOT_READY;
	*ns = __atomic_load_n((uint64_t *)(uintptr_t)e->ts_va, __ATOMIC_ACQUIRE);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	struct CUctx_st *ctx;
	uint64_t t0, t1;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!ms)
		return CUDA_ERROR_INVALID_VALUE;
	if (!start || !end)
		return CUDA_ERROR_INVALID_HANDLE;
	res = timestamp_of(start, &t0);
	if (res == CUDA_SUCCESS)
		res = timestamp_of(end, &t1);
	if (res == CUDA_SUCCESS)
		*ms = (float)((double)((int64_t)(t1 - t0)) / 1e6);
	return res;
}

CUDA_EXPORT CUresult cuEventDestroy(CUevent e)
{
	struct CUctx_st *ctx;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* A pending recording still writes the slot: let it land first. */
	wait_recorded(e);
	event_free(e);
	return CUDA_SUCCESS;
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
	return stream_enqueue(stream_resolve(ctx, hstream), &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT, .u.event = e,
		.submit = submit_wait,
	});
}
