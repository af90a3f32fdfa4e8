// SPDX-License-Identifier: MIT
/*
 * cvt: integer <-> integer (extension, truncation, saturation), float ->
 * integer (rounding, saturating, NaN -> 0), integer -> float and float ->
 * float in every rounding mode, with .ftz, .sat, .relu, .satfinite, and
 * the narrow formats (f16, bf16, tf32, packed x2).
 */
#include "f16.h"
#include "lanes.h"

#include <math.h>

/* ---- reading sources ---- */

static inline uint64_t sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v :
			    (uint64_t)((int64_t)(v << (64 - bits)) >>
				       (64 - bits));
}

static inline uint64_t zext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* Integer source as 64 bits: extended by its own signedness. That is the
 * whole of a widening conversion; a narrowing one (cvt.s8.s32) then
 * truncates and extends by the destination's signedness, which is what
 * a GPU leaves in the wider destination register. */
DEF_UN(ext_s8, uint64_t, uint64_t, sext(a, 8))
DEF_UN(ext_s16, uint64_t, uint64_t, sext(a, 16))
DEF_UN(ext_s32, uint64_t, uint64_t, sext(a, 32))
DEF_UN(ext_u8, uint64_t, uint64_t, zext(a, 8))
DEF_UN(ext_u16, uint64_t, uint64_t, zext(a, 16))
DEF_UN(ext_u32, uint64_t, uint64_t, zext(a, 32))
DEF_UN(ext_64, uint64_t, uint64_t, a)

static const struct xinsn *x_cvt_narrow(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	unsigned sbits = ptx_type_size(ip->type2) * 8;
	unsigned dbits = ptx_type_size(ip->type) * 8;
	bool ss = ptx_type_is_signed(ip->type2), ds = ptx_type_is_signed(ip->type);
	FOR_LANES(m, l) {
		uint64_t v = ss ? sext(pa[l], sbits) : zext(pa[l], sbits);
		d[l] = ds ? sext(v, dbits) : zext(v, dbits);
	}
	return ip + 1;
}

static inline double read_float(uint64_t v, unsigned t, bool ftz)
{
	switch (t) {
	case PTX_T_F16:
		return f16_to_f32((uint16_t)v);
	case PTX_T_BF16:
		return bf16_to_f32((uint16_t)v);
	case PTX_T_F64:
		return f64_of(v);
	default: {
		uint32_t b = (uint32_t)v;
		if (ftz && !(b & 0x7f800000u))
			b &= 0x80000000u;
		return f32_of(b);
	}
	}
}

/* ---- integer rounding and saturation ---- */

static inline double round_even(double x)
{
	if (!(fabs(x) < 4503599627370496.0))	/* integral, inf or NaN */
		return x;
	double r = floor(x + 0.5);
	if (r - x == 0.5 && fmod(r, 2.0) != 0)
		r -= 1;
	return copysign(r, x);	/* -0.3 rounds to -0 */
}

static inline double round_int(double x, unsigned irnd)
{
	switch (irnd) {
	case MOD_RNI:
	case MOD_RN:
		return round_even(x);
	case MOD_RMI:
	case MOD_RM:
		return floor(x);
	case MOD_RPI:
	case MOD_RP:
		return ceil(x);
	default:
		return trunc(x);
	}
}

static inline void int_range(unsigned t, double *lo, double *hi)
{
	unsigned bits = ptx_type_size(t) * 8;
	if (ptx_type_is_signed(t)) {
		*lo = -ldexp(1.0, (int)bits - 1);
		*hi = ldexp(1.0, (int)bits - 1);	/* exclusive */
	} else {
		*lo = 0;
		*hi = ldexp(1.0, (int)bits);
	}
}

/*
 * Float to integer: saturating. NaN gives 0 where the GPU converts in one
 * instruction (an f32 or f16 source, at most 32 bits), and the integer
 * 1 << (bits - 1) where it does not (f64 sources, 64-bit results), as
 * measured on an H100.
 */
static inline uint64_t f2i(double x, unsigned t, bool nan_top)
{
	double lo, hi;
	int_range(t, &lo, &hi);
	if (isnan(x))
		return nan_top ? 1ull << (ptx_type_size(t) * 8 - 1) : 0;
	if (x < lo)
		return ptx_type_is_signed(t) ? (uint64_t)(int64_t)lo : 0;
	if (x >= hi)
		return ptx_type_is_signed(t) ?
			       (uint64_t)((1ull << (ptx_type_size(t) * 8 - 1)) - 1) :
			       zext(~0ull, ptx_type_size(t) * 8);
	return ptx_type_is_signed(t) ? (uint64_t)(int64_t)x : (uint64_t)x;
}

static const struct xinsn *x_cvt_fi(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	bool ftz = ip->flags >> FL_FTZ & 1;
	bool nan_top = ip->type2 == PTX_T_F64 || ptx_type_size(ip->type) == 8;
	FOR_LANES(m, l) {
		double x = read_float(pa[l], ip->type2, ftz);
		d[l] = f2i(round_int(x, ip->mode16), ip->type, nan_top);
	}
	return ip + 1;
}

/* Integer to integer with .sat: clamp to the destination's range. */
static const struct xinsn *x_cvt_sat_ii(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	unsigned sbits = ptx_type_size(ip->type2) * 8;
	bool ssigned = ptx_type_is_signed(ip->type2);
	unsigned dbits = ptx_type_size(ip->type) * 8;
	bool dsigned = ptx_type_is_signed(ip->type);
	__int128 lo = dsigned ? -((__int128)1 << (dbits - 1)) : 0;
	__int128 hi = dsigned ? ((__int128)1 << (dbits - 1)) - 1 :
				((__int128)1 << dbits) - 1;
	FOR_LANES(m, l) {
		__int128 v = ssigned ? (__int128)(int64_t)sext(pa[l], sbits) :
				       (__int128)zext(pa[l], sbits);
		v = v < lo ? lo : v > hi ? hi : v;
		d[l] = (uint64_t)v;
	}
	return ip + 1;
}

/* ---- to floating point ---- */

struct fmt {
	unsigned eb, mb;
};

static inline struct fmt narrow_format(unsigned t)
{
	switch (t) {
	case PTX_T_F16:
	case PTX_T_F16X2:
		return (struct fmt){ 5, 10 };
	case PTX_T_BF16:
	case PTX_T_BF16X2:
		return (struct fmt){ 8, 7 };
	case PTX_T_TF32:
		return (struct fmt){ 8, 10 };
	case PTX_T_F32:
		return (struct fmt){ 8, 23 };
	default:
		return (struct fmt){ 11, 52 };
	}
}

static inline double max_finite(struct fmt f)
{
	return ldexp(2.0 - ldexp(1.0, -(int)f.mb), (1 << (f.eb - 1)) - 1);
}

/* Applies .sat/.relu/.satfinite, then rounds to @t's format. */
static inline uint64_t to_float(double x, unsigned t, const struct xinsn *ip)
{
	struct fmt f = narrow_format(t);
	uint32_t fl = ip->flags;
	if (fl >> FL_SAT & 1)
		x = x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
	if ((fl >> FL_RELU & 1) && !isnan(x) && (x < 0 || signbit(x)))
		x = 0.0;	/* -0 too */
	if ((fl >> FL_SATFINITE & 1) && !isnan(x) && fabs(x) > max_finite(f))
		x = copysign(max_finite(f), x);
	if (t == PTX_T_F64)
		return x != x ? 0x7fffffffffffffffull : bits_f64(x);
	uint64_t bits = round_to_format(x, f.eb, f.mb, (enum rnd_mode)ip->mode);
	if (t == PTX_T_TF32)
		return bits << 13;
	if (t == PTX_T_F32 && (fl >> FL_FTZ & 1) && !(bits & 0x7f800000u))
		bits &= 0x80000000u;
	return bits;
}

static inline bool is_packed_pair(unsigned t)
{
	return t == PTX_T_F16X2 || t == PTX_T_BF16X2;
}

/* ---- NaNs between formats ---- */

/* Sign and fraction of a NaN of format @t, the fraction aligned as an
 * f64's (52 bits). */
static void nan_parts(uint64_t v, unsigned t, uint64_t *sign, uint64_t *frac)
{
	switch (t) {
	case PTX_T_F64:
		*sign = v >> 63;
		*frac = v & ((1ull << 52) - 1);
		return;
	case PTX_T_F16:
		*sign = v >> 15 & 1;
		*frac = (v & 0x3ff) << 42;
		return;
	case PTX_T_BF16:
		*sign = v >> 15 & 1;
		*frac = (v & 0x7f) << 45;
		return;
	default:
		*sign = v >> 31 & 1;
		*frac = (v & 0x7fffff) << 29;
	}
}

/*
 * A NaN converted as an H100 does: conversions to or from f64 keep the
 * sign and the top fraction bits, quieted; bf16 to f32 shifts the bits
 * (nothing quieted); other conversions among f32, f16 and bf16 give the
 * canonical NaN; tf32 keeps the f32 NaN's top bits, and .satfinite steps
 * one tf32 unit down from them (0x7f800001 to 0x7f7fe000, the largest
 * finite: measured).
 */
static uint64_t convert_nan(uint64_t v, unsigned st, unsigned dt,
			    uint32_t flags)
{
	uint64_t sign, frac;
	nan_parts(v, st, &sign, &frac);
	frac |= 1ull << 51;	/* quiet */
	if (dt == PTX_T_TF32)	/* .satfinite: one tf32 unit below */
		return ((uint32_t)v & ~0x1fffu) -
		       (flags >> FL_SATFINITE & 1 ? 0x2000u : 0);
	if (st == PTX_T_BF16 && dt == PTX_T_F32)
		return v << 16;	/* exact widening, signalling NaNs too */
	if (st != PTX_T_F64 && dt != PTX_T_F64)
		return dt == PTX_T_F32 ? 0x7fffffffu : 0x7fff;
	switch (dt) {
	case PTX_T_F64:
		return sign << 63 | 0x7ffull << 52 | frac;
	case PTX_T_F16:
		return sign << 15 | 0x7c00 | frac >> 42;
	case PTX_T_BF16:
		return sign << 15 | 0x7f80 | frac >> 45;
	default:
		return sign << 31 | 0x7f800000u | frac >> 29;
	}
}

static bool is_nan_of(uint64_t v, unsigned t)
{
	switch (t) {
	case PTX_T_F64:
		return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
	case PTX_T_F16:
		return (v & 0x7fff) > 0x7c00;
	case PTX_T_BF16:
		return (v & 0x7fff) > 0x7f80;
	default:
		return (v & 0x7fffffffu) > 0x7f800000u;
	}
}

/* Float to float: exact widening, or rounding in the instruction's mode;
 * .rni etc. round to an integral value first. */
static uint64_t cvt_ff_one(uint64_t v, const struct xinsn *ip, bool ftz)
{
	if (is_nan_of(v, ip->type2) && (ip->flags >> FL_SAT & 1))
		return 0;	/* .sat clamps NaN to 0 */
	if (is_nan_of(v, ip->type2) && !(ip->type2 == ip->type &&
					 ip->type != PTX_T_F64))
		return convert_nan(v, ip->type2, ip->type, ip->flags);
	double x = read_float(v, ip->type2, ftz);
	if (ip->mode16)
		x = round_int(x, ip->mode16);
	return to_float(x, ip->type, ip);
}

static const struct xinsn *x_cvt_ff(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	const uint64_t *pb = ip->b ? xr(w, ip->b) : NULL;
	bool ftz = ip->flags >> FL_FTZ & 1;
	FOR_LANES(m, l) {
		uint64_t r = cvt_ff_one(pa[l], ip, ftz);
		if (pb)	/* a to the upper half, b to the lower */
			r = r << 16 | cvt_ff_one(pb[l], ip, ftz);
		d[l] = r;
	}
	return ip + 1;
}

/* Integer to float: through double when exact, else by the C cast under
 * the instruction's rounding (see wrap_rounding). */
static const struct xinsn *x_cvt_if(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	unsigned bits = ptx_type_size(ip->type2) * 8;
	bool sgn = ptx_type_is_signed(ip->type2);
	FOR_LANES(m, l) {
		uint64_t v = sgn ? sext(pa[l], bits) : zext(pa[l], bits);
		switch (ip->type) {
		case PTX_T_F32:
			d[l] = bits_f32(sgn ? (float)(int64_t)v : (float)v);
			break;
		case PTX_T_F64:
			d[l] = bits_f64(sgn ? (double)(int64_t)v : (double)v);
			break;
		default:
			d[l] = to_float(sgn ? (double)(int64_t)v : (double)v,
					ip->type, ip);
		}
	}
	return ip + 1;
}

/* ---- lowering ---- */

static xhandler ext_handler(unsigned src)
{
	unsigned size = ptx_type_size(src);
	bool s = ptx_type_is_signed(src);
	switch (size) {
	case 1:
		return s ? ext_s8 : ext_u8;
	case 2:
		return s ? ext_s16 : ext_u16;
	case 4:
		return s ? ext_s32 : ext_u32;
	case 8:
		return ext_64;
	default:
		return NULL;
	}
}

static enum rnd_mode rnd_of(unsigned rnd)
{
	switch (rnd) {
	case MOD_RZ:
		return RND_ZERO;
	case MOD_RM:
		return RND_DOWN;
	case MOD_RP:
		return RND_UP;
	case MOD_RNA:
		return RND_NEAREST_AWAY;
	default:
		return RND_NEAREST;
	}
}

static bool is_int(unsigned t)
{
	enum type_kind k = ptx_type_kind(t);
	return (k == TK_UINT || k == TK_SINT || k == TK_BIT) &&
	       ptx_type_size(t) >= 1 && ptx_type_size(t) <= 8;
}

static bool is_irnd(unsigned rnd)
{
	return rnd == MOD_RNI || rnd == MOD_RZI || rnd == MOD_RMI ||
	       rnd == MOD_RPI;
}

static bool is_float_type(unsigned t)
{
	switch (t) {
	case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
	case PTX_T_TF32: case PTX_T_F32: case PTX_T_F64:
		return true;
	default:
		return false;
	}
}

bool lower_cvt(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->ntypes != 2)
		return lower_unsupported(c, "types");
	unsigned dt = in->types[0], st = in->types[1];
	bool sat = in->flags >> FL_SAT & 1;
	xhandler h;
	unsigned nsrc = is_packed_pair(dt) ? 2 : 1;
	if (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2 ||
	    st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2)
		return lower_cvt_f8(c, in);
	if (is_int(dt) && is_int(st))
		h = sat ? x_cvt_sat_ii :
		    ptx_type_size(dt) < ptx_type_size(st) ? x_cvt_narrow :
							   ext_handler(st);
	else if (is_int(dt) && is_float_type(st) && !is_packed_pair(st))
		h = x_cvt_fi;
	else if (is_float_type(dt) && is_int(st))
		h = x_cvt_if;
	else if (is_float_type(dt) && is_float_type(st) &&
		 !is_packed_pair(st) && (!is_packed_pair(dt) ||
					 st == PTX_T_F32))
		h = x_cvt_ff;
	else
		return lower_unsupported(c, "conversion");
	if (!emit_alu(c, in, h, st, nsrc))
		return false;
	struct xinsn *x = last_emitted(c);
	x->type = (uint8_t)dt;
	x->type2 = (uint8_t)st;
	x->mode = (uint8_t)rnd_of(in->rnd);
	if (h == x_cvt_fi)
		x->mode16 = in->rnd ? in->rnd : MOD_RZI;
	else if (h == x_cvt_ff && is_irnd(in->rnd))
		x->mode16 = in->rnd;
	if (h == x_cvt_if && (dt == PTX_T_F32 || dt == PTX_T_F64))
		return wrap_rounding(c, in->rnd);
	return true;
}
