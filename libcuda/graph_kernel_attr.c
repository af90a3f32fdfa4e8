// SPDX-License-Identifier: MIT
/*
 * Kernel node attributes (cuGraphKernelNodeSetAttribute, GetAttribute,
 * CopyAttributes): kept in the node's struct graph_kernel, copied with it
 * when a graph is cloned or instantiated. A cooperative node replays as a
 * cooperative launch (graph_exec.c); the others are hints (launch_attr.h).
 */
#include "api.h"
#include "graph.h"
#include "launch_attr.h"

static CUresult kernel_node(CUgraphNode n)
{
	return n && n->type == CU_GRAPH_NODE_TYPE_KERNEL
	       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_EXPORT CUresult cuGraphKernelNodeSetAttribute(CUgraphNode n,
						   CUkernelNodeAttrID id,
						   const CUkernelNodeAttrValue *v)
{
	CUresult res = kernel_node(n);

	if (res == CUDA_SUCCESS && !v)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		res = launch_attr_check(LAUNCH_ATTR_NODE,
					(CUlaunchAttributeID)id, v);
	if (res == CUDA_SUCCESS)
		launch_attr_store(&n->u.kernel.attrs, (CUlaunchAttributeID)id,
				  v);
	return res;
}

CUDA_EXPORT CUresult cuGraphKernelNodeGetAttribute(CUgraphNode n,
						   CUkernelNodeAttrID id,
						   CUkernelNodeAttrValue *v)
{
	const CUlaunchAttributeValue any = { .priority = 0 };
	CUresult res = kernel_node(n);

	if (res == CUDA_SUCCESS && !v)
		res = CUDA_ERROR_INVALID_VALUE;
	/* Which ids a node has; a zero value is valid for each. */
	if (res == CUDA_SUCCESS)
		res = launch_attr_check(LAUNCH_ATTR_NODE,
					(CUlaunchAttributeID)id, &any);
	if (res == CUDA_SUCCESS)
		launch_attr_load(&n->u.kernel.attrs, (CUlaunchAttributeID)id, v);
	return res;
}

CUDA_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst,
						     CUgraphNode src)
{
	CUresult res = kernel_node(dst);

	if (res == CUDA_SUCCESS)
		res = kernel_node(src);
	if (res == CUDA_SUCCESS)
		dst->u.kernel.attrs = src->u.kernel.attrs;
	return res;
}
