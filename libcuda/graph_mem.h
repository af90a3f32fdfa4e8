/* SPDX-License-Identifier: MIT */
/*
 * Graph memory nodes. An allocation node owns a graph allocation: an
 * address reserved when the node is made (the address every instance of
 * the graph uses), backed by a buffer object when a launch first
 * allocates it, and given back by cuDeviceGraphMemTrim while no launch
 * holds it. Launching the allocation node allocates (a graph may not be
 * launched again before its allocation is freed); the free node, or
 * cuMemFreeAsync/cuMemFree outside the graph, frees it.
 */
#ifndef VCUDA_GRAPH_MEM_H
#define VCUDA_GRAPH_MEM_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

struct CUstream_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct vc_alloc;
struct graph_mem;

struct vc_device;

/* A new graph allocation at a reserved address; with no backing yet. */
CUresult graph_mem_new(struct vc_device *dev, uint64_t size,
		       const CUmemPoolProps *props,
		       const CUmemAccessDesc *access, size_t naccess,
		       struct graph_mem **out);
/*
 * Claims the one free node of the allocation at @va, refused if there is
 * none or it has one, or if it was freed outside graphs and @allocates
 * says @graph holds its allocation node.
 */
CUresult graph_mem_claim_free_node(uint64_t va,
				   bool (*allocates)(const struct graph_mem *m,
						     const void *graph),
				   const void *graph);
/* @m's allocation node parameters, as it was made. */
void graph_mem_node_params(const struct graph_mem *m,
			   CUDA_MEM_ALLOC_NODE_PARAMS *p);

/* Node lifetime: copies of a graph share the allocation. */
void graph_mem_get(struct graph_mem *m);
void graph_mem_put(struct graph_mem *m);

/* Launch: the allocation node, and a free (node or API) on @s. */
CUresult graph_mem_launch_alloc(struct graph_mem *m);
CUresult graph_mem_launch_free(uint64_t va, struct CUstream_st *s);
/*
 * Whether [@va, @va + @size) lies in one graph allocation's reserved
 * range: what captured work may name before any launch backs it.
 */
bool graph_mem_reserved(uint64_t va, uint64_t size);
/* The address of @m, the same for every launch. */
uint64_t graph_mem_address(const struct graph_mem *m);
/* Whether a launch may allocate @m now (it is not allocated). */
bool graph_mem_free_to_allocate(struct graph_mem *m);
/* cuMemFreeAsync of a graph allocation outside a graph. */
CUresult graph_mem_free(const struct vc_alloc *alloc, struct CUstream_st *s);

/* A stream goes: what it freed is done. */
void graph_mem_stream_gone(struct CUstream_st *s);

#endif
