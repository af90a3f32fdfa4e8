// SPDX-License-Identifier: MIT
/*
 * Context limits (cuCtxSetLimit / cudaDeviceSetLimit). The values are the
 * context's; the executor reads the stack, printf FIFO and heap sizes at
 * launch.
 */
#include <stdio.h>

#include "api.h"
#include "context.h"
#include "context_hooks.h"
#include "ctx_limits.h"
#include "memory.h"
#include "ptx/ptx.h"

/* Defaults, as CUDA 13 reports them (recorded on an H100). */
static const size_t default_limits[CTX_LIMITS] = {
	[CU_LIMIT_STACK_SIZE] = 1024,
	[CU_LIMIT_PRINTF_FIFO_SIZE] = 8650752,
	[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20,
	[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048,
	[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
	/* No L2 to set aside on vcuda (its attribute says 0 too). */
	[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 0,
};

/* The printf FIFO sizes the driver makes (measured on an H100). */
#define PRINTF_FIFO_MIN (512 << 10)
#define PRINTF_FIFO_ALIGN 256
/* The fewest pending device launches the driver keeps room for. */
#define PENDING_LAUNCHES_MIN 32

static CUresult limits_ctx_init(struct CUctx_st *ctx)
{
	for (int i = 0; i < CTX_LIMITS; i++)
		ctx->limits[i] = default_limits[i];
	return CUDA_SUCCESS;
}

/*
 * CUDA_SUCCESS for a limit vcuda keeps. Device-side synchronization is
 * gone since CUDA 12, so its depth is an unsupported limit, as are the
 * CIG limits of graphics-interop contexts; anything else is invalid.
 */
static CUresult check_limit(CUlimit limit)
{
	if (limit < 0 || limit >= CTX_LIMITS)
		return CUDA_ERROR_INVALID_VALUE;
	if (limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH ||
	    limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED ||
	    limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxGetLimit(size_t *value, CUlimit limit)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS && !value)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		res = check_limit(limit);
	if (res != CUDA_SUCCESS)
		return res;
	*value = ctx->limits[limit];
	return CUDA_SUCCESS;
}

/* Nothing persists in an L2 vcuda does not have: done at once. */
CUDA_EXPORT CUresult cuCtxResetPersistingL2Cache(void)
{
	struct CUctx_st *ctx;

	return ctx_enter(&ctx);
}

CUDA_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS)
		res = check_limit(limit);
	if (res != CUDA_SUCCESS)
		return res;
	switch (limit) {
	case CU_LIMIT_MALLOC_HEAP_SIZE:
		/* Fixed once kernels have run, as in CUDA. */
		if (ctx->heap)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_LIMIT_PRINTF_FIFO_SIZE:
		/* What was printed comes out; the next launch gets the size. */
		res = ctx_synchronize(ctx);
		if (res != CUDA_SUCCESS)
			return res;
		pthread_mutex_lock(&ctx->lock);
		if (ctx->printf_fifo) {
			ptx_printf_fifo_flush(ctx->printf_fifo, NULL, NULL);
			ptx_printf_fifo_destroy(ctx->printf_fifo);
			ctx->printf_fifo = NULL;
		}
		pthread_mutex_unlock(&ctx->lock);
		/* As an H100's driver (580) does, and says so in
		 * cuCtxGetLimit: 8 KiB becomes 512 KiB, 600000 600064. */
		if (value < PRINTF_FIFO_MIN)
			value = PRINTF_FIFO_MIN;
		value = (value + PRINTF_FIFO_ALIGN - 1) &
			~(size_t)(PRINTF_FIFO_ALIGN - 1);
		break;
	case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
		/* A hint between 0 and 128 bytes, a power of two. */
		if (value > 128 || (value & (value - 1)))
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
		/* An H200 (driver 580) keeps at least 32 slots. */
		if (value < PENDING_LAUNCHES_MIN)
			value = PENDING_LAUNCHES_MIN;
		break;
	case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
		/* At most CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE,
		 * 0 on a virtual GPU: no cache to set aside. */
		if (value > 0)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		break;
	}
	ctx->limits[limit] = value;
	return CUDA_SUCCESS;
}

/*
 * The heap lives in pinned host memory: kernels reach it like any
 * allocation of the context, and it is not charged to VRAM, since kernels
 * that never call malloc should not cost device memory.
 */
static CUresult make_heap(struct CUctx_st *ctx)
{
	size_t size = ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE];
	uint64_t va;
	CUresult res;

	if (size == 0)
		return CUDA_SUCCESS;
	res = mem_alloc(ctx, size, ALLOC_HOST, 0, &va);
	if (res != CUDA_SUCCESS)
		return res;
	ctx->heap = ptx_heap_create((void *)(uintptr_t)va, size);
	if (!ctx->heap) {
		mem_free(va);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	return CUDA_SUCCESS;
}

CUresult ctx_launch_resources(struct CUctx_st *ctx)
{
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&ctx->lock);
	if (!ctx->printf_fifo) {
		ctx->printf_fifo = ptx_printf_fifo_create(
			ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE]);
		if (!ctx->printf_fifo)
			res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res == CUDA_SUCCESS && !ctx->heap)
		res = make_heap(ctx);
	pthread_mutex_unlock(&ctx->lock);
	return res;
}

void ctx_flush_printf(struct CUctx_st *ctx)
{
	if (ctx->printf_fifo) {
		ptx_printf_fifo_flush(ctx->printf_fifo, NULL, NULL);
		fflush(stdout);
	}
}

/* After the kernel context: no kernel writes the buffer any more. */
static void limits_ctx_release(struct CUctx_st *ctx)
{
	if (ctx->printf_fifo)
		ptx_printf_fifo_destroy(ctx->printf_fifo);
	if (ctx->heap)
		ptx_heap_destroy(ctx->heap);
	ctx->printf_fifo = NULL;
	ctx->heap = NULL;
}

/* Kernels' last words are written out before the context goes. */
static const struct ctx_hooks limits_hooks = {
	.name = "limits",
	.order = CTX_HOOKS_LIMITS,
	.init = limits_ctx_init,
	.teardown = ctx_flush_printf,
	.release = limits_ctx_release,
};
CTX_HOOKS_REGISTER(limits_hooks)
