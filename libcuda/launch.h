/* SPDX-License-Identifier: MIT */
/*
 * Launching a kernel: cuLaunchKernel and its forms check the configuration,
 * pack the parameters and enqueue a launch record (launch_record.h).
 */
#ifndef VCUDA_LAUNCH_H
#define VCUDA_LAUNCH_H

#include <stdint.h>

#include "launch_record.h"

#include <cuda.h>

struct CUfunc_st;
struct CUstream_st;
struct graph_kernel;

/*
 * Enqueues a kernel with parameters already packed on @s: launched, or
 * recorded if @s captures (cuLaunchKernel and graph replay).
 */
CUresult launch_enqueue(struct CUstream_st *s, const struct graph_kernel *k,
			uint32_t flags);

/* Launches @f with parameters already packed, now, on @s (held). */
CUresult launch_packed(struct CUfunc_st *f, const uint32_t grid[3],
		       const uint32_t block[3], unsigned int shared,
		       struct CUstream_st *s, const void *packed,
		       uint32_t flags);

#endif
