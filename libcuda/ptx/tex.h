/* SPDX-License-Identifier: MIT */
/*
 * Texture and surface objects inside the executor: the handle table
 * (texobj.c) and what the sampling (exec_tex.c) and surface (exec_surf.c)
 * handlers share: texel addressing and format conversion.
 */
#ifndef VCUDA_PTX_TEX_H
#define VCUDA_PTX_TEX_H

#include "lower.h"

enum texobj_kind { TEXOBJ_FREE, TEXOBJ_TEXTURE, TEXOBJ_SURFACE };

/* A live object: the descriptor and what is derived from it once. */
struct texobj {
	struct ptx_texture_desc d;
	uint32_t chan_bytes;	/* bytes of one channel */
	uint32_t texel_bytes;	/* chan_bytes * channels */
	uint32_t slices;	/* 2D slices at level 0: depth, layers, faces */
};

/* The object of @handle if it is live and of @kind, else NULL. Lock-free:
 * handlers call it per lane. */
const struct texobj *texobj_lookup(uint64_t handle, enum texobj_kind kind);

/* Texel (x, y) of 2D slice @slice at mipmap level @lev: its address. The
 * caller has checked the coordinates. */
static inline const uint8_t *texel_at(const struct texobj *t, unsigned lev,
				      uint32_t x, uint32_t y, uint32_t slice)
{
	const struct ptx_tex_level *L = &t->d.levels[lev];
	return (const uint8_t *)L->data + (uint64_t)slice * L->slice_pitch +
	       (uint64_t)y * L->pitch + (uint64_t)x * t->texel_bytes;
}

/* Size of level @lev along a dimension of @n texels at level 0. */
static inline uint32_t level_size(uint32_t n, unsigned lev)
{
	n >>= lev;
	return n ? n : 1;
}

/* Channel @c of a texel as stored: raw integer bits (sign-extended for
 * signed formats) or, for f16/f32, the value as float bits. */
uint32_t texel_channel_raw(const struct texobj *t, const uint8_t *texel,
			   unsigned c);
/* Channel @c as the float a normalized-float or float read returns. */
float texel_channel_float(const struct texobj *t, const uint8_t *texel,
			  unsigned c);
/* Whether reads of this texture return floats for an .f32 destination
 * after conversion (normalized or float formats). */
bool texobj_reads_float(const struct texobj *t);

/* An 8-bit sRGB value as the GPU linearizes it (tex_srgb.c). */
float srgb_to_linear8(uint8_t v);

/* The geometry word of the instruction being lowered (MOD_G1D ...), or
 * 0: tex and surface opcodes keep it raw. */
unsigned geom_word(const struct lower_ctx *c);

#endif
