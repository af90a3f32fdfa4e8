/* SPDX-License-Identifier: MIT */
/*
 * What a copy can do with a range of memory: the copy engine only sees
 * allocations of the stream's context; anything else is pageable host
 * memory, copied by the CPU.
 */
#ifndef VCUDA_MEMCPY_H
#define VCUDA_MEMCPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct CUctx_st;

enum range_kind {
	RANGE_PAGEABLE,		/* not an allocation of the context */
	RANGE_VISIBLE,		/* inside one allocation of the context */
	RANGE_INVALID,		/* starts in an allocation, runs past its end */
};

enum range_kind classify(struct CUctx_st *ctx, uint64_t addr, size_t size);

struct CUstream_st;
/*
 * Device memory that work for @s may name: the context's own and, while
 * @s captures, graph allocations not backed until a launch (@s may be
 * NULL: no capture).
 */
bool device_target(struct CUctx_st *ctx, struct CUstream_st *s,
		   uint64_t addr, size_t size);

#endif
