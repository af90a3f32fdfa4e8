/* SPDX-License-Identifier: MIT */
/*
 * What a copy can do with a range of memory: the copy engine only sees
 * allocations of the stream's context; anything else is pageable host
 * memory, copied by the CPU.
 */
#ifndef VCUDA_MEMCPY_H
#define VCUDA_MEMCPY_H

#include <stddef.h>
#include <stdint.h>

struct CUctx_st;

enum range_kind {
	RANGE_PAGEABLE,		/* not an allocation of the context */
	RANGE_VISIBLE,		/* inside one allocation of the context */
	RANGE_INVALID,		/* starts in an allocation, runs past its end */
};

enum range_kind classify(struct CUctx_st *ctx, uint64_t addr, size_t size);

#endif
