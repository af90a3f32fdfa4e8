// SPDX-License-Identifier: MIT
/*
 * C references for the corpus kernels: integer semantics per the PTX ISA,
 * floating point through the host FPU in the requested rounding mode
 * (this file is built with -frounding-math).
 */
#include "ref_ops.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/*
 * The compiler may move floating-point operations across fesetround
 * (it does not model the FP environment); these make values opaque so
 * that each operation happens where it is written.
 */
#define OPAQUE(v) __asm__ volatile("" : "+m"(v))

float f32_bits(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	return f;
}

uint32_t bits32(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

double f64_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, 8);
	return d;
}

uint64_t bits64(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

/* ---- integers ---- */

static uint32_t bfind32(uint32_t x, bool sgn)
{
	if (sgn && (int32_t)x < 0)
		x = ~x;
	for (int i = 31; i >= 0; i--)
		if (x >> i & 1)
			return (uint32_t)i;
	return 0xffffffffu;
}

static uint32_t brev32(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= (x >> i & 1) << (31 - i);
	return r;
}

static uint64_t bfe_ref(uint64_t a, uint32_t pos, uint32_t len, int bits,
			bool sgn)
{
	pos &= 0xff;
	len &= 0xff;
	uint32_t msb = (uint32_t)bits - 1;
	uint64_t sbit = 0;
	if (sgn && len)
		sbit = a >> (pos + len - 1 > msb ? msb : pos + len - 1) & 1;
	uint64_t d = 0;
	for (int i = 0; i < bits; i++) {
		uint64_t bit = ((uint32_t)i < len && pos + (uint32_t)i <= msb) ?
				       a >> (pos + i) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

static uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	static const uint8_t tables[6][4][4] = {
		/* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 },
			    { 3, 4, 5, 6 } },
		/* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 },
			    { 3, 2, 1, 0 } },
	};
	uint8_t bytes[8];
	for (int i = 0; i < 4; i++) {
		bytes[i] = (uint8_t)(a >> 8 * i);
		bytes[i + 4] = (uint8_t)(b >> 8 * i);
	}
	uint32_t r = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t v;
		if (mode < 0) {
			uint32_t s = c >> 4 * i & 15;
			v = bytes[s & 7];
			if (s & 8)
				v = v & 0x80 ? 0xff : 0;
		} else {
			v = bytes[tables[mode][c & 3][i]];
		}
		r |= v << 8 * i;
	}
	return r;
}

static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++) {
		unsigned idx = (a >> i & 1) << 2 | (b >> i & 1) << 1 |
			       (c >> i & 1);
		r |= (lut >> idx & 1) << i;
	}
	return r;
}

static int64_t s24(uint32_t v)
{
	v &= 0xffffff;
	return v & 0x800000 ? (int64_t)v - 0x1000000 : v;
}

static uint32_t shift_left32(uint32_t x, uint32_t n)
{
	return n >= 32 ? 0 : x << n;
}

uint32_t ref_int32(unsigned k, uint32_t x, uint32_t y, uint32_t z)
{
	int32_t sx = (int32_t)x, sy = (int32_t)y;
	uint64_t funnel = (uint64_t)y << 32 | x;
	switch (k) {
	case 0: return x + y;
	case 1: return x - y;
	case 2: return x * y;
	case 3: return (uint32_t)((uint64_t)x * y >> 32);
	case 4: return (uint32_t)((uint64_t)((int64_t)sx * sy) >> 32);
	case 5: return x * y + z;
	case 6: return (uint32_t)((uint64_t)x * y >> 32) + z;
	case 7: return y ? x / y : 0xffffffffu;
	case 8: return !y ? 0xffffffffu : (sx == INT32_MIN && sy == -1) ? x :
			    (uint32_t)(sx / sy);
	case 9: return y ? x % y : x;
	case 10: return !y ? x : (sx == INT32_MIN && sy == -1) ? 0 :
			     (uint32_t)(sx % sy);
	case 11: return sx < 0 ? 0u - x : x;
	case 12: return 0u - x;
	case 13: return x < y ? x : y;
	case 14: return sx < sy ? x : y;
	case 15: return x > y ? x : y;
	case 16: return sx > sy ? x : y;
	case 17: return x & y;
	case 18: return x | y;
	case 19: return x ^ y;
	case 20: return ~x;
	case 21: return x == 0;
	case 22: return shift_left32(x, y);
	case 23: return y >= 32 ? 0 : x >> y;
	case 24: return (uint32_t)(sx >> (y >= 32 ? 31 : y));
	case 25: return (uint32_t)__builtin_popcount(x);
	case 26: return x ? (uint32_t)__builtin_clz(x) : 32;
	case 27: return bfind32(x, false);
	case 28: return bfind32(x, true);
	case 29: return x ? 31 - bfind32(x, false) : 0xffffffffu;
	case 30: return brev32(x);
	case 31: return (uint32_t)bfe_ref(x, y, z, 32, false);
	case 32: return (uint32_t)bfe_ref(x, y, z, 32, true);
	case 33: {
		uint32_t pos = z & 0xff, len = 7, r = y;
		for (uint32_t i = 0; i < len && pos + i < 32; i++)
			r = (r & ~(1u << (pos + i))) | (x >> i & 1) << (pos + i);
		return r;
	}
	case 34: return prmt_ref(x, y, z, -1);
	case 35: return lop3_ref(x, y, z, 0x96);
	case 36: return (uint32_t)((funnel << (z & 31)) >> 32);
	case 37: return (uint32_t)(funnel >> (z > 32 ? 32 : z));
	case 38: return z + (x > y ? x - y : y - x);
	case 39: return (uint32_t)((uint64_t)(x & 0xffffff) * (y & 0xffffff));
	case 40: return (uint32_t)((uint64_t)(s24(x) * s24(y)) >> 16);
	case 41: return (uint32_t)(s24(x) * s24(y)) + z;
	case 42: {
		int64_t acc = (int32_t)z;
		for (int i = 0; i < 4; i++)
			acc += (int64_t)(uint8_t)(x >> 8 * i) *
			       (int8_t)(y >> 8 * i);
		return (uint32_t)acc;
	}
	case 43: {
		uint32_t pos = x > 32 ? 32 : x, len = y > 32 ? 32 : y;
		uint64_t m = ((len == 64 ? 0 : (1ull << len)) - 1) << pos;
		return (uint32_t)m;
	}
	case 44: return prmt_ref(x, y, z, 0);
	case 45: return (uint32_t)(funnel >> (z & 31));
	case 46: return sx < sy;
	case 47: return x > y ? z : 7;
	}
	return 0;
}

uint64_t ref_int64(unsigned k, uint64_t x, uint64_t y, uint64_t z)
{
	int64_t sx = (int64_t)x, sy = (int64_t)y;
	uint32_t n = (uint32_t)y;
	switch (k) {
	case 0: return x + y;
	case 1: return x - y;
	case 2: return x * y;
	case 3: return (uint64_t)((unsigned __int128)x * y >> 64);
	case 4: return (uint64_t)((__int128)sx * sy >> 64);
	case 5: return x * y + z;
	case 6: return y ? x / y : ~0ull;
	case 7: return !y ? ~0ull : (sx == INT64_MIN && sy == -1) ? x :
			    (uint64_t)(sx / sy);
	case 8: return y ? x % y : x;
	case 9: return !y ? x : (sx == INT64_MIN && sy == -1) ? 0 :
			    (uint64_t)(sx % sy);
	case 10: return sx < sy ? x : y;
	case 11: return x > y ? x : y;
	case 12: return n >= 64 ? 0 : x << n;
	case 13: return (uint64_t)(sx >> (n >= 64 ? 63 : n));
	case 14: return n >= 64 ? 0 : x >> n;
	case 15: return sx < 0 ? 0 - x : x;
	case 16: return (uint64_t)__builtin_popcountll(x);
	case 17: return x ? (uint64_t)__builtin_clzll(x) : 64;
	case 18: return (uint64_t)brev32((uint32_t)x) << 32 |
			brev32((uint32_t)(x >> 32));
	case 19: return bfe_ref(x, (uint32_t)y, (uint32_t)z, 64, true);
	case 20: return (uint64_t)((int64_t)(int32_t)y * (int32_t)y);
	case 21: return (uint64_t)(uint32_t)x * (uint32_t)y + z;
	case 22: return x ^ y;
	case 23: {
		uint64_t v = sx < 0 ? ~x : x;
		for (int i = 63; i >= 0; i--)
			if (v >> i & 1)
				return (uint64_t)i;
		return 0xffffffffu;
	}
	}
	return 0;
}

void ref_small_ints(int16_t x, int16_t y, int8_t c, int32_t out[8])
{
	uint16_t ux = (uint16_t)x, uy = (uint16_t)y;
	out[0] = (int16_t)(x + y);
	out[1] = (int16_t)(x * y);
	out[2] = (uint16_t)(ux >> (uy & 15));
	out[3] = y ? (int16_t)(x / y) : 0;
	out[4] = x < y ? x : y;
	out[5] = c * 3 + x;
	out[6] = (uint8_t)c;
	out[7] = (int8_t)(x ^ y);
}

/* ---- floating point ---- */

typedef double (*op3)(double, double, double);

static float round_f(int mode, float (*op)(float, float, float), float a,
		     float b, float c)
{
	int old = fegetround();
	fesetround(mode);
	OPAQUE(a);
	OPAQUE(b);
	OPAQUE(c);
	float r = op(a, b, c);
	OPAQUE(r);
	fesetround(old);
	return r;
}

static float op_add(float a, float b, float c) { (void)c; return a + b; }
static float op_sub(float a, float b, float c) { (void)c; return a - b; }
static float op_mul(float a, float b, float c) { (void)c; return a * b; }
static float op_fma(float a, float b, float c) { return fmaf(a, b, c); }
static float op_div(float a, float b, float c) { (void)c; return a / b; }
static float op_sqrt(float a, float b, float c)
{
	(void)b;
	(void)c;
	return sqrtf(a);
}
static float op_rcp(float a, float b, float c)
{
	(void)b;
	(void)c;
	return 1.0f / a;
}

static float canon(float f)
{
	return isnan(f) ? f32_bits(NAN32) : f;
}

static float fmin_ref(float a, float b, bool nan)
{
	if (isnan(a) && isnan(b))
		return f32_bits(NAN32);
	if (isnan(a) || isnan(b))
		return nan ? f32_bits(NAN32) : isnan(a) ? b : a;
	if (a == 0 && b == 0)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float fmax_ref(float a, float b)
{
	if (isnan(a) && isnan(b))
		return f32_bits(NAN32);
	if (isnan(a) || isnan(b))
		return isnan(a) ? b : a;
	if (a == 0 && b == 0)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static float flush(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* Round to nearest, ties to even, to half precision and back. */
static float through_f16(float x)
{
	if (isnan(x))
		return f32_bits(NAN32);
	float a = fabsf(x);
	if (a >= 65520.0f)
		return copysignf(INFINITY, x);
	int e;
	frexpf(a, &e);
	int q = e - 1 < -14 ? -24 : e - 1 - 10;	/* quantum exponent */
	double n = rint(ldexp(a, -q));		/* ties to even */
	return copysignf((float)ldexp(n, q), x);
}

float ref_f32(unsigned k, float x, float y, float z)
{
	static const int rm[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
				   FE_UPWARD };
	switch (k) {
	case 0: case 1: case 2: case 3:
		return canon(round_f(rm[k], op_add, x, y, 0));
	case 4: return canon(x - y);
	case 5: case 6: case 7: case 8:
		return canon(round_f(rm[k - 5], op_mul, x, y, 0));
	case 9: case 10: case 11: case 12:
		return canon(round_f(rm[k - 9], op_fma, x, y, z));
	case 13: case 14: case 15: case 16:
		return canon(round_f(rm[k - 13], op_div, x, y, 0));
	case 17: return canon(sqrtf(x));
	case 18: return canon(round_f(FE_TOWARDZERO, op_sqrt, x, 0, 0));
	case 19: return canon(1.0f / x);
	case 20: return canon(round_f(FE_UPWARD, op_rcp, x, 0, 0));
	case 21: return fmin_ref(x, y, false);
	case 22: return fmax_ref(x, y);
	case 23: return f32_bits(bits32(x) & 0x7fffffffu);
	case 24: return f32_bits(bits32(x) ^ 0x80000000u);
	case 25: return canon(flush(flush(x) + flush(y)));
	case 26: {
		float r = x * y;
		return isnan(r) ? 0.0f : r > 1.0f ? 1.0f : r > 0.0f ? r : 0.0f;
	}
	case 27: return copysignf(y, x);
	case 28: return canon(rintf(x));
	case 29: return canon(truncf(x));
	case 30: return canon(floorf(x));
	case 31: return canon(ceilf(x));
	case 32: return isnan(x) ? 0.0f : x > 1.0f ? 1.0f : x > 0.0f ? x : 0.0f;
	case 33: return canon(round_f(FE_TOWARDZERO, op_sub, x, y, 0));
	case 34: return !(x >= y) ? 1.0f : 0.0f;
	case 35: return (x < y || x > y) ? 1.0f : 0.0f;
	case 36: return (isnan(x) || isnan(y)) ? 1.0f : 0.0f;
	case 37: return fpclassify(x) == FP_SUBNORMAL ? 1.0f : 0.0f;
	case 38: return fmin_ref(x, y, true);
	case 39: return through_f16(x);
	}
	return 0;
}

static double round_d(int mode, op3 op, double a, double b, double c)
{
	int old = fegetround();
	fesetround(mode);
	OPAQUE(a);
	OPAQUE(b);
	OPAQUE(c);
	double r = op(a, b, c);
	OPAQUE(r);
	fesetround(old);
	return isnan(r) ? f64_bits(NAN64) : r;
}

static double dadd(double a, double b, double c) { (void)c; return a + b; }
static double dmul(double a, double b, double c) { (void)c; return a * b; }
static double dfma(double a, double b, double c) { return fma(a, b, c); }
static double ddiv(double a, double b, double c) { (void)c; return a / b; }
static double dsqrt(double a, double b, double c)
{
	(void)b;
	(void)c;
	return sqrt(a);
}
static double dnarrow(double a, double b, double c)
{
	(void)b;
	(void)c;
	return (float)a;
}

static double dminmax(double a, double b, bool max)
{
	if (isnan(a) && isnan(b))
		return f64_bits(NAN64);
	if (isnan(a) || isnan(b))
		return isnan(a) ? b : a;
	if (a == 0 && b == 0)
		return (signbit(a) != max) ? a : b;
	return (a < b) != max ? a : b;
}

double ref_f64(unsigned k, double x, double y, double z)
{
	switch (k) {
	case 0: return round_d(FE_TONEAREST, dadd, x, y, 0);
	case 1: return round_d(FE_TOWARDZERO, dadd, x, y, 0);
	case 2: return round_d(FE_DOWNWARD, dadd, x, y, 0);
	case 3: return round_d(FE_UPWARD, dadd, x, y, 0);
	case 4: return round_d(FE_TONEAREST, dmul, x, y, 0);
	case 5: return round_d(FE_UPWARD, dmul, x, y, 0);
	case 6: return round_d(FE_TONEAREST, dfma, x, y, z);
	case 7: return round_d(FE_DOWNWARD, dfma, x, y, z);
	case 8: return round_d(FE_TONEAREST, ddiv, x, y, 0);
	case 9: return round_d(FE_TOWARDZERO, ddiv, x, y, 0);
	case 10: return round_d(FE_TONEAREST, dsqrt, x, 0, 0);
	case 11: return round_d(FE_UPWARD, dsqrt, x, 0, 0);
	case 12: return round_d(FE_TONEAREST, ddiv, 1.0, x, 0);
	case 13: return dminmax(x, y, false);
	case 14: return dminmax(x, y, true);
	case 15: return f64_bits(bits64(x) ^ 0x8000000000000000ull);
	case 16: return f64_bits(bits64(x) & 0x7fffffffffffffffull);
	case 17: return isnan(x) ? f64_bits(NAN64) : floor(x);
	case 18: return round_d(FE_TONEAREST, dnarrow, x, 0, 0);
	case 19: return round_d(FE_TOWARDZERO, dnarrow, x, 0, 0);
	}
	return 0;
}

/* ---- conversions ---- */

static double round_mode(double x, int mode)
{
	switch (mode) {
	case 0: return rint(x);		/* host default: ties to even */
	case 1: return trunc(x);
	case 2: return floor(x);
	default: return ceil(x);
	}
}

/* Float to integer: saturating, NaN -> 0, as PTX's cvt. */
static uint64_t sat_int(double x, int mode, bool sgn, int bits)
{
	if (isnan(x))
		return 0;
	double r = round_mode(x, mode);
	double lo = sgn ? -ldexp(1, bits - 1) : 0;
	double hi = sgn ? ldexp(1, bits - 1) : ldexp(1, bits);
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (r < lo)
		return sgn ? (uint64_t)(int64_t)lo & mask : 0;
	if (r >= hi)
		return sgn ? (uint64_t)((1ull << (bits - 1)) - 1) : mask;
	return sgn ? (uint64_t)(int64_t)r & mask : (uint64_t)r;
}

static float conv_ll(int64_t z, bool sgn, int mode)
{
	int old = fegetround();
	fesetround(mode);
	OPAQUE(z);
	float r = sgn ? (float)z : (float)(uint64_t)z;
	OPAQUE(r);
	fesetround(old);
	return r;
}

static double conv_lld(int64_t z, bool sgn, int mode)
{
	int old = fegetround();
	fesetround(mode);
	OPAQUE(z);
	double r = sgn ? (double)z : (double)(uint64_t)z;
	OPAQUE(r);
	fesetround(old);
	return r;
}

static uint32_t tf32_rna(float x)
{
	uint32_t b = bits32(x);
	if (isnan(x))	/* canonical NaN, low 13 bits clear like any tf32 */
		return 0x7fffe000u;
	if ((b & 0x7f800000u) == 0x7f800000u)
		return b;
	uint32_t r = b + 0x1000;		/* ties away from zero */
	if ((r & 0x7f800000u) == 0x7f800000u)
		return (b & 0x80000000u) | 0x7f800000u;
	return r & 0xffffe000u;
}

static uint16_t f16_bits(float x, bool toward_zero)
{
	uint32_t b = bits32(x), sign = b >> 16 & 0x8000;
	float a = fabsf(x);
	if (isnan(x))
		return 0x7fff;
	if (isinf(x))
		return (uint16_t)(sign | 0x7c00);
	if (a >= 65536.0f)
		return (uint16_t)(sign | (toward_zero ? 0x7bff : 0x7c00));
	int e;
	frexpf(a, &e);
	int q = e - 1 < -14 ? -24 : e - 1 - 10;
	double n = toward_zero ? trunc(ldexp(a, -q)) : rint(ldexp(a, -q));
	double v = ldexp(n, q);
	if (v >= 65520.0)
		return (uint16_t)(sign | 0x7c00);
	if (v > 65504.0)
		v = 65504.0;
	if (v < ldexp(1, -14))
		return (uint16_t)(sign | (uint16_t)ldexp(v, 24));
	frexp(v, &e);
	uint32_t man = (uint32_t)(ldexp(v, 11 - e) - 1024);
	return (uint16_t)(sign | (uint32_t)(e - 1 + 15) << 10 | man);
}

void ref_conversions(float x, double y, int64_t z, uint64_t o[CONV_OPS])
{
	double fx = x;
	for (int m = 0; m < 4; m++)	/* int results, sign-extended */
		o[m] = (uint64_t)(int64_t)(int32_t)sat_int(fx, m, true, 32);
	o[4] = (uint32_t)sat_int(fx, 0, false, 32);
	o[5] = (uint32_t)sat_int(y, 1, false, 32);
	o[6] = sat_int(y, 1, true, 64);
	o[7] = sat_int(fx, 0, true, 64);
	o[8] = sat_int(y, 3, false, 64);
	o[9] = (uint64_t)(int64_t)(int16_t)sat_int(fx, 1, true, 16);
	o[10] = (uint32_t)sat_int(fx, 0, false, 8);
	o[11] = (uint32_t)(int32_t)(z < -128 ? -128 : z > 127 ? 127 : z);
	o[12] = bits32(conv_ll(z, true, FE_TONEAREST));
	o[13] = bits32(conv_ll(z, true, FE_TOWARDZERO));
	o[14] = bits32(conv_ll(z, false, FE_DOWNWARD));
	o[15] = bits32(conv_ll((int32_t)z, true, FE_UPWARD));
	o[16] = isnan(y) ? NAN32 : bits32((float)y);
	{
		int old = fegetround();
		fesetround(FE_DOWNWARD);
		OPAQUE(y);
		float f = (float)y;
		OPAQUE(f);
		fesetround(old);
		o[17] = isnan(y) ? NAN32 : bits32(f);
	}
	o[18] = bits64(conv_lld(z, true, FE_TONEAREST));
	o[19] = bits64(conv_lld(z, false, FE_TOWARDZERO));
	o[20] = f16_bits(x, true);
	uint32_t b = bits32(x);		/* bf16, ties to even */
	o[21] = isnan(x) ? 0x7fff : (b + 0x7fff + (b >> 16 & 1)) >> 16;
	o[22] = tf32_rna(x);
	o[23] = (uint32_t)f16_bits(x, false) << 16 | f16_bits((float)y, false);
}

/* ---- CUDA intrinsics (misc.cu) ---- */

void ref_intrinsics(uint32_t x, uint32_t y, uint32_t o[13])
{
	uint64_t f = (uint64_t)y << 32 | x;
	uint32_t sh = y & 63, c = 0;
	o[0] = brev32(x);
	o[1] = x ? (uint32_t)__builtin_clz(x) : 32;
	o[2] = x ? (uint32_t)__builtin_ctz(x) + 1 : 0;
	o[3] = (uint32_t)__builtin_popcount(x) +
	       (uint32_t)__builtin_popcountll((uint64_t)x << 32 | y);
	o[4] = prmt_ref(x, y, 0x5140, -1);
	(void)c;
	o[5] = (uint32_t)((f << (sh & 31)) >> 32);	/* shift & 31 */
	o[6] = (uint32_t)(f >> (sh & 31));
	o[7] = 5 + ((int32_t)x > (int32_t)y ? x - y : y - x);	/* sad.s32 */
	o[8] = (uint32_t)((uint64_t)x * y >> 32);
	int64_t a = (int64_t)x * 977, b = (int64_t)((uint64_t)y << 20);
	o[9] = (uint32_t)(uint64_t)((__int128)a * b >> 64);
	o[10] = (x & 0xffffff) * (y & 0xffffff);
	uint32_t acc = 7;
	for (int i = 0; i < 4; i++)
		acc += (uint32_t)((uint8_t)(x >> 8 * i) * (uint8_t)(y >> 8 * i));
	o[11] = acc;
	uint32_t sad = 0;
	for (int i = 0; i < 4; i++) {
		int d = (int)(uint8_t)(x >> 8 * i) - (int)(uint8_t)(y >> 8 * i);
		sad += (uint32_t)(d < 0 ? -d : d);
	}
	o[12] = sad;
}
