// SPDX-License-Identifier: MIT
/*
 * Graph allocations as nodes: cuGraphAddMemAllocNode, cuGraphAddMemFreeNode
 * and their GetParams, and cuMemAllocAsync/cuMemFreeAsync on a capturing
 * stream, which become such nodes. The allocations themselves are
 * graph_mem.c's.
 */
#include <string.h>

#include "api.h"
#include "capture.h"
#include "device.h"
#include "graph.h"
#include "graph_mem.h"
#include "graph_mem_node.h"
#include "mempool_internal.h"

/* Whether @graph holds the allocation node of @m. */
static bool allocates(const struct graph_mem *m, const void *graph)
{
	const struct CUgraph_st *g = graph;

	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
		    g->nodes[i]->u.mem == m)
			return true;
	return false;
}

/* --- Capture --- */

CUresult graph_mem_capture_alloc(struct CUstream_st *s, uint64_t size,
				 CUmemoryPool pool, uint64_t *va)
{
	CUmemAccessDesc access[MAX_DEVICES];
	struct graph_mem *m;
	size_t n = 0;
	CUresult res;

	/* The pool's properties and peer access become the node's. */
	pthread_mutex_lock(&pool->lock);
	for (int i = 0; i < MAX_DEVICES; i++)
		if (pool->access[i] && i != pool->dev->ordinal)
			access[n++] = (CUmemAccessDesc){
				.location = { CU_MEM_LOCATION_TYPE_DEVICE, i },
				.flags = pool->access[i],
			};
	res = graph_mem_new(pool->dev, size, &pool->props, access, n, &m);
	pthread_mutex_unlock(&pool->lock);
	if (res != CUDA_SUCCESS)
		return res;
	res = capture_mem_alloc(s, m);
	if (res != CUDA_SUCCESS) {
		graph_mem_put(m);
		return res;
	}
	*va = graph_mem_address(m);
	return CUDA_SUCCESS;
}

CUresult graph_mem_capture_free(struct CUstream_st *s, uint64_t va)
{
	CUresult res = graph_mem_claim_free_node(va, allocates, capture_graph(s));

	return res == CUDA_SUCCESS ? capture_mem_free(s, va) : res;
}

/* --- Nodes --- */

static CUresult check_node_params(const CUDA_MEM_ALLOC_NODE_PARAMS *p,
				  struct vc_device **dev)
{
	const CUmemPoolProps *props = &p->poolProps;

	if (!p->bytesize || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    (p->accessDescCount && !p->accessDescs) ||
	    p->accessDescCount > (size_t)device_count())
		return CUDA_ERROR_INVALID_VALUE;
	/* Graph allocations cannot be shared with other processes. */
	if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
		return CUDA_ERROR_NOT_SUPPORTED;
	/* No such device: an invalid value, as NVIDIA's driver says. */
	*dev = device_get(props->location.id);
	if (!*dev)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < p->accessDescCount; i++) {
		const CUmemAccessDesc *d = &p->accessDescs[i];

		if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
		    !device_get(d->location.id) ||
		    (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
		     d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		     d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
			return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph graph,
					    const CUgraphNode *deps,
					    size_t ndeps,
					    CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	struct vc_device *dev;
	struct graph_mem *m;
	CUresult res;

	if (!p || !out || !graph)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_node_params(p, &dev);
	if (res == CUDA_SUCCESS)
		res = graph_mem_new(dev, p->bytesize, &p->poolProps, p->accessDescs,
			      p->accessDescCount, &m);
	if (res != CUDA_SUCCESS)
		return res;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_MEM_ALLOC, deps, ndeps,
			     out);
	if (res != CUDA_SUCCESS) {
		graph_mem_put(m);
		return res;
	}
	(*out)->u.mem = m;
	p->dptr = graph_mem_address(m);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode n,
						  CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	if (!n || !p || n->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		return CUDA_ERROR_INVALID_VALUE;
	graph_mem_node_params(n->u.mem, p);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph graph,
					   const CUgraphNode *deps,
					   size_t ndeps, CUdeviceptr dptr)
{
	CUresult res;

	if (!out || !graph)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_mem_claim_free_node(dptr, allocates, graph);
	if (res != CUDA_SUCCESS)
		return res;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_MEM_FREE, deps, ndeps,
			     out);
	if (res == CUDA_SUCCESS)
		(*out)->u.mem_free = dptr;
	return res;
}

CUDA_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode n,
						 CUdeviceptr *dptr)
{
	if (!n || !dptr || n->type != CU_GRAPH_NODE_TYPE_MEM_FREE)
		return CUDA_ERROR_INVALID_VALUE;
	*dptr = n->u.mem_free;
	return CUDA_SUCCESS;
}
