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

/* .s8/.u8 A of m16n8k16 (16x16): a0..a7 */
static void a_16x16_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e >> 2);
	*c = 4 * Q(l) + (e & 3);
}

/* .s8/.u8 A of m16n8k32 (16x32): a0..a15 */
static void a_16x32_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = G(l) + 8 * (e >> 2 & 1);
	*c = 4 * Q(l) + (e & 3) + 16 * (e >> 3);
}

/* .s8/.u8 B of m16n8k16 (16x8): b0..b3; of m16n8k32 (32x8): b0..b7 */
static void b_i8(uint32_t l, uint32_t e, uint32_t *r, uint32_t *c)
{
	*r = 4 * Q(l) + (e & 3) + 16 * (e >> 2);
	*c = G(l);
}

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

#define L(fn, n, r, c) (struct frag_layout){ fn, n, r, c }

static bool mma_layout(unsigned m, unsigned n, unsigned k, enum frag_use u,
		       enum mtype t, struct frag_layout *o)
{
	bool h = t == MT_F16 || t == MT_BF16, i8 = t == MT_S8 || t == MT_U8;
	if (u == FRAG_C && m == 16 && n == 8)
		return *o = L(c_16x8, 4, 16, 8), true;
	if (m == 8 && n == 8 && k == 4 && t == MT_F64)
		return *o = u == FRAG_A ? L(a_f64, 1, 8, 4) :
			    u == FRAG_B ? L(b_f64, 1, 4, 8) :
					  L(c_8x8, 2, 8, 8),
		       true;
	if (m != 16 || n != 8)
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
	if (i8 && k == 16)
		return *o = u == FRAG_A ? L(a_16x16_i8, 8, 16, 16) :
					  L(b_i8, 4, 16, 8),
		       true;
	if (i8 && k == 32)
		return *o = u == FRAG_A ? L(a_16x32_i8, 16, 16, 32) :
					  L(b_i8, 8, 32, 8),
		       true;
	return false;
}

static bool wmma_layout(unsigned m, unsigned n, unsigned k, enum frag_use u,
			enum mtype t, struct frag_layout *o)
{
	if (m == 8 && n == 8 && k == 4 && t == MT_F64)
		return mma_layout(m, n, k, u, t, o);
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
		return *o = u == FRAG_A ? L(a_16x16_i8, 8, 16, 16) :
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
