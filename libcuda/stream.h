/* SPDX-License-Identifier: MIT */
/*
 * Streams: a compute queue of the kernel plus a timeline syncobj. Every
 * submission signals the next point of the timeline, so "is the stream
 * done up to here" is a syncobj wait.
 */
#ifndef VCUDA_STREAM_H
#define VCUDA_STREAM_H

#include <pthread.h>
#include <stdint.h>

#include <cuda.h>

struct CUctx_st;
struct launch_record;

struct CUstream_st {
	struct CUctx_st *ctx;
	uint32_t queue_id;
	uint32_t syncobj;
	unsigned int flags;
	int priority;

	pthread_mutex_t lock;		/* submitted, pending */
	uint64_t submitted;		/* last timeline point submitted */
	struct launch_record *pending_head, *pending_tail;

	struct CUstream_st *next;	/* ctx->streams */
};

CUresult stream_create(struct CUctx_st *ctx, unsigned int flags, int priority,
		       struct CUstream_st **out);
void stream_destroy(struct CUstream_st *stream);

/* The stream a handle names in @ctx (0 and the special handles included). */
struct CUstream_st *stream_resolve(struct CUctx_st *ctx, CUstream handle);

/* Queues @rec on @stream; on success the stream owns it. */
CUresult stream_launch(struct CUstream_st *stream, struct launch_record *rec);

/* Waits until everything submitted to @stream has finished. */
CUresult stream_wait_idle(struct CUstream_st *stream);

#endif
