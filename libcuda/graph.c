// SPDX-License-Identifier: MIT
/*
 * Building graphs: cuGraphCreate, the cuGraphAdd*Node calls, queries,
 * clones and destruction.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "context.h"
#include "graph.h"
#include "graph_mem.h"
#include "launch_params.h"
#include "module.h"
#include "user_object.h"

struct CUgraph_st *graph_new(void)
{
	return calloc(1, sizeof(struct CUgraph_st));
}

/*
 * Gives @k its own copy of @packed and a kernelParams array pointing into
 * it, as cuGraphKernelNodeGetParams hands out.
 */
static CUresult set_kernel_params(struct graph_kernel *k,
				  const unsigned char *packed)
{
	const struct ptx_kernel_info *info = &k->func->info;

	k->params = malloc(info->param_size + 1);
	k->param_ptrs = calloc(info->param_count + 1, sizeof(void *));
	if (!k->params || !k->param_ptrs) {
		free(k->params);
		free(k->param_ptrs);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(k->params, packed, info->param_size);
	for (uint32_t i = 0; i < info->param_count; i++)
		k->param_ptrs[i] = k->params + info->params[i].offset;
	return CUDA_SUCCESS;
}

static void free_kernel_params(struct graph_kernel *k)
{
	free(k->params);
	free(k->param_ptrs);
}

static void free_node(struct CUgraphNode_st *n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		free_kernel_params(&n->u.kernel);
	else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
		graph_free(n->u.child);
	else if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->u.mem)
		graph_mem_put(n->u.mem);
	else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		graph_cond_free(n);
	free(n->deps);
	free(n);
}

void graph_free(struct CUgraph_st *graph)
{
	if (!graph)
		return;
	for (size_t i = 0; i < graph->count; i++)
		free_node(graph->nodes[i]);
	free(graph->nodes);
	user_refs_free(graph->user_refs);
	free(graph);
}

static int in_graph(const struct CUgraph_st *graph, const struct CUgraphNode_st *n)
{
	return n && n->graph == graph;
}

CUresult graph_add_node(struct CUgraph_st *graph, CUgraphNodeType type,
			const CUgraphNode *deps, size_t ndeps,
			struct CUgraphNode_st **out)
{
	struct CUgraphNode_st *n;

	if (!graph || !out || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < ndeps; i++)
		if (!in_graph(graph, deps[i]))
			return CUDA_ERROR_INVALID_VALUE;
	if (graph->count == graph->cap) {
		size_t cap = graph->cap ? graph->cap * 2 : 16;
		struct CUgraphNode_st **grown =
			realloc(graph->nodes, cap * sizeof(*grown));

		if (!grown)
			return CUDA_ERROR_OUT_OF_MEMORY;
		graph->nodes = grown;
		graph->cap = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n || (ndeps && !(n->deps = malloc(ndeps * sizeof(*n->deps))))) {
		free(n);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	n->graph = graph;
	n->type = type;
	n->ndeps = ndeps;
	if (ndeps)
		memcpy(n->deps, deps, ndeps * sizeof(*deps));
	graph->nodes[graph->count++] = n;
	*out = n;
	return CUDA_SUCCESS;
}

void graph_drop_last(struct CUgraph_st *graph)
{
	free_node(graph->nodes[--graph->count]);
}

CUresult graph_add_kernel(struct CUgraph_st *graph, const CUgraphNode *deps,
			  size_t ndeps, CUfunction f, const uint32_t grid[3],
			  const uint32_t block[3], unsigned int shared,
			  const unsigned char *packed,
			  struct CUgraphNode_st **out)
{
	CUresult res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_KERNEL, deps,
				      ndeps, out);
	struct graph_kernel *k;

	if (res != CUDA_SUCCESS)
		return res;
	k = &(*out)->u.kernel;
	k->func = function_resolve(f);	/* a CUkernel: its function here */
	if (set_kernel_params(k, packed) != CUDA_SUCCESS) {
		graph_drop_last(graph);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(k->grid, grid, sizeof(k->grid));
	memcpy(k->block, block, sizeof(k->block));
	k->shared = shared;
	return CUDA_SUCCESS;
}

/* Index of @n in @graph. */
static size_t index_of(const struct CUgraph_st *graph,
		       const struct CUgraphNode_st *n)
{
	size_t i = 0;

	while (i < graph->count && graph->nodes[i] != n)
		i++;
	return i;
}

/* Copies node @n's parameters into @c (a node of the same type). */
static CUresult copy_params(const struct CUgraphNode_st *n,
			    struct CUgraphNode_st *c)
{
	c->u = n->u;
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		return set_kernel_params(&c->u.kernel, n->u.kernel.params);
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
		c->u.child = graph_copy(n->u.child);
		return c->u.child ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		return graph_cond_copy(n, c);
	/* Every copy of a graph allocates at the same address. */
	if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		graph_mem_get(n->u.mem);
	return CUDA_SUCCESS;
}

/*
 * Copies the nodes first, then the edges: a dependency may come later in
 * the list than its dependent (cuGraphAddDependencies).
 */
struct CUgraph_st *graph_copy(const struct CUgraph_st *graph)
{
	struct CUgraph_st *copy = graph_new();

	if (copy && !user_refs_copy(&copy->user_refs, graph->user_refs))
		goto fail;
	for (size_t i = 0; copy && i < graph->count; i++) {
		const struct CUgraphNode_st *n = graph->nodes[i];
		struct CUgraphNode_st *c;

		if (graph_add_node(copy, n->type, NULL, 0, &c))
			goto fail;
		if (copy_params(n, c) != CUDA_SUCCESS) {
			c->type = CU_GRAPH_NODE_TYPE_EMPTY;	/* nothing owned */
			goto fail;
		}
		c->deps = n->ndeps ? malloc(n->ndeps * sizeof(*c->deps)) : NULL;
		if (n->ndeps && !c->deps)
			goto fail;
		c->ndeps = n->ndeps;
	}
	for (size_t i = 0; copy && i < graph->count; i++) {
		const struct CUgraphNode_st *n = graph->nodes[i];

		for (size_t d = 0; d < n->ndeps; d++)
			copy->nodes[i]->deps[d] =
				copy->nodes[index_of(graph, n->deps[d])];
	}
	return copy;
fail:
	graph_free(copy);
	return NULL;
}

/* --- API --- */

CUDA_EXPORT CUresult cuGraphCreate(CUgraph *out, unsigned int flags)
{
	if (!out || flags)
		return CUDA_ERROR_INVALID_VALUE;
	*out = graph_new();
	return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_EXPORT CUresult cuGraphDestroy(CUgraph graph)
{
	/* A conditional node's body goes with its node. */
	if (!graph || graph->owner)
		return CUDA_ERROR_INVALID_VALUE;
	graph_free(graph);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphClone(CUgraph *out, CUgraph graph)
{
	if (!out || !graph)
		return CUDA_ERROR_INVALID_VALUE;
	*out = graph_copy(graph);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph graph,
					  const CUgraphNode *deps, size_t ndeps,
					  const CUDA_KERNEL_NODE_PARAMS *p)
{
	unsigned char *packed;
	CUresult res;

	if (!p || !p->func)
		return CUDA_ERROR_INVALID_VALUE;	/* CUkernel: not yet */
	res = launch_pack_params(p->func, p->kernelParams, p->extra, &packed);
	if (res != CUDA_SUCCESS)
		return res;
	res = graph_add_kernel(graph, deps, ndeps, p->func,
			       (uint32_t[3]){ p->gridDimX, p->gridDimY, p->gridDimZ },
			       (uint32_t[3]){ p->blockDimX, p->blockDimY, p->blockDimZ },
			       p->sharedMemBytes, packed, out);
	free(packed);
	return res;
}

CUDA_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode n,
						CUDA_KERNEL_NODE_PARAMS *p)
{
	if (!n || !p || n->type != CU_GRAPH_NODE_TYPE_KERNEL)
		return CUDA_ERROR_INVALID_VALUE;
	memset(p, 0, sizeof(*p));
	p->func = n->u.kernel.func;
	p->kernelParams = n->u.kernel.param_ptrs;
	p->gridDimX = n->u.kernel.grid[0];
	p->gridDimY = n->u.kernel.grid[1];
	p->gridDimZ = n->u.kernel.grid[2];
	p->blockDimX = n->u.kernel.block[0];
	p->blockDimY = n->u.kernel.block[1];
	p->blockDimZ = n->u.kernel.block[2];
	p->sharedMemBytes = n->u.kernel.shared;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode n,
						const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct graph_kernel k;
	unsigned char *packed;
	CUresult res;

	if (!n || !p || !p->func || n->type != CU_GRAPH_NODE_TYPE_KERNEL)
		return CUDA_ERROR_INVALID_VALUE;
	k = (struct graph_kernel){
		.func = p->func,
		.grid = { p->gridDimX, p->gridDimY, p->gridDimZ },
		.block = { p->blockDimX, p->blockDimY, p->blockDimZ },
		.shared = p->sharedMemBytes,
	};
	res = launch_pack_params(p->func, p->kernelParams, p->extra, &packed);
	if (res == CUDA_SUCCESS)
		res = set_kernel_params(&k, packed);
	free(packed);
	if (res != CUDA_SUCCESS)
		return res;
	free_kernel_params(&n->u.kernel);
	k.attrs = n->u.kernel.attrs;	/* parameters are not attributes */
	n->u.kernel = k;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph graph,
					  const CUgraphNode *deps, size_t ndeps,
					  const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	CUresult res;

	(void)ctx;	/* copies run in the launching stream's context */
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_MEMCPY, deps, ndeps, out);
	if (res == CUDA_SUCCESS)
		(*out)->u.memcpy = *p;
	return res;
}

CUDA_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p)
{
	if (!n || !p || n->type != CU_GRAPH_NODE_TYPE_MEMCPY)
		return CUDA_ERROR_INVALID_VALUE;
	*p = n->u.memcpy;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph graph,
					  const CUgraphNode *deps, size_t ndeps,
					  const CUDA_MEMSET_NODE_PARAMS *p,
					  CUcontext ctx)
{
	CUresult res;

	(void)ctx;
	if (!p || (p->elementSize != 1 && p->elementSize != 2 &&
		   p->elementSize != 4) || !p->width || !p->height)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_MEMSET, deps, ndeps, out);
	if (res == CUDA_SUCCESS)
		(*out)->u.memset = *p;
	return res;
}

CUDA_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph graph,
					const CUgraphNode *deps, size_t ndeps,
					const CUDA_HOST_NODE_PARAMS *p)
{
	CUresult res;

	if (!p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_HOST, deps, ndeps, out);
	if (res == CUDA_SUCCESS)
		(*out)->u.host = *p;
	return res;
}

CUDA_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode n,
					      CUDA_HOST_NODE_PARAMS *p)
{
	if (!n || !p || n->type != CU_GRAPH_NODE_TYPE_HOST)
		return CUDA_ERROR_INVALID_VALUE;
	*p = n->u.host;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph graph,
					 const CUgraphNode *deps, size_t ndeps)
{
	return graph_add_node(graph, CU_GRAPH_NODE_TYPE_EMPTY, deps, ndeps, out);
}

CUDA_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph graph,
					      const CUgraphNode *deps,
					      size_t ndeps, CUgraph child)
{
	struct CUgraph_st *copy;
	CUresult res;

	if (!child || child == graph)
		return CUDA_ERROR_INVALID_VALUE;
	copy = graph_copy(child);
	if (!copy)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_GRAPH, deps, ndeps, out);
	if (res == CUDA_SUCCESS)
		(*out)->u.child = copy;
	else
		graph_free(copy);
	return res;
}

static CUresult add_event_node(CUgraphNode *out, CUgraph graph,
			       const CUgraphNode *deps, size_t ndeps,
			       CUevent e, CUgraphNodeType type)
{
	CUresult res;

	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_add_node(graph, type, deps, ndeps, out);
	if (res == CUDA_SUCCESS)
		(*out)->u.event = e;
	return res;
}

CUDA_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph graph,
					       const CUgraphNode *deps,
					       size_t ndeps, CUevent e)
{
	return add_event_node(out, graph, deps, ndeps, e,
			      CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUDA_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph graph,
					     const CUgraphNode *deps,
					     size_t ndeps, CUevent e)
{
	return add_event_node(out, graph, deps, ndeps, e,
			      CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

CUDA_EXPORT CUresult cuGraphNodeGetType(CUgraphNode n, CUgraphNodeType *type)
{
	if (!n || !type)
		return CUDA_ERROR_INVALID_VALUE;
	*type = n->type;
	return CUDA_SUCCESS;
}

/* Copies up to *@count of @nodes out, or just counts them. */
static CUresult list_nodes(struct CUgraphNode_st *const *nodes, size_t n,
			   CUgraphNode *out, size_t *count)
{
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	if (out) {
		size_t i;

		for (i = 0; i < n && i < *count; i++)
			out[i] = nodes[i];
		for (; i < *count; i++)
			out[i] = NULL;
		if (n < *count)
			*count = n;
	} else {
		*count = n;
	}
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode *nodes,
				     size_t *count)
{
	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	return list_nodes(graph->nodes, graph->count, nodes, count);
}

CUDA_EXPORT CUresult cuGraphGetRootNodes(CUgraph graph, CUgraphNode *nodes,
					 size_t *count)
{
	struct CUgraphNode_st **roots;
	size_t n = 0;
	CUresult res;

	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	roots = malloc((graph->count + 1) * sizeof(*roots));
	if (!roots)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < graph->count; i++)
		if (!graph->nodes[i]->ndeps)
			roots[n++] = graph->nodes[i];
	res = list_nodes(roots, n, nodes, count);
	free(roots);
	return res;
}

CUDA_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode n,
						CUgraphNode *deps,
						CUgraphEdgeData *edges,
						size_t *count)
{
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	if (edges && count)
		memset(edges, 0, *count * sizeof(*edges));
	return list_nodes(n->deps, n->ndeps, deps, count);
}

bool graph_edges_default(const CUgraphEdgeData *edges, size_t count)
{
	static const CUgraphEdgeData plain;

	for (size_t i = 0; edges && i < count; i++)
		if (memcmp(&edges[i], &plain, sizeof(plain)))
			return false;
	return true;
}

CUDA_EXPORT CUresult cuGraphAddDependencies(CUgraph graph, const CUgraphNode *from,
					    const CUgraphNode *to,
					    const CUgraphEdgeData *edges,
					    size_t count)
{
	if (!graph || (count && (!from || !to)))
		return CUDA_ERROR_INVALID_VALUE;
	if (!graph_edges_default(edges, count))
		return CUDA_ERROR_NOT_SUPPORTED;
	for (size_t i = 0; i < count; i++) {
		struct CUgraphNode_st *t = to[i];
		struct CUgraphNode_st **grown;

		if (!in_graph(graph, from[i]) || !in_graph(graph, t) ||
		    from[i] == t)
			return CUDA_ERROR_INVALID_VALUE;
		grown = realloc(t->deps, (t->ndeps + 1) * sizeof(*grown));
		if (!grown)
			return CUDA_ERROR_OUT_OF_MEMORY;
		t->deps = grown;
		t->deps[t->ndeps++] = from[i];
	}
	return CUDA_SUCCESS;
}
