/* SPDX-License-Identifier: MIT */
/*
 * Device-visible memory: a buffer object mapped into the process and into
 * the context's GPU address space at the same address.
 */
#ifndef VCUDA_MEMORY_H
#define VCUDA_MEMORY_H

#include <stdint.h>

#include <cuda.h>

#include "alloc_table.h"

struct CUctx_st;

CUresult mem_alloc(struct CUctx_st *ctx, uint64_t size, enum alloc_kind kind,
		   unsigned int flags, uint64_t *va);
/* Maps @bo in the process and binds the same address in @ctx. */
CUresult mem_map_bo(struct CUctx_st *ctx, uint32_t bo, uint64_t size,
		    uint64_t *va);
/* Frees the allocation starting at @va (CUDA_ERROR_INVALID_VALUE if none). */
CUresult mem_free(uint64_t va);
/* Unmaps and releases an allocation already out of the table. */
void mem_release(const struct vc_alloc *alloc);

#endif
