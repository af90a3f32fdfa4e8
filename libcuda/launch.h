/* SPDX-License-Identifier: MIT */
/*
 * A launch record: everything a worker needs to run one launch, built by
 * cuLaunchKernel and handed to the kernel as the LAUNCH command's opaque
 * descriptor. The submitting stream owns it and frees it once the
 * stream's timeline passes its point, whether it ran or was cancelled.
 */
#ifndef VCUDA_LAUNCH_H
#define VCUDA_LAUNCH_H

#include <stdint.h>

#include "alloc_table.h"
#include "ptx/ptx.h"

#include <cuda.h>

struct CUctx_st;

struct launch_record {
	struct ptx_launch launch;
	struct CUctx_st *ctx;
	struct range_snapshot *ranges;
	const char *kernel_name;	/* for fault messages */
	uint64_t workspace;		/* cooperative grid workspace slot */
	uint64_t point;			/* stream timeline point */
	struct launch_record *next;	/* stream's pending list */
	_Alignas(16) unsigned char params[];
};

void launch_record_free(struct launch_record *rec);

struct CUfunc_st;

/*
 * Packs a kernel's parameters (from kernelParams or an extra buffer) into
 * a new buffer of the kernel's parameter layout; the caller frees it.
 */
CUresult launch_pack_params(const struct CUfunc_st *f, void **params,
			    void **extra, unsigned char **packed);

struct CUstream_st;
struct graph_kernel;

/*
 * Enqueues a kernel with parameters already packed on @s: launched, or
 * recorded if @s captures (cuLaunchKernel and graph replay).
 */
CUresult launch_enqueue(struct CUstream_st *s, const struct graph_kernel *k,
			uint32_t flags);

/* Launches @f with parameters already packed, now. */
CUresult launch_packed(struct CUfunc_st *f, const uint32_t grid[3],
		       const uint32_t block[3], unsigned int shared,
		       CUstream stream, const void *packed, uint32_t flags);

#endif
