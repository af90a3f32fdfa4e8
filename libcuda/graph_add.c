// SPDX-License-Identifier: MIT
/*
 * cuGraphAddNode: a node of any type vcuda's graphs have, from the tagged
 * union CUgraphNodeParams, through the same paths as the typed
 * cuGraphAdd*Node calls. External semaphores and batch memory
 * operations are not supported (docs/compatibility.md).
 */
#include <string.h>

#include "api.h"
#include "graph.h"

CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph graph,
				const CUgraphNode *deps, size_t ndeps,
				CUDA_MEM_ALLOC_NODE_PARAMS *p);
CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph graph,
			       const CUgraphNode *deps, size_t ndeps,
			       CUdeviceptr dptr);

/* Whether @len bytes from @p are zero (the reserved fields must be). */
static bool all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/* The union's bytes past the member of @used bytes must be zero. */
static bool tail_zero(const CUgraphNodeParams *p, size_t used)
{
	return all_zero((const char *)&p->reserved1 + used,
			sizeof(p->reserved1) - used);
}

static CUresult add_kernel(CUgraphNode *out, CUgraph graph,
			   const CUgraphNode *deps, size_t ndeps,
			   const CUDA_KERNEL_NODE_PARAMS_v3 *k)
{
	CUDA_KERNEL_NODE_PARAMS p;

	_Static_assert(sizeof(p) == sizeof(*k), "v2 and v3 share a layout");
	memcpy(&p, k, sizeof(p));
	return cuGraphAddKernelNode(out, graph, deps, ndeps, &p);
}

static CUresult add_memset(CUgraphNode *out, CUgraph graph,
			   const CUgraphNode *deps, size_t ndeps,
			   const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
	CUDA_MEMSET_NODE_PARAMS p = {
		.dst = m->dst, .pitch = m->pitch, .value = m->value,
		.elementSize = m->elementSize, .width = m->width,
		.height = m->height,
	};

	return cuGraphAddMemsetNode(out, graph, deps, ndeps, &p, m->ctx);
}

static CUresult add_child(CUgraphNode *out, CUgraph graph,
			  const CUgraphNode *deps, size_t ndeps,
			  const CUDA_CHILD_GRAPH_NODE_PARAMS *c)
{
	if (c->ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
		return CUDA_ERROR_NOT_SUPPORTED;
	return cuGraphAddChildGraphNode(out, graph, deps, ndeps, c->graph);
}

/* By type; the params' own checks are the typed calls'. */
static CUresult add_by_type(CUgraphNode *out, CUgraph graph,
			    const CUgraphNode *deps, size_t ndeps,
			    CUgraphNodeParams *p)
{
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return add_kernel(out, graph, deps, ndeps, &p->kernel);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		return cuGraphAddMemcpyNode(out, graph, deps, ndeps,
					    &p->memcpy.copyParams,
					    p->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return add_memset(out, graph, deps, ndeps, &p->memset);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuGraphAddHostNode(out, graph, deps, ndeps,
					  (CUDA_HOST_NODE_PARAMS *)&p->host);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return add_child(out, graph, deps, ndeps, &p->graph);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return cuGraphAddEmptyNode(out, graph, deps, ndeps);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphAddEventWaitNode(out, graph, deps, ndeps,
					       p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphAddEventRecordNode(out, graph, deps, ndeps,
						 p->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return cuGraphAddMemAllocNode(out, graph, deps, ndeps,
					      (CUDA_MEM_ALLOC_NODE_PARAMS *)&p->alloc);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return cuGraphAddMemFreeNode(out, graph, deps, ndeps,
					     p->free.dptr);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		if (!tail_zero(p, sizeof(p->conditional)))
			return CUDA_ERROR_INVALID_VALUE;
		return graph_add_conditional(graph, deps, ndeps,
					     &p->conditional,
					     (struct CUgraphNode_st **)out);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph graph,
				       const CUgraphNode *deps,
				       const CUgraphEdgeData *edges,
				       size_t ndeps, CUgraphNodeParams *p)
{
	if (!out || !graph || !p || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	if (!all_zero(p->reserved0, sizeof(p->reserved0)) || p->reserved2)
		return CUDA_ERROR_INVALID_VALUE;
	if (!graph_edges_default(edges, ndeps))
		return CUDA_ERROR_NOT_SUPPORTED;
	return add_by_type(out, graph, deps, ndeps, p);
}
