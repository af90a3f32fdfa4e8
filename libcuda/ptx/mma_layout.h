/* SPDX-License-Identifier: MIT */
/*
 * Matrix fragments: which element of which matrix each lane's fragment
 * register holds, for the warp-level matrix instructions (exec_mma.c).
 *
 * mma: the layouts the PTX ISA specifies ("Matrix Fragments for
 * mma.m16n8k16" and its siblings), in terms of groupID = lane / 4 and
 * threadID_in_group = lane % 4.
 *
 * wmma: the PTX ISA leaves the distribution unspecified; these are the
 * layouts NVIDIA's sm_80/sm_90 hardware uses (measured, see
 * tests/ptx/expected/README.md): each wmma tile is the corresponding mma
 * tiles side by side, and the f16 operand fragments (eight registers, a
 * Volta heritage) hold those elements twice (four times for the short
 * operand of m32n8k16). m8n32k16 is m32n8k16 transposed (D^T = B^T A^T:
 * its A is the other's B, and so on); the sub-byte shapes m8n8k32 and
 * m8n8k128 are mma.sync's.
 */
#ifndef VCUDA_PTX_MMA_LAYOUT_H
#define VCUDA_PTX_MMA_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* Element types of matrix operands. */
enum mtype { MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S32,
	     MT_S4, MT_U4, MT_B1, MT_NONE };

enum frag_use { FRAG_A, FRAG_B, FRAG_C };

/* Where element @e of lane @lane's fragment sits in its matrix. */
typedef void (*frag_map_fn)(uint32_t lane, uint32_t e, uint32_t *row,
			    uint32_t *col);

struct frag_layout {
	frag_map_fn map;
	uint8_t nelem;		/* elements per lane */
	uint8_t rows, cols;	/* of the matrix */
};

/*
 * The fragment of @use for a wmma (@wmma) or mma of shape m x n x k with
 * operand element type @t; false if no such fragment exists.
 */
bool frag_layout_of(bool wmma, unsigned m, unsigned n, unsigned k,
		    enum frag_use use, enum mtype t, struct frag_layout *out);

/* Bits of one element of @t in a register. */
static inline unsigned mtype_bits(enum mtype t)
{
	switch (t) {
	case MT_F16: case MT_BF16: return 16;
	case MT_S8: case MT_U8: return 8;
	case MT_S4: case MT_U4: return 4;
	case MT_B1: return 1;
	case MT_F64: return 64;
	default: return 32;
	}
}

#endif
