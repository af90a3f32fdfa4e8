/* SPDX-License-Identifier: MIT */
/*
 * Stream-ordered allocation on a capturing stream (graph_mem_node.c).
 */
#ifndef VCUDA_GRAPH_MEM_NODE_H
#define VCUDA_GRAPH_MEM_NODE_H

#include <stdint.h>

#include <cuda.h>

struct CUstream_st;

/* During capture: cuMemAllocAsync and cuMemFreeAsync become nodes. */
CUresult graph_mem_capture_alloc(struct CUstream_st *s, uint64_t size,
				 CUmemoryPool pool, uint64_t *va);
CUresult graph_mem_capture_free(struct CUstream_st *s, uint64_t va);

#endif
