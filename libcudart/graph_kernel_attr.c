// SPDX-License-Identifier: MIT
/*
 * Kernel node attributes: a cudaKernelNodeAttrValue is the driver's
 * CUkernelNodeAttrValue (libcuda/graph_kernel_attr.c).
 */
#include "rt.h"

CUDART_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(
	cudaGraphNode_t node, cudaKernelNodeAttrID id,
	const cudaKernelNodeAttrValue *v)
{
	RT_CALL(cuGraphKernelNodeSetAttribute((CUgraphNode)node,
					      (CUkernelNodeAttrID)id,
					      (const CUkernelNodeAttrValue *)v));
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(
	cudaGraphNode_t node, cudaKernelNodeAttrID id,
	cudaKernelNodeAttrValue *v)
{
	RT_CALL(cuGraphKernelNodeGetAttribute((CUgraphNode)node,
					      (CUkernelNodeAttrID)id,
					      (CUkernelNodeAttrValue *)v));
}

CUDART_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(
	cudaGraphNode_t dst, cudaGraphNode_t src)
{
	RT_CALL(cuGraphKernelNodeCopyAttributes((CUgraphNode)dst,
						(CUgraphNode)src));
}
