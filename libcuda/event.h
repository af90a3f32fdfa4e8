/* SPDX-License-Identifier: MIT */
/*
 * Events: a timeline syncobj of their own, signalled by the job that
 * records them, and a device timestamp slot (see event.c).
 */
#ifndef VCUDA_EVENT_H
#define VCUDA_EVENT_H

#include <pthread.h>
#include <stdint.h>

#include <cuda.h>

#include "stream.h"

struct CUgraphNode_st;
struct CUstream_st;
struct ipc_event;

struct CUevent_st {
	struct CUctx_st *ctx;
	unsigned int flags;
	uint32_t syncobj;
	uint64_t ts_va;			/* timestamp slot; 0 without timing */
	pthread_mutex_t lock;
	uint64_t point;			/* last recorded point; 0 = never */
	/* That recording's point on its stream's timeline: a stream that
	 * waits for the event follows that stream's work up to it. */
	struct timeline_point source;

	/*
	 * Recorded in a capturing stream: the capture (by id) and the
	 * nodes a stream waiting for the event joins after.
	 */
	uint64_t capture_id;
	struct CUgraphNode_st **capture_nodes;
	size_t ncapture_nodes;

	/* Interprocess events keep their state in a shared page (ipc_event.c). */
	struct ipc_event *ipc;
};

/* A new event of @ctx (a syncobj, and a timestamp slot if timed). */
CUresult event_new(struct CUctx_st *ctx, unsigned int flags,
		   struct CUevent_st **out);
/* Frees an event that no recording can still write. */
void event_free(struct CUevent_st *e);

/* The current context in @ctx, if @e names an event at all. */
CUresult event_enter(CUevent e, struct CUctx_st **ctx);
/* Waits until @e's last recording has completed (at once if none). */
CUresult event_wait_recorded(CUevent e);

/*
 * Interprocess events (CU_EVENT_INTERPROCESS): the state two processes
 * share is a page of pinned host memory, exported by IPC token, holding
 * the number of the last recording and the number of the last recording
 * the device has reached. Recording bumps the first and queues a
 * SEM_RELEASE that writes the second; waiting on a stream is a
 * SEM_ACQUIRE of the second; querying and synchronizing read them.
 */
CUresult ipc_event_create(struct CUevent_st *e);
void ipc_event_destroy(struct CUevent_st *e);
CUresult ipc_event_record(struct CUevent_st *e, struct CUstream_st *s);
CUresult ipc_event_query(struct CUevent_st *e);
CUresult ipc_event_synchronize(struct CUevent_st *e);
CUresult ipc_event_wait(struct CUstream_st *s, struct CUevent_st *e);

#endif
