/* SPDX-License-Identifier: MIT */
/*
 * The driver's synchronous copies and sets as the runtime calls them: the
 * plain forms, or within a _ptds form of the runtime (per_thread.c) the
 * driver's _ptds forms, which run on the calling thread's per-thread
 * stream instead of waiting for the legacy stream's whole context.
 */
#ifndef VCUDA_RT_SYNC_CALL_H
#define VCUDA_RT_SYNC_CALL_H

#include <stdbool.h>

#include <cuda.h>

/* Set while the calling thread is in a runtime _ptds form. */
extern __thread bool rt_sync_per_thread;

/* @fn is the driver's full name (cuMemcpyHtoD_v2), @args its arguments. */
#define RT_SYNC_CALL(fn, args) \
	(rt_sync_per_thread ? fn##_ptds args : fn args)

__typeof__(cuMemcpyHtoD_v2) cuMemcpyHtoD_v2_ptds;
__typeof__(cuMemcpyDtoH_v2) cuMemcpyDtoH_v2_ptds;
__typeof__(cuMemcpyDtoD_v2) cuMemcpyDtoD_v2_ptds;
__typeof__(cuMemcpy) cuMemcpy_ptds;
__typeof__(cuMemcpy2D_v2) cuMemcpy2D_v2_ptds;
__typeof__(cuMemcpy3D_v2) cuMemcpy3D_v2_ptds;
__typeof__(cuMemsetD8_v2) cuMemsetD8_v2_ptds;
__typeof__(cuMemsetD2D8_v2) cuMemsetD2D8_v2_ptds;

#endif
