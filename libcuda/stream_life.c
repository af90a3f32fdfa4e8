// SPDX-License-Identifier: MIT
/*
 * A stream's end, and the streams of a context: the null stream is made
 * with the context and every stream still there goes with it. A stream
 * that goes first tells those that keep pointers to it: a capture it
 * joined, and pools and graph allocations that remember it freed a block.
 * Its memory, queues and timelines go with its last reference (stream.h):
 * another thread's cuCtxSynchronize or call may still hold it.
 */
#include "api.h"
#include "capture.h"
#include "context.h"
#include "context_hooks.h"
#include "graph_mem.h"
#include "mempool.h"
#include "stream.h"
#include "stream_life.h"

void stream_forget(struct CUstream_st *s)
{
	capture_stream_gone(s);
	/* What it freed in stream order is free now (it went idle first). */
	mempool_stream_gone(s);
	graph_mem_stream_gone(s);
}

void stream_destroy(struct CUstream_st *s)
{
	stream_wait_idle(s);
	stream_unlink(s);
	stream_forget(s);
	stream_put(s);
}

CUDA_EXPORT CUresult cuStreamDestroy(CUstream handle)
{
	struct CUctx_st *ctx;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	/* A stream knows its context: none need be current (numba's
	 * finalizers destroy streams after popping theirs, as CUDA allows). */
	if (handle && handle != CU_STREAM_LEGACY && handle != CU_STREAM_PER_THREAD) {
		stream_destroy(handle);
		return CUDA_SUCCESS;
	}
	/* The default streams are not the program's to destroy. */
	res = ctx_enter(&ctx);
	return res != CUDA_SUCCESS ? res : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult streams_ctx_init(struct CUctx_st *ctx)
{
	/* A failed init is released like the others (streams_ctx_release). */
	if (pthread_cond_init(&ctx->streams_released, NULL))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return stream_create(ctx, 0, 0, &ctx->null_stream);
}

static void streams_ctx_teardown(struct CUctx_st *ctx)
{
	per_thread_streams_ctx_gone(ctx);
	while (ctx->streams)
		stream_destroy(ctx->streams);
	ctx->null_stream = NULL;
	/* A stream another thread still holds goes when it lets go. */
	pthread_mutex_lock(&ctx->lock);
	while (ctx->streams_alive)
		pthread_cond_wait(&ctx->streams_released, &ctx->lock);
	pthread_mutex_unlock(&ctx->lock);
}

static void streams_ctx_release(struct CUctx_st *ctx)
{
	pthread_cond_destroy(&ctx->streams_released);
}

static const struct ctx_hooks streams_hooks = {
	.name = "streams",
	.order = CTX_HOOKS_STREAMS,
	.init = streams_ctx_init,
	.teardown = streams_ctx_teardown,
	.release = streams_ctx_release,
};
CTX_HOOKS_REGISTER(streams_hooks)
