// SPDX-License-Identifier: MIT
/*
 * Floating-point instructions for f32, f64, and f16/bf16 (scalar and x2):
 * add, sub, mul, fma/mad, div, rcp, sqrt, rsqrt, sin, cos, lg2, ex2,
 * tanh, abs, neg, min, max, copysign, testp. Round-to-nearest uses C
 * arithmetic (correctly rounded); .rz/.rm/.rp run the same handler under
 * fesetround (this file is built with -frounding-math). Approximate
 * instructions use the C library, which is at least as accurate.
 */
#include "f16.h"
#include "lanes.h"

#include <fenv.h>
#include <math.h>

/* ---- f32 with .ftz and .sat ---- */

static inline float ftz_in(float x, bool ftz)
{
	uint32_t b = (uint32_t)bits_f32(x);
	if (ftz && !(b & 0x7f800000u))
		b &= 0x80000000u;
	return f32_of(b);
}

static inline float sat01(float x)
{
	return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;	/* NaN -> 0 */
}

/* Results as the GPU writes them: NaNs canonical, then .ftz, .sat. */
static inline uint64_t f32_out(float x, bool ftz, bool sat)
{
	if (x != x)
		return sat ? 0 : 0x7fffffffu;
	x = ftz_in(x, ftz);
	if (sat)
		x = sat01(x);
	return bits_f32(x);
}

#define F32_VARIANT(name, N, EXPR, FTZ, SAT)                                 \
	static const struct xinsn *name(struct warp *w,                      \
					const struct xinsn *ip)              \
	{                                                                    \
		uint32_t m = xmask(w, ip);                                   \
		uint64_t *d = xr(w, ip->d);                                  \
		const uint64_t *pa = xr(w, ip->a);                           \
		const uint64_t *pb = N > 1 ? xr(w, ip->b) : pa;              \
		const uint64_t *pc = N > 2 ? xr(w, ip->c) : pa;              \
		LANE_LOOP(m, float a = ftz_in(f32_of(pa[l]), FTZ);           \
			  float b = ftz_in(f32_of(pb[l]), FTZ);              \
			  float c = ftz_in(f32_of(pc[l]), FTZ);              \
			  (void)b; (void)c;                                  \
			  d[l] = f32_out((EXPR), FTZ, SAT));                 \
		return ip + 1;                                               \
	}

/* Four handlers per operation: plain, .ftz, .sat, .ftz.sat */
#define DEF_F32(name, N, EXPR)                              \
	F32_VARIANT(name, N, EXPR, false, false)            \
	F32_VARIANT(name##_ftz, N, EXPR, true, false)       \
	F32_VARIANT(name##_sat, N, EXPR, false, true)       \
	F32_VARIANT(name##_ftz_sat, N, EXPR, true, true)    \
	static const xhandler name##_v[4] = { name, name##_ftz, name##_sat, \
					      name##_ftz_sat };

static const uint32_t canonical_nan = 0x7fffffffu;

static inline float fmin_ptx(float a, float b, bool nan)
{
	if (isnan(a) || isnan(b))
		return nan || (isnan(a) && isnan(b)) ? f32_of(canonical_nan) :
		       isnan(a) ? b : a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static inline float fmax_ptx(float a, float b, bool nan)
{
	if (isnan(a) || isnan(b))
		return nan || (isnan(a) && isnan(b)) ? f32_of(canonical_nan) :
		       isnan(a) ? b : a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

#define NANF (ip->flags >> FL_NAN & 1)
DEF_F32(add_f32, 2, a + b)
DEF_F32(sub_f32, 2, a - b)
DEF_F32(mul_f32, 2, a * b)
DEF_F32(fma_f32, 3, fmaf(a, b, c))
DEF_F32(div_f32, 2, a / b)

/* div.approx multiplies by the reciprocal, which is flushed to zero
 * when subnormal (|b| > 2^126: the ISA's documented zero); the GPU
 * matches a * rn(1/b) in 54 of 56 recorded cases, exact division in
 * 44. A zero dividend gives a signed zero even for a subnormal b. */
static inline float recip_ftz(float b)
{
	float r = 1.0f / b;
	return fabsf(r) < 0x1p-126f ? copysignf(0.0f, r) : r;
}

static inline float div_approx(float a, float b)
{
	if (a == 0.0f && b == b && b != 0.0f)
		return copysignf(0.0f, a) * copysignf(1.0f, b);
	return a * recip_ftz(b);
}

/* div.full keeps subnormal results (2 ulp): the reciprocal's product
 * where it is exact enough, true division where it underflows. */
static inline float div_full(float a, float b)
{
	float r = recip_ftz(b), q = a * r;
	if (r == 0.0f || !(fabsf(q) >= 0x1p-126f) || isinf(q))
		return a / b;
	return q;
}

DEF_F32(div_approx_f32, 2, div_approx(a, b))
DEF_F32(div_full_f32, 2, div_full(a, b))
DEF_F32(rcp_f32, 1, 1.0f / a)
DEF_F32(sqrt_f32, 1, sqrtf(a))
DEF_F32(rsqrt_f32, 1, (float)(1.0 / sqrt((double)a)))
DEF_F32(sin_f32, 1, sinf(a))
DEF_F32(cos_f32, 1, cosf(a))
DEF_F32(lg2_f32, 1, log2f(a))
DEF_F32(ex2_f32, 1, exp2f(a))
DEF_F32(tanh_f32, 1, tanhf(a))
DEF_F32(abs_f32, 1, fabsf(a))
DEF_F32(neg_f32, 1, -a)
/* abs and neg only touch the sign, except of NaNs: the GPU gives the
 * canonical NaN for f32 and passes an f64 NaN through (quieted). */
static inline uint32_t nan_f32_or(uint32_t a, uint32_t r)
{
	return (a & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : r;
}

static inline uint64_t nan_f64_or(uint64_t a, uint64_t r)
{
	return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ?
		       a | 0x0008000000000000ull : r;
}

DEF_UN(absbits_f32, uint32_t, uint32_t, nan_f32_or(a, a & 0x7fffffffu))
DEF_UN(negbits_f32, uint32_t, uint32_t, nan_f32_or(a, a ^ 0x80000000u))
DEF_UN(absbits_f64, uint64_t, uint64_t,
       nan_f64_or(a, a & 0x7fffffffffffffffull))
DEF_UN(negbits_f64, uint64_t, uint64_t,
       nan_f64_or(a, a ^ 0x8000000000000000ull))
/* copysign is a bit operation on the GPU, NaN payloads included */
DEF_BIN(copysign_bits_f32, uint32_t, uint32_t,
	(b & 0x7fffffffu) | (a & 0x80000000u))
DEF_BIN(copysign_bits_f64, uint64_t, uint64_t,
	(b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull))
DEF_F32(min_f32, 2, fmin_ptx(a, b, NANF))
DEF_F32(max_f32, 2, fmax_ptx(a, b, NANF))

/* ---- f64 ----
 * NaN results as an H100 makes them, quieted: of several NaN operands,
 * b of a + b, a * b, min, max; b, then c, then a of fma(a, b, c); a of
 * a / b (a software sequence on the GPU); without any (an invalid
 * operation) the default NaN with its sign set, as sqrt(-1) gives.
 * Chosen here, not left to the host's FPU, whose choice between two NaN
 * operands depends on register allocation. */

static inline uint64_t f64_nan(double a, double b, double c, unsigned n)
{
	uint64_t q = 0x0008000000000000ull;
	if (n > 1 && b != b)
		return bits_f64(b) | q;
	if (n > 2 && c != c)
		return bits_f64(c) | q;
	if (a != a)
		return bits_f64(a) | q;
	return 0xfff8000000000000ull;
}

static inline uint64_t f64_res(double r, double a, double b, double c,
			       unsigned n)
{
	return r == r ? bits_f64(r) : f64_nan(a, b, c, n);
}


#define DEF_F64(name, N, EXPR) DEF_F64_NAN(name, N, EXPR, a, b)

/* @P, @Q: the operands in f64_nan's a, b places (division swaps them) */
#define DEF_F64_NAN(name, N, EXPR, P, Q)                                     \
	static const struct xinsn *name(struct warp *w,                      \
					const struct xinsn *ip)              \
	{                                                                    \
		uint32_t m = xmask(w, ip);                                   \
		uint64_t *d = xr(w, ip->d);                                  \
		const uint64_t *pa = xr(w, ip->a);                           \
		const uint64_t *pb = N > 1 ? xr(w, ip->b) : pa;              \
		const uint64_t *pc = N > 2 ? xr(w, ip->c) : pa;              \
		LANE_LOOP(m, double a = f64_of(pa[l]);                       \
			  double b = f64_of(pb[l]);                          \
			  double c = f64_of(pc[l]); (void)b; (void)c;        \
			  d[l] = f64_res((EXPR), P, Q, c, N));               \
		return ip + 1;                                               \
	}

static inline double dmin_ptx(double a, double b, bool nan)
{
	if (isnan(a) || isnan(b))
		return nan || (isnan(a) && isnan(b)) ?
			       f64_of(0x7fffffffffffffffull) :
		       isnan(a) ? b : a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static inline double dmax_ptx(double a, double b, bool nan)
{
	if (isnan(a) || isnan(b))
		return nan || (isnan(a) && isnan(b)) ?
			       f64_of(0x7fffffffffffffffull) :
		       isnan(a) ? b : a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

DEF_F64(add_f64, 2, a + b)
DEF_F64(sub_f64, 2, a - b)
DEF_F64(mul_f64, 2, a * b)
DEF_F64(fma_f64, 3, fma(a, b, c))
DEF_F64_NAN(div_f64, 2, a / b, b, a)
DEF_F64(rcp_f64, 1, 1.0 / a)
DEF_F64(sqrt_f64, 1, sqrt(a))
DEF_F64(rsqrt_f64, 1, 1.0 / sqrt(a))
DEF_F64(abs_f64, 1, fabs(a))
DEF_F64(neg_f64, 1, -a)
/* rcp.approx.ftz.f64 (MUFU.RCP64H): from the operand's high word only,
 * giving a high word; the GPU's results are this truncation's in 49 of
 * 54 recorded cases and within one unit of the high word otherwise. */
static inline uint64_t rcp_approx_f64(uint64_t x)
{
	uint64_t hi = x & 0xffffffff00000000ull;	/* the low word unread */
	if ((hi & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
		return 0x7fffffff00000000ull;
	if (!(hi & 0x7ff0000000000000ull))
		hi &= 0x8000000000000000ull;	/* subnormal in: zero */
	uint64_t r = bits_f64(1.0 / f64_of(hi));
	if (!(r & 0x7ff0000000000000ull))
		r &= 0x8000000000000000ull;	/* subnormal out: zero */
	return r & 0xffffffff00000000ull;
}
DEF_UN(rcp_approx_f64_h, uint64_t, uint64_t, rcp_approx_f64(a))

DEF_F64(min_f64, 2, dmin_ptx(a, b, NANF))
DEF_F64(max_f64, 2, dmax_ptx(a, b, NANF))

/* ---- fused multiply-add on the host's FMA unit, when it has one ----
 * fmaf() is a library call per lane; with the instruction it is one
 * operation (and still honours the rounding mode). */

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define HW_FMA_TARGET __attribute__((target("fma")))

/*
 * A whole warp four lanes at a time, by hand: the compiler does not
 * vectorise fmaf under -frounding-math. The vector fma rounds once, in
 * the current rounding mode, as fmaf does. Lanes are read before they
 * are written, four by four, so the destination may be a source.
 */
HW_FMA_TARGET static inline __m128 f32x4_of(const uint64_t *p)
{
	__m128 lo = _mm_loadu_ps((const float *)p);
	__m128 hi = _mm_loadu_ps((const float *)(p + 2));
	return _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}

/* As f32_out(x, false, false): NaNs canonical, zero-extended. */
HW_FMA_TARGET static inline void f32x4_out(uint64_t *d, __m128 x)
{
	__m128 canon = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	__m128i v = _mm_castps_si128(_mm_blendv_ps(x, canon,
						   _mm_cmpunord_ps(x, x)));
	__m128i zero = _mm_setzero_si128();
	_mm_storeu_si128((__m128i *)d, _mm_unpacklo_epi32(v, zero));
	_mm_storeu_si128((__m128i *)(d + 2), _mm_unpackhi_epi32(v, zero));
}

HW_FMA_TARGET static const struct xinsn *fma_f32_hw(struct warp *w,
						      const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),
		       *pc = xr(w, ip->c);
	if (m == FULL_MASK) {
		for (uint32_t l = 0; l < WARP_SIZE; l += 4)
			f32x4_out(d + l, _mm_fmadd_ps(f32x4_of(pa + l),
						      f32x4_of(pb + l),
						      f32x4_of(pc + l)));
		return ip + 1;
	}
	FOR_LANES(m, l)
		d[l] = f32_out(__builtin_fmaf(f32_of(pa[l]), f32_of(pb[l]),
					      f32_of(pc[l])),
			       false, false);
	return ip + 1;
}

/*
 * Eight lanes at a time where the host has AVX2. Both 128-bit halves of
 * a vector take the low words of two lanes of each source load, so the
 * lanes are in the order 0 1 4 5 2 3 6 7 for every operand alike; the
 * results' zero-extension undoes that order.
 */
#define AVX2_TARGET __attribute__((target("avx2,fma")))

AVX2_TARGET static inline __m256 f32x8_of(const uint64_t *p)
{
	__m256 lo = _mm256_loadu_ps((const float *)p);
	__m256 hi = _mm256_loadu_ps((const float *)(p + 4));
	return _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
}

AVX2_TARGET static inline void f32x8_out(uint64_t *d, __m256 x)
{
	__m256 canon = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
	__m256i v = _mm256_castps_si256(_mm256_blendv_ps(
		x, canon, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
	__m256i zero = _mm256_setzero_si256();
	_mm256_storeu_si256((__m256i *)d, _mm256_unpacklo_epi32(v, zero));
	_mm256_storeu_si256((__m256i *)(d + 4),
			    _mm256_unpackhi_epi32(v, zero));
}

AVX2_TARGET static const struct xinsn *fma_f32_avx2(struct warp *w,
						     const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),
		       *pc = xr(w, ip->c);
	if (m != FULL_MASK)
		return fma_f32_hw(w, ip);
	for (uint32_t l = 0; l < WARP_SIZE; l += 8)
		f32x8_out(d + l, _mm256_fmadd_ps(f32x8_of(pa + l),
						 f32x8_of(pb + l),
						 f32x8_of(pc + l)));
	return ip + 1;
}

HW_FMA_TARGET static const struct xinsn *fma_f64_hw(struct warp *w,
						      const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),
		       *pc = xr(w, ip->c);
	LANE_LOOP(m, double a = f64_of(pa[l]); double b = f64_of(pb[l]);
		  double c = f64_of(pc[l]);
		  d[l] = f64_res(__builtin_fma(a, b, c), a, b, c, 3));
	return ip + 1;
}

static bool host_has_fma(void)
{
	__builtin_cpu_init();	/* safe to repeat; needed in constructors */
	return __builtin_cpu_supports("fma");
}

static xhandler fma_f32_host(void)
{
	return __builtin_cpu_supports("avx2") ? fma_f32_avx2 : fma_f32_hw;
}
#else
#define fma_f32_host() fma_f32
#define fma_f32_hw fma_f32
#define fma_f64_hw fma_f64
static bool host_has_fma(void)
{
	return false;
}
#endif

/* ---- f16 and bf16, scalar and packed pairs ----
 * Computed in double, where sums and products of halves are exact, then
 * rounded once to the narrow type. */

/* .ftz flushes subnormal inputs as well as results (measured). */
static inline double h_in(uint64_t v, unsigned shift, bool bf, bool ftz)
{
	uint16_t h = (uint16_t)(v >> shift);
	if (ftz && !(h & (bf ? 0x7f80 : 0x7c00)))
		h &= 0x8000;
	return bf ? (double)bf16_to_f32(h) : (double)f16_to_f32(h);
}

/* .relu (fma only): a negative result is +0, a NaN the canonical NaN
 * (PTX ISA, fma); -0 counts as negative, as cvt's .relu does. */
static inline uint64_t h_out(double x, bool bf, bool ftz, bool sat,
			     bool relu)
{
	if (relu && isnan(x))
		return 0x7fff;
	if (relu && signbit(x))
		x = 0.0;
	if (sat)
		x = x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0;
	uint16_t h = bf ? f64_to_bf16(x, RND_NEAREST) :
			  f64_to_f16(x, RND_NEAREST);
	if (ftz && !(h & (bf ? 0x7f80 : 0x7c00)))
		h &= 0x8000;
	return h;
}

/* min/max: a NaN operand loses, unless .NaN, which makes any NaN win
 * (as the canonical NaN); -0 is below +0. */
static inline double hmin(double a, double b, bool max, bool nan)
{
	if (isnan(a) || isnan(b))
		return nan || (isnan(a) && isnan(b)) ? NAN : isnan(a) ? b : a;
	if (a == b)
		return signbit(a) == max ? b : a;
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

/* @lanes halves per register (1 or 2), @bf for bf16. */
#define DEF_HALF(name, N, EXPR, PAIRS, BF)                                   \
	static const struct xinsn *name(struct warp *w,                      \
					const struct xinsn *ip)              \
	{                                                                    \
		uint32_t m = xmask(w, ip);                                   \
		uint64_t *d = xr(w, ip->d);                                  \
		const uint64_t *pa = xr(w, ip->a);                           \
		const uint64_t *pb = N > 1 ? xr(w, ip->b) : pa;              \
		const uint64_t *pc = N > 2 ? xr(w, ip->c) : pa;              \
		bool ftz = ip->flags >> FL_FTZ & 1;                          \
		bool sat = ip->flags >> FL_SAT & 1;                          \
		bool nan = ip->flags >> FL_NAN & 1;                          \
		bool relu = ip->flags >> FL_RELU & 1;                        \
		(void)nan;                                                   \
		FOR_LANES(m, l) {                                            \
			uint64_t r = 0;                                      \
			for (unsigned h = 0; h < PAIRS; h++) {               \
				double a = h_in(pa[l], 16 * h, BF, ftz);     \
				double b = h_in(pb[l], 16 * h, BF, ftz);     \
				double c = h_in(pc[l], 16 * h, BF, ftz);     \
				(void)b;                                     \
				(void)c;                                     \
				r |= h_out((EXPR), BF, ftz, sat, relu)       \
				     << (16 * h);                            \
			}                                                    \
			d[l] = r;                                            \
		}                                                            \
		return ip + 1;                                               \
	}

#define DEF_HALVES(op, N, EXPR)                         \
	DEF_HALF(op##_f16, N, EXPR, 1, false)           \
	DEF_HALF(op##_f16x2, N, EXPR, 2, false)         \
	DEF_HALF(op##_bf16, N, EXPR, 1, true)           \
	DEF_HALF(op##_bf16x2, N, EXPR, 2, true)         \
	static const xhandler op##_h[4] = { op##_f16, op##_f16x2, op##_bf16, \
					    op##_bf16x2 };

DEF_HALVES(add, 2, a + b)
DEF_HALVES(sub, 2, a - b)
DEF_HALVES(mul, 2, a * b)
DEF_HALVES(fma, 3, fma(a, b, c))
DEF_HALVES(neg, 1, -a)
DEF_HALVES(abs, 1, fabs(a))
DEF_HALVES(min, 2, hmin(a, b, false, nan))
DEF_HALVES(max, 2, hmin(a, b, true, nan))
DEF_HALVES(ex2, 1, exp2(a))
DEF_HALVES(tanh, 1, tanh(a))

/* ---- testp ---- */

/* Classified in the operand's own format: an f32 subnormal is a
 * normal double. */
static inline bool testp(int cls, unsigned mode)
{
	switch (mode) {
	case MOD_FINITE:
		return cls != FP_INFINITE && cls != FP_NAN;
	case MOD_INFINITE:
		return cls == FP_INFINITE;
	case MOD_NUMBER:
		return cls != FP_NAN;
	case MOD_NOTANUMBER:
		return cls == FP_NAN;
	case MOD_NORMAL:	/* the GPU counts zeros as normal */
		return cls == FP_NORMAL || cls == FP_ZERO;
	default:
		return cls == FP_SUBNORMAL;
	}
}

static const struct xinsn *x_testp(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip), r = 0;
	const uint64_t *pa = xr(w, ip->a);
	FOR_LANES(m, l) {
		int cls = ip->type == PTX_T_F32 ? fpclassify(f32_of(pa[l])) :
						  fpclassify(f64_of(pa[l]));
		r |= (uint32_t)testp(cls, ip->mode16) << l;
	}
	uint32_t *d = xpred(w, ip->d);
	*d = (*d & ~m) | r;
	return ip + 1;
}

/* ---- directed rounding: the round-to-nearest handler under fesetround */

static const struct xinsn *x_rounded(struct warp *w, const struct xinsn *ip)
{
	static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
				     FE_UPWARD };
	xhandler inner = (xhandler)(uintptr_t)ip->aux;
	int old = fegetround();
	fesetround(modes[ip->rnd & 3]);
	const struct xinsn *next = inner(w, ip);
	fesetround(old);
	return next;
}

bool wrap_rounding(struct lower_ctx *c, unsigned rnd)
{
	struct xinsn *x = &((struct xinsn *)c->code.data)[c->code.len - 1];
	int mode = rnd == MOD_RZ ? 1 : rnd == MOD_RM ? 2 :
		   rnd == MOD_RP ? 3 : -1;	/* x_rounded's modes[] */
	if (rnd == MOD_NONE || rnd == MOD_RN)
		return true;
	if (mode < 0)
		return lower_unsupported(c, "rounding mode");
	x->aux = (const void *)(uintptr_t)x->fn;
	x->fn = x_rounded;
	x->rnd = (uint8_t)mode;
	return true;
}

/* ---- selection ---- */

struct fop {
	uint16_t op;
	uint8_t nsrc;
	const xhandler *f32;	/* [plain, ftz, sat, ftz+sat] */
	xhandler f64;
	const xhandler *half;	/* [f16, f16x2, bf16, bf16x2] */
	bool approx;		/* only .approx forms exist for f32 */
};

static const struct fop fops[] = {
	{ OP_ADD, 2, add_f32_v, add_f64, add_h, false },
	{ OP_SUB, 2, sub_f32_v, sub_f64, sub_h, false },
	{ OP_MUL, 2, mul_f32_v, mul_f64, mul_h, false },
	{ OP_FMA, 3, fma_f32_v, fma_f64, fma_h, false },
	{ OP_MAD, 3, fma_f32_v, fma_f64, fma_h, false },
	{ OP_DIV, 2, div_f32_v, div_f64, NULL, false },
	{ OP_RCP, 1, rcp_f32_v, rcp_f64, NULL, false },
	{ OP_SQRT, 1, sqrt_f32_v, sqrt_f64, NULL, false },
	{ OP_RSQRT, 1, rsqrt_f32_v, rsqrt_f64, NULL, true },
	{ OP_SIN, 1, sin_f32_v, NULL, NULL, true },
	{ OP_COS, 1, cos_f32_v, NULL, NULL, true },
	{ OP_LG2, 1, lg2_f32_v, NULL, NULL, true },
	{ OP_EX2, 1, ex2_f32_v, NULL, ex2_h, true },
	{ OP_TANH, 1, tanh_f32_v, NULL, tanh_h, true },
	{ OP_ABS, 1, abs_f32_v, abs_f64, abs_h, false },
	{ OP_NEG, 1, neg_f32_v, neg_f64, neg_h, false },
	{ OP_MIN, 2, min_f32_v, min_f64, min_h, false },
	{ OP_MAX, 2, max_f32_v, max_f64, max_h, false },
};

static xhandler pick_half(const struct fop *f, unsigned t)
{
	if (!f->half)
		return NULL;
	switch (t) {
	case PTX_T_F16:
		return f->half[0];
	case PTX_T_F16X2:
		return f->half[1];
	case PTX_T_BF16:
		return f->half[2];
	case PTX_T_BF16X2:
		return f->half[3];
	default:
		return NULL;
	}
}

static bool is_half(unsigned t)
{
	return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
	       t == PTX_T_BF16X2;
}

static bool lower_testp(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->types[0];
	if (t != PTX_T_F32 && t != PTX_T_F64)
		return lower_unsupported(c, "type");
	if (!emit_alu(c, in, x_testp, t, 1))
		return false;
	((struct xinsn *)c->code.data)[c->code.len - 1].mode16 = in->mode;
	return true;
}

bool lower_float(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (in->op == OP_TESTP)
		return lower_testp(c, in);
	if (in->flags & (1u << FL_XORSIGN | 1u << FL_OOB))
		return lower_unsupported(c, "modifier");
	if (in->flags >> FL_RELU & 1 && (in->op != OP_FMA || !is_half(t)))
		return lower_unsupported(c, ".relu");
	if (in->op == OP_COPYSIGN && (t == PTX_T_F32 || t == PTX_T_F64))
		return emit_alu(c, in, t == PTX_T_F32 ? copysign_bits_f32 :
				copysign_bits_f64, t, 2);
	const struct fop *f = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(fops); i++)
		if (fops[i].op == in->op)
			f = &fops[i];
	if (!f)
		return lower_unsupported(c, NULL);
	bool ftz = in->flags >> FL_FTZ & 1, sat = in->flags >> FL_SAT & 1;
	bool bits = (in->op == OP_ABS || in->op == OP_NEG) && !ftz && !sat;
	if (bits && (t == PTX_T_F32 || t == PTX_T_F64))
		return emit_alu(c, in, in->op == OP_ABS ?
				(t == PTX_T_F32 ? absbits_f32 : absbits_f64) :
				(t == PTX_T_F32 ? negbits_f32 : negbits_f64),
				t, 1);
	xhandler h = t == PTX_T_F32 ? f->f32[ftz | sat << 1] :
		     t == PTX_T_F64 ? (sat ? NULL : f->f64) :
				      pick_half(f, t);
	bool approx = in->flags >> FL_APPROX & 1;
	if (in->op == OP_DIV && t == PTX_T_F32 && (approx || in->flags >>
						    FL_FULL & 1))
		h = (approx ? div_approx_f32_v : div_full_f32_v)[ftz | sat << 1];
	if (in->op == OP_RCP && t == PTX_T_F64 && approx)
		h = rcp_approx_f64_h;
	if ((in->op == OP_FMA || in->op == OP_MAD) && !ftz && !sat &&
	    host_has_fma() && (t == PTX_T_F32 || t == PTX_T_F64))
		h = t == PTX_T_F32 ? fma_f32_host() : fma_f64_hw;
	if (!emit_alu(c, in, h, t, f->nsrc))
		return false;
	return wrap_rounding(c, in->rnd);
}
