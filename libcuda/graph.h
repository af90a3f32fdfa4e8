/* SPDX-License-Identifier: MIT */
/*
 * CUDA graphs: nodes with dependencies, built by the cuGraphAdd* calls or
 * captured from streams, instantiated into an order and replayed on a
 * stream. Node parameters are copied when a node is added, as CUDA does.
 */
#ifndef VCUDA_GRAPH_H
#define VCUDA_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "launch_attr.h"

struct graph_mem;

struct graph_kernel {
	CUfunction func;
	uint32_t grid[3], block[3];
	unsigned int shared;
	unsigned char *params;		/* packed, func's layout */
	void **param_ptrs;		/* kernelParams into @params */
	struct launch_attrs attrs;	/* graph_kernel_attr.c */
};

/*
 * A conditional node (graph_cond.c): which of its bodies run is decided
 * when the node is reached, by the value kernels set through @handle.
 */
struct graph_cond {
	CUgraphConditionalHandle handle;
	CUgraphConditionalNodeType type;
	unsigned int size;
	struct CUgraph_st **bodies;	/* @size graphs, owned */
	CUcontext ctx;
};

struct CUgraphNode_st {
	struct CUgraph_st *graph;
	CUgraphNodeType type;
	struct CUgraphNode_st **deps;	/* nodes this one waits for */
	size_t ndeps;
	union {
		struct graph_kernel kernel;
		CUDA_MEMCPY3D memcpy;
		CUDA_MEMSET_NODE_PARAMS memset;
		CUDA_HOST_NODE_PARAMS host;
		struct CUgraph_st *child;	/* a copy, owned */
		CUevent event;
		struct graph_mem *mem;		/* MEM_ALLOC: shared by copies */
		CUdeviceptr mem_free;		/* MEM_FREE: what it frees */
		struct graph_cond cond;		/* CONDITIONAL */
	} u;
};

struct CUgraph_st {
	struct CUgraphNode_st **nodes;
	size_t count, cap;
	/* The conditional node whose body this is; NULL for other graphs. */
	struct CUgraphNode_st *owner;
	struct user_refs *user_refs;	/* user_object.h; NULL: none */
};

/* Adds a node of @type after @deps (nodes of @graph); params set later. */
CUresult graph_add_node(struct CUgraph_st *graph, CUgraphNodeType type,
			const CUgraphNode *deps, size_t ndeps,
			struct CUgraphNode_st **out);

/* Adds a kernel node with parameters already packed (copied). */
CUresult graph_add_kernel(struct CUgraph_st *graph, const CUgraphNode *deps,
			  size_t ndeps, CUfunction f, const uint32_t grid[3],
			  const uint32_t block[3], unsigned int shared,
			  const unsigned char *packed,
			  struct CUgraphNode_st **out);

/* Takes the last node of @graph back out (a failed add). */
void graph_drop_last(struct CUgraph_st *graph);

/* Adds a conditional node and its bodies (graph_cond.c); sets
 * @p->phGraph_out to them. */
CUresult graph_add_conditional(struct CUgraph_st *graph,
			       const CUgraphNode *deps, size_t ndeps,
			       CUDA_CONDITIONAL_NODE_PARAMS *p,
			       struct CUgraphNode_st **out);

/*
 * Whether @edges (NULL: all default) are plain completion-to-start
 * dependencies, the only kind vcuda's graphs have: programmatic ports
 * and edge types are CUDA_ERROR_NOT_SUPPORTED.
 */
bool graph_edges_default(const CUgraphEdgeData *edges, size_t count);

struct CUgraph_st *graph_new(void);
void graph_free(struct CUgraph_st *graph);
/* A deep copy, node i of the copy being node i of @graph. */
struct CUgraph_st *graph_copy(const struct CUgraph_st *graph);

/*
 * Conditional nodes (graph_cond.c): a copy of @n's bodies into @c, their
 * release, and running @n on @stream (a step on the stream that picks
 * and runs a body once the work before it is done). Graph replay gives
 * these and graph_run_serial a stream, held while they run, never a
 * default-stream handle (graph_exec.c's cuGraphLaunch).
 */
CUresult graph_cond_copy(const struct CUgraphNode_st *n,
			 struct CUgraphNode_st *c);
void graph_cond_free(struct CUgraphNode_st *n);
CUresult graph_cond_run(const struct CUgraphNode_st *n, CUstream stream);
/* Sets, on @stream, the default value of every handle of @graph's
 * conditional nodes (at any depth) that asked for it. */
CUresult graph_cond_assign_defaults(const struct CUgraph_st *graph,
				    CUstream stream);

/*
 * Compiles the kernels of @graph's conditional bodies now: a body runs
 * inside its node's host step, a job whose time-out must not include a
 * first launch's compilation (as launch.c keeps it out of launches).
 */
void graph_cond_prepare(const struct CUgraph_st *graph);

/* Runs @graph's nodes in a topological order on @stream (graph_exec.c). */
CUresult graph_run_serial(const struct CUgraph_st *graph, CUstream stream);

#endif
