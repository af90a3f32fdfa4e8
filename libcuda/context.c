// SPDX-License-Identifier: MIT
/*
 * The per-thread context stack, a context's sticky error and the cuCtx*
 * calls that read or switch contexts. Creation, destruction and primary
 * contexts are context_life.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "context.h"
#include "kmd.h"

#define CTX_STACK_MAX 64

static _Thread_local struct CUctx_st *ctx_stack[CTX_STACK_MAX];
static _Thread_local int ctx_depth;

CUresult ctx_push(struct CUctx_st *ctx)
{
	if (ctx_depth == CTX_STACK_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx_stack[ctx_depth++] = ctx;
	return CUDA_SUCCESS;
}

void ctx_stack_forget(struct CUctx_st *ctx)
{
	for (int i = 0; i < ctx_depth; i++)
		if (ctx_stack[i] == ctx)
			ctx_stack[i] = NULL;
}

void ctx_stack_drop_forgotten(void)
{
	if (ctx_depth && !ctx_stack[ctx_depth - 1])
		ctx_depth--;
}

struct CUctx_st *ctx_current(void)
{
	return ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
}

CUresult ctx_enter(struct CUctx_st **out)
{
	CUresult res = driver_check_init();
	struct CUctx_st *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	ctx = ctx_current();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	res = atomic_load(&ctx->sticky);
	if (res != CUDA_SUCCESS)
		return res;
	*out = ctx;
	return CUDA_SUCCESS;
}

CUresult fault_kind_result(uint32_t kind)
{
	switch (kind) {
	case DRM_VCUDA_FAULT_NONE:
		return CUDA_SUCCESS;
	case DRM_VCUDA_FAULT_UNMAPPED:
	case DRM_VCUDA_FAULT_READ_ONLY:
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	case DRM_VCUDA_FAULT_MISALIGNED:
		return CUDA_ERROR_MISALIGNED_ADDRESS;
	case DRM_VCUDA_FAULT_ASSERT:
		return CUDA_ERROR_ASSERT;
	case DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION:
		return CUDA_ERROR_ILLEGAL_INSTRUCTION;
	case DRM_VCUDA_FAULT_TIMEOUT:
		return CUDA_ERROR_LAUNCH_TIMEOUT;
	case DRM_VCUDA_FAULT_RESOURCES:
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	case DRM_VCUDA_FAULT_TRAP:
	case DRM_VCUDA_FAULT_RESET:
	case DRM_VCUDA_FAULT_LAUNCH:
	default:
		return CUDA_ERROR_LAUNCH_FAILED;
	}
}

void ctx_set_fault(struct CUctx_st *ctx, CUresult error, const char *message)
{
	CUresult none = CUDA_SUCCESS;

	if (atomic_compare_exchange_strong(&ctx->sticky, &none, error)) {
		snprintf(ctx->fault_message, sizeof(ctx->fault_message), "%s",
			 message);
		debug_log("context %u faulted: %s", ctx->ctx_id, message);
	}
	/* A faulted context's launches are void: none runs on. */
	atomic_store(&ctx->kill, true);
}

CUresult ctx_check_fault(struct CUctx_st *ctx)
{
	struct drm_vcuda_ctx_get_state state;
	CUresult res = atomic_load(&ctx->sticky);

	if (res != CUDA_SUCCESS)
		return res;
	if (kmd_ctx_get_state(ctx->dev->fd, ctx->ctx_id, &state))
		return CUDA_ERROR_UNKNOWN;
	if (state.fault_kind != DRM_VCUDA_FAULT_NONE) {
		char message[96];

		snprintf(message, sizeof(message),
			 "kernel reported fault %u at 0x%llx", state.fault_kind,
			 (unsigned long long)state.fault_addr);
		ctx_set_fault(ctx, fault_kind_result(state.fault_kind), message);
	}
	return atomic_load(&ctx->sticky);
}

/* --- The context stack --- */

CUDA_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = ctx_current();
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx) {
		if (ctx_depth)
			ctx_depth--;
		return CUDA_SUCCESS;
	}
	if (!ctx_is_live(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!ctx_depth)
		ctx_depth = 1;
	ctx_stack[ctx_depth - 1] = ctx;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx)	/* NVIDIA's driver says so (tests/api/legacy_api) */
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx_is_live(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	return ctx_push(ctx);
}

CUDA_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx_depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	ctx_depth--;
	if (pctx)
		*pctx = ctx_stack[ctx_depth];
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
	CUresult res = driver_check_init();
	struct CUctx_st *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	ctx = ctx_current();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	*device = ctx->dev->ordinal;
	return CUDA_SUCCESS;
}

/* CUDA 12.9's forms name the context; NULL is the current one. */
CUDA_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS || !ctx)
		return res != CUDA_SUCCESS ? res : cuCtxGetDevice(device);
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	*device = ctx->dev->ordinal;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
	struct CUctx_st *ctx;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	ctx = ctx_current();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	*flags = ctx->flags;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx)
		ctx = ctx_current();
	if (!ctx || !ctx_is_live(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	*version = 3020;	/* the v2 context API, as CUDA reports */
	return CUDA_SUCCESS;
}
