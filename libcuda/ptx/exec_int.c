// SPDX-License-Identifier: MIT
/*
 * Integer and bit instructions: add, sub, mul, mad (lo/hi/wide), mul24,
 * div, rem, abs, neg, min, max, logic (also on predicates), shifts,
 * popc, clz, bfind, brev, bfe, bfi, prmt, lop3, shf, bmsk, sad, dp4a.
 * (Video instructions and dp2a: exec_video.c.)
 * Signed arithmetic wraps: it is done on unsigned types.
 */
#include "lanes.h"

/*
 * add, sub, mul.lo, mad.lo and logic: the low n bits of the result depend
 * only on the low n bits of the operands, so one 64-bit handler serves
 * every width (readers truncate), signed or not.
 */
#define DEF_WIDTHS(op, EXPR, KIND)                        \
	KIND(op##_64, uint64_t, uint64_t, EXPR)           \
	static const xhandler op##_16 = op##_64, op##_32 = op##_64;

DEF_WIDTHS(add, a + b, DEF_BIN)
DEF_WIDTHS(sub, a - b, DEF_BIN)
DEF_WIDTHS(mullo, a * b, DEF_BIN)
DEF_WIDTHS(madlo, a * b + c, DEF_TER)

/* ---- mul.hi, mad.hi ---- */
DEF_BIN(mulhi_u16, uint32_t, uint16_t, (a & 0xffff) * (b & 0xffff) >> 16)
DEF_BIN(mulhi_s16, int16_t, int16_t, (int32_t)a * b >> 16)
DEF_BIN(mulhi_u32, uint64_t, uint32_t,
	(uint64_t)(uint32_t)a * (uint32_t)b >> 32)
DEF_BIN(mulhi_s32, int32_t, int32_t, (int64_t)a * b >> 32)
DEF_BIN(mulhi_u64, uint64_t, uint64_t, (unsigned __int128)a * b >> 64)
DEF_BIN(mulhi_s64, int64_t, int64_t, (__int128)a * b >> 64)
DEF_TER(madhi_u32, uint64_t, uint32_t,
	((uint64_t)(uint32_t)a * (uint32_t)b >> 32) + (uint32_t)c)
DEF_TER(madhi_s32, int32_t, uint32_t,
	(uint32_t)((int64_t)a * b >> 32) + (uint32_t)c)
DEF_TER(madhi_u64, uint64_t, uint64_t, ((unsigned __int128)a * b >> 64) + c)
DEF_TER(madhi_s64, int64_t, uint64_t,
	(uint64_t)((__int128)a * b >> 64) + (uint64_t)c)

/* ---- mul.wide, mad.wide: double-width results ---- */
DEF_BIN(mulwide_u16, uint16_t, uint32_t, (uint32_t)a * b)
DEF_BIN(mulwide_s16, int16_t, int32_t, (int32_t)a * b)
DEF_BIN(mulwide_u32, uint32_t, uint64_t, (uint64_t)a * b)
DEF_BIN(mulwide_s32, int32_t, int64_t, (int64_t)a * b)

#define DEF_MADWIDE(name, T, W, UW)                                        \
	static const struct xinsn *name(struct warp *w,                    \
					const struct xinsn *ip)            \
	{                                                                  \
		uint32_t m = xmask(w, ip);                                 \
		uint64_t *d = xr(w, ip->d);                                \
		const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),     \
			       *pc = xr(w, ip->c);                         \
		LANE_LOOP(m, d[l] = (uint64_t)(UW)((UW)((W)(T)pa[l] *      \
							(W)(T)pb[l]) +     \
						   (UW)pc[l]));            \
		return ip + 1;                                             \
	}
DEF_MADWIDE(madwide_u16, uint16_t, uint32_t, uint32_t)
DEF_MADWIDE(madwide_s16, int16_t, int32_t, uint32_t)
DEF_MADWIDE(madwide_u32, uint32_t, uint64_t, uint64_t)
DEF_MADWIDE(madwide_s32, int32_t, int64_t, uint64_t)

/* ---- mul24, mad24 ---- */
static inline int64_t s24(uint64_t v)
{
	return (int64_t)((int32_t)((uint32_t)v << 8) >> 8);
}
DEF_BIN(mul24lo_u32, uint64_t, uint32_t, (a & 0xffffff) * (b & 0xffffff))
DEF_BIN(mul24lo_s32, uint64_t, uint32_t, (uint64_t)(s24(a) * s24(b)))
DEF_BIN(mul24hi_u32, uint64_t, uint32_t,
	(a & 0xffffff) * (b & 0xffffff) >> 16)
DEF_BIN(mul24hi_s32, uint64_t, uint32_t, (uint64_t)(s24(a) * s24(b) >> 16))
DEF_TER(mad24lo_u32, uint64_t, uint32_t,
	(a & 0xffffff) * (b & 0xffffff) + c)
DEF_TER(mad24lo_s32, uint64_t, uint32_t, (uint64_t)(s24(a) * s24(b)) + c)

/* ---- div, rem: defined results where C would trap ----
 * By zero, the GPU gives all ones for both, signed or not. */
#define UDIV(a, b, T) ((b) ? (T)((a) / (b)) : (T)~(T)0)
#define UREM(a, b) ((b) ? (a) % (b) : ~(a) | (a))
#define SDIV(a, b, T, MIN) \
	((b) == 0 ? (T)-1 : ((a) == (MIN) && (b) == -1) ? (a) : (T)((a) / (b)))
#define SREM(a, b, MIN) \
	((b) == 0 ? -1 : ((a) == (MIN) && (b) == -1) ? 0 : (a) % (b))
DEF_BIN(div_u16, uint16_t, uint16_t, UDIV(a, b, uint16_t))
DEF_BIN(div_u32, uint32_t, uint32_t, UDIV(a, b, uint32_t))
DEF_BIN(div_u64, uint64_t, uint64_t, UDIV(a, b, uint64_t))
DEF_BIN(div_s16, int16_t, int16_t, SDIV(a, b, int16_t, INT16_MIN))
DEF_BIN(div_s32, int32_t, int32_t, SDIV(a, b, int32_t, INT32_MIN))
DEF_BIN(div_s64, int64_t, int64_t, SDIV(a, b, int64_t, INT64_MIN))
DEF_BIN(rem_u16, uint16_t, uint16_t, UREM(a, b))
DEF_BIN(rem_u32, uint32_t, uint32_t, UREM(a, b))
DEF_BIN(rem_u64, uint64_t, uint64_t, UREM(a, b))
DEF_BIN(rem_s16, int16_t, int16_t, SREM(a, b, INT16_MIN))
DEF_BIN(rem_s32, int32_t, int32_t, SREM(a, b, INT32_MIN))
DEF_BIN(rem_s64, int64_t, int64_t, SREM(a, b, INT64_MIN))

/* ---- abs, neg, min, max ---- */
DEF_UN(abs_s16, int16_t, uint16_t, a < 0 ? 0u - (uint16_t)a : (uint16_t)a)
DEF_UN(abs_s32, int32_t, uint32_t, a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
DEF_UN(abs_s64, int64_t, uint64_t, a < 0 ? 0u - (uint64_t)a : (uint64_t)a)
DEF_UN(neg_64, uint64_t, uint64_t, 0u - a)
static const xhandler neg_16 = neg_64, neg_32 = neg_64;
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
DEF_BIN(min_u16, uint16_t, uint16_t, MIN(a, b))
DEF_BIN(min_u32, uint32_t, uint32_t, MIN(a, b))
DEF_BIN(min_u64, uint64_t, uint64_t, MIN(a, b))
DEF_BIN(min_s16, int16_t, int16_t, MIN(a, b))
DEF_BIN(min_s32, int32_t, int32_t, MIN(a, b))
DEF_BIN(min_s64, int64_t, int64_t, MIN(a, b))
DEF_BIN(max_u16, uint16_t, uint16_t, MAX(a, b))
DEF_BIN(max_u32, uint32_t, uint32_t, MAX(a, b))
DEF_BIN(max_u64, uint64_t, uint64_t, MAX(a, b))
DEF_BIN(max_s16, int16_t, int16_t, MAX(a, b))
DEF_BIN(max_s32, int32_t, int32_t, MAX(a, b))
DEF_BIN(max_s64, int64_t, int64_t, MAX(a, b))

/* ---- logic ---- */
DEF_WIDTHS(and, a & b, DEF_BIN)
DEF_WIDTHS(or, a | b, DEF_BIN)
DEF_WIDTHS(xor, a ^ b, DEF_BIN)
DEF_UN(not_64, uint64_t, uint64_t, ~a)
static const xhandler not_16 = not_64, not_32 = not_64;
DEF_UN(cnot_16, uint16_t, uint16_t, a == 0)
DEF_UN(cnot_32, uint32_t, uint32_t, a == 0)
DEF_UN(cnot_64, uint64_t, uint64_t, a == 0)

/* Predicates are lane masks: only executing lanes' bits change. */
static inline void pred_write(uint32_t *d, uint32_t m, uint32_t v)
{
	*d = (*d & ~m) | (v & m);
}

#define DEF_PRED(name, EXPR)                                               \
	static const struct xinsn *name(struct warp *w,                    \
					const struct xinsn *ip)            \
	{                                                                  \
		uint32_t m = xmask(w, ip);                                 \
		uint32_t a = *xpred(w, ip->a) ^ ip->pneg[0];               \
		uint32_t b = ip->b ? *xpred(w, ip->b) ^ ip->pneg[1] : 0;   \
		(void)b;                                                   \
		pred_write(xpred(w, ip->d), m, (EXPR));                    \
		return ip + 1;                                             \
	}
DEF_PRED(and_pred, a & b)
DEF_PRED(or_pred, a | b)
DEF_PRED(xor_pred, a ^ b)
DEF_PRED(not_pred, ~a)
DEF_PRED(cnot_pred, ~a)

/* ---- shifts: amounts are unsigned and clamp at the width ---- */
DEF_BIN(shl_16, uint16_t, uint16_t, (uint32_t)pb[l] >= 16 ? 0 : a << b)
DEF_BIN(shl_32, uint32_t, uint32_t, (uint32_t)pb[l] >= 32 ? 0 : a << b)
DEF_BIN(shl_64, uint64_t, uint64_t,
	(uint32_t)pb[l] >= 64 ? 0 : a << (uint32_t)pb[l])
DEF_BIN(shr_u16, uint16_t, uint16_t, (uint32_t)pb[l] >= 16 ? 0 : a >> b)
DEF_BIN(shr_u32, uint32_t, uint32_t, (uint32_t)pb[l] >= 32 ? 0 : a >> b)
DEF_BIN(shr_u64, uint64_t, uint64_t,
	(uint32_t)pb[l] >= 64 ? 0 : a >> (uint32_t)pb[l])
DEF_BIN(shr_s16, int16_t, int16_t,
	a >> ((uint32_t)pb[l] >= 16 ? 15 : (uint32_t)pb[l]))
DEF_BIN(shr_s32, int32_t, int32_t,
	a >> ((uint32_t)pb[l] >= 32 ? 31 : (uint32_t)pb[l]))
DEF_BIN(shr_s64, int64_t, int64_t,
	a >> ((uint32_t)pb[l] >= 64 ? 63 : (uint32_t)pb[l]))

/* ---- bit counting and reversal ---- */
DEF_UN(popc_32, uint32_t, uint32_t, __builtin_popcount(a))
DEF_UN(popc_64, uint64_t, uint32_t, __builtin_popcountll(a))
DEF_UN(clz_32, uint32_t, uint32_t, a ? __builtin_clz(a) : 32)
DEF_UN(clz_64, uint64_t, uint32_t, a ? __builtin_clzll(a) : 64)
static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}
DEF_UN(brev_32, uint32_t, uint32_t, brev32(a))
DEF_UN(brev_64, uint64_t, uint64_t,
       (uint64_t)brev32((uint32_t)a) << 32 | brev32((uint32_t)(a >> 32)))

/* bfind: position of the most significant non-sign bit, or ~0. */
static inline uint32_t bfind(uint64_t v, unsigned bits, bool sign,
			     bool shiftamt)
{
	if (sign && (v >> (bits - 1) & 1))
		v = ~v;
	if (bits == 32)
		v &= 0xffffffffu;
	if (!v)
		return 0xffffffffu;
	uint32_t pos = 63 - (uint32_t)__builtin_clzll(v);
	return shiftamt ? bits - 1 - pos : pos;
}
#define SHIFTAMT (ip->flags >> FL_SHIFTAMT & 1)
DEF_UN(bfind_u32, uint64_t, uint32_t, bfind(a, 32, false, SHIFTAMT))
DEF_UN(bfind_s32, uint64_t, uint32_t, bfind(a, 32, true, SHIFTAMT))
DEF_UN(bfind_u64, uint64_t, uint32_t, bfind(a, 64, false, SHIFTAMT))
DEF_UN(bfind_s64, uint64_t, uint32_t, bfind(a, 64, true, SHIFTAMT))

/* bfe d, a, pos, len: extract, zero- or sign-extended (PTX's rule: the
 * sign is the last extracted bit, or the top bit past the end). The
 * 32-bit forms read pos and len from their low bytes, as the ISA says;
 * the GPU's 64-bit forms take the whole 32-bit values. */
static inline uint64_t bfe(uint64_t a, uint64_t pos, uint64_t len,
			   unsigned bits, bool sign)
{
	uint64_t msb = bits - 1;
	if (bits == 32) {
		pos &= 0xff;
		len &= 0xff;
	}
	if (!len)
		return 0;
	uint64_t avail = pos > msb ? 0 : msb + 1 - pos;
	uint64_t n = len < avail ? len : avail;
	uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;
	uint64_t v = pos > msb ? 0 : (a >> pos) & mask;
	uint64_t top = pos + len - 1 > msb ? msb : pos + len - 1;
	if (sign && (a >> top & 1))
		v |= ~mask;
	return v;
}
DEF_TER(bfe_u32, uint64_t, uint32_t, bfe(a & 0xffffffffu, (uint32_t)b,
					 (uint32_t)c, 32, false))
DEF_TER(bfe_s32, uint64_t, uint32_t, bfe(a & 0xffffffffu, (uint32_t)b,
					 (uint32_t)c, 32, true))
DEF_TER(bfe_u64, uint64_t, uint64_t, bfe(a, (uint32_t)b, (uint32_t)c, 64,
					 false))
DEF_TER(bfe_s64, uint64_t, uint64_t, bfe(a, (uint32_t)b, (uint32_t)c, 64,
					 true))

/* bfi d, a, b, pos, len: a's low len bits into b at pos (len in imm);
 * pos and len as bfe reads them. */
static inline uint64_t bfi(uint64_t a, uint64_t b, uint64_t pos,
			   uint64_t len, unsigned bits)
{
	if (bits == 32) {
		pos &= 0xff;
		len &= 0xff;
	}
	if (!len || pos >= bits)
		return b;
	if (pos + len > bits)
		len = bits - pos;
	uint64_t mask = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
	return (b & ~mask) | ((a << pos) & mask);
}
#define DEF_BFI(name, R, BITS)                                               \
	static const struct xinsn *name(struct warp *w,                      \
					const struct xinsn *ip)              \
	{                                                                    \
		uint32_t m = xmask(w, ip);                                   \
		uint64_t *d = xr(w, ip->d);                                  \
		const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),       \
			       *pc = xr(w, ip->c),                           \
			       *pl = xr(w, (xref)ip->imm);                   \
		LANE_LOOP(m, d[l] = (R)bfi(pa[l], pb[l], (uint32_t)pc[l],    \
					   (uint32_t)pl[l], BITS));          \
		return ip + 1;                                               \
	}
DEF_BFI(bfi_32, uint32_t, 32)
DEF_BFI(bfi_64, uint64_t, 64)

/* prmt: byte permute of {b, a} by the selector c. */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
	uint64_t x = (uint64_t)b << 32 | a;
	uint32_t sel[4], r = 0;
	if (mode)
		c &= 3;		/* the modes read only c[1:0] */
	switch (mode) {
	case MOD_F4E:
		for (int i = 0; i < 4; i++)
			sel[i] = (c + (uint32_t)i) & 7;
		break;
	case MOD_B4E:
		for (int i = 0; i < 4; i++)
			sel[i] = (c - (uint32_t)i) & 7;
		break;
	case MOD_RC8:
		for (int i = 0; i < 4; i++)
			sel[i] = c & 3;
		break;
	case MOD_ECL:
		for (int i = 0; i < 4; i++)
			sel[i] = (uint32_t)i > (c & 3) ? (uint32_t)i : c & 3;
		break;
	case MOD_ECR:
		for (int i = 0; i < 4; i++)
			sel[i] = (uint32_t)i < (c & 3) ? (uint32_t)i : c & 3;
		break;
	case MOD_RC16:
		for (int i = 0; i < 4; i++)
			sel[i] = ((c & 1) << 1) + ((uint32_t)i & 1);
		break;
	default:
		for (int i = 0; i < 4; i++)
			sel[i] = c >> (4 * i) & 0xf;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t byte = (uint32_t)(x >> ((sel[i] & 7) * 8)) & 0xff;
		if (!mode && (sel[i] & 8))	/* replicate the sign bit */
			byte = byte & 0x80 ? 0xff : 0;
		r |= byte << (8 * i);
	}
	return r;
}
DEF_TER(prmt_32, uint32_t, uint32_t, prmt(a, b, c, ip->mode16))

/* lop3: any function of three inputs, given by its truth table. */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;
	for (int i = 0; i < 8; i++) {
		if (!(lut >> i & 1))
			continue;
		uint32_t ta = i & 4 ? a : ~a, tb = i & 2 ? b : ~b,
			 tc = i & 1 ? c : ~c;
		r |= ta & tb & tc;
	}
	return r;
}
DEF_TER(lop3_32, uint32_t, uint32_t, lop3(a, b, c, (uint32_t)ip->imm))

/* shf: funnel shift of {b:a}. */
static inline uint32_t shf(uint32_t a, uint32_t b, uint32_t n, bool left,
			   bool clamp)
{
	n = clamp ? (n > 32 ? 32 : n) : n & 31;
	uint64_t x = (uint64_t)b << 32 | a;
	return left ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
}
DEF_TER(shf_l_wrap, uint32_t, uint32_t, shf(a, b, c, true, false))
DEF_TER(shf_l_clamp, uint32_t, uint32_t, shf(a, b, c, true, true))
DEF_TER(shf_r_wrap, uint32_t, uint32_t, shf(a, b, c, false, false))
DEF_TER(shf_r_clamp, uint32_t, uint32_t, shf(a, b, c, false, true))

/* bmsk d, pos, len: a mask of len ones starting at pos. */
static inline uint32_t bmsk(uint32_t pos, uint32_t len, bool clamp)
{
	if (!clamp) {
		pos &= 31;
		len &= 31;
	} else {
		pos = pos > 32 ? 32 : pos;
		len = len > 32 ? 32 : len;
	}
	uint64_t mask = ((1ull << len) - 1) << pos;
	return (uint32_t)mask;
}
DEF_BIN(bmsk_clamp, uint32_t, uint32_t, bmsk(a, b, true))
DEF_BIN(bmsk_wrap, uint32_t, uint32_t, bmsk(a, b, false))

/* sad: c + |a - b| */
DEF_TER(sad_u32, uint32_t, uint32_t, c + (a > b ? a - b : b - a))
DEF_TER(sad_s32, int32_t, uint32_t,
	(uint32_t)c + (a > b ? (uint32_t)a - (uint32_t)b :
			       (uint32_t)b - (uint32_t)a))
DEF_TER(sad_u64, uint64_t, uint64_t, c + (a > b ? a - b : b - a))
DEF_TER(sad_s64, int64_t, uint64_t,
	(uint64_t)c + (a > b ? (uint64_t)a - (uint64_t)b :
			       (uint64_t)b - (uint64_t)a))

/* dp4a: c + dot product of the four bytes of a and b. */
static inline uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, bool as,
			    bool bs)
{
	int64_t acc = (int32_t)c;
	for (int i = 0; i < 4; i++) {
		int32_t x = as ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
		int32_t y = bs ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
		acc += (int64_t)x * y;
	}
	return (uint32_t)acc;
}
DEF_TER(dp4a_x, uint32_t, uint32_t,
	dp4a(a, b, c, ip->type == PTX_T_S32, ip->type2 == PTX_T_S32))

/* ---- selection ---- */

static xhandler pick_signed(unsigned type, xhandler u16, xhandler u32,
			    xhandler u64, xhandler s16, xhandler s32,
			    xhandler s64)
{
	unsigned size = ptx_type_size(type);
	return ptx_type_is_signed(type) ? by_size(size, s16, s32, s64) :
					  by_size(size, u16, u32, u64);
}

static bool lower_mul(struct lower_ctx *c, const struct ir_insn *in,
		      unsigned t, bool mad)
{
	unsigned size = ptx_type_size(t);
	bool s = ptx_type_is_signed(t);
	xhandler h = NULL;
	switch (in->mode) {
	case MOD_HI:
		h = mad ? (size == 4 ? (s ? madhi_s32 : madhi_u32) :
			   size == 8 ? (s ? madhi_s64 : madhi_u64) : NULL) :
			  pick_signed(t, mulhi_u16, mulhi_u32, mulhi_u64,
				      mulhi_s16, mulhi_s32, mulhi_s64);
		break;
	case MOD_WIDE:
		h = mad ? pick_signed(t, madwide_u16, madwide_u32, NULL,
				      madwide_s16, madwide_s32, NULL) :
			  pick_signed(t, mulwide_u16, mulwide_u32, NULL,
				      mulwide_s16, mulwide_s32, NULL);
		break;
	case MOD_LO:
		h = mad ? by_size(size, madlo_16, madlo_32, madlo_64) :
			  by_size(size, mullo_16, mullo_32, mullo_64);
		break;
	default:
		return lower_unsupported(c, "needs .lo, .hi or .wide");
	}
	return emit_alu(c, in, h, t, mad ? 3 : 2);
}

static bool lower_mul24(struct lower_ctx *c, const struct ir_insn *in,
			unsigned t)
{
	bool s = t == PTX_T_S32, mad = in->op == OP_MAD24;
	if (t != PTX_T_U32 && t != PTX_T_S32)
		return lower_unsupported(c, "type");
	if (mad && in->mode != MOD_LO)
		return lower_unsupported(c, "mad24.hi");
	xhandler h = mad ? (s ? mad24lo_s32 : mad24lo_u32) :
		     in->mode == MOD_HI ? (s ? mul24hi_s32 : mul24hi_u32) :
					  (s ? mul24lo_s32 : mul24lo_u32);
	return emit_alu(c, in, h, t, mad ? 3 : 2);
}

static bool lower_logic(struct lower_ctx *c, const struct ir_insn *in,
			unsigned t)
{
	unsigned size = ptx_type_size(t);
	bool pred = t == PTX_T_PRED;
	switch (in->op) {
	case OP_AND:
		return emit_alu(c, in, pred ? and_pred :
					 by_size(size, and_16, and_32, and_64),
				t, 2);
	case OP_OR:
		return emit_alu(c, in, pred ? or_pred :
					 by_size(size, or_16, or_32, or_64),
				t, 2);
	case OP_XOR:
		return emit_alu(c, in, pred ? xor_pred :
					 by_size(size, xor_16, xor_32, xor_64),
				t, 2);
	case OP_NOT:
		return emit_alu(c, in, pred ? not_pred :
					 by_size(size, not_16, not_32, not_64),
				t, 1);
	default:
		return emit_alu(c, in, pred ? cnot_pred :
					 by_size(size, cnot_16, cnot_32,
						 cnot_64),
				t, 1);
	}
}

static bool lower_shift(struct lower_ctx *c, const struct ir_insn *in,
			unsigned t)
{
	unsigned size = ptx_type_size(t);
	xhandler h = in->op == OP_SHL ?
			     by_size(size, shl_16, shl_32, shl_64) :
			     pick_signed(t, shr_u16, shr_u32, shr_u64, shr_s16,
					 shr_s32, shr_s64);
	if (in->nopnds != 3)
		return lower_unsupported(c, "operand count");
	xref d, a, b;
	if (!ref_dst(c, &in->opnd[0], &d) ||
	    !ref_src(c, &in->opnd[1], t, &a) ||
	    !ref_src(c, &in->opnd[2], PTX_T_U32, &b))
		return false;
	if (!h)
		return lower_unsupported(c, "type");
	struct xinsn *x = emit(c, h);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	return true;
}

/* Instructions with more sources than a, b, c: the 4th goes in imm. */
static bool lower_bfi(struct lower_ctx *c, const struct ir_insn *in,
		      unsigned t)
{
	xhandler h = by_size(ptx_type_size(t), NULL, bfi_32, bfi_64);
	xref len;
	if (in->nopnds != 5)
		return lower_unsupported(c, "operand count");
	if (!ref_src(c, &in->opnd[4], PTX_T_U32, &len))
		return false;
	struct ir_insn copy = *in;
	copy.nopnds = 4;
	copy.opnd[2] = in->opnd[2];
	if (!emit_alu(c, &copy, h, t, 3))
		return false;
	((struct xinsn *)c->code.data)[c->code.len - 1].imm = (int64_t)len;
	return true;
}

static bool lower_lop3(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->nopnds != 5 || in->opnd[4].kind != OPND_IMM)
		return lower_unsupported(c, "operands");
	struct ir_insn copy = *in;
	copy.nopnds = 4;
	if (!emit_alu(c, &copy, lop3_32, PTX_T_B32, 3))
		return false;
	((struct xinsn *)c->code.data)[c->code.len - 1].imm =
		(int64_t)(in->opnd[4].imm & 0xff);
	return true;
}

static bool lower_bits(struct lower_ctx *c, const struct ir_insn *in,
		       unsigned t)
{
	unsigned size = ptx_type_size(t);
	bool s = ptx_type_is_signed(t);
	switch (in->op) {
	case OP_POPC:
		return emit_alu(c, in, by_size(size, NULL, popc_32, popc_64),
				t, 1);
	case OP_CLZ:
		return emit_alu(c, in, by_size(size, NULL, clz_32, clz_64), t,
				1);
	case OP_BREV:
		return emit_alu(c, in, by_size(size, NULL, brev_32, brev_64),
				t, 1);
	case OP_BFIND:
		return emit_alu(c, in, size == 4 ? (s ? bfind_s32 : bfind_u32) :
				       size == 8 ? (s ? bfind_s64 : bfind_u64) :
						   NULL,
				t, 1);
	case OP_BFE:
		return emit_alu(c, in, size == 4 ? (s ? bfe_s32 : bfe_u32) :
				       size == 8 ? (s ? bfe_s64 : bfe_u64) :
						   NULL,
				t, 3);
	case OP_BFI:
		return lower_bfi(c, in, t);
	case OP_LOP3:
		return lower_lop3(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}

static bool lower_misc(struct lower_ctx *c, const struct ir_insn *in,
		       unsigned t)
{
	unsigned size = ptx_type_size(t);
	switch (in->op) {
	case OP_PRMT:
		if (!emit_alu(c, in, prmt_32, PTX_T_B32, 3))
			return false;
		((struct xinsn *)c->code.data)[c->code.len - 1].mode16 =
			in->mode;
		return true;
	case OP_SHF: {
		bool clamp = in->mode2 == MOD_CLAMP;
		xhandler h = in->mode == MOD_L ?
				     (clamp ? shf_l_clamp : shf_l_wrap) :
				     (clamp ? shf_r_clamp : shf_r_wrap);
		return emit_alu(c, in, h, PTX_T_U32, 3);
	}
	case OP_BMSK:
		return emit_alu(c, in, in->mode == MOD_WRAP ? bmsk_wrap :
							      bmsk_clamp,
				PTX_T_U32, 2);
	case OP_SAD:
		return emit_alu(c, in, pick_signed(t, NULL, sad_u32, sad_u64,
						   NULL, sad_s32, sad_s64),
				t, 3);
	case OP_DP4A:
		return emit_alu(c, in, size == 4 ? dp4a_x : NULL, PTX_T_U32, 3);
	default:
		return lower_unsupported(c, NULL);
	}
}

bool lower_int(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t);
	if (in->flags & (1u << FL_CC) || in->op == OP_ADDC ||
	    in->op == OP_SUBC || in->op == OP_MADC)
		return lower_carry(c, in);
	if (in->flags & (1u << FL_SAT))
		return lower_saturating(c, in);
	switch (in->op) {
	case OP_ADD:
		return emit_alu(c, in, by_size(size, add_16, add_32, add_64),
				t, 2);
	case OP_SUB:
		return emit_alu(c, in, by_size(size, sub_16, sub_32, sub_64),
				t, 2);
	case OP_MUL:
	case OP_MAD:
		return lower_mul(c, in, t, in->op == OP_MAD);
	case OP_MUL24:
	case OP_MAD24:
		return lower_mul24(c, in, t);
	case OP_DIV:
		return emit_alu(c, in, pick_signed(t, div_u16, div_u32, div_u64,
						   div_s16, div_s32, div_s64),
				t, 2);
	case OP_REM:
		return emit_alu(c, in, pick_signed(t, rem_u16, rem_u32, rem_u64,
						   rem_s16, rem_s32, rem_s64),
				t, 2);
	case OP_ABS:
		return emit_alu(c, in, ptx_type_is_signed(t) ?
				by_size(size, abs_s16, abs_s32, abs_s64) : NULL,
				t, 1);
	case OP_NEG:
		return emit_alu(c, in, ptx_type_is_signed(t) ?
				by_size(size, neg_16, neg_32, neg_64) : NULL,
				t, 1);
	case OP_MIN:
		return emit_alu(c, in, pick_signed(t, min_u16, min_u32, min_u64,
						   min_s16, min_s32, min_s64),
				t, 2);
	case OP_MAX:
		return emit_alu(c, in, pick_signed(t, max_u16, max_u32, max_u64,
						   max_s16, max_s32, max_s64),
				t, 2);
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
		return lower_logic(c, in, t);
	case OP_SHL:
	case OP_SHR:
		return lower_shift(c, in, t);
	case OP_POPC: case OP_CLZ: case OP_BREV: case OP_BFIND: case OP_BFE:
	case OP_BFI: case OP_LOP3:
		return lower_bits(c, in, t);
	default:
		return lower_misc(c, in, t);
	}
}
