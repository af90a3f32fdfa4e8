/* SPDX-License-Identifier: MIT */
/*
 * Context limits (cuCtxSetLimit) and what they size: the device printf
 * buffer and malloc heap, made at a context's first launch.
 */
#ifndef VCUDA_CTX_LIMITS_H
#define VCUDA_CTX_LIMITS_H

#include <cuda.h>

struct CUctx_st;

/*
 * Writes out what kernels printed, at the points CUDA documents
 * (synchronizations, blocking copies, module loads, context teardown).
 */
void ctx_flush_printf(struct CUctx_st *ctx);

/* The printf FIFO and heap for a launch, made on first use. */
CUresult ctx_launch_resources(struct CUctx_st *ctx);

#endif
