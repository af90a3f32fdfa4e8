// SPDX-License-Identifier: MIT
/*
 * Where the host waits for the device: cuStreamSynchronize, cuStreamQuery,
 * cuEventSynchronize and cuCtxSynchronize. Each refuses a capturing stream (and invalidates
 * its capture, as CUDA does), prints what kernels wrote with printf, and
 * lets pools give back memory above their release threshold.
 */
#include "api.h"
#include "capture.h"
#include "context.h"
#include "ctx_limits.h"
#include "event.h"
#include "kmd.h"
#include "mempool.h"
#include "stream.h"

CUDA_EXPORT CUresult cuStreamSynchronize(CUstream handle)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	bool capturing;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Held: another thread may destroy it while this one waits. */
	s = stream_hold(ctx, handle);
	capturing = stream_capturing(s);
	res = capturing ? capture_forbid_sync(s) : stream_wait_idle(s);
	stream_put(s);
	if (capturing)
		return res;
	ctx_flush_printf(ctx);
	/* Pools give memory back at synchronizations (their threshold). */
	mempool_release_idle();
	return res != CUDA_SUCCESS ? res : ctx_check_fault(ctx);
}

CUresult sync_call_wait(struct CUctx_st *ctx, CUstream on)
{
	struct CUstream_st *s;
	CUresult res;

	/* Held: a context going meanwhile frees nothing under the wait. */
	s = stream_hold(ctx, on);
	if (s == ctx->null_stream) {
		stream_put(s);
		return ctx_synchronize(ctx);
	}
	/* The per-thread stream's work already waited for the legacy
	 * stream's earlier work; later legacy work is waited for here. */
	res = stream_wait_idle(ctx->null_stream);
	if (res == CUDA_SUCCESS)
		res = stream_wait_idle(s);
	stream_put(s);
	return res != CUDA_SUCCESS ? res : ctx_check_fault(ctx);
}

CUDA_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx)
		ctx = ctx_current();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	res = ctx_synchronize(ctx);
	ctx_flush_printf(ctx);
	/* Pools give memory back at synchronizations (their threshold). */
	mempool_release_idle();
	return res;
}

CUDA_EXPORT CUresult cuCtxSynchronize(void)
{
	return cuCtxSynchronize_v2(NULL);
}

/* Whether @s has finished all it was given (the ctx's fault aside). */
static CUresult stream_query(struct CUstream_st *s)
{
	uint64_t completed, target;
	int err;

	if (stream_capturing(s))
		return capture_forbid_sync(s);
	pthread_mutex_lock(&s->lock);
	target = s->submitted;
	pthread_mutex_unlock(&s->lock);
	err = kmd_syncobj_query(s->ctx->dev->fd, s->syncobj, &completed);
	if (err)
		return result_from_errno(err);
	return completed < target ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamQuery(CUstream handle)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	s = stream_hold(ctx, handle);
	res = stream_query(s);
	stream_put(s);
	return res != CUDA_SUCCESS ? res : ctx_check_fault(ctx);
}

CUDA_EXPORT CUresult cuEventSynchronize(CUevent e)
{
	struct CUctx_st *ctx;
	CUresult res = event_enter(e, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = e->ipc ? ipc_event_synchronize(e) : event_wait_recorded(e);
	ctx_flush_printf(e->ctx);
	mempool_release_idle();
	return res;
}
