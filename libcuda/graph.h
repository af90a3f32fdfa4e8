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

struct graph_mem;

struct graph_kernel {
	CUfunction func;
	uint32_t grid[3], block[3];
	unsigned int shared;
	unsigned char *params;		/* packed, func's layout */
	void **param_ptrs;		/* kernelParams into @params */
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
	} u;
};

struct CUgraph_st {
	struct CUgraphNode_st **nodes;
	size_t count, cap;
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

#endif
