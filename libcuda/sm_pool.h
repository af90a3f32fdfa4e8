/* SPDX-License-Identifier: MIT */
/*
 * The virtual GPU's SMs: a pool of threads that run the CTAs of a launch.
 */
#ifndef VCUDA_SM_POOL_H
#define VCUDA_SM_POOL_H

#include <stdbool.h>

#include "ptx/ptx.h"

struct sm_pool;

/* A pool of @threads threads (0 is valid: callers do all the work). */
struct sm_pool *sm_pool_create(unsigned int threads);
void sm_pool_destroy(struct sm_pool *pool);

/*
 * Runs every CTA of @launch on the pool's threads and on the calling
 * thread (with @caller's state), returning when all have finished. False,
 * with @fault filled, if a CTA faulted: CTAs not yet started are dropped.
 */
bool sm_pool_run(struct sm_pool *pool, struct ptx_worker *caller,
		 const struct ptx_launch *launch, struct ptx_fault *fault);

/*
 * Runs a cooperative launch: every CTA resident at once, the grid split
 * into one range per thread of the pool plus the caller, all running
 * together (the executor interleaves a range's CTAs). Cooperative
 * launches are run one at a time, since each needs every thread.
 */
bool sm_pool_run_cooperative(struct sm_pool *pool, struct ptx_worker *caller,
			     const struct ptx_launch *launch,
			     struct ptx_fault *fault);

/* Threads that run CTAs of a cooperative launch at once (pool + caller). */
unsigned int sm_pool_width(const struct sm_pool *pool);

/* Blocks every signal in the calling thread (workers leave them to the app). */
void block_signals(void);

#endif
