/* SPDX-License-Identifier: MIT */
/*
 * CUDA arrays: opaque texel storage for textures and surfaces. On vcuda
 * an array is a device allocation with a packed layout: texels along a
 * row, rows @pitch bytes apart, 2D slices (3D depth, layers, cube faces)
 * @slice_pitch bytes apart; exactly what struct ptx_texture_desc
 * describes, so texture objects point the executor straight at it.
 */
#ifndef VCUDA_ARRAY_H
#define VCUDA_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "ptx/ptx.h"

struct CUctx_st;

struct CUarray_st {
	struct CUctx_st *ctx;
	uint64_t va;
	CUDA_ARRAY3D_DESCRIPTOR desc;	/* as created */
	uint32_t texel_bytes;
	uint64_t pitch;			/* bytes between rows */
	uint64_t slice_pitch;		/* bytes between 2D slices */
	uint64_t rows, slices;		/* rows per slice, slices */
	bool mipmap_level;		/* a level of a mipmapped array */
};

/* An array of @ctx as @desc describes it (checked here). */
CUresult array_create(struct CUctx_st *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc,
		      struct CUarray_st **out);
/* Frees @array at once: the caller has synchronized. */
void array_destroy(struct CUarray_st *array);

/* Bytes of one channel of @format, or 0 for a format vcuda lacks. */
uint32_t format_channel_bytes(CUarray_format format);

/* The resource half of a texture descriptor for @array. */
void array_texture_resource(const struct CUarray_st *array,
			    struct ptx_texture_desc *desc);

#endif
