/* SPDX-License-Identifier: MIT */
/*
 * The compute engine's userspace half: per context, dispatcher threads
 * blocked in DRM_IOCTL_VCUDA_COMPUTE_WAIT take launches the kernel
 * schedules, run them on the SM pool and report with
 * DRM_IOCTL_VCUDA_COMPUTE_DONE.
 */
#ifndef VCUDA_COMPUTE_H
#define VCUDA_COMPUTE_H

#include <cuda.h>

struct CUctx_st;

/* Starts the context's SM pool and dispatchers. */
CUresult compute_start(struct CUctx_st *ctx);

/*
 * Stops the context's launches: those running stop at their next warp
 * switch (every so many backward branches, a barrier), none starts any
 * more; returns once no dispatcher runs one. Called before what launches
 * use (modules, memory) goes.
 */
void compute_kill(struct CUctx_st *ctx);

/* Joins them; the kernel context must be destroyed first (wakes them). */
void compute_stop(struct CUctx_st *ctx);

#endif
