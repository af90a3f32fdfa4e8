// SPDX-License-Identifier: MIT
/* Fragment layouts of mma and wmma; see mma_layout.h. */
#include "mma_layout.h"

#include <stdbool.h>

#define G(lane) ((lane) >> 2)	/* groupID */
#define Q(lane) ((lane) & 3)	/* threadID_in_group */

/* ---- mma (PTX ISA) ---- */

/* 16x16 .f16/.bf16 A of m16n8k16: a0..a7 */
static void a_16x16_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e >> 1 & 1);
	*c = 2 * Q(l) + (e & 1) + 8 * (e >> 2);
}

/* 16x8 .f16/.bf16 A of m16n8k8: a0..a3 */
static void a_16x8_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e >> 1);
	*c = 2 * Q(l) + (e & 1);
}

/* 16x8 B (k x n) of m16n8k16 .f16/.bf16: b0..b3 */
static void b_16x8_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = 2 * Q(l) + (e & 1) + 8 * (e >> 1);
	*c = G(l);
}

/* 8x8 B of m16n8k8 .f16/.bf16: b0, b1 */
static void b_8x8_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = 2 * Q(l) + e;
	*c = G(l);
}

/* 16x8 C/D (f32, f16, s32): c0..c3 */
static void c_16x8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e >> 1);
	*c = 2 * Q(l) + (e & 1);
}

/* .tf32 A of m16n8k8 (16x8): a0..a3; of m16n8k4 (16x4): a0, a1 */
static void a_tf32(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e & 1);
	*c = Q(l) + 4 * (e >> 1);
}

/* .tf32 B of m16n8k8 (8x8): b0, b1; of m16n8k4: b0 */
static void b_tf32(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = Q(l) + 4 * e;
	*c = G(l);
}

/*
 * Integer operands (.s8/.u8, .s4/.u4, .b1): register r of a lane holds one
 * 32-bit word of A's row or B's column, 32 / bits elements in order.
 * A of the m16 shapes: row groupID (+8 for odd r), word
 * threadID_in_group + 4 * (r / 2); of m8n8: row groupID, word
 * threadID_in_group. B: column groupID, word threadID_in_group + 4 * r.
 */
#define INT_MAPS(bits)                                                  \
static void a16_i##bits(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c) \
{                                                                       \
	uint32_t reg = e / (32 / (bits)), i = e % (32 / (bits));        \
	*r = G(l) + 8 * (reg & 1);                                      \
	*c = (Q(l) + 4 * (reg >> 1)) * (32 / (bits)) + i;               \
}                                                                       \
static void a8_i##bits(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c) \
{                                                                       \
	*r = G(l);                                                      \
	*c = Q(l) * (32 / (bits)) + e;                                  \
}                                                                       \
static void b_i##bits(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c) \
{                                                                       \
	uint32_t reg = e / (32 / (bits)), i = e % (32 / (bits));        \
	*r = (Q(l) + 4 * reg) * (32 / (bits)) + i;                      \
	*c = G(l);                                                      \
}
INT_MAPS(8)
INT_MAPS(4)
INT_MAPS(1)

/* .f64 m8n8k4: A (8x4) a0, B (4x8) b0, C (8x8) c0, c1 */
static void a_f64(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	(void)e;
	*r = G(l);
	*c = Q(l);
}

static void b_f64(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	(void)e;
	*r = Q(l);
	*c = G(l);
}

static void c_8x8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l);
	*c = 2 * Q(l) + e;
}

/* ---- wmma: mma tiles side by side ---- */

/* f16 A of m16n16k16: the m16n8k16 A, twice */
static void wa_f16(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	a_16x16_h(l, e & 7, r, c);
}

/* B of m16n16k16 (16x16) as two 16x8 halves: elements 0-3 the left */
static void wb_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	b_16x8_h(l, e & 3, r, c);
	*c += 8 * (e >> 2 & 1);
}

/* C of m16n16 as two 16x8 halves */
static void wc_16x16(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	c_16x8(l, e & 3, r, c);
	*c += 8 * (e >> 2);
}

/* .u8/.s8 B of m16n16k16 as two 16x8 halves */
static void wb_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	b_i8(l, e & 3, r, c);
	*c += 8 * (e >> 2);
}

/* .tf32 B of m16n16k8 (8x16) as two 8x8 halves */
static void wb_tf32(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	b_tf32(l, e & 1, r, c);
	*c += 8 * (e >> 1);
}

/* m32n8k16: A (32x16) as two m16n8k16 A tiles stacked */
static void wa32_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	a_16x16_h(l, e & 7, r, c);
	*r += 16 * (e >> 3);
}

static void wa32_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	a16_i8(l, e & 7, r, c);
	*r += 16 * (e >> 3);
}

/* m32n8k16: B (16x8) is one m16n8k16 B; f16 fragments hold it 4 times */
static void wb8_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	b_16x8_h(l, e & 3, r, c);
}

/* m32n8k16: C (32x8) as two 16x8 tiles stacked */
static void wc_32x8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	c_16x8(l, e & 3, r, c);
	*r += 16 * (e >> 2);
}

/* m8n32k16 is m32n8k16 transposed: D^T = B^T A^T */
static void wa8_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	wb8_h(l, e, c, r);
}

static void wa8_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	b_i8(l, e, c, r);
}

static void wb32_h(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	wa32_h(l, e, c, r);
}

static void wb32_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	wa32_i8(l, e, c, r);
}

static void wc_8x32(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	wc_32x8(l, e, c, r);
}

#define L(fn, n, r, c) (struct frag_layout){ fn, n, r, c }

static bool int_type(enum mtype t)
{
	return t == MT_S8 || t == MT_U8 || t == MT_S4 || t == MT_U4 ||
	       t == MT_B1;
}

/* Integer mma: m16n8k(16|32) .s8/.u8, m16n8k(32|64) .s4/.u4,
 * m16n8k(128|256) .b1, and m8n8k16/32/128 of the same. */
static bool int_mma_layout(unsigned m, unsigned k, enum frag_use u,
			   enum mtype t, struct frag_layout *o)
{
	unsigned bits = mtype_bits(t);
	unsigned base = 16 * 8 / bits;	/* k of the m8n8 shape */
	frag_map_fn a16 = bits == 8 ? a16_i8 : bits == 4 ? a16_i4 : a16_i1;
	frag_map_fn a8 = bits == 8 ? a8_i8 : bits == 4 ? a8_i4 : a8_i1;
	frag_map_fn b = bits == 8 ? b_i8 : bits == 4 ? b_i4 : b_i1;
	if (m == 8 && k == base)
		return *o = u == FRAG_A ? L(a8, k / 4, 8, k) :
					  L(b, k / 4, k, 8),
		       true;
	if (m == 16 && (k == 2 * base || k == base))
		return *o = u == FRAG_A ? L(a16, k / 2, 16, k) :
					  L(b, k / 4, k, 8),
		       true;
	return false;
}

static bool mma_layout(unsigned m, unsigned n, unsigned k, enum frag_use u,
		       enum mtype t, struct frag_layout *o)
{
	bool h = t == MT_F16 || t == MT_BF16;
	if (u == FRAG_C && m == 16 && n == 8)
		return *o = L(c_16x8, 4, 16, 8), true;
	if (m == 8 && n == 8 && k == 4 && t == MT_F64)
		return *o = u == FRAG_A ? L(a_f64, 1, 8, 4) :
			    u == FRAG_B ? L(b_f64, 1, 4, 8) :
					  L(c_8x8, 2, 8, 8),
		       true;
	if (n != 8)
		return false;
	if (int_type(t))
		return u == FRAG_C ? m == 8 && (*o = L(c_8x8, 2, 8, 8), true) :
				     int_mma_layout(m, k, u, t, o);
	if (m != 16)
		return false;
	if (h && k == 16)
		return *o = u == FRAG_A ? L(a_16x16_h, 8, 16, 16) :
					  L(b_16x8_h, 4, 16, 8),
		       true;
	if (h && k == 8)
		return *o = u == FRAG_A ? L(a_16x8_h, 4, 16, 8) :
					  L(b_8x8_h, 2, 8, 8),
		       true;
	if (t == MT_TF32 && (k == 8 || k == 4))
		return *o = u == FRAG_A ? L(a_tf32, k / 2, 16, k) :
					  L(b_tf32, k / 4, k, 8),
		       true;
	return false;
}

/* wmma m32n8k16 and m8n32k16 (f16, bf16, s8/u8) */
static bool wmma_long_layout(unsigned m, enum frag_use u, enum mtype t,
			     struct frag_layout *o)
{
	bool tall = m == 32, i8 = t == MT_S8 || t == MT_U8;
	if (u == FRAG_C)
		return *o = tall ? L(wc_32x8, 8, 32, 8) : L(wc_8x32, 8, 8, 32),
		       true;
	if (t != MT_F16 && t != MT_BF16 && !i8)
		return false;
	/* the long operand: A of m32n8k16, B of m8n32k16 (16 elements) */
	if ((u == FRAG_A) == tall)
		return *o = tall ? L(i8 ? wa32_i8 : wa32_h, 16, 32, 16) :
				   L(i8 ? wb32_i8 : wb32_h, 16, 16, 32),
		       true;
	/* the short one: 4 elements, f16 fragments hold them 4 times */
	unsigned n = t == MT_F16 ? 16 : 4;
	return *o = tall ? L(i8 ? b_i8 : wb8_h, n, 16, 8) :
			   L(i8 ? wa8_i8 : wa8_h, n, 8, 16),
	       true;
}

/* wmma m8n8k32 (.s4/.u4) and m8n8k128 (.b1): the mma.sync layouts */
static bool wmma_subbyte_layout(unsigned k, enum frag_use u, enum mtype t,
				struct frag_layout *o)
{
	bool b1 = t == MT_B1, i4 = t == MT_S4 || t == MT_U4;
	if (u == FRAG_C)
		return (k == 32 || k == 128) && (*o = L(c_8x8, 2, 8, 8), true);
	if (!(b1 && k == 128) && !(i4 && k == 32))
		return false;
	return int_mma_layout(8, k, u, t, o);
}

static bool wmma_layout(unsigned m, unsigned n, unsigned k, enum frag_use u,
			enum mtype t, struct frag_layout *o)
{
	if (m == 8 && n == 8 && k == 4 && t == MT_F64)
		return mma_layout(m, n, k, u, t, o);
	if (m == 8 && n == 8)
		return wmma_subbyte_layout(k, u, t, o);
	if (k == 16 && ((m == 32 && n == 8) || (m == 8 && n == 32)))
		return wmma_long_layout(m, u, t, o);
	if (m != 16 || n != 16)
		return false;
	if (u == FRAG_C)
		return *o = L(wc_16x16, 8, 16, 16), true;
	switch (t) {
	case MT_F16:
		if (k != 16)
			return false;
		return *o = u == FRAG_A ? L(wa_f16, 16, 16, 16) :
					  L(wb_h, 16, 16, 16),
		       true;
	case MT_BF16:
		if (k != 16)
			return false;
		return *o = u == FRAG_A ? L(a_16x16_h, 8, 16, 16) :
					  L(wb_h, 8, 16, 16),
		       true;
	case MT_S8:
	case MT_U8:
		if (k != 16)
			return false;
		return *o = u == FRAG_A ? L(a16_i8, 8, 16, 16) :
					  L(wb_i8, 8, 16, 16),
		       true;
	case MT_TF32:
		if (k != 8)
			return false;
		return *o = u == FRAG_A ? L(a_tf32, 4, 16, 8) :
					  L(wb_tf32, 4, 8, 16),
		       true;
	default:
		return false;
	}
}

bool frag_layout_of(bool wmma, unsigned m, unsigned n, unsigned k,
		    enum frag_use use, enum mtype t, struct frag_layout *out)
{
	return wmma ? wmma_layout(m, n, k, use, t, out) :
		      mma_layout(m, n, k, use, t, out);
}
