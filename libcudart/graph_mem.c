// SPDX-License-Identifier: MIT
/*
 * Graph memory nodes in the runtime: cudaMemAllocNodeParams is the
 * driver's CUDA_MEM_ALLOC_NODE_PARAMS with the pointer as a void *.
 */
#include <stdint.h>

#include "rt.h"

_Static_assert(sizeof(struct cudaMemAllocNodeParams) ==
	       sizeof(CUDA_MEM_ALLOC_NODE_PARAMS),
	       "the runtime's node parameters are the driver's");

CUDART_EXPORT cudaError_t cudaGraphAddMemAllocNode(
	cudaGraphNode_t *node, cudaGraph_t graph,
	const cudaGraphNode_t *deps, size_t ndeps,
	struct cudaMemAllocNodeParams *params)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphAddMemAllocNode(
		(CUgraphNode *)node, (CUgraph)graph, (const CUgraphNode *)deps,
		ndeps, (CUDA_MEM_ALLOC_NODE_PARAMS *)params)));
}

CUDART_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(
	cudaGraphNode_t node, struct cudaMemAllocNodeParams *params)
{
	return rt_return(rt_error(cuGraphMemAllocNodeGetParams(
		(CUgraphNode)node, (CUDA_MEM_ALLOC_NODE_PARAMS *)params)));
}

CUDART_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *node,
						  cudaGraph_t graph,
						  const cudaGraphNode_t *deps,
						  size_t ndeps, void *ptr)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuGraphAddMemFreeNode(
		(CUgraphNode *)node, (CUgraph)graph, (const CUgraphNode *)deps,
		ndeps, (uintptr_t)ptr)));
}

CUDART_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node,
							void *ptr)
{
	return rt_return(rt_error(cuGraphMemFreeNodeGetParams(
		(CUgraphNode)node, (CUdeviceptr *)ptr)));
}

CUDART_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuDeviceGraphMemTrim(device)));
}

CUDART_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(
	int device, enum cudaGraphMemAttributeType attr, void *value)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuDeviceGetGraphMemAttribute(
		device, (CUgraphMem_attribute)attr, value)));
}

CUDART_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(
	int device, enum cudaGraphMemAttributeType attr, void *value)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuDeviceSetGraphMemAttribute(
		device, (CUgraphMem_attribute)attr, value)));
}
