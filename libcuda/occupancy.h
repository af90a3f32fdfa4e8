/* SPDX-License-Identifier: MIT */
#ifndef VCUDA_OCCUPANCY_H
#define VCUDA_OCCUPANCY_H

#include <stddef.h>

struct CUfunc_st;

/* Blocks of @block_size threads of @f that fit on one SM at once. */
int occupancy_blocks_per_sm(const struct CUfunc_st *f, int block_size,
			    size_t dynamic_shared);

#endif
