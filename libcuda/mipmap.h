/* SPDX-License-Identifier: MIT */
/*
 * Mipmapped arrays: a CUDA array and its smaller levels, each level an
 * array of its own (cuMipmappedArrayGetLevel hands it out), level i being
 * max(1, extent >> i) in every dimension that is not layers or faces.
 */
#ifndef VCUDA_MIPMAP_H
#define VCUDA_MIPMAP_H

#include <cuda.h>

#include "ptx/ptx.h"

struct CUctx_st;

struct CUmipmappedArray_st {
	struct CUctx_st *ctx;
	CUDA_ARRAY3D_DESCRIPTOR desc;	/* level 0, as created */
	unsigned int num_levels;
	struct CUarray_st *level[PTX_TEX_MAX_LEVELS];
};

/* The resource half of a texture descriptor for @mipmap: every level. */
void mipmap_texture_resource(const struct CUmipmappedArray_st *mipmap,
			     struct ptx_texture_desc *desc);

#endif
