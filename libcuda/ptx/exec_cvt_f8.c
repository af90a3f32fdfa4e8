// SPDX-License-Identifier: MIT
/*
 * cvt with the FP8 formats (sm_89+), as cuda_fp8.h emits them:
 *   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32    d, a, b   (a upper, b lower)
 *   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2  d, a
 *   cvt.rn.f16x2.{e4m3x2,e5m2x2}            d, a      (exact widening)
 * e4m3: 4 exponent bits (bias 7), 3 fraction bits, no infinities, NaN
 * S.1111.111, largest 448. e5m2: IEEE-like (bias 15, 2 fraction bits),
 * largest finite 57344. NaNs, infinities and ties follow what an H200
 * answered (tests/ptx/expected/fp8_cvt.h200.txt): any NaN narrows to
 * 0x7f and widens to f16's 0x7fff; .satfinite takes infinities and
 * everything rounding past the largest finite to it, sign kept.
 */
#include "f16.h"
#include "lanes.h"

#include <math.h>

struct f8_format {
	int bias, man_bits;
	double max;
	uint8_t nan;
};

static const struct f8_format e4m3 = { 7, 3, 448.0, 0x7f };
static const struct f8_format e5m2 = { 15, 2, 57344.0, 0x7f };

static const struct f8_format *format_of(unsigned t)
{
	return t == PTX_T_E4M3X2 ? &e4m3 : t == PTX_T_E5M2X2 ? &e5m2 : NULL;
}

/* Round half to even of @y >= 0, without the FPU's rounding mode. */
static double round_half_even(double y)
{
	double f = floor(y), diff = y - f;

	if (diff > 0.5 || (diff == 0.5 && fmod(f, 2.0) != 0.0))
		f += 1.0;
	return f;
}

/* One value to FP8, rounded to nearest even, .satfinite. */
static uint8_t encode(double x, const struct f8_format *f)
{
	uint8_t sign = signbit(x) ? 0x80 : 0;
	double a = fabs(x);
	int emin = 1 - f->bias, e;

	if (isnan(x))
		return f->nan;
	if (a >= f->max)
		a = f->max;
	frexp(a, &e);
	e = a == 0.0 ? emin : e - 1;	/* a = 1.m * 2^e */
	if (e < emin)
		e = emin;		/* subnormal: fixed quantum */
	a = round_half_even(ldexp(a, f->man_bits - e));
	a = ldexp(a, e - f->man_bits);
	if (a > f->max)
		a = f->max;
	if (a == 0.0)
		return sign;
	frexp(a, &e);
	e -= 1;
	if (e < emin)		/* subnormal: exponent field 0 */
		return sign | (uint8_t)ldexp(a, f->bias - 1 + f->man_bits);
	return sign | (uint8_t)((e + f->bias) << f->man_bits) |
	       (uint8_t)(ldexp(a, f->man_bits - e) - ldexp(1.0, f->man_bits));
}

/* One FP8 value as f16 bits (exact), NaN as 0x7fff. */
static uint16_t widen(uint8_t v, const struct f8_format *f)
{
	unsigned exp = (v & 0x7f) >> f->man_bits;
	unsigned man = v & ((1u << f->man_bits) - 1);
	unsigned top = (0x7fu >> f->man_bits);
	double a;

	if (f == &e5m2)
		return exp == top && man ? 0x7fff : (uint16_t)(v << 8);
	if ((v & 0x7f) == f->nan)
		return 0x7fff;
	a = exp ? ldexp(1.0 + ldexp(man, -f->man_bits), (int)exp - f->bias) :
		  ldexp(man, 1 - f->bias - f->man_bits);
	return f64_to_f16(v & 0x80 ? -a : a, RND_NEAREST);
}

static const struct xinsn *x_cvt_f8_from_f32(struct warp *w,
					     const struct xinsn *ip)
{
	const struct f8_format *f = format_of(ip->type);
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);

	FOR_LANES(m, l)
		d[l] = (uint64_t)encode(f32_of(pa[l]), f) << 8 |
		       encode(f32_of(pb[l]), f);
	return ip + 1;
}

static const struct xinsn *x_cvt_f8_from_f16x2(struct warp *w,
					       const struct xinsn *ip)
{
	const struct f8_format *f = format_of(ip->type);
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);

	FOR_LANES(m, l)
		d[l] = (uint64_t)encode(f16_to_f32((uint16_t)(pa[l] >> 16)), f)
			       << 8 |
		       encode(f16_to_f32((uint16_t)pa[l]), f);
	return ip + 1;
}

static const struct xinsn *x_cvt_f16x2_from_f8(struct warp *w,
					       const struct xinsn *ip)
{
	const struct f8_format *f = format_of(ip->type2);
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);

	FOR_LANES(m, l)
		d[l] = (uint64_t)widen((uint8_t)(pa[l] >> 8), f) << 16 |
		       widen((uint8_t)pa[l], f);
	return ip + 1;
}

bool lower_cvt_f8(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned dt = in->types[0], st = in->types[1];
	unsigned nsrc = 1;
	xhandler h;

	if (format_of(dt) && st == PTX_T_F32 && (in->flags >> FL_SATFINITE & 1))
		h = x_cvt_f8_from_f32, nsrc = 2;
	else if (format_of(dt) && st == PTX_T_F16X2 &&
		 (in->flags >> FL_SATFINITE & 1))
		h = x_cvt_f8_from_f16x2;
	else if (dt == PTX_T_F16X2 && format_of(st))
		h = x_cvt_f16x2_from_f8;
	else
		return lower_unsupported(c, "FP8 conversion");
	if (in->rnd && in->rnd != MOD_RN)
		return lower_unsupported(c, "FP8 rounding mode");
	if (!emit_alu(c, in, h, st, nsrc))
		return false;
	last_emitted(c)->type = (uint8_t)dt;
	last_emitted(c)->type2 = (uint8_t)st;
	return true;
}
