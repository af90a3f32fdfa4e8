// SPDX-License-Identifier: MIT
/* Narrow floating-point formats. */
#include "f16.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = h >> 10 & 0x1f, man = h & 0x3ff, bits;
	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | man << 13;
	} else if (exp) {
		bits = sign | (exp + 112) << 23 | man << 13;
	} else {
		float f = ldexpf((float)man, -24);	/* exact */
		return sign ? -f : f;
	}
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

float bf16_to_f32(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

/* Integer part of @s rounded by @rnd (s >= 0; @neg: the value's sign). */
static double round_scaled(double s, bool neg, enum rnd_mode rnd)
{
	double fl = floor(s), frac = s - fl;
	switch (rnd) {
	case RND_ZERO:
		return fl;
	case RND_DOWN:
		return neg && frac > 0 ? fl + 1 : fl;
	case RND_UP:
		return !neg && frac > 0 ? fl + 1 : fl;
	case RND_NEAREST_AWAY:
		return frac >= 0.5 ? fl + 1 : fl;
	default:
		if (frac > 0.5 || (frac == 0.5 && fmod(fl, 2.0) != 0))
			return fl + 1;
		return fl;
	}
}

/* Overflow: infinity, or the largest finite value when rounding away
 * from infinity. */
static uint64_t overflow(uint64_t sign, unsigned eb, unsigned mb, bool neg,
			 enum rnd_mode rnd)
{
	uint64_t inf = sign | (((1ull << eb) - 1) << mb);
	bool to_max = rnd == RND_ZERO || (rnd == RND_DOWN && !neg) ||
		      (rnd == RND_UP && neg);
	return to_max ? inf - 1 : inf;
}

uint64_t round_to_format(double x, unsigned eb, unsigned mb,
			 enum rnd_mode rnd)
{
	bool neg = signbit(x);
	uint64_t sign = (uint64_t)neg << (eb + mb);
	uint64_t exp_max = (1ull << eb) - 1;
	if (isnan(x))	/* canonical NaN: every fraction bit set */
		return (exp_max << mb) | ((1ull << mb) - 1);
	double a = fabs(x);
	if (isinf(a))
		return sign | exp_max << mb;
	if (a == 0)
		return sign;
	int bias = (1 << (eb - 1)) - 1, emin = 1 - bias, e;
	frexp(a, &e);
	int ue = e - 1 < emin ? emin : e - 1;
	double n = round_scaled(ldexp(a, (int)mb - ue), neg, rnd);
	double one = ldexp(1.0, (int)mb);
	if (n >= 2 * one) {		/* rounded up to the next binade */
		n = one;
		ue++;
	}
	if (n < one)			/* subnormal (or zero) */
		return sign | (uint64_t)n;
	uint64_t biased = (uint64_t)(ue + bias);
	if (biased >= exp_max)
		return overflow(sign, eb, mb, neg, rnd);
	return sign | biased << mb | (uint64_t)(n - one);
}
