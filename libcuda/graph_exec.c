// SPDX-License-Identifier: MIT
/*
 * Executable graphs. Instantiation copies the graph, checks that it is
 * acyclic and plans which stream each node runs on (graph_sched.c); a
 * launch replays the nodes in a topological order, independent branches
 * on streams of their own, ordered after the launching stream's earlier
 * work and before its later work as CUDA requires.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "capture.h"
#include "context.h"
#include "graph.h"
#include "graph_mem.h"
#include "graph_sched.h"
#include "launch.h"
#include "stream.h"
#include "graph_user_object.h"

struct CUgraphExec_st {
	unsigned long long flags;		/* CUDA_GRAPH_INSTANTIATE_FLAG_* */
	struct CUgraph_st *graph;		/* private copy */
	struct CUgraphNode_st **origin;		/* user node of each copy */
	struct CUgraphNode_st **order;		/* topological order */
	struct graph_sched *sched;		/* streams of the nodes */
	bool serial;				/* has conditional nodes */
};

/*
 * Whether @g has a conditional node. Such a graph runs its nodes one
 * after the other in creation order where edges allow: NVIDIA's GPU
 * evaluates a conditional after the independent nodes created before it
 * (its graphConditionalNodes sample has the kernel that sets the
 * condition and the node that reads it unconnected), so running them on
 * two lanes would race.
 */
static bool has_conditional(const struct CUgraph_st *g)
{
	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			return true;
	return false;
}

/* A topological order of @graph's nodes (Kahn); NULL if it has a cycle. */
static struct CUgraphNode_st **topological_order(const struct CUgraph_st *g)
{
	size_t n = g->count, head = 0, tail = 0;
	struct CUgraphNode_st **order = malloc((n + 1) * sizeof(*order));
	size_t *pending = calloc(n + 1, sizeof(*pending));
	int ok;

	if (!order || !pending)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		pending[i] = g->nodes[i]->ndeps;
		if (!pending[i])
			order[tail++] = g->nodes[i];
	}
	while (head < tail) {
		struct CUgraphNode_st *done = order[head++];

		for (size_t i = 0; i < n; i++)
			for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
				if (g->nodes[i]->deps[d] == done &&
				    --pending[i] == 0)
					order[tail++] = g->nodes[i];
	}
	ok = tail == n;
	free(pending);
	if (ok)
		return order;
fail:
	free(order);
	free(pending);
	return NULL;
}


/*
 * @stream is a stream, never a default-stream handle: the launch's, held
 * by cuGraphLaunch, a lane of the schedule, or a conditional body's.
 */
static CUresult run_node(const struct CUgraphNode_st *n, CUstream stream)
{
	const CUDA_MEMSET_NODE_PARAMS *m = &n->u.memset;

	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return launch_enqueue(stream, &n->u.kernel,
				      n->u.kernel.attrs.cooperative
				      ? PTX_LAUNCH_COOPERATIVE : 0);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuMemcpy3DAsync(&n->u.memcpy, stream);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		if (m->elementSize == 1)
			return cuMemsetD2D8Async(m->dst, m->pitch, (unsigned char)m->value,
						 m->width, m->height, stream);
		if (m->elementSize == 2)
			return cuMemsetD2D16Async(m->dst, m->pitch,
						  (unsigned short)m->value,
						  m->width, m->height, stream);
		return cuMemsetD2D32Async(m->dst, m->pitch, m->value, m->width,
					  m->height, stream);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuLaunchHostFunc(stream, n->u.host.fn, n->u.host.userData);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return graph_run_serial(n->u.child, stream);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuEventRecord(n->u.event, stream);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuStreamWaitEvent(stream, n->u.event, 0);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return graph_mem_launch_alloc(n->u.mem);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return graph_mem_launch_free(n->u.mem_free, stream);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return graph_cond_run(n, stream);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_NOT_SUPPORTED;
	}
}

static CUresult run_order(struct CUgraphNode_st *const *order, size_t count,
			  CUstream stream)
{
	CUresult res = CUDA_SUCCESS;

	for (size_t i = 0; i < count && res == CUDA_SUCCESS; i++)
		res = run_node(order[i], stream);
	return res;
}

CUresult graph_run_serial(const struct CUgraph_st *graph, CUstream stream)
{
	struct CUgraphNode_st **order = topological_order(graph);
	CUresult res;

	if (!order)
		return CUDA_ERROR_INVALID_VALUE;
	res = run_order(order, graph->count, stream);
	free(order);
	return res;
}

/*
 * A conditional node's host step reads its node in @e's graph while it
 * runs, after the launch returned: before that graph goes, the work of
 * the context (the steps among it) is waited for.
 */
static void wait_for_steps(const struct CUgraphExec_st *e)
{
	if (e->serial && ctx_current())
		cuCtxSynchronize();
}

static void exec_free(struct CUgraphExec_st *e)
{
	wait_for_steps(e);
	graph_sched_destroy(e->sched);
	graph_free(e->graph);
	free(e->origin);
	free(e->order);
	free(e);
}

CUDA_EXPORT CUresult cuGraphInstantiate(CUgraphExec *out, CUgraph graph,
					unsigned long long flags)
{
	struct CUgraphExec_st *e;

	if (!out || !graph)
		return CUDA_ERROR_INVALID_VALUE;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* Of the flags only auto-free changes something here (upload and
	 * priorities have nothing to act on). */
	e->flags = flags;
	e->origin = calloc(graph->count + 1, sizeof(*e->origin));
	e->graph = e->origin ? graph_copy(graph) : NULL;
	e->order = e->graph ? topological_order(e->graph) : NULL;
	if (!e->order) {
		CUresult res = e->graph ? CUDA_ERROR_INVALID_VALUE
					: CUDA_ERROR_OUT_OF_MEMORY;

		exec_free(e);
		return res;
	}
	e->sched = graph_sched_create(e->order, e->graph->count);
	if (!e->sched) {
		exec_free(e);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* Node i of the copy is node i of the user's graph. */
	for (size_t i = 0; i < graph->count; i++)
		e->origin[i] = graph->nodes[i];
	e->serial = has_conditional(e->graph);
	graph_cond_prepare(e->graph);
	*out = e;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGraphInstantiateWithParams(
	CUgraphExec *out, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS *params)
{
	CUresult res;

	if (!params)
		return CUDA_ERROR_INVALID_VALUE;
	res = cuGraphInstantiate(out, graph, params->flags);
	params->result_out = res == CUDA_SUCCESS
			     ? CUDA_GRAPH_INSTANTIATE_SUCCESS
			     : CUDA_GRAPH_INSTANTIATE_ERROR;
	params->hErrNode_out = NULL;
	return res;
}

/*
 * A graph whose allocations are still allocated from an earlier launch
 * may not run again (CUDA), unless it frees them itself first.
 */
static CUresult check_allocations(struct CUgraphExec_st *e,
				  struct CUstream_st *s)
{
	for (size_t i = 0; i < e->graph->count; i++) {
		struct CUgraphNode_st *n = e->graph->nodes[i];

		if (n->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
		    graph_mem_free_to_allocate(n->u.mem))
			continue;
		if (!(e->flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH))
			return CUDA_ERROR_INVALID_VALUE;
		graph_mem_launch_free(graph_mem_address(n->u.mem), s);
	}
	return CUDA_SUCCESS;
}

/* Launches @e on @s, which the caller holds: its nodes name it as theirs. */
static CUresult launch_on(struct CUgraphExec_st *e, struct CUstream_st *s)
{
	CUresult res = check_allocations(e, s);

	if (res == CUDA_SUCCESS)
		res = graph_cond_assign_defaults(e->graph, s);
	if (res != CUDA_SUCCESS)
		return res;
	/* Captured into another graph: one stream keeps the capture simple. */
	if (e->serial || stream_capturing(s))
		return run_order(e->order, e->graph->count, s);
	res = graph_sched_run(e->sched, s, run_node);
	if (res != CUDA_SUCCESS)
		return res;
	return graph_hold_user_objects(e->graph, s);
}

CUDA_EXPORT CUresult cuGraphLaunch(CUgraphExec e, CUstream stream)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res;

	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	res = ctx_enter(&ctx);
	if (res != CUDA_SUCCESS)
		return res;
	/*
	 * Held for the whole launch: another thread may destroy the stream
	 * meanwhile. The nodes get the held stream itself as their handle
	 * (the default stream handles resolve to it once, here).
	 */
	s = stream_hold(ctx, stream);
	res = launch_on(e, s);
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuGraphUpload(CUgraphExec e, CUstream stream)
{
	(void)stream;	/* nothing to place on the device ahead of time */
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_EXPORT CUresult cuGraphExecDestroy(CUgraphExec e)
{
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	exec_free(e);
	return CUDA_SUCCESS;
}

/* The copy in @e of the user's node @n, or NULL. */
static struct CUgraphNode_st *copy_of(const struct CUgraphExec_st *e,
				      const struct CUgraphNode_st *n)
{
	for (size_t i = 0; i < e->graph->count; i++)
		if (e->origin[i] == n)
			return e->graph->nodes[i];
	return NULL;
}

CUDA_EXPORT CUresult cuGraphExecKernelNodeSetParams(
	CUgraphExec e, CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct CUgraphNode_st *c;

	if (!e || !n || !p)
		return CUDA_ERROR_INVALID_VALUE;
	c = copy_of(e, n);
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	return cuGraphKernelNodeSetParams(c, p);
}

/* Whether @a's nodes and edges are @b's, index for index. */
static int same_topology(const struct CUgraph_st *a, const struct CUgraph_st *b)
{
	if (a->count != b->count)
		return 0;
	for (size_t i = 0; i < a->count; i++) {
		const struct CUgraphNode_st *x = a->nodes[i], *y = b->nodes[i];

		if (x->type != y->type || x->ndeps != y->ndeps)
			return 0;
		for (size_t d = 0; d < x->ndeps; d++) {
			size_t j = 0, k = 0;

			while (j < a->count && a->nodes[j] != x->deps[d])
				j++;
			while (k < b->count && b->nodes[k] != y->deps[d])
				k++;
			if (j != k)
				return 0;
		}
	}
	return 1;
}

CUDA_EXPORT CUresult cuGraphExecUpdate(CUgraphExec e, CUgraph graph,
				       CUgraphExecUpdateResultInfo *info)
{
	struct CUgraph_st *fresh;
	struct CUgraphNode_st **order;
	struct graph_sched *sched;

	if (!e || !graph || !info)
		return CUDA_ERROR_INVALID_VALUE;
	memset(info, 0, sizeof(*info));
	if (!same_topology(e->graph, graph)) {
		info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
	}
	fresh = graph_copy(graph);
	order = fresh ? topological_order(fresh) : NULL;
	sched = order ? graph_sched_create(order, fresh->count) : NULL;
	if (!sched) {
		free(order);
		graph_free(fresh);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	wait_for_steps(e);
	graph_sched_destroy(e->sched);
	graph_free(e->graph);
	free(e->order);
	e->graph = fresh;
	e->order = order;
	e->sched = sched;
	e->serial = has_conditional(fresh);
	graph_cond_prepare(fresh);
	for (size_t i = 0; i < graph->count; i++)
		e->origin[i] = graph->nodes[i];
	info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
	return CUDA_SUCCESS;
}
