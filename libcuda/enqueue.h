/* SPDX-License-Identifier: MIT */
/*
 * The one path of stream work. An operation given to a stream (a kernel,
 * a copy, a set, a host function, an event record or wait, a stream
 * allocation or free) is described as the graph node it would become:
 * its node type and the node parameters graph.h already has, plus how to
 * do it now. stream_enqueue() records it into the capture the stream
 * takes part in, or does it; no caller asks whether the stream captures.
 * Graph replay enqueues its nodes the same way.
 *
 * Adding an operation: a node type handled in enqueue.c (how it is
 * recorded) and, in the operation's own file, the function that does it.
 */
#ifndef VCUDA_ENQUEUE_H
#define VCUDA_ENQUEUE_H

#include <stdint.h>

#include <cuda.h>

#include "graph.h"

struct CUctx_st;
struct CUstream_st;
struct stream_op;

/* Does @op on @s now (not captured). */
typedef CUresult (*stream_op_fn)(struct CUstream_st *s,
				 const struct stream_op *op);

struct stream_op {
	CUgraphNodeType type;
	union {
		struct graph_kernel kernel;	/* KERNEL: params packed */
		CUDA_MEMCPY3D memcpy;
		CUDA_MEMSET_NODE_PARAMS memset;
		CUDA_HOST_NODE_PARAMS host;	/* fn NULL: a stream callback */
		CUevent event;			/* EVENT_RECORD, WAIT_EVENT */
		struct {			/* MEM_ALLOC */
			uint64_t size;
			CUmemoryPool pool;
			uint64_t *va;		/* where the address goes */
		} alloc;
		CUdeviceptr mem_free;		/* MEM_FREE */
	} u;
	stream_op_fn submit;
	void *arg;		/* what @submit needs besides the parameters */
};

/* Records @op into @s's capture if it is captured, else submits it. */
CUresult stream_enqueue(struct CUstream_st *s, const struct stream_op *op);
/*
 * The same on the stream @handle names in @ctx, held for the call: a
 * thread destroying that stream meanwhile frees nothing under it.
 */
CUresult stream_enqueue_handle(struct CUctx_st *ctx, CUstream handle,
			       const struct stream_op *op);

#endif
