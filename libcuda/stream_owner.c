// SPDX-License-Identifier: MIT
/*
 * What a stream belongs to: cuStreamGetCtx, cuStreamGetCtx_v2 and
 * cuStreamGetDevice (cuda.core asks a stream for its device before a
 * cooperative launch). A created stream answers with the context it was
 * created in, whatever is current; the special handles (0,
 * CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) with the current context, and
 * CUDA_ERROR_INVALID_CONTEXT without one; a NULL output is
 * CUDA_ERROR_INVALID_VALUE even then (cuStreamGetCtx_v2 takes one of its
 * two NULL). vcuda has no green contexts, so cuStreamGetCtx_v2's green
 * context is always NULL.
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

/*
 * The context @handle belongs to, in @ctx. Without an output to answer
 * in (@out false) CUDA_ERROR_INVALID_VALUE, before the context is
 * looked for, as CUDA answers (tests/api/stream_owner_api.expected).
 */
static CUresult stream_owner(CUstream handle, bool out,
			     struct CUctx_st **ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
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
	CUresult res = stream_owner(handle, pctx != NULL, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	*pctx = ctx;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamGetCtx_v2(CUstream handle, CUcontext *pctx,
				       CUgreenCtx *pgreen)
{
	struct CUctx_st *ctx;
	/* either output may be NULL, as in CUDA; not both */
	CUresult res = stream_owner(handle, pctx || pgreen, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (pctx)
		*pctx = ctx;
	if (pgreen)
		*pgreen = NULL;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamGetDevice(CUstream handle, CUdevice *device)
{
	struct CUctx_st *ctx;
	CUresult res = stream_owner(handle, device != NULL, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	*device = ctx->dev->ordinal;
	return CUDA_SUCCESS;
}
