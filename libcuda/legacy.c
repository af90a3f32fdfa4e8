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

#include <string.h>

#include "api.h"

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params,
			unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuStreamDestroy_v2(CUstream stream);
CUresult cuEventDestroy_v2(CUevent event);
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end);
CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph graph,
			   const CUgraphNode *deps, const CUgraphEdgeData *edges,
			   size_t ndeps, CUgraphNodeParams *p);
CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph graph,
				 const CUgraphNode *deps, size_t ndeps,
				 const CUDA_KERNEL_NODE_PARAMS_v2 *p);
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n,
				       CUDA_KERNEL_NODE_PARAMS_v2 *p);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n,
				       const CUDA_KERNEL_NODE_PARAMS_v2 *p);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec e, CUgraphNode n,
					   const CUDA_KERNEL_NODE_PARAMS_v2 *p);
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

/* CUDA 12.2's form, without edge data. */
CUDA_EXPORT CUresult cuGraphAddNode(CUgraphNode *out, CUgraph graph,
				    const CUgraphNode *deps, size_t ndeps,
				    CUgraphNodeParams *p)
{
	return cuGraphAddNode_v2(out, graph, deps, NULL, ndeps, p);
}

/* Kernel node parameters before CUkernel: the newer ones' first fields. */
static CUDA_KERNEL_NODE_PARAMS_v2 kernel_params_v2(
	const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS_v2 v2 = { 0 };

	memcpy(&v2, p, sizeof(*p));
	return v2;
}

CUDA_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph graph,
					  const CUgraphNode *deps, size_t ndeps,
					  const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS_v2 v2;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	v2 = kernel_params_v2(p);
	return cuGraphAddKernelNode_v2(out, graph, deps, ndeps, &v2);
}

CUDA_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode n,
						CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS_v2 v2;
	CUresult res;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	res = cuGraphKernelNodeGetParams_v2(n, &v2);
	if (res == CUDA_SUCCESS)
		memcpy(p, &v2, sizeof(*p));
	return res;
}

CUDA_EXPORT CUresult cuGraphKernelNodeSetParams(
	CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS_v2 v2;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	v2 = kernel_params_v2(p);
	return cuGraphKernelNodeSetParams_v2(n, &v2);
}

CUDA_EXPORT CUresult cuGraphExecKernelNodeSetParams(
	CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS_v2 v2;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	v2 = kernel_params_v2(p);
	return cuGraphExecKernelNodeSetParams_v2(e, n, &v2);
}
