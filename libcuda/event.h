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

struct CUgraphNode_st;

struct CUevent_st {
	struct CUctx_st *ctx;
	unsigned int flags;
	uint32_t syncobj;
	uint64_t ts_va;			/* timestamp slot; 0 without timing */
	pthread_mutex_t lock;
	uint64_t point;			/* last recorded point; 0 = never */

	/*
	 * Recorded in a capturing stream: the capture (by id) and the
	 * nodes a stream waiting for the event joins after.
	 */
	uint64_t capture_id;
	struct CUgraphNode_st **capture_nodes;
	size_t ncapture_nodes;
};

#endif
