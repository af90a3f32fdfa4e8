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
#include "kmd.h"
#include "slots.h"

CUresult event_enter(CUevent e, struct CUctx_st **ctx)
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

CUresult event_wait_recorded(CUevent e)
{
	uint64_t point = recorded_point(e);
	int err;

	if (point == 0)
		return CUDA_SUCCESS;
	err = kmd_syncobj_wait(e->ctx->dev->fd, e->syncobj, point);
	return err ? result_from_errno(err) : ctx_check_fault(e->ctx);
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
	event_wait_recorded(e);
	event_free(e);
	return CUDA_SUCCESS;
}
