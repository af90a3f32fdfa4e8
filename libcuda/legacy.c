// SPDX-License-Identifier: MIT
/*
 * Entry points under their older names. cuda.h maps each name to its
 * newest version (cuCtxDestroy to cuCtxDestroy_v2, ...), so a program
 * built with it never calls these; a program that loads libcuda.so.1 with
 * dlsym and looks every name up (cuda-samples' matrixMulDynlinkJIT) needs
 * them to exist. Those whose arguments are the same as their successor's
 * forward to it, as NVIDIA's driver does; the ones with 32-bit device
 * pointers, and cuCtxCreate, which NVIDIA's driver fails, are in
 * unsupported.def.
 *
 * __CUDA_API_VERSION_INTERNAL makes cuda.h declare the old names, with
 * their old parameters, instead of mapping them.
 */
#define __CUDA_API_VERSION_INTERNAL
#include <cuda.h>

#include "api.h"

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params,
			unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuStreamDestroy_v2(CUstream stream);
CUresult cuEventDestroy_v2(CUevent event);
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end);
CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
			       unsigned int flags);

CUDA_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags,
				    CUdevice dev)
{
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

CUDA_EXPORT CUresult cuCtxDestroy(CUcontext ctx)
{
	return cuCtxDestroy_v2(ctx);
}

CUDA_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx)
{
	return cuCtxPopCurrent_v2(pctx);
}

CUDA_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx)
{
	return cuCtxPushCurrent_v2(ctx);
}

CUDA_EXPORT CUresult cuStreamDestroy(CUstream stream)
{
	return cuStreamDestroy_v2(stream);
}

CUDA_EXPORT CUresult cuEventDestroy(CUevent event)
{
	return cuEventDestroy_v2(event);
}

CUDA_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent start,
					CUevent end)
{
	return cuEventElapsedTime_v2(ms, start, end);
}

CUDA_EXPORT CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr,
					CUipcMemHandle handle,
					unsigned int flags)
{
	return cuIpcOpenMemHandle_v2(pdptr, handle, flags);
}
