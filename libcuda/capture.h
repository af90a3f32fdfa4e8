/* SPDX-License-Identifier: MIT */
/*
 * Stream capture: while a stream captures, the work given to it becomes
 * nodes of a graph instead of jobs (cuStreamBeginCapture ...
 * cuStreamEndCapture). Each operation that can be captured asks
 * stream_capturing() first and, if so, adds its node here.
 */
#ifndef VCUDA_CAPTURE_H
#define VCUDA_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

struct CUstream_st;
struct CUgraph_st;
struct CUfunc_st;

bool stream_capturing(const struct CUstream_st *stream);
/* The graph a capturing @stream adds to. */
struct CUgraph_st *capture_graph(const struct CUstream_st *stream);
/* @stream is being destroyed: it leaves its capture. */
void capture_stream_gone(struct CUstream_st *stream);

CUresult capture_kernel(struct CUstream_st *stream, struct CUfunc_st *f,
			const uint32_t grid[3], const uint32_t block[3],
			unsigned int shared, const unsigned char *packed);
CUresult capture_memcpy(struct CUstream_st *stream, const CUDA_MEMCPY3D *p);
CUresult capture_memset(struct CUstream_st *stream,
			const CUDA_MEMSET_NODE_PARAMS *p);
CUresult capture_host(struct CUstream_st *stream, CUhostFn fn, void *data);
/* A graph allocation node owning @m (a reference), and a free node. */
struct graph_mem;
CUresult capture_mem_alloc(struct CUstream_st *stream, struct graph_mem *m);
CUresult capture_mem_free(struct CUstream_st *stream, CUdeviceptr va);
/* Records @e in a capturing @stream: waiters join after its nodes. */
CUresult capture_event_record(struct CUstream_st *stream, CUevent e);
/* Whether @e was last recorded in a capture that is still going on. */
bool event_captured(CUevent e);
/* @stream waits for a captured event: it joins (or stays in) the capture. */
CUresult capture_wait_event(struct CUstream_st *stream, CUevent e);

/*
 * A synchronous use of a capturing stream (synchronize, query): CUDA
 * forbids it and the capture is invalidated.
 */
CUresult capture_forbid_sync(struct CUstream_st *stream);

#endif
