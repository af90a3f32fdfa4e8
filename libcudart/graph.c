// SPDX-License-Identifier: MIT
/*
 * Runtime graphs and stream capture over the driver's: cudaGraph_t,
 * cudaGraphNode_t and cudaGraphExec_t are the driver's handles, and the
 * node types, capture modes and update results share their values.
 */
#include <stdint.h>
#include <string.h>

#include "register.h"

CUDART_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags)
{
	RT_CALL(cuGraphCreate((CUgraph *)graph, flags));
}

CUDART_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	RT_CALL(cuGraphDestroy((CUgraph)graph));
}

CUDART_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph)
{
	RT_CALL(cuGraphClone((CUgraph *)clone, (CUgraph)graph));
}

CUDART_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph,
					    cudaGraphNode_t *nodes,
					    size_t *count)
{
	RT_CALL(cuGraphGetNodes((CUgraph)graph, (CUgraphNode *)nodes, count));
}

CUDART_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph,
						cudaGraphNode_t *nodes,
						size_t *count)
{
	RT_CALL(cuGraphGetRootNodes((CUgraph)graph, (CUgraphNode *)nodes,
				    count));
}

CUDART_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
					       enum cudaGraphNodeType *type)
{
	RT_CALL(cuGraphNodeGetType((CUgraphNode)node, (CUgraphNodeType *)type));
}

CUDART_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
						   const cudaGraphNode_t *from,
						   const cudaGraphNode_t *to,
						   const cudaGraphEdgeData *edges,
						   size_t count)
{
	RT_CALL(cuGraphAddDependencies((CUgraph)graph, (const CUgraphNode *)from,
				       (const CUgraphNode *)to,
				       (const CUgraphEdgeData *)edges, count));
}

cudaError_t rt_kernel_node_params(const struct cudaKernelNodeParams *p,
				  CUDA_KERNEL_NODE_PARAMS *d)
{
	struct rt_function *fn;
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return err;
	if (!p)
		return cudaErrorInvalidValue;
	fn = rt_function_find(p->func);
	memset(d, 0, sizeof(*d));
	err = fn ? rt_function_get(fn, &d->func) : cudaErrorInvalidDeviceFunction;
	d->gridDimX = p->gridDim.x;
	d->gridDimY = p->gridDim.y;
	d->gridDimZ = p->gridDim.z;
	d->blockDimX = p->blockDim.x;
	d->blockDimY = p->blockDim.y;
	d->blockDimZ = p->blockDim.z;
	d->sharedMemBytes = p->sharedMemBytes;
	d->kernelParams = p->kernelParams;
	d->extra = p->extra;
	return err;
}

CUDART_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node,
						 cudaGraph_t graph,
						 const cudaGraphNode_t *deps,
						 size_t ndeps,
						 const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS d;
	cudaError_t err = rt_kernel_node_params(p, &d);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphAddKernelNode((CUgraphNode *)node,
						       (CUgraph)graph,
						       (const CUgraphNode *)deps,
						       ndeps, &d)));
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeGetParams(
	cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS d;
	cudaError_t err;

	if (!p)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error(cuGraphKernelNodeGetParams((CUgraphNode)node, &d));
	if (err != cudaSuccess)
		return rt_return(err);
	*p = (struct cudaKernelNodeParams){
		.func = (void *)rt_function_stub(d.func),
		.gridDim = { d.gridDimX, d.gridDimY, d.gridDimZ },
		.blockDim = { d.blockDimX, d.blockDimY, d.blockDimZ },
		.sharedMemBytes = d.sharedMemBytes,
		.kernelParams = d.kernelParams,
		.extra = d.extra,
	};
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeSetParams(
	cudaGraphNode_t node, const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS d;
	cudaError_t err = rt_kernel_node_params(p, &d);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphKernelNodeSetParams((CUgraphNode)node,
							     &d)));
}

CUDART_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(
	cudaGraphExec_t exec, cudaGraphNode_t node,
	const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS d;
	cudaError_t err = rt_kernel_node_params(p, &d);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphExecKernelNodeSetParams(
		(CUgraphExec)exec, (CUgraphNode)node, &d)));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node,
						 cudaGraph_t graph,
						 const cudaGraphNode_t *deps,
						 size_t ndeps,
						 const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D d;
	CUcontext ctx;
	cudaError_t err;

	RT_ENTER_CTX(&ctx);
	err = rt_memcpy3d_params(p, &d);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphAddMemcpyNode((CUgraphNode *)node,
						       (CUgraph)graph,
						       (const CUgraphNode *)deps,
						       ndeps, &d, ctx)));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node,
						   cudaGraph_t graph,
						   const cudaGraphNode_t *deps,
						   size_t ndeps, void *dst,
						   const void *src, size_t count,
						   enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p = {
		.srcPtr = { (void *)src, count, count, 1 },
		.dstPtr = { dst, count, count, 1 },
		.extent = { count, 1, 1 },
		.kind = kind,
	};

	return cudaGraphAddMemcpyNode(node, graph, deps, ndeps, &p);
}

CUDART_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node,
						 cudaGraph_t graph,
						 const cudaGraphNode_t *deps,
						 size_t ndeps,
						 const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS d;
	CUcontext ctx;

	RT_ENTER_CTX(&ctx);
	if (!p)
		return rt_return(cudaErrorInvalidValue);
	d = (CUDA_MEMSET_NODE_PARAMS){
		.dst = (uintptr_t)p->dst, .pitch = p->pitch, .value = p->value,
		.elementSize = p->elementSize, .width = p->width,
		.height = p->height,
	};
	return rt_return(rt_error(cuGraphAddMemsetNode((CUgraphNode *)node,
						       (CUgraph)graph,
						       (const CUgraphNode *)deps,
						       ndeps, &d, ctx)));
}

CUDART_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node,
					       cudaGraph_t graph,
					       const cudaGraphNode_t *deps,
					       size_t ndeps,
					       const struct cudaHostNodeParams *p)
{
	CUDA_HOST_NODE_PARAMS d;

	if (!p)
		return rt_return(cudaErrorInvalidValue);
	d = (CUDA_HOST_NODE_PARAMS){ (CUhostFn)p->fn, p->userData };
	RT_CALL(cuGraphAddHostNode((CUgraphNode *)node, (CUgraph)graph,
				   (const CUgraphNode *)deps, ndeps, &d));
}

CUDART_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node,
						cudaGraph_t graph,
						const cudaGraphNode_t *deps,
						size_t ndeps)
{
	RT_CALL(cuGraphAddEmptyNode((CUgraphNode *)node, (CUgraph)graph,
				    (const CUgraphNode *)deps, ndeps));
}

CUDART_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node,
						     cudaGraph_t graph,
						     const cudaGraphNode_t *deps,
						     size_t ndeps,
						     cudaGraph_t child)
{
	RT_CALL(cuGraphAddChildGraphNode((CUgraphNode *)node, (CUgraph)graph,
					 (const CUgraphNode *)deps, ndeps,
					 (CUgraph)child));
}

CUDART_EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node,
						      cudaGraph_t graph,
						      const cudaGraphNode_t *deps,
						      size_t ndeps,
						      cudaEvent_t event)
{
	RT_CALL(cuGraphAddEventRecordNode((CUgraphNode *)node, (CUgraph)graph,
					  (const CUgraphNode *)deps, ndeps,
					  (CUevent)event));
}

CUDART_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node,
						    cudaGraph_t graph,
						    const cudaGraphNode_t *deps,
						    size_t ndeps,
						    cudaEvent_t event)
{
	RT_CALL(cuGraphAddEventWaitNode((CUgraphNode *)node, (CUgraph)graph,
					(const CUgraphNode *)deps, ndeps,
					(CUevent)event));
}

CUDART_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec,
					       cudaGraph_t graph,
					       unsigned long long flags)
{
	RT_CALL(cuGraphInstantiate((CUgraphExec *)exec, (CUgraph)graph, flags));
}

CUDART_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec,
							cudaGraph_t graph,
							unsigned long long flags)
{
	return cudaGraphInstantiate(exec, graph, flags);
}

CUDART_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec,
					  cudaStream_t stream)
{
	RT_CALL(cuGraphLaunch((CUgraphExec)exec, (CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t exec,
					  cudaStream_t stream)
{
	RT_CALL(cuGraphUpload((CUgraphExec)exec, (CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
	RT_CALL(cuGraphExecDestroy((CUgraphExec)exec));
}

CUDART_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec,
					      cudaGraph_t graph,
					      cudaGraphExecUpdateResultInfo *info)
{
	/* The runtime's result info has the driver's layout and values. */
	RT_CALL(cuGraphExecUpdate((CUgraphExec)exec, (CUgraph)graph,
				  (CUgraphExecUpdateResultInfo *)info));
}

CUDART_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
						 enum cudaStreamCaptureMode mode)
{
	RT_CALL(cuStreamBeginCapture((CUstream)stream,
				     (CUstreamCaptureMode)mode));
}

CUDART_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream,
					       cudaGraph_t *graph)
{
	RT_CALL(cuStreamEndCapture((CUstream)stream, (CUgraph *)graph));
}

CUDART_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
						enum cudaStreamCaptureStatus *status)
{
	RT_CALL(cuStreamIsCapturing((CUstream)stream,
				    (CUstreamCaptureStatus *)status));
}

CUDART_EXPORT cudaError_t cudaStreamGetCaptureInfo(
	cudaStream_t stream, enum cudaStreamCaptureStatus *status,
	unsigned long long *id, cudaGraph_t *graph,
	const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
	size_t *ndeps)
{
	RT_CALL(cuStreamGetCaptureInfo((CUstream)stream,
				       (CUstreamCaptureStatus *)status,
				       (cuuint64_t *)id, (CUgraph *)graph,
				       (const CUgraphNode **)deps,
				       (const CUgraphEdgeData **)edges, ndeps));
}

CUDART_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(
	cudaStream_t stream, cudaGraphNode_t *deps,
	const cudaGraphEdgeData *edges, size_t ndeps, unsigned int flags)
{
	RT_CALL(cuStreamUpdateCaptureDependencies(
	     (CUstream)stream, (CUgraphNode *)deps,
	     (const CUgraphEdgeData *)edges, ndeps, flags));
}

CUDART_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(
	enum cudaStreamCaptureMode *mode)
{
	return rt_return(rt_error(cuThreadExchangeStreamCaptureMode(
		(CUstreamCaptureMode *)mode)));
}
