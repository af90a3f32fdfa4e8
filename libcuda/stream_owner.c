// SPDX-License-Identifier: MIT
/*
 * What a stream belongs to: cuStreamGetCtx, cuStreamGetCtx_v2 and
 * cuStreamGetDevice (cuda.core asks a stream for its device before a
 * cooperative launch). A created stream answers with the context it was
 * created in, whatever is current; the special handles (0,
 * CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) with the current context, and
 * CUDA_ERROR_INVALID_CONTEXT without one. vcuda has no green contexts,
 * so cuStreamGetCtx_v2's green context is always NULL.
 */
#include "api.h"
#include "context.h"
#include "device.h"
#include "stream.h"

static bool is_special(CUstream handle)
{
	return !handle || handle == CU_STREAM_LEGACY ||
	       handle == CU_STREAM_PER_THREAD;
}

/* The context @handle belongs to, in @ctx. */
static CUresult stream_owner(CUstream handle, struct CUctx_st **ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!is_special(handle)) {
		/* held while read: a concurrent cuStreamDestroy frees nothing
		 * under us (stream_hold, whose context the handle names) */
		struct CUstream_st *s = stream_get(handle);

		*ctx = s->ctx;
		stream_put(s);
		return CUDA_SUCCESS;
	}
	*ctx = ctx_current();
	return *ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUDA_EXPORT CUresult cuStreamGetCtx(CUstream handle, CUcontext *pctx)
{
	struct CUctx_st *ctx;
	CUresult res = stream_owner(handle, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = ctx;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamGetCtx_v2(CUstream handle, CUcontext *pctx,
				       CUgreenCtx *pgreen)
{
	struct CUctx_st *ctx;
	CUresult res = stream_owner(handle, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx || !pgreen)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = ctx;
	*pgreen = NULL;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamGetDevice(CUstream handle, CUdevice *device)
{
	struct CUctx_st *ctx;
	CUresult res = stream_owner(handle, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	*device = ctx->dev->ordinal;
	return CUDA_SUCCESS;
}
