/* SPDX-License-Identifier: MIT */
/*
 * Streams: a compute queue (and, once needed, a copy queue) of the kernel
 * plus one timeline syncobj. Every submission signals the next point of
 * the timeline, so "is the stream done up to here" is a syncobj wait,
 * and work on one queue waits for the stream's earlier work on the other.
 * A kernel queue's priority is fixed when it is made: a stream whose
 * priority changes (cuStreamSetAttribute) submits to queues of the new
 * priority from then on, made at first use, in order through the same
 * timeline.
 */
#ifndef VCUDA_STREAM_H
#define VCUDA_STREAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "launch_attr.h"
#include "vcuda_drm.h"

struct CUctx_st;
struct launch_record;
struct capture;
struct CUgraphNode_st;

/* A timeline point another piece of work must wait for. */
struct timeline_point {
	uint32_t syncobj;
	uint64_t point;
};

#define STREAM_ENGINES 2		/* compute, copy */
#define STREAM_LEVELS 2			/* priority 0, priority -1 */
#define STREAM_MAX_PENDING_WAITS 32
#define STREAM_MAX_FOLLOWS 8

/*
 * A stream lives while it is referenced: its creator's reference, dropped
 * when it is destroyed (stream_life.c), and one taken by each call that
 * uses it (stream_hold) and by each walk over its context's streams
 * (ctx_synchronize), so that destroying a stream another thread is using
 * frees nothing under that thread. The last reference waits for the
 * stream's work, then destroys its queues and timelines and frees it.
 */
struct CUstream_st {
	struct CUctx_st *ctx;
	unsigned int refs;		/* atomic */
	/* Kernel queues per engine and priority level, 0 until used. */
	uint32_t queues[STREAM_ENGINES][STREAM_LEVELS];
	uint32_t syncobj;
	unsigned int flags;
	struct launch_attrs attrs;	/* cuStreamSetAttribute's (not priority) */

	pthread_mutex_t lock;		/* everything below */
	int priority;			/* the queues' level for new work */
	uint64_t submitted;		/* last timeline point submitted */
	uint32_t last_queue;		/* queue of that submission */
	struct launch_record *pending_head, *pending_tail;
	/*
	 * Waits for the next submission (cuStreamWaitEvent), as points of
	 * @wait_syncobj, the stream's own copy of the fences: the event
	 * may be destroyed before the stream submits again.
	 */
	struct timeline_point waits[STREAM_MAX_PENDING_WAITS];
	unsigned int nwaits;
	uint32_t wait_syncobj;
	uint64_t wait_points;		/* last point of @wait_syncobj used */

	/*
	 * Points of other streams' timelines this stream's next work comes
	 * after (through cuStreamWaitEvent), the latest per timeline, so
	 * that a pool may reuse what was freed before them (mempool.c).
	 */
	struct timeline_point follows[STREAM_MAX_FOLLOWS];
	unsigned int nfollows;
	/* Stream capture (capture.c): the capture and the current nodes. */
	struct capture *capture;
	struct CUgraphNode_st **capture_deps;
	size_t ncapture_deps;

	struct CUstream_st *next;	/* ctx->streams */
};

CUresult stream_create(struct CUctx_st *ctx, unsigned int flags, int priority,
		       struct CUstream_st **out);
/*
 * A stream's end (stream_life.c's stream_destroy): unlink takes it off its
 * context's list, so no later walk finds it; stream_put then drops the
 * creator's reference.
 */
void stream_unlink(struct CUstream_st *stream);

/* Takes a reference to @stream, which the caller knows to be alive. */
struct CUstream_st *stream_get(struct CUstream_st *stream);
/* Drops one; the last releases the stream (see struct CUstream_st). */
void stream_put(struct CUstream_st *stream);

/* @priority within the range vcuda's streams have. */
int stream_clamp_priority(int priority);

/*
 * The stream a handle names in @ctx (0 and the special handles included),
 * referenced for the caller's use (stream_put when done): a thread
 * destroying the stream meanwhile frees nothing under the caller. Every
 * use of a handle an API call is given goes through here, so the stream
 * is held for the whole call. Using a handle whose destruction has
 * returned stays undefined, as in CUDA.
 */
struct CUstream_st *stream_hold(struct CUctx_st *ctx, CUstream handle);

/*
 * Submits one job of @count commands to @stream's queue for @engine, after
 * all earlier work of the stream, and signals the stream's next timeline
 * point (returned in @point) plus @extra, if given.
 */
CUresult stream_submit(struct CUstream_st *stream, uint32_t engine,
		       const struct drm_vcuda_cmd *cmds, uint32_t count,
		       const struct timeline_point *extra, uint64_t *point);

/* Makes the stream's next submission wait for @wait. */
CUresult stream_add_wait(struct CUstream_st *stream,
			 const struct timeline_point *wait);

/* Notes that @stream's next work comes after @tp (another timeline). */
void stream_note_follows(struct CUstream_st *stream,
			 const struct timeline_point *tp);
/* Whether @stream's next work is known to come after @tp. */
bool stream_follows(struct CUstream_st *stream,
		    const struct timeline_point *tp);
/* Queues @rec on @stream; on success the stream owns it. */
CUresult stream_launch(struct CUstream_st *stream, struct launch_record *rec);

/* Waits until everything submitted to @stream has finished. */
CUresult stream_wait_idle(struct CUstream_st *stream);

/*
 * The calling thread's per-thread default stream in @ctx, made at first
 * use (stream_per_thread.c); the null stream if it cannot be made. Held
 * (stream_put when done): taken under the lock that its thread's exit
 * and its context's teardown take.
 */
struct CUstream_st *per_thread_stream_hold(struct CUctx_st *ctx);
/* Forgets @ctx's per-thread streams (they go with its other streams). */
void per_thread_streams_ctx_gone(struct CUctx_st *ctx);

/*
 * What a synchronous copy or set run on @on (sync_call.h) waits for
 * before the CPU does it: on the legacy stream the whole of @ctx (vcuda
 * waiting for more than the blocking streams); on the calling thread's
 * per-thread stream that stream and the legacy stream it follows.
 */
CUresult sync_call_wait(struct CUctx_st *ctx, CUstream on);

#endif
