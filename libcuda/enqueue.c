// SPDX-License-Identifier: MIT
/*
 * stream_enqueue(): the single place that decides whether stream work is
 * recorded into a capture or submitted (enqueue.h).
 */
#include "capture.h"
#include "enqueue.h"
#include "graph_mem_node.h"
#include "stream.h"

/*
 * Whether @op goes into a capture: the stream's, or for a wait the one
 * its event was recorded in (the stream joins it: CUDA's fork).
 */
static bool is_captured(const struct CUstream_st *s,
			const struct stream_op *op)
{
	if (op->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT)
		return event_captured(op->u.event);
	return stream_capturing(s);
}

/* The node @op becomes in @s's capture. */
static CUresult record(struct CUstream_st *s, const struct stream_op *op)
{
	const struct graph_kernel *k = &op->u.kernel;

	switch (op->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return capture_kernel(s, k->func, k->grid, k->block, k->shared,
				      k->params);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return capture_memcpy(s, &op->u.memcpy);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return capture_memset(s, &op->u.memset);
	case CU_GRAPH_NODE_TYPE_HOST:
		/* Graphs hold host functions, not stream callbacks. */
		if (!op->u.host.fn)
			return capture_forbid_sync(s);
		return capture_host(s, op->u.host.fn, op->u.host.userData);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return capture_event_record(s, op->u.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return capture_wait_event(s, op->u.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return graph_mem_capture_alloc(s, op->u.alloc.size,
					       op->u.alloc.pool, op->u.alloc.va);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return graph_mem_capture_free(s, op->u.mem_free);
	default:
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
}

CUresult stream_enqueue(struct CUstream_st *s, const struct stream_op *op)
{
	if (is_captured(s, op))
		return record(s, op);
	return op->submit(s, op);
}

CUresult stream_enqueue_handle(struct CUctx_st *ctx, CUstream handle,
			       const struct stream_op *op)
{
	struct CUstream_st *s = stream_hold(ctx, handle);
	CUresult res = stream_enqueue(s, op);

	stream_put(s);
	return res;
}
