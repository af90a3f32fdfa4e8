// SPDX-License-Identifier: MIT
/*
 * Conditional graph nodes: handles, IF/WHILE/SWITCH nodes and how an
 * executing graph runs them.
 *
 * A handle is the device address of a 4-byte cell of device memory that
 * holds its condition value. cudaGraphSetConditional in a kernel is a
 * store to that cell (a builtin of the PTX path, exec_builtin_graph.c),
 * so the kernels of a graph set it without the driver's help. Cells come
 * from chunks of device memory of the handle's context, one chunk per
 * CELLS_PER_CHUNK handles; a cell lives as long as its context, since
 * copies of a graph (clones, executable graphs) keep using it after the
 * graph that made it is gone.
 *
 * Running a conditional node is a host step on the stream (a host
 * function): it starts when everything the node depends on has
 * completed, reads the cell (the device address is the process's
 * address of the same bytes), runs the chosen body on a stream of its
 * own and waits for it, re-reading the cell for WHILE. The stream's
 * later work waits for the step, so the graph's nodes after the
 * conditional see everything its body did.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "capture.h"
#include "context_hooks.h"
#include "context.h"
#include "graph.h"
#include "module.h"
#include "stream.h"

#define CELLS_PER_CHUNK 1024

struct cond_meta {
	CUcontext ctx;
	unsigned int default_value;
	unsigned int flags;		/* CU_GRAPH_COND_ASSIGN_DEFAULT */
};

struct cond_chunk {
	struct cond_chunk *next;
	CUcontext ctx;
	CUdeviceptr base;
	unsigned int used;
	struct cond_meta meta[CELLS_PER_CHUNK];
};

static pthread_mutex_t chunks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cond_chunk *chunks;

static CUresult new_chunk(CUcontext ctx, struct cond_chunk **out)
{
	struct cond_chunk *c = calloc(1, sizeof(*c));
	CUresult res;

	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = cuCtxPushCurrent(ctx);
	if (res == CUDA_SUCCESS) {
		res = cuMemAlloc(&c->base, CELLS_PER_CHUNK * sizeof(uint32_t));
		cuCtxPopCurrent(NULL);
	}
	if (res != CUDA_SUCCESS) {
		free(c);
		return res;
	}
	c->ctx = ctx;
	c->next = chunks;
	chunks = c;
	*out = c;
	return CUDA_SUCCESS;
}

/* A new cell of @ctx for @meta; its address is the handle. */
static CUresult cell_alloc(const struct cond_meta *meta,
			   CUgraphConditionalHandle *out)
{
	struct cond_chunk *c;
	CUresult res = CUDA_SUCCESS;
	uint32_t *cell;

	pthread_mutex_lock(&chunks_lock);
	for (c = chunks; c; c = c->next)
		if (c->ctx == meta->ctx && c->used < CELLS_PER_CHUNK)
			break;
	if (!c)
		res = new_chunk(meta->ctx, &c);
	if (res == CUDA_SUCCESS) {
		c->meta[c->used] = *meta;
		cell = (uint32_t *)(uintptr_t)c->base + c->used++;
		/* Nothing runs with it yet: a plain store. Without a default
		 * to assign at each launch the value starts at 0, as CUDA's. */
		*cell = meta->flags & CU_GRAPH_COND_ASSIGN_DEFAULT
			? meta->default_value : 0;
		*out = (uintptr_t)cell;
	}
	pthread_mutex_unlock(&chunks_lock);
	return res;
}

/* What @handle was made with; false if it is no handle. */
static bool cell_meta(CUgraphConditionalHandle handle, struct cond_meta *out)
{
	bool found = false;

	pthread_mutex_lock(&chunks_lock);
	for (struct cond_chunk *c = chunks; c && !found; c = c->next) {
		uint64_t i = (handle - c->base) / sizeof(uint32_t);

		if (handle < c->base || handle % sizeof(uint32_t) ||
		    i >= c->used)
			continue;
		*out = c->meta[i];
		found = true;
	}
	pthread_mutex_unlock(&chunks_lock);
	return found;
}

/* A destroyed context's cells go with its memory. */
static void cells_ctx_release(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&chunks_lock);
	for (struct cond_chunk **link = &chunks; *link;) {
		struct cond_chunk *c = *link;

		if (c->ctx == ctx) {
			*link = c->next;
			free(c);
		} else {
			link = &c->next;
		}
	}
	pthread_mutex_unlock(&chunks_lock);
}

static const struct ctx_hooks graph_cond_hooks = {
	.name = "conditional handles",
	.order = CTX_HOOKS_GRAPH_COND,
	.release = cells_ctx_release,
};
CTX_HOOKS_REGISTER(graph_cond_hooks)

CUDA_EXPORT CUresult cuGraphConditionalHandleCreate(
	CUgraphConditionalHandle *out, CUgraph graph, CUcontext ctx,
	unsigned int default_value, unsigned int flags)
{
	struct cond_meta meta = { ctx, default_value, flags };

	if (!out || !graph || !ctx || (flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT))
		return CUDA_ERROR_INVALID_VALUE;
	return cell_alloc(&meta, out);
}

/* --- nodes --- */

static bool size_fits(CUgraphConditionalNodeType type, unsigned int size)
{
	switch (type) {
	case CU_GRAPH_COND_TYPE_IF:
		return size == 1 || size == 2;
	case CU_GRAPH_COND_TYPE_WHILE:
		return size == 1;
	case CU_GRAPH_COND_TYPE_SWITCH:
		return size > 0;
	default:
		return false;
	}
}

static CUresult make_bodies(struct CUgraphNode_st *n)
{
	struct graph_cond *c = &n->u.cond;

	c->bodies = calloc(c->size, sizeof(*c->bodies));
	if (!c->bodies)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (unsigned int i = 0; i < c->size; i++) {
		c->bodies[i] = graph_new();
		if (!c->bodies[i])
			return CUDA_ERROR_OUT_OF_MEMORY;
		c->bodies[i]->owner = n;
	}
	return CUDA_SUCCESS;
}

CUresult graph_add_conditional(struct CUgraph_st *graph,
			       const CUgraphNode *deps, size_t ndeps,
			       CUDA_CONDITIONAL_NODE_PARAMS *p,
			       struct CUgraphNode_st **out)
{
	struct cond_meta meta;
	struct CUgraphNode_st *n;
	CUresult res;

	if (!p || !size_fits(p->type, p->size) || !cell_meta(p->handle, &meta))
		return CUDA_ERROR_INVALID_VALUE;
	/* A handle of another graph is accepted here, as CUDA does. */
	if (p->ctx && p->ctx != meta.ctx)
		return CUDA_ERROR_INVALID_VALUE;
	res = graph_add_node(graph, CU_GRAPH_NODE_TYPE_CONDITIONAL, deps, ndeps,
			     &n);
	if (res != CUDA_SUCCESS)
		return res;
	n->u.cond = (struct graph_cond){ .handle = p->handle, .type = p->type,
					 .size = p->size, .ctx = meta.ctx };
	res = make_bodies(n);
	if (res != CUDA_SUCCESS) {
		graph_drop_last(graph);
		return res;
	}
	p->phGraph_out = n->u.cond.bodies;
	*out = n;
	return CUDA_SUCCESS;
}

void graph_cond_free(struct CUgraphNode_st *n)
{
	for (unsigned int i = 0; n->u.cond.bodies && i < n->u.cond.size; i++)
		graph_free(n->u.cond.bodies[i]);
	free(n->u.cond.bodies);
}

CUresult graph_cond_copy(const struct CUgraphNode_st *n,
			 struct CUgraphNode_st *c)
{
	struct graph_cond *cc = &c->u.cond;

	cc->bodies = calloc(cc->size, sizeof(*cc->bodies));
	if (!cc->bodies)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (unsigned int i = 0; i < cc->size; i++) {
		cc->bodies[i] = graph_copy(n->u.cond.bodies[i]);
		if (!cc->bodies[i]) {
			graph_cond_free(c);	/* the caller owns none */
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		cc->bodies[i]->owner = c;
	}
	return CUDA_SUCCESS;
}

/* --- running --- */

/* The body to run for @value, or NULL for none. */
static const struct CUgraph_st *pick_body(const struct graph_cond *c,
					  uint32_t value)
{
	switch (c->type) {
	case CU_GRAPH_COND_TYPE_IF:
		if (value)
			return c->bodies[0];
		return c->size == 2 ? c->bodies[1] : NULL;
	case CU_GRAPH_COND_TYPE_WHILE:
		return value ? c->bodies[0] : NULL;
	default:
		return value < c->size ? c->bodies[value] : NULL;
	}
}

static uint32_t read_condition(const struct graph_cond *c)
{
	return __atomic_load_n((const uint32_t *)(uintptr_t)c->handle,
			       __ATOMIC_ACQUIRE);
}

/* Runs bodies on @stream until the condition picks none (WHILE) or once. */
static CUresult run_bodies(const struct graph_cond *c, CUstream stream)
{
	CUresult res = CUDA_SUCCESS;
	const struct CUgraph_st *body;

	while (res == CUDA_SUCCESS && (body = pick_body(c, read_condition(c)))) {
		res = graph_run_serial(body, stream);
		if (res == CUDA_SUCCESS)
			res = cuStreamSynchronize(stream);
		if (c->type != CU_GRAPH_COND_TYPE_WHILE)
			break;
	}
	return res;
}

/*
 * The host step. A failure has no caller to go to: a kernel's fault
 * already marks the context, which the launching stream's next
 * synchronization reports.
 */
static void cond_step(void *arg)
{
	const struct CUgraphNode_st *n = arg;
	CUstream stream;

	if (cuCtxPushCurrent(n->u.cond.ctx) != CUDA_SUCCESS)
		return;
	if (cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS) {
		run_bodies(&n->u.cond, stream);
		cuStreamDestroy(stream);
	}
	cuCtxPopCurrent(NULL);
}

CUresult graph_cond_run(const struct CUgraphNode_st *n, CUstream stream)
{
	/* Recorded into another graph, the step would outlive its node. */
	if (stream_capturing(stream))
		return CUDA_ERROR_NOT_SUPPORTED;
	return cuLaunchHostFunc(stream, cond_step, (void *)n);
}

CUresult graph_cond_assign_defaults(const struct CUgraph_st *graph,
				    CUstream stream)
{
	CUresult res = CUDA_SUCCESS;

	for (size_t i = 0; i < graph->count && res == CUDA_SUCCESS; i++) {
		const struct CUgraphNode_st *n = graph->nodes[i];
		const struct graph_cond *c = &n->u.cond;
		struct cond_meta meta;

		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			res = graph_cond_assign_defaults(n->u.child, stream);
		if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		if (cell_meta(c->handle, &meta) &&
		    (meta.flags & CU_GRAPH_COND_ASSIGN_DEFAULT))
			res = cuMemsetD32Async(c->handle, meta.default_value, 1,
					       stream);
		for (unsigned int b = 0; b < c->size && res == CUDA_SUCCESS; b++)
			res = graph_cond_assign_defaults(c->bodies[b], stream);
	}
	return res;
}

/* Starts the compiles of the kernels of @graph and of its nodes' bodies
 * and children (ptx_kernel_prepare), off the conditional's step. */
static void prepare_kernels(const struct CUgraph_st *graph)
{
	for (size_t i = 0; i < graph->count; i++) {
		const struct CUgraphNode_st *n = graph->nodes[i];

		if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
			ptx_kernel_prepare_for(n->u.kernel.func->kernel,
					       n->u.kernel.block);
		else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			prepare_kernels(n->u.child);
		else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			for (unsigned int b = 0; b < n->u.cond.size; b++)
				prepare_kernels(n->u.cond.bodies[b]);
	}
}

void graph_cond_prepare(const struct CUgraph_st *graph)
{
	for (size_t i = 0; i < graph->count; i++) {
		const struct CUgraphNode_st *n = graph->nodes[i];

		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			graph_cond_prepare(n->u.child);
		else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
			for (unsigned int b = 0; b < n->u.cond.size; b++)
				prepare_kernels(n->u.cond.bodies[b]);
	}
}
