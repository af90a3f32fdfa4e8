// SPDX-License-Identifier: MIT
/*
 * Stream capture. A capture owns the graph being built and the streams
 * taking part (the one that began it, and those that joined by waiting
 * for an event recorded in it: CUDA's fork/join). Each of those streams
 * has a set of "current" nodes: a node added through the stream depends
 * on them, and becomes the stream's only current node.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "capture.h"
#include "context.h"
#include "event.h"
#include "graph.h"
#include "stream.h"

#define CAPTURE_MAX_STREAMS 64

struct capture {
	uint64_t id;
	CUstreamCaptureMode mode;
	struct CUgraph_st *graph;
	struct CUstream_st *origin;
	bool to_graph;		/* into the caller's graph, which it keeps */
	struct CUstream_st *streams[CAPTURE_MAX_STREAMS];
	size_t nstreams;
	bool invalidated;
	struct capture *next;
};

/* Captures in progress, so that events can tell whether theirs still is. */
static pthread_mutex_t captures_lock = PTHREAD_MUTEX_INITIALIZER;
static struct capture *captures;
static uint64_t next_capture_id = 1;
static _Thread_local CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

bool stream_capturing(const struct CUstream_st *s)
{
	return s && s->capture;
}

static void set_deps(struct CUstream_st *s, struct CUgraphNode_st *const *nodes,
		     size_t n)
{
	struct CUgraphNode_st **copy = n ? malloc(n * sizeof(*copy)) : NULL;

	if (n && !copy) {
		s->capture->invalidated = true;	/* out of memory */
		return;
	}
	if (n)
		memcpy(copy, nodes, n * sizeof(*copy));
	free(s->capture_deps);
	s->capture_deps = copy;
	s->ncapture_deps = n;
}

/* After adding @node through @s: it is the stream's only current node. */
static CUresult added(struct CUstream_st *s, CUresult res,
		      struct CUgraphNode_st *node)
{
	if (res != CUDA_SUCCESS) {
		s->capture->invalidated = true;
		return res;
	}
	set_deps(s, &node, 1);
	return CUDA_SUCCESS;
}

static CUresult add_node(struct CUstream_st *s, CUgraphNodeType type,
			 struct CUgraphNode_st **node)
{
	if (s->capture->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	return graph_add_node(s->capture->graph, type,
			      (const CUgraphNode *)s->capture_deps,
			      s->ncapture_deps, node);
}

CUresult capture_kernel(struct CUstream_st *s, struct CUfunc_st *f,
			const uint32_t grid[3], const uint32_t block[3],
			unsigned int shared, const unsigned char *packed)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res;

	if (s->capture->invalidated)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	res = graph_add_kernel(s->capture->graph,
			       (const CUgraphNode *)s->capture_deps,
			       s->ncapture_deps, f, grid, block, shared, packed,
			       &node);
	if (res == CUDA_SUCCESS)
		launch_attrs_captured(&node->u.kernel.attrs, &s->attrs,
				      s->priority);
	return added(s, res, node);
}

CUresult capture_memcpy(struct CUstream_st *s, const CUDA_MEMCPY3D *p)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res = add_node(s, CU_GRAPH_NODE_TYPE_MEMCPY, &node);

	if (res == CUDA_SUCCESS)
		node->u.memcpy = *p;
	return added(s, res, node);
}

CUresult capture_memset(struct CUstream_st *s, const CUDA_MEMSET_NODE_PARAMS *p)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res = add_node(s, CU_GRAPH_NODE_TYPE_MEMSET, &node);

	if (res == CUDA_SUCCESS)
		node->u.memset = *p;
	return added(s, res, node);
}

CUresult capture_host(struct CUstream_st *s, CUhostFn fn, void *data)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res = add_node(s, CU_GRAPH_NODE_TYPE_HOST, &node);

	if (res == CUDA_SUCCESS)
		node->u.host = (CUDA_HOST_NODE_PARAMS){ fn, data };
	return added(s, res, node);
}

CUresult capture_mem_alloc(struct CUstream_st *s, struct graph_mem *m)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res = add_node(s, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &node);

	if (res == CUDA_SUCCESS)
		node->u.mem = m;
	return added(s, res, node);
}

CUresult capture_mem_free(struct CUstream_st *s, CUdeviceptr va)
{
	struct CUgraphNode_st *node = NULL;
	CUresult res = add_node(s, CU_GRAPH_NODE_TYPE_MEM_FREE, &node);

	if (res == CUDA_SUCCESS)
		node->u.mem_free = va;
	return added(s, res, node);
}

static struct capture *find_capture(uint64_t id)
{
	struct capture *c;

	pthread_mutex_lock(&captures_lock);
	for (c = captures; c && c->id != id; c = c->next)
		;
	pthread_mutex_unlock(&captures_lock);
	return c;
}

CUresult capture_event_record(struct CUstream_st *s, CUevent e)
{
	struct CUgraphNode_st **copy = NULL;

	if (s->ncapture_deps) {
		copy = malloc(s->ncapture_deps * sizeof(*copy));
		if (!copy)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(copy, s->capture_deps, s->ncapture_deps * sizeof(*copy));
	}
	pthread_mutex_lock(&e->lock);
	free(e->capture_nodes);
	e->capture_nodes = copy;
	e->ncapture_nodes = s->ncapture_deps;
	e->capture_id = s->capture->id;
	pthread_mutex_unlock(&e->lock);
	return CUDA_SUCCESS;
}

bool event_captured(CUevent e)
{
	return e->capture_id && find_capture(e->capture_id);
}

/* Adds @nodes to @s's current nodes, skipping ones it has. */
static void merge_deps(struct CUstream_st *s, struct CUgraphNode_st **nodes,
		       size_t n)
{
	struct CUgraphNode_st **all = malloc((s->ncapture_deps + n + 1) *
					     sizeof(*all));
	size_t count = s->ncapture_deps;

	if (!all) {
		s->capture->invalidated = true;
		return;
	}
	if (count)
		memcpy(all, s->capture_deps, count * sizeof(*all));
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < count && all[j] != nodes[i])
			j++;
		if (j == count)
			all[count++] = nodes[i];
	}
	set_deps(s, all, count);
	free(all);
}

CUresult capture_wait_event(struct CUstream_st *s, CUevent e)
{
	struct capture *c = find_capture(e->capture_id);
	CUresult res = CUDA_SUCCESS;

	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	if (s->capture && s->capture != c)
		return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	if (!s->capture) {
		/* The stream joins the capture (a fork). */
		if (c->nstreams == CAPTURE_MAX_STREAMS)
			return CUDA_ERROR_OUT_OF_MEMORY;
		c->streams[c->nstreams++] = s;
		s->capture = c;
		set_deps(s, NULL, 0);
	}
	pthread_mutex_lock(&e->lock);
	merge_deps(s, e->capture_nodes, e->ncapture_nodes);
	pthread_mutex_unlock(&e->lock);
	return res;
}

CUresult capture_forbid_sync(struct CUstream_st *s)
{
	s->capture->invalidated = true;
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* --- API --- */

/* Starts a capture of @s into @graph (NULL: a new graph), as below. */
static CUresult begin_capture_on(struct CUstream_st *s,
				 CUstreamCaptureMode mode,
				 struct CUgraph_st *graph,
				 const CUgraphNode *deps, size_t ndeps)
{
	struct capture *c;

	/* The legacy default stream cannot be captured. */
	if (s == s->ctx->null_stream)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if (s->capture)
		return CUDA_ERROR_ILLEGAL_STATE;
	for (size_t i = 0; i < ndeps; i++)
		if (!deps[i] || deps[i]->graph != graph)
			return CUDA_ERROR_INVALID_VALUE;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->graph = graph ? graph : graph_new())) {
		free(c);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	c->to_graph = graph != NULL;
	c->mode = mode;
	c->origin = s;
	c->streams[c->nstreams++] = s;
	pthread_mutex_lock(&captures_lock);
	c->id = next_capture_id++;
	c->next = captures;
	captures = c;
	pthread_mutex_unlock(&captures_lock);
	s->capture = c;
	set_deps(s, (struct CUgraphNode_st *const *)deps, ndeps);
	return CUDA_SUCCESS;
}

/*
 * Starts a capture of @handle into @graph (NULL: a new graph), its first
 * node depending on @deps.
 */
static CUresult begin_capture(CUstream handle, CUstreamCaptureMode mode,
			      struct CUgraph_st *graph,
			      const CUgraphNode *deps, size_t ndeps)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (mode > CU_STREAM_CAPTURE_MODE_RELAXED || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, handle);
	res = begin_capture_on(s, mode, graph, deps, ndeps);
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuStreamBeginCapture(CUstream handle,
					  CUstreamCaptureMode mode)
{
	return begin_capture(handle, mode, NULL, NULL, 0);
}

CUDA_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream handle, CUgraph graph,
						 const CUgraphNode *deps,
						 const CUgraphEdgeData *edges,
						 size_t ndeps,
						 CUstreamCaptureMode mode)
{
	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	if (!graph_edges_default(edges, ndeps))
		return CUDA_ERROR_NOT_SUPPORTED;
	return begin_capture(handle, mode, graph, deps, ndeps);
}

struct CUgraph_st *capture_graph(const struct CUstream_st *s)
{
	return s->capture->graph;
}

void capture_stream_gone(struct CUstream_st *s)
{
	struct capture *c = s->capture;

	if (!c)
		return;
	/* A stream that joined may go; its nodes stay in the graph. */
	for (size_t i = 0; i < c->nstreams; i++) {
		if (c->streams[i] == s) {
			c->streams[i] = c->streams[--c->nstreams];
			break;
		}
	}
	if (s == c->origin)
		c->invalidated = true;
	s->capture = NULL;
}

static void end_capture(struct capture *c)
{
	pthread_mutex_lock(&captures_lock);
	for (struct capture **link = &captures; *link; link = &(*link)->next) {
		if (*link == c) {
			*link = c->next;
			break;
		}
	}
	pthread_mutex_unlock(&captures_lock);
	for (size_t i = 0; i < c->nstreams; i++) {
		set_deps(c->streams[i], NULL, 0);
		c->streams[i]->capture = NULL;
	}
	free(c);
}

/*
 * A capture into the caller's graph gives that graph back (@out may be
 * NULL) and, invalidated, leaves it as it is: its nodes are the caller's.
 */
static CUresult end_capture_on(struct CUstream_st *s, CUgraph *out)
{
	struct capture *c = s->capture;
	CUresult res;

	if (!out && !(c && c->to_graph))
		return CUDA_ERROR_INVALID_VALUE;
	if (!c)
		return CUDA_ERROR_ILLEGAL_STATE;
	if (c->origin != s)
		return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	res = c->invalidated ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
			     : CUDA_SUCCESS;
	if (c->invalidated && !c->to_graph)
		graph_free(c->graph);
	if (out)
		*out = c->invalidated && !c->to_graph ? NULL : c->graph;
	end_capture(c);
	return res;
}

CUDA_EXPORT CUresult cuStreamEndCapture(CUstream handle, CUgraph *out)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, handle);
	res = end_capture_on(s, out);
	stream_put(s);
	return res;
}

/* What cuStreamGetCaptureInfo tells of @s (pointers may be NULL). */
static void capture_info(const struct CUstream_st *s,
			 CUstreamCaptureStatus *status, cuuint64_t *id,
			 CUgraph *graph, const CUgraphNode **deps,
			 const CUgraphEdgeData **edges, size_t *ndeps)
{
	if (status)
		*status = !s->capture ? CU_STREAM_CAPTURE_STATUS_NONE
			  : s->capture->invalidated
			  ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
			  : CU_STREAM_CAPTURE_STATUS_ACTIVE;
	if (id)
		*id = s->capture ? s->capture->id : 0;
	if (graph)
		*graph = s->capture ? s->capture->graph : NULL;
	if (deps)
		*deps = (const CUgraphNode *)s->capture_deps;
	if (edges)
		*edges = NULL;	/* default edges only */
	if (ndeps)
		*ndeps = s->capture ? s->ncapture_deps : 0;
}

CUDA_EXPORT CUresult cuStreamGetCaptureInfo(CUstream handle,
					    CUstreamCaptureStatus *status,
					    cuuint64_t *id, CUgraph *graph,
					    const CUgraphNode **deps,
					    const CUgraphEdgeData **edges,
					    size_t *ndeps)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, handle);
	capture_info(s, status, id, graph, deps, edges, ndeps);
	stream_put(s);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamIsCapturing(CUstream handle,
					 CUstreamCaptureStatus *status)
{
	return cuStreamGetCaptureInfo(handle, status, NULL, NULL, NULL, NULL,
				      NULL);
}

static CUresult update_deps_on(struct CUstream_st *s, CUgraphNode *deps,
			       const CUgraphEdgeData *edges, size_t ndeps,
			       unsigned int flags)
{
	if (!s->capture)
		return CUDA_ERROR_ILLEGAL_STATE;
	if (ndeps && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	if (!graph_edges_default(edges, ndeps))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES)
		set_deps(s, (struct CUgraphNode_st **)deps, ndeps);
	else if (flags == CU_STREAM_ADD_CAPTURE_DEPENDENCIES)
		merge_deps(s, (struct CUgraphNode_st **)deps, ndeps);
	else
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream handle,
						       CUgraphNode *deps,
						       const CUgraphEdgeData *edges,
						       size_t ndeps,
						       unsigned int flags)
{
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, handle);
	res = update_deps_on(s, deps, edges, ndeps, flags);
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUstreamCaptureMode old;

	if (!mode || *mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	old = thread_mode;
	thread_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}
