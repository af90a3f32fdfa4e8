// SPDX-License-Identifier: MIT
/*
 * Interpreter: corpus kernels run on host memory and compared with C
 * references (bit-exact for integers and correctly rounded floats, with
 * a tolerance for approximate functions), or with ground truth files in
 * tests/ptx/expected/ where they exist. Also faults, printf, atomics from
 * several worker threads, and throughput on arithmetic loops.
 */
#include "harness.h"
#include "interp.h"
#include "ref_ops.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_ELEMS 64

static struct ptx_program *program(const char *file)
{
	char log[1024];
	struct ptx_program *p = NULL;
	const char *files[] = { file };
	if (build_corpus(files, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("%s: %s", file, log);
	return p;
}

/* ---- inputs ---- */

static const uint32_t special32[] = {
	0, 1, 2, 3, 5, 7, 31, 32, 33, 63, 64, 100, 0x7fffffff, 0x80000000,
	0xffffffff, 0xfffffffe, 0x12345678, 0x87654321, 0xdeadbeef,
	0x80000001, 0xffffff9c, 0x00ff00ff, 0xf0f0f0f0, 65535, 65536,
	0x00800000, 0xff800000, 0x00ffffff, 0x7f7f7f7f, 0x8080, 17, 255,
};

static uint32_t rng_state = 12345;

static uint32_t rnd(void)
{
	uint32_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

static void fill_ints(uint32_t *a, uint32_t *b, uint32_t *c, unsigned n)
{
	unsigned ns = sizeof(special32) / sizeof(special32[0]);
	for (unsigned i = 0; i < n; i++) {
		a[i] = i < ns ? special32[i] : rnd();
		b[i] = i % 3 == 0 ? special32[(i * 7 + 3) % ns] : rnd();
		c[i] = i % 2 ? rnd() % 72 : rnd();
	}
	b[5] = 0;		/* division by zero */
	a[6] = 0x80000000u;	/* INT_MIN / -1 */
	b[6] = 0xffffffffu;
}

static const float special_f[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f, 1e-40f,
	-1e-40f, 1.17549435e-38f, 3.40282347e38f, -3.40282347e38f, INFINITY,
	-INFINITY, NAN, 0.33333334f, 3.14159274f, 1e10f, -1e-10f,
	123456.789f, 0.1f, 7.0f, 16777217.0f, -0.75f, 65504.0f, 65520.0f,
	2147483648.0f, -2147483904.0f, 4294967296.0f, 1e20f,
};

static float rnd_float(void)
{
	int e = (int)(rnd() % 40) - 20;
	float m = (float)(rnd() % 1000000) / 1000000.0f + 0.5f;
	return (rnd() & 1 ? -1.0f : 1.0f) * ldexpf(m, e);
}

static void fill_floats(float *a, float *b, float *c, unsigned n)
{
	unsigned ns = sizeof(special_f) / sizeof(special_f[0]);
	for (unsigned i = 0; i < n; i++) {
		a[i] = i < ns ? special_f[i] : rnd_float();
		b[i] = i % 4 == 1 ? special_f[(i * 5) % ns] : rnd_float();
		c[i] = i % 5 == 2 ? special_f[(i * 3) % ns] : rnd_float();
	}
}

/* Floats compared bit for bit, except that any NaN matches any NaN. */
static bool expect_floats(const char *name, const void *got, void *ref,
			  size_t count, unsigned size)
{
	for (size_t i = 0; i < count; i++) {
		bool gn, rn;
		if (size == 4) {
			gn = isnan(((const float *)got)[i]);
			rn = isnan(((float *)ref)[i]);
		} else {
			gn = isnan(((const double *)got)[i]);
			rn = isnan(((double *)ref)[i]);
		}
		if (gn && rn)
			memcpy((uint8_t *)ref + i * size,
			       (const uint8_t *)got + i * size, size);
	}
	return expect_bytes(name, got, ref, count * size, size);
}

static struct launch_cfg cfg_1d(uint32_t grid, uint32_t block)
{
	struct launch_cfg c = { .grid = { grid }, .block = { block } };
	return c;
}

/* ---- kernels ---- */

static bool test_vector_add(const char *file)
{
	struct ptx_program *p = program(file);
	int n = 1000;
	float *a = test_alloc(n * 4), *b = test_alloc(n * 4),
	      *c = test_alloc(n * 4), *ref = malloc(n * 4);
	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1.0f / (float)(i + 1);
		ref[i] = a[i] + b[i];
	}
	struct launch_cfg cfg = cfg_1d((n + 255) / 256, 256);
	const void *args[] = { &a, &b, &c, &n };
	bool ok = p && run_ok(p, "vector_add", &cfg, args) &&
		  expect_bytes("vector_add", c, ref, n * 4, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_int32(void)
{
	struct ptx_program *p = program("int_ops.sm75.ptx");
	int n = N_ELEMS;
	uint32_t *a = test_alloc(n * 4), *b = test_alloc(n * 4),
		 *c = test_alloc(n * 4), *o = test_alloc(n * 4 * INT32_OPS);
	uint32_t *ref = malloc(n * 4 * INT32_OPS);
	fill_ints(a, b, c, n);
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < INT32_OPS; k++)
			ref[i * INT32_OPS + k] = ref_int32(k, a[i], b[i], c[i]);
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "int32_ops", &cfg, args) &&
		  expect_bytes("int32_ops", o, ref, n * 4 * INT32_OPS, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_int64(void)
{
	struct ptx_program *p = program("int_ops.sm75.ptx");
	int n = N_ELEMS;
	uint64_t *a = test_alloc(n * 8), *b = test_alloc(n * 8),
		 *c = test_alloc(n * 8), *o = test_alloc(n * 8 * INT64_OPS);
	uint64_t *ref = malloc(n * 8 * INT64_OPS);
	uint32_t t1[N_ELEMS], t2[N_ELEMS], t3[N_ELEMS];
	fill_ints(t1, t2, t3, n);
	for (int i = 0; i < n; i++) {
		a[i] = (uint64_t)t1[i] << 32 | rnd();
		b[i] = i % 3 ? (uint64_t)rnd() << 32 | t2[i] : t2[i] % 80;
		c[i] = t3[i];
		if (i == 7) {
			a[i] = 0x8000000000000000ull;
			b[i] = ~0ull;
		}
		if (i == 8)
			b[i] = 0;
	}
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < INT64_OPS; k++)
			ref[i * INT64_OPS + k] = ref_int64(k, a[i], b[i], c[i]);
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "int64_ops", &cfg, args) &&
		  expect_bytes("int64_ops", o, ref, n * 8 * INT64_OPS, 8);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_small_ints(void)
{
	struct ptx_program *p = program("int_ops.sm80.ptx");
	int n = N_ELEMS;
	int16_t *a = test_alloc(n * 2), *b = test_alloc(n * 2);
	int8_t *c = test_alloc(n);
	int32_t *o = test_alloc(n * 32), ref[N_ELEMS * 8];
	for (int i = 0; i < n; i++) {
		a[i] = (int16_t)rnd();
		b[i] = i % 5 ? (int16_t)rnd() : (int16_t)(i - 2);
		c[i] = (int8_t)rnd();
		ref_small_ints(a[i], b[i], c[i], &ref[i * 8]);
	}
	a[3] = INT16_MIN;
	b[3] = -1;
	ref_small_ints(a[3], b[3], c[3], &ref[3 * 8]);
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "small_ints", &cfg, args) &&
		  expect_bytes("small_ints", o, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

static bool test_f32(void)
{
	struct ptx_program *p = program("float_ops.sm80.ptx");
	int n = N_ELEMS;
	float *a = test_alloc(n * 4), *b = test_alloc(n * 4),
	      *c = test_alloc(n * 4), *o = test_alloc(n * 4 * F32_OPS);
	float *ref = malloc(n * 4 * F32_OPS);
	fill_floats(a, b, c, n);
	for (int i = 0; i < n; i++)
		for (unsigned k = 0; k < F32_OPS; k++)
			ref[i * F32_OPS + k] = ref_f32(k, a[i], b[i], c[i]);
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "f32_ops", &cfg, args) &&
		  expect_floats("f32_ops", o, ref, (size_t)n * F32_OPS, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_f64(void)
{
	struct ptx_program *p = program("float_ops.sm75.ptx");
	int n = N_ELEMS;
	double *a = test_alloc(n * 8), *b = test_alloc(n * 8),
	       *c = test_alloc(n * 8), *o = test_alloc(n * 8 * F64_OPS);
	double *ref = malloc(n * 8 * F64_OPS);
	float fa[N_ELEMS], fb[N_ELEMS], fc[N_ELEMS];
	fill_floats(fa, fb, fc, n);
	for (int i = 0; i < n; i++) {
		a[i] = (double)fa[i] * (1.0 + ldexp(1, -40));
		b[i] = i == 9 ? 1e-310 : (double)fb[i] / 3.0;
		c[i] = (double)fc[i];
		for (unsigned k = 0; k < F64_OPS; k++)
			ref[i * F64_OPS + k] = ref_f64(k, a[i], b[i], c[i]);
	}
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "f64_ops", &cfg, args) &&
		  expect_floats("f64_ops", o, ref, (size_t)n * F64_OPS, 8);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_conversions(void)
{
	struct ptx_program *p = program("float_ops.sm80.ptx");
	int n = N_ELEMS;
	float *a = test_alloc(n * 4), fb[N_ELEMS], fc[N_ELEMS];
	double *b = test_alloc(n * 8);
	int64_t *c = test_alloc(n * 8);
	uint64_t *o = test_alloc(n * 8 * CONV_OPS);
	uint64_t *ref = malloc(n * 8 * CONV_OPS);
	fill_floats(a, fb, fc, n);
	for (int i = 0; i < n; i++) {
		b[i] = i % 3 ? (double)fb[i] * 1e3 : (double)a[i] + 0.5;
		c[i] = i % 4 == 0 ? (int64_t)rnd() << 31 | rnd() :
			i % 4 == 1 ? -(int64_t)(rnd() % 1000) :
			(int64_t)(rnd() % 300) - 150;
		ref_conversions(a[i], b[i], c[i], &ref[i * CONV_OPS]);
	}
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &a, &b, &c, &o, &n };
	bool ok = p && run_ok(p, "conversions", &cfg, args) &&
		  expect_bytes("conversions", o, ref, n * 8 * CONV_OPS, 8);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

/* Approximate functions: within a relative tolerance of libm. */
static bool test_approx(void)
{
	struct ptx_program *p = program("float_ops.sm75.ptx");
	int n = N_ELEMS;
	float *a = test_alloc(n * 4), *o = test_alloc(n * 32);
	for (int i = 0; i < n; i++)
		a[i] = (float)(i - 32) * 0.37f;
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &a, &o, &n };
	bool ok = p && run_ok(p, "approx_ops", &cfg, args);
	size_t len;
	float *gpu = (float *)expected_file("approx_ops", "bin", &len);
	expect_record("approx_ops", o, (size_t)n * 32);
	for (int i = 0; ok && gpu && len == (size_t)n * 32 && i < n * 8; i++) {
		/* the GPU's approximations and ours, each within the ISA's
		 * bound of the exact value */
		double g = o[i], w = gpu[i];
		ok = fabs(g - w) <= 4e-6 * fabs(w) + 2e-6;
		if (!ok)
			tap_diag("approx %d of %g: %.9g, GPU %.9g", i % 8,
				 (double)a[i / 8], g, w);
	}
	free(gpu);
	for (int i = 0; ok && i < n; i++) {
		float x = a[i];
		double want[8] = { sin(x), cos(x), exp(x),
				   log2(fabs(x) + 1.0), 1.0 / sqrt(fabs(x) + 1.0),
				   1.0 / (x + 2.5), sqrt(fabs(x)),
				   exp(x * 0.1) };
		for (int k = 0; ok && k < 8; k++) {
			double got = o[i * 8 + k];
			ok = fabs(got - want[k]) <= 1e-5 * fabs(want[k]) + 1e-6;
			if (!ok)
				tap_diag("approx %d of %g: %.9g, want %.9g", k,
					 (double)x, got, want[k]);
		}
	}
	ptx_program_destroy(p);
	return ok;
}

static bool test_diverge(void)
{
	struct ptx_program *p = program("control.sm75.ptx");
	int n = 200;
	int32_t *in = test_alloc(n * 4), *out = test_alloc(n * 4);
	int32_t *ref = malloc(n * 4);
	for (int i = 0; i < n; i++) {
		in[i] = i % 17 == 3 ? -(int)(rnd() % 100) : (int)(rnd() % 5000);
		int v = in[i], acc = 0;
		for (int k = 0; k < (v & 31); k++) {
			if (k & 1)
				acc += k * v;
			else if (k % 3 == 0)
				acc ^= k;
			else
				continue;
			if (acc > 100000)
				break;
		}
		int w = v;
		while (w > 1)
			w = (w & 1) ? 3 * w + 1 : w / 2;
		ref[i] = v < 0 ? -1 : acc + w;
	}
	struct launch_cfg cfg = cfg_1d(4, 64);
	const void *args[] = { &in, &out, &n };
	bool ok = p && run_ok(p, "diverge", &cfg, args) &&
		  expect_bytes("diverge", out, ref, n * 4, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static int ref_classify(int v)
{
	static const int t[16] = { 10, 21, 32, 43, 54, 65, 76, 87, 0, 99,
				   0, 0, 120, 0, 0, 0 };
	int c = t[v & 15];
	return c ? c : -v;
}

static int ref_fib(int n)
{
	return n < 2 ? n : ref_fib(n - 1) + ref_fib(n - 2);
}

/* Calls: switch, recursion, struct by value, function pointers, local
 * arrays, from diverged lanes. */
static bool test_calls(const char *file)
{
	struct ptx_program *p = program(file);
	int n = 96;
	int32_t *in = test_alloc(n * 4), *out = test_alloc(n * 20);
	int32_t *ref = malloc(n * 20);
	for (int i = 0; i < n; i++) {
		int v = in[i] = (int)(rnd() % 4096);
		ref[i * 5 + 0] = ref_classify(v);
		ref[i * 5 + 1] = ref_fib(v & 15);
		ref[i * 5 + 2] = (i + 3) * 1000 + (v - 3);
		ref[i * 5 + 3] = i % 3 == 0 ? 2 * v : i % 3 == 1 ? v * v : -v;
		ref[i * 5 + 4] = (v * (v & 15) + i) + (v * ((v >> 4) & 15) + i);
	}
	struct launch_cfg cfg = cfg_1d(3, 32);
	const void *args[] = { &in, &out, &n };
	bool ok = p && run_ok(p, "calls", &cfg, args) &&
		  expect_bytes(strstr(file, "sm75") ? "calls" : "calls_sm90", out, ref,
			       n * 20, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_block_sum(void)
{
	struct ptx_program *p = program("control.sm75.ptx");
	int n = 1000, blocks = 8, threads = 128;
	int32_t *in = test_alloc(n * 4), *out = test_alloc(blocks * 4);
	int32_t ref[8] = { 0 };
	for (int i = 0; i < n; i++) {
		in[i] = (int)(rnd() % 1000) - 500;
		ref[i / threads] += in[i];
	}
	struct launch_cfg cfg = cfg_1d(blocks, threads);
	cfg.shared = threads * 4;
	const void *args[] = { &in, &out, &n };
	bool ok = p && run_ok(p, "block_sum", &cfg, args) &&
		  expect_bytes("block_sum", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

static bool test_transpose(void)
{
	struct ptx_program *p = program("control.sm75.ptx");
	int w = 50, h = 37;
	float *in = test_alloc(w * h * 4), *out = test_alloc(w * h * 4);
	float *ref = malloc(w * h * 4);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			in[y * w + x] = (float)(y * 1000 + x);
			ref[x * h + y] = in[y * w + x];
		}
	struct launch_cfg cfg = { .grid = { (w + 15) / 16, (h + 15) / 16 },
				  .block = { 16, 16 } };
	const void *args[] = { &in, &out, &w, &h };
	bool ok = p && run_ok(p, "transpose", &cfg, args) &&
		  expect_bytes("transpose", out, ref, w * h * 4, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_bar_red(void)
{
	struct ptx_program *p = program("control.sm75.ptx");
	int blocks = 3, threads = 96;
	int32_t *in = test_alloc(blocks * threads * 4),
		*out = test_alloc(blocks * 12), ref[9];
	for (int b = 0; b < blocks; b++) {
		int count = 0, all = 1, any = 0;
		for (int t = 0; t < threads; t++) {
			int v = (int)(rnd() % 20) - (b == 1 ? 3 : 8);
			if (b == 2)
				v = t == 50 ? 7 : 1;
			in[b * threads + t] = v;
			count += v > 0;
			all &= v > -5;
			any |= v == 7;
		}
		ref[b * 3] = count;
		ref[b * 3 + 1] = all;
		ref[b * 3 + 2] = any;
	}
	struct launch_cfg cfg = cfg_1d(blocks, threads);
	const void *args[] = { &in, &out };
	bool ok = p && run_ok(p, "bar_red", &cfg, args) &&
		  expect_bytes("bar_red", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* Global atomics from 4 worker threads at once, shared ones per block. */
static bool test_atomics(void)
{
	struct ptx_program *p = program("atomics.sm75.ptx");
	int blocks = 16, threads = 128, n = blocks * threads;
	int32_t *in = test_alloc(n * 4), *g = test_alloc(16 * 4);
	uint64_t *g64 = test_alloc(16);
	float *gf = test_alloc(4);
	double *gd = test_alloc(8);
	int32_t ref[16] = { 0 };
	uint64_t ref64[2] = { 0, 0 };
	g[2] = ref[2] = INT32_MIN;
	g[3] = ref[3] = INT32_MAX;
	g[5] = ref[5] = -1;
	g[6] = ref[6] = -1;
	g[10] = ref[10] = 50;
	g[11] = ref[11] = -1000;
	for (int i = 0; i < n; i++) {
		int v = in[i] = (int)(rnd() % 2000000) - 1000000;
		ref[0] += v;
		ref[1] -= v;
		ref[2] = v > ref[2] ? v : ref[2];
		ref[3] = v < ref[3] ? v : ref[3];
		ref[4] = (uint32_t)v > (uint32_t)ref[4] ? v : ref[4];
		ref[5] = (uint32_t)v < (uint32_t)ref[5] ? v : ref[5];
		ref[6] &= (int32_t)~(1u << (i & 31));
		ref[7] |= (int32_t)(1u << (v & 31));
		ref[8] ^= v;
		ref[9] = (uint32_t)ref[9] >= 1000u ? 0 : ref[9] + 1;
		ref[10] = (ref[10] == 0 || (uint32_t)ref[10] > 77u) ? 77 :
								    ref[10] - 1;
		ref[11] = v > ref[11] ? v : ref[11];
		ref64[0] += (uint64_t)(uint32_t)v << 20;
		ref64[1] = (uint32_t)v > ref64[1] ? (uint32_t)v : ref64[1];
	}
	ref[12] = 5;
	struct launch_cfg cfg = cfg_1d(blocks, threads);
	cfg.threads = 4;
	const void *args[] = { &in, &g, &g64, &gf, &gd };
	bool ok = p && run_ok(p, "global_atomics", &cfg, args) &&
		  expect_bytes("global_atomics", g, ref, sizeof(ref), 4) &&
		  expect_bytes("global_atomics64", g64, ref64, 16, 8) &&
		  *gf == 0.5f * n && *gd == 0.25 * n;
	/* shared: per-block histograms */
	int32_t *out = test_alloc(blocks * 17 * 4), *sref = calloc(
		blocks * 17, 4);
	for (int i = 0; i < n; i++) {
		sref[(i / threads) * 17 + (in[i] & 15)]++;
		sref[(i / threads) * 17 + 16] += in[i] & 0xff;
	}
	const void *sargs[] = { &in, &out };
	ok = ok && run_ok(p, "shared_atomics", &cfg, sargs) &&
	     expect_bytes("shared_atomics", out, sref, blocks * 17 * 4, 4);
	free(sref);
	ptx_program_destroy(p);
	return ok;
}

static void ref_warp(const int32_t *v, int32_t *o)
{
	int32_t sum = 0;
	uint32_t ballot = 0, any = 0, all = 1;
	for (int t = 0; t < 32; t++) {
		ballot |= (uint32_t)(v[t] & 1) << t;
		any |= v[t] == 3;
		all &= v[t] >= 0;
		sum += v[t];
	}
	uint32_t active = 0;
	for (int t = 0; t < 32; t++)
		active |= (uint32_t)((v[t] & 2) != 0) << t;
	for (int t = 0; t < 32; t++) {
		int32_t *r = o + t * 12;
		r[0] = v[(t * 7) & 31];
		r[1] = t >= 3 ? v[t - 3] : v[t];
		r[2] = t + 5 < 32 ? v[t + 5] : v[t];
		r[3] = v[t ^ 6];
		r[4] = v[(t & ~7) + 2];
		r[5] = (t & 15) + 3 < 16 ? v[t + 3] : v[t];
		r[6] = (int32_t)ballot;
		r[7] = (int32_t)any;
		r[8] = (int32_t)all;
		r[9] = v[t] & 2 ? (int32_t)active : 0;
		uint32_t same = 0;
		for (int k = 0; k < 32; k++)
			same |= (uint32_t)((v[k] & 3) == (v[t] & 3)) << k;
		r[10] = (int32_t)same;
	}
	/* shfl_down reduction: lanes past the end read their own value */
	int32_t s[32];
	for (int t = 0; t < 32; t++)
		s[t] = v[t];
	for (int off = 16; off > 0; off >>= 1) {
		int32_t n[32];
		for (int t = 0; t < 32; t++)
			n[t] = s[t] + (t + off < 32 ? s[t + off] : s[t]);
		memcpy(s, n, sizeof(s));
	}
	for (int t = 0; t < 32; t++)
		o[t * 12 + 11] = s[t];
	(void)sum;
}

static bool test_warp(void)
{
	struct ptx_program *p = program("warp.sm75.ptx");
	int blocks = 2, threads = 64, n = blocks * threads;
	int32_t *in = test_alloc(n * 4), *out = test_alloc(n * 48);
	int32_t *ref = malloc(n * 48);
	for (int i = 0; i < n; i++)
		in[i] = (int)(rnd() % 100);
	for (int w = 0; w < n / 32; w++)
		ref_warp(in + w * 32, ref + w * 32 * 12);
	struct launch_cfg cfg = cfg_1d(blocks, threads);
	const void *args[] = { &in, &out };
	bool ok = p && run_ok(p, "warp_ops", &cfg, args) &&
		  expect_bytes("warp_ops", out, ref, n * 48, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static bool test_globals(void)
{
	struct ptx_program *p = program("globals.sm75.ptx");
	int threads = 8;
	float *out = test_alloc(threads * 24), ref[8 * 6];
	static const float scale[3] = { 0.5f, 2.0f, -1.25f };
	static const char msg[] = "hello";
	uint64_t big = 0x123456789abcdefULL;
	for (int t = 0; t < threads; t++) {
		ref[t * 6 + 0] = (float)((t & 3) + 1) * scale[t % 3];
		ref[t * 6 + 1] = 2.0f;
		ref[t * 6 + 2] = (float)(3.0 * t);
		ref[t * 6 + 3] = (float)(big >> (t & 31) & 0xff);
		ref[t * 6 + 4] = msg[t % 6];
		ref[t * 6 + 5] = 0.0f;
	}
	struct launch_cfg cfg = cfg_1d(1, threads);
	const void *args[] = { &out };
	uint64_t counts;
	bool ok = p && run_ok(p, "read_globals", &cfg, args) &&
		  expect_bytes("read_globals", out, ref, sizeof(ref), 4) &&
		  ptx_program_variable(p, "counts", &counts, NULL) &&
		  *(int *)(uintptr_t)counts == 11;
	ptx_program_destroy(p);
	return ok;
}

static bool test_intrinsics(void)
{
	struct ptx_program *p = program("misc.sm75.ptx");
	int n = N_ELEMS;
	uint32_t *a = test_alloc(n * 4), *b = test_alloc(n * 4),
		 *c = test_alloc(n * 4), *o = test_alloc(n * 52);
	uint32_t ref[N_ELEMS * 13];
	fill_ints(a, b, c, n);
	for (int i = 0; i < n; i++)
		ref_intrinsics(a[i], b[i], &ref[i * 13]);
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &a, &b, &o, &n };
	bool ok = p && run_ok(p, "intrinsics", &cfg, args) &&
		  expect_bytes("intrinsics", o, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

static bool test_grid3d(void)
{
	struct ptx_program *p = program("misc.sm90.ptx");
	struct launch_cfg cfg = { .grid = { 3, 2, 2 }, .block = { 5, 3, 4 } };
	unsigned total = 3 * 2 * 2 * 5 * 3 * 4, idx = 0;
	uint32_t *out = test_alloc(total * 4), *ref = malloc(total * 4);
	for (unsigned bz = 0; bz < 2; bz++)
		for (unsigned by = 0; by < 2; by++)
			for (unsigned bx = 0; bx < 3; bx++)
				for (unsigned t = 0; t < 60; t++) {
					unsigned tx = t % 5, ty = t / 5 % 3,
						 tz = t / 15;
					ref[idx++] = bx | by << 4 | bz << 8 |
						     tx << 12 | ty << 16 |
						     tz << 20 |
						     (uint32_t)(tx == 0) << 28;
				}
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "grid3d", &cfg, args) &&
		  expect_bytes("grid3d", out, ref, total * 4, 4);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

static float half_round(float x)
{
	if (isnan(x))
		return x;
	if (fabsf(x) >= 65520.0f)
		return copysignf(INFINITY, x);
	int e;
	frexpf(fabsf(x), &e);
	int q = e - 1 < -14 ? -24 : e - 1 - 10;
	return copysignf((float)ldexp(rint(ldexp(fabsf(x), -q)), q), x);
}

static bool test_half(void)
{
	struct ptx_program *p = program("half.sm75.ptx");
	int n = N_ELEMS;
	float *a = test_alloc(n * 4), *b = test_alloc(n * 4),
	      *o = test_alloc(n * 32), ref[N_ELEMS * 8];
	for (int i = 0; i < n; i++) {
		a[i] = ((float)(rnd() % 20000) - 10000.0f) / 97.0f;
		b[i] = ((float)(rnd() % 20000) - 10000.0f) / 113.0f;
		float x = half_round(a[i]), y = half_round(b[i]);
		float *r = &ref[i * 8];
		r[0] = half_round(x + y);
		r[1] = half_round(x * y);
		r[2] = half_round((float)fma(x, y, x));
		r[3] = half_round(x + y);
		r[4] = half_round(y * x);
		r[5] = -x;
		r[6] = x < y;
		float t = a[i] * 3.0f;	/* __float2half_rz */
		float h = half_round(t);
		r[7] = fabsf(h) > fabsf(t) ? nextafterf(h, 0) : h;
	}
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &a, &b, &o, &n };
	bool ok = p && run_ok(p, "half_ops", &cfg, args);
	/* __float2half_rz: the half below in magnitude, computed exactly */
	for (int i = 0; ok && i < n; i++) {
		float t = a[i] * 3.0f;
		int e;
		frexpf(fabsf(t), &e);
		int q = e - 1 < -14 ? -24 : e - 1 - 10;
		ref[i * 8 + 7] = copysignf((float)ldexp(trunc(ldexp(fabsf(t),
								    -q)), q),
					   t);
	}
	ok = ok && expect_floats("half_ops", o, ref, (size_t)n * 8, 4);
	ptx_program_destroy(p);
	return ok;
}

static bool test_sm80(void)
{
	struct ptx_program *p = program("sm80.sm80.ptx");
	int threads = 32;
	int32_t *in = test_alloc(threads * 4), *out = test_alloc(threads * 16);
	int32_t ref[32 * 4], sum = 0, mn = INT32_MAX;
	uint32_t mx = 0;
	for (int t = 0; t < threads; t++) {
		in[t] = (int)(rnd() % 1000) - 400;
		sum += in[t];
		mn = in[t] < mn ? in[t] : mn;
		mx = (uint32_t)in[t] > mx ? (uint32_t)in[t] : mx;
	}
	for (int t = 0; t < threads; t++) {
		ref[t * 4] = sum;
		ref[t * 4 + 1] = (int32_t)mx;
		ref[t * 4 + 2] = mn;
		ref[t * 4 + 3] = in[(t + 1) % threads];
	}
	struct launch_cfg cfg = cfg_1d(1, threads);
	const void *args[] = { &in, &out };
	bool ok = p && run_ok(p, "sm80_ops", &cfg, args) &&
		  expect_bytes("sm80_ops", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* mbarrier arrive/wait around asynchronous copies, 4 warps. */
static bool test_mbarrier(void)
{
	struct ptx_program *p = program("sm80.sm80.ptx");
	int threads = 128;
	int32_t *in = test_alloc(threads * 4), *out = test_alloc(threads * 4);
	int32_t ref[128];
	for (int t = 0; t < threads; t++)
		in[t] = (int)(rnd() % 10000);
	for (int t = 0; t < threads; t++)
		ref[t] = in[(t + 5) % threads] + 1;
	struct launch_cfg cfg = cfg_1d(2, (uint32_t)threads);
	const void *args[] = { &in, &out };
	bool ok = p && run_ok(p, "mbarrier_ops", &cfg, args) &&
		  expect_bytes("mbarrier_ops", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* ---- printf, assert, faults ---- */

static char printed[4096];
static size_t printed_len;

static void capture(void *user, const char *text, size_t len)
{
	(void)user;
	if (printed_len + len < sizeof(printed)) {
		memcpy(printed + printed_len, text, len);
		printed_len += len;
		printed[printed_len] = 0;
	}
}

static bool test_printf(void)
{
	struct ptx_program *p = program("printf.sm75.ptx");
	int n = 42;
	float f = 3.14159f;
	struct launch_cfg cfg = cfg_1d(1, 4);
	const void *args[] = { &n, &f };
	ptx_set_print_handler(capture, NULL);
	bool ok = p && run_ok(p, "say", &cfg, args);
	ptx_set_print_handler(NULL, NULL);
	const char *want = "thread 0 of 4: n=42 f=3.14 hex=2a str=ok "
			   "ll=360777252864\nthread 1 of 4: n=42 f=3.14 "
			   "hex=2a str=ok ll=360777252864\n";
	ok = ok && !strcmp(printed, want);
	if (!ok)
		tap_diag("printed: %s", printed);
	ptx_program_destroy(p);
	return ok;
}

static bool test_assert(void)
{
	struct ptx_program *p = program("printf.sm75.ptx");
	int32_t *in = test_alloc(64 * 4);
	for (int i = 0; i < 64; i++)
		in[i] = i == 37 ? -1 : i;
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &in };
	struct ptx_fault f;
	bool ok = p && !run(p, "check", &cfg, args, &f) &&
		  f.kind == PTX_FAULT_ASSERT && f.thread[0] == 37 &&
		  strstr(f.message, "in[threadIdx.x] >= 0");
	if (!ok)
		tap_diag("fault %d thread %u: %s", f.kind, f.thread[0],
			 f.message);
	ptx_program_destroy(p);
	return ok;
}

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* Out-of-range (1 TiB past a buffer: outside every other one too),
 * misaligned accesses, and trap. */
static bool test_faults(void)
{
	static const char text[] =
		HEAD ".visible .entry f(.param .u64 p, .param .u32 mode)\n{\n"
		"\t.reg .pred %q<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [mode];\n"
		"\tmov.u32 %r2, %tid.x;\n\tsetp.eq.u32 %q1, %r2, 5;\n"
		"\tsetp.eq.u32 %q2, %r1, 2;\n\t@%q2 trap;\n"
		"\tsetp.eq.u32 %q3, %r1, 1;\n"
		"\t@%q3 add.s64 %rd1, %rd1, 2;\n"
		"\t@!%q3 add.s64 %rd1, %rd1, 1099511627776;\n"
		"\t@%q1 st.global.u32 [%rd1], %r2;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "fault.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *buf = test_alloc(64);
	struct launch_cfg cfg = cfg_1d(2, 32);
	struct ptx_fault f;
	uint32_t mode = 0;
	const void *args[] = { &buf, &mode };
	ok = ok && !run(p, "f", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED &&
	     f.addr == (uintptr_t)buf + (1ull << 40) &&
	     f.thread[0] == 5 && f.cta[0] == 0;
	mode = 1;
	ok = ok && !run(p, "f", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_MISALIGNED;
	mode = 2;
	ok = ok && !run(p, "f", &cfg, args, &f) && f.kind == PTX_FAULT_TRAP;
	if (!ok)
		tap_diag("fault kind %d addr 0x%llx: %s", f.kind,
			 (unsigned long long)f.addr, f.message);
	ptx_program_destroy(p);
	return ok;
}

/* The edges of the inline checks compiled code makes (jit_emit_mem.c):
 * a shared word at the very end fits and one past it faults, a
 * misaligned shared word faults, and so does a misaligned global word
 * at an instruction that has already learnt its buffer. The window is
 * whole 128-byte units, as an H200's (tests/api/shared_window_api):
 * 128 bytes here, the end of the window. */
static bool test_fault_edges(void)
{
	static const char text[] =
		HEAD ".visible .entry g(.param .u64 p, .param .u32 mode)\n{\n"
		"\t.shared .align 4 .b8 sh[128];\n\t.reg .pred %q<4>;\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [mode];\n"
		"\tmov.u32 %r2, 0;\n\tmov.u32 %r3, sh;\n"
		"\tadd.s32 %r4, %r3, %r1;\n"
		"\tst.shared.u32 [%r4], %r1;\n"
		"L:\tst.global.u32 [%rd1], %r2;\n\tadd.s64 %rd1, %rd1, 6;\n"
		"\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.u32 %q1, %r2, 2;\n"
		"\t@%q1 bra L;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "edges.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *buf = test_alloc(64);
	struct launch_cfg cfg = cfg_1d(1, 1);
	struct ptx_fault f;
	uint32_t mode = 124;	/* the last word: fits; then global +6 */
	const void *args[] = { &buf, &mode };
	ok = ok && !run(p, "g", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_MISALIGNED && f.addr == (uintptr_t)buf + 6;
	mode = 128;
	ok = ok && !run(p, "g", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == 128;
	mode = 2;
	ok = ok && !run(p, "g", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_MISALIGNED;
	if (!ok)
		tap_diag("fault kind %d addr 0x%llx: %s", f.kind,
			 (unsigned long long)f.addr, f.message);
	ptx_program_destroy(p);
	return ok;
}

/*
 * 28 bytes of dynamic shared memory: NVVM's whole-vector load of bytes
 * 16-31 (it uses the first three words) stays inside the 128-byte unit
 * an H200 allocates, and so does a store at byte 124; one at 128 faults
 * (tests/api/shared_window_api.expected).
 */
static bool test_shared_tail(void)
{
	static const char text[] =
		HEAD ".extern .shared .align 16 .b8 dyn[];\n"
		".visible .entry t(.param .u64 p, .param .u32 at)\n{\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [at];\n"
		"\tmov.u32 %r2, 7;\n\tst.shared.v2.u32 [dyn+16], {%r2, %r2};\n"
		"\tst.shared.u32 [dyn+24], %r1;\n"
		"\tld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [dyn+16];\n"
		"\tst.global.v2.u32 [%rd1], {%r3, %r4};\n"
		"\tst.global.u32 [%rd1+8], %r5;\n"
		"\tmov.u32 %r7, dyn;\n\tadd.s32 %r7, %r7, %r1;\n"
		"\tst.shared.u32 [%r7], %r2;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "tail.ptx" };
	static const uint32_t want[3] = { 7, 7, 124 };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *out = test_alloc(16);
	struct launch_cfg cfg = cfg_1d(1, 1);
	struct ptx_fault f = { 0 };
	uint32_t at = 124;
	const void *args[] = { &out, &at };

	cfg.shared = 28;
	ok = ok && run_ok(p, "t", &cfg, args) && !memcmp(out, want, 12);
	at = 128;
	ok = ok && !run(p, "t", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == 128;
	if (!ok)
		tap_diag("out %u %u %u; fault kind %d addr 0x%llx: %s", out[0],
			 out[1], out[2], f.kind, (unsigned long long)f.addr,
			 f.message);
	ptx_program_destroy(p);
	return ok;
}

/*
 * %total_smem_size, %aggr_smem_size and %dynamic_smem_size as an H200
 * gave them (tests/api/shared_window_api.md): 28 static bytes and 100
 * dynamic ones (which start at byte 32) are 256, 1156 and 100; 28
 * dynamic bytes alone are 128, 1052 and 28.
 */
#define SMEM_SREGS_KERNEL(name, decls, touch) \
	".visible .entry " name "(.param .u64 p)\n{\n" decls \
	"\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<2>;\n" \
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 1;\n" touch \
	"\tst.shared.u8 [dyn], %r1;\n" \
	"\tmov.u32 %r2, %total_smem_size;\n" \
	"\tmov.u32 %r3, %aggr_smem_size;\n" \
	"\tmov.u32 %r4, %dynamic_smem_size;\n" \
	"\tst.global.v2.u32 [%rd1], {%r2, %r3};\n" \
	"\tst.global.u32 [%rd1+8], %r4;\n\tret;\n}\n"

static bool test_smem_sregs(void)
{
	static const char text[] =
		".version 8.1\n.target sm_90\n.address_size 64\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		SMEM_SREGS_KERNEL("with_static",
				  "\t.shared .align 4 .b8 st[28];\n",
				  "\tst.shared.u32 [st], %r1;\n")
		SMEM_SREGS_KERNEL("plain", "", "");
	static const uint32_t want_static[3] = { 256, 1156, 100 };
	static const uint32_t want_plain[3] = { 128, 1052, 28 };
	const char *texts[] = { text }, *names[] = { "smem_sregs.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *out = test_alloc(16);
	struct launch_cfg cfg = cfg_1d(1, 1);
	const void *args[] = { &out };

	cfg.shared = 100;
	ok = ok && run_ok(p, "with_static", &cfg, args) &&
	     expect_bytes("smem_sregs_static", out, want_static, 12, 4);
	cfg.shared = 28;
	ok = ok && run_ok(p, "plain", &cfg, args) &&
	     expect_bytes("smem_sregs_plain", out, want_plain, 12, 4);
	if (!ok)
		tap_diag("%s", log);
	ptx_program_destroy(p);
	return ok;
}

/*
 * A warp access with two bad lanes, the later lane at the lower address:
 * the fault names the first bad lane and its address (the interpreter
 * checks a whole warp's addresses at once, and must still), and the
 * lanes before it did their stores. Global stores, global loads, shared
 * stores; the second warp is never reached.
 */
static bool test_fault_first_lane(void)
{
	static const char text[] =
		HEAD ".visible .entry fl(.param .u64 p, .param .u32 mode)\n{\n"
		"\t.shared .align 4 .b8 sh[256];\n\t.reg .pred %q<4>;\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [mode];\n"
		"\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 4;\n"
		"\tshl.b32 %r4, %r2, 2;\n"
		"\tsetp.eq.u32 %q1, %r2, 9;\n\tsetp.eq.u32 %q2, %r2, 20;\n"
		"\t@%q1 add.s64 %rd2, %rd2, 1099511627776;\n"
		"\t@%q2 add.s64 %rd2, %rd2, 549755813888;\n"
		"\t@%q1 mov.u32 %r4, 1000;\n\t@%q2 mov.u32 %r4, 600;\n"
		"\tadd.s64 %rd3, %rd1, %rd2;\n\tmov.u32 %r5, sh;\n"
		"\tadd.s32 %r5, %r5, %r4;\n"
		"\tsetp.eq.u32 %q3, %r1, 1;\n\t@%q3 bra LD;\n"
		"\tsetp.eq.u32 %q3, %r1, 2;\n\t@%q3 bra SH;\n"
		"\tst.global.u32 [%rd3], %r2;\n\tret;\n"
		"LD:\tld.global.u32 %r6, [%rd3];\n\tret;\n"
		"SH:\tst.shared.u32 [%r5], %r2;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "first_lane.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *buf = test_alloc(256);
	struct launch_cfg cfg = cfg_1d(1, 64);
	struct ptx_fault f;
	uint32_t mode = 0;
	const void *args[] = { &buf, &mode };
	uint64_t bad = (uintptr_t)buf + (1ull << 40) + 36;
	ok = ok && !run(p, "fl", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == bad &&
	     f.thread[0] == 9;
	for (uint32_t i = 0; ok && i < 9; i++)
		ok = buf[i] == i;
	mode = 1;
	ok = ok && !run(p, "fl", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == bad &&
	     f.thread[0] == 9;
	mode = 2;
	ok = ok && !run(p, "fl", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == 1000 &&
	     f.thread[0] == 9;
	if (!ok)
		tap_diag("fault kind %d thread %u addr 0x%llx: %s", f.kind,
			 f.thread[0], (unsigned long long)f.addr, f.message);
	ptx_program_destroy(p);
	return ok;
}

/*
 * Accesses through registers whose lanes are strided (tid.x times a
 * constant, the same in every lane, or counting down): the interpreter
 * checks those by the first and the last lane alone when each warp is
 * one row of 32 threads. Values of loads, under a guard that leaves out
 * some lanes too, also in blocks of 48 x 2 and 8 x 4 threads (the gate
 * off); then an access running off its buffer or shared memory faults
 * at its first bad lane, after the lanes before it.
 */
static const char strided_text[] =
	HEAD ".visible .entry st(.param .u64 p, .param .u64 q, "
	".param .u32 mode)\n{\n"
	"\t.shared .align 4 .b8 sh[256];\n\t.reg .pred %q<4>;\n"
	"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<12>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd9, [q];\n"
	"\tld.param.u32 %r1, [mode];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n\tadd.s64 %rd10, %rd9, %rd2;\n"
	"\tmul.wide.u32 %rd4, %r2, 8;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
	"\tsub.s64 %rd6, 124, %rd2;\n\tadd.s64 %rd7, %rd1, %rd6;\n"
	"\tmul.lo.u32 %r4, %r2, 12;\n\tmov.u32 %r5, sh;\n"
	"\tadd.s32 %r10, %r5, %r4;\n\tshl.b32 %r11, %r2, 2;\n"
	"\tadd.s32 %r11, %r5, %r11;\n"
	"\tsetp.eq.u32 %q3, %r1, 1;\n\t@%q3 bra FST;\n"
	"\tsetp.eq.u32 %q3, %r1, 2;\n\t@%q3 bra FLD;\n"
	"\tsetp.eq.u32 %q3, %r1, 3;\n\t@%q3 bra FSH;\n"
	"\tsetp.eq.u32 %q3, %r1, 4;\n\t@%q3 bra FDN;\n"
	"\tsetp.lt.u32 %q1, %r2, 20;\n\tmov.u32 %r6, 7;\n"
	"\t@%q1 ld.global.u32 %r6, [%rd5+4];\n"
	"\tld.global.u32 %r7, [%rd1+12];\n\tld.global.u32 %r8, [%rd7];\n"
	"\tst.shared.u32 [%r11], %r8;\n\tld.shared.u32 %r9, [%r11];\n"
	"\tadd.s32 %r6, %r6, %r7;\n\tmul.lo.u32 %r9, %r9, 1000;\n"
	"\tadd.s32 %r6, %r6, %r9;\n\tst.global.u32 [%rd10], %r6;\n\tret;\n"
	"FST:\tst.global.u32 [%rd3], %r2;\n\tret;\n"
	"FLD:\tld.global.u32 %r6, [%rd3];\n\tret;\n"
	"FSH:\tst.shared.u32 [%r10], %r2;\n\tret;\n"
	"FDN:\tld.global.u32 %r6, [%rd7];\n\tret;\n}\n";

/*
 * In blocks of 8 x 4 a warp holds four rows: the shapes take tid.y for
 * the same in every lane, so gate's shared load looks strided by 4, but
 * rows 1 and 2 read off the line from row 0's first lane to row 3's
 * last (row 3 reads 24 words further). The strided gate must be off.
 */
static const char gate_text[] =
	HEAD ".visible .entry gate(.param .u64 p, .param .u64 q)\n{\n"
	"\t.shared .align 4 .b8 sg[128];\n\t.reg .pred %q<2>;\n"
	"\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd2, [q];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n"
	"\tmov.u32 %r3, %ntid.x;\n\tmad.lo.u32 %r7, %r2, %r3, %r1;\n"
	"\tmul.wide.u32 %rd5, %r7, 4;\n\tadd.s64 %rd3, %rd1, %rd5;\n"
	"\tld.global.u32 %r8, [%rd3];\n\tmov.u32 %r9, sg;\n"
	"\tshl.b32 %r10, %r7, 2;\n\tadd.s32 %r11, %r9, %r10;\n"
	"\tst.shared.u32 [%r11], %r8;\n\tbar.sync 0;\n"
	"\tsetp.eq.u32 %q1, %r2, 3;\n\tselp.u32 %r4, 24, 0, %q1;\n"
	"\tadd.u32 %r5, %r1, %r4;\n\tshl.b32 %r12, %r5, 2;\n"
	"\tadd.s32 %r13, %r9, %r12;\n\tld.shared.u32 %r6, [%r13];\n"
	"\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u32 [%rd6], %r6;\n"
	"\tret;\n}\n";

static bool strided_gate(const uint32_t *in)
{
	const char *texts[] = { gate_text }, *names[] = { "gate.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	uint32_t *out = test_alloc(32 * 4);
	const void *args[] = { &in, &out };
	struct launch_cfg cfg = { .grid = { 1 }, .block = { 8, 4, 1 } };
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) ==
			  PTX_OK &&
		  run_ok(p, "gate", &cfg, args);
	for (uint32_t t = 0; ok && t < 32; t++) {
		uint32_t want = in[t % 8 + (t / 8 == 3 ? 24 : 0)];
		if (out[t] != want) {
			tap_diag("gate: thread %u read %u, not %u", t, out[t],
				 want);
			ok = false;
		}
	}
	if (p)
		ptx_program_destroy(p);
	return ok;
}

static bool strided_fault(struct ptx_program *p, const void **args,
			  enum ptx_fault_kind kind, uint64_t addr,
			  uint32_t thread)
{
	struct launch_cfg cfg = cfg_1d(1, 64);
	struct ptx_fault f;
	if (!run(p, "st", &cfg, args, &f) && f.kind == kind &&
	    f.addr == addr && f.thread[0] == thread)
		return true;
	tap_diag("fault kind %d thread %u addr 0x%llx: %s", f.kind,
		 f.thread[0], (unsigned long long)f.addr, f.message);
	return false;
}

/*
 * The strided values of st's mode 0 with blocks of @n x @rows threads
 * over @in (@out; each row writes the same). In blocks of 48 x 2 the
 * second warp holds threads of two rows, whose addresses are not
 * strided across it: the interpreter's strided gate is off (ntid.x is
 * not a multiple of 32), and every access is checked lane by lane.
 */
static bool strided_values(struct ptx_program *p, const uint32_t *in,
			   uint32_t *out, uint32_t n, uint32_t rows)
{
	uint32_t mode = 0;
	const void *args[] = { &in, &out, &mode };
	struct launch_cfg cfg = { .grid = { 1 }, .block = { n, rows, 1 } };
	bool ok = run_ok(p, "st", &cfg, args);
	for (uint32_t i = 0; ok && i < n; i++) {
		uint32_t first = i < 20 ? in[2 * i + 1] : 7;
		uint32_t want = first + in[3] + in[(int32_t)(31 - i)] * 1000;
		if (out[i] != want) {
			tap_diag("%u threads, lane %u: %u, not %u", n, i, out[i],
				 want);
			ok = false;
		}
	}
	return ok;
}

/* Whether the lowering used the AVX2 handlers, as lower.c decides. */
static bool expect_avx2(void)
{
#if defined(__x86_64__)
	const char *off = getenv("VCUDA_INTERP_NO_AVX2");
	return __builtin_cpu_supports("avx2") && !(off && *off == '1');
#else
	return false;
#endif
}

/* The lowering marked all ten of st's accesses strided (the counts of
 * interp_stats): results alone cannot show it, the general path gives
 * the same. */
static bool strided_lowered(const struct ptx_program *p)
{
	const struct ptx_kernel *k = ptx_program_kernel(p, "st");
	const struct interp_stats *s = k && k->interp ? &k->interp->stats :
						       NULL;
	bool ok = s && s->strided == 10 && (s->avx2 > 0) == expect_avx2();
	if (s && !ok)
		tap_diag("st: %u accesses strided, %u AVX2 instructions",
			 s->strided, s->avx2);
	return ok;
}

static bool test_strided_lanes(void)
{
	const char *texts[] = { strided_text }, *names[] = { "strided.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *in = test_alloc(512), *out = test_alloc(256);
	uint32_t *small = test_alloc(40), mode = 0;
	const void *args[] = { &in, &out, &mode };
	for (uint32_t i = 0; i < 128; i++)
		in[i] = i * 3 + 1;
	ok = ok && strided_lowered(p) && strided_values(p, in, out, 32, 1) &&
	     strided_values(p, in + 16, out, 48, 2) && strided_gate(in);
	args[0] = &small;
	uint64_t end = (uintptr_t)small + 40;
	mode = 1;
	ok = ok && strided_fault(p, args, PTX_FAULT_UNMAPPED, end, 10);
	for (uint32_t i = 0; ok && i < 10; i++)
		ok = small[i] == i;
	mode = 2;
	ok = ok && strided_fault(p, args, PTX_FAULT_UNMAPPED, end, 10);
	mode = 3;
	ok = ok && strided_fault(p, args, PTX_FAULT_UNMAPPED, 264, 22);
	mode = 4;
	ok = ok && strided_fault(p, args, PTX_FAULT_UNMAPPED,
				 (uintptr_t)small + 124, 0);
	ptx_program_destroy(p);
	return ok;
}

/*
 * Shared loads whose rows of lanes read one address, consecutive
 * elements, or neither (exec_mem.c sorts groups of 8 lanes by shape, and
 * later loads through an unchanged address register reuse the shape):
 * every shape and a mix of them, 4-, 2- and signed 1-byte loads, a
 * register rewritten between loads, and a loop whose first load is
 * guarded to some lanes on its second pass while the next load is not.
 * With @bad, a load through a reused shape faults at its first bad lane
 * (of the warp that runs first).
 */
static const char shape_text[] =
	HEAD ".visible .entry shp(.param .u64 p, .param .u32 bad)\n{\n"
	"\t.shared .align 4 .b8 sh[512];\n\t.reg .pred %q<4>;\n"
	"\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r30, [bad];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, sh;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	/* sh[e] = 3e + 1, e < 128 */
	"\tmad.lo.u32 %r3, %r1, 3, 1;\n\tshl.b32 %r4, %r1, 2;\n"
	"\tadd.s32 %r5, %r2, %r4;\n\tst.shared.u32 [%r5], %r3;\n"
	"\tadd.s32 %r3, %r3, 192;\n\tst.shared.u32 [%r5+256], %r3;\n"
	"\tbar.sync 0;\n"
	/* %r6: e = t / 8; %r7: e = t % 16; %r8: e = 7t % 64; %r9: lanes
	 * 16-31 of each warp as %r8, the others as %r6 */
	"\tshr.u32 %r6, %r1, 3;\n\tshl.b32 %r6, %r6, 2;\n"
	"\tadd.s32 %r6, %r2, %r6;\n"
	"\tand.b32 %r7, %r1, 15;\n\tshl.b32 %r7, %r7, 2;\n"
	"\tadd.s32 %r7, %r2, %r7;\n"
	"\tmul.lo.u32 %r8, %r1, 7;\n\tand.b32 %r8, %r8, 63;\n"
	"\tshl.b32 %r8, %r8, 2;\n\tadd.s32 %r8, %r2, %r8;\n"
	"\tand.b32 %r9, %r1, 16;\n\tsetp.ne.u32 %q1, %r9, 0;\n"
	"\tselp.b32 %r9, %r8, %r6, %q1;\n"
	"\tsetp.ne.u32 %q3, %r30, 0;\n\t@%q3 bra BAD;\n"
	"\tld.shared.u32 %r10, [%r6];\n\tld.shared.u32 %r11, [%r7];\n"
	"\tld.shared.u32 %r12, [%r8];\n\tld.shared.u32 %r13, [%r9];\n"
	"\tld.shared.u32 %r14, [%r6+8];\n\tld.shared.u32 %r15, [%r7+4];\n"
	"\tld.shared.u32 %r16, [%r8+12];\n\tld.shared.u32 %r17, [%r9+16];\n"
	"\tld.shared.u16 %r18, [%r7+4];\n\tld.shared.s8 %r20, [%r8];\n"
	"\tmov.u32 %r6, %r8;\n\tld.shared.u32 %r19, [%r6+4];\n"
	"\tst.global.u32 [%rd3], %r10;\n\tst.global.u32 [%rd3+256], %r11;\n"
	"\tst.global.u32 [%rd3+512], %r12;\n"
	"\tst.global.u32 [%rd3+768], %r13;\n"
	"\tst.global.u32 [%rd3+1024], %r14;\n"
	"\tst.global.u32 [%rd3+1280], %r15;\n"
	"\tst.global.u32 [%rd3+1536], %r16;\n"
	"\tst.global.u32 [%rd3+1792], %r17;\n"
	"\tst.global.u32 [%rd3+2048], %r18;\n"
	"\tst.global.u32 [%rd3+2304], %r20;\n"
	"\tst.global.u32 [%rd3+2560], %r19;\n"
	/* two passes: through %r7, then through %r8 with the first load
	 * done by even lanes only */
	"\tmov.u32 %r21, 0;\n\tmov.u32 %r22, %r7;\n\tmov.u32 %r23, 0;\n"
	"\tmov.u32 %r25, 0;\n\tand.b32 %r24, %r1, 1;\n"
	"LOOP:\tsetp.eq.u32 %q2, %r21, 0;\n"
	"\tsetp.eq.or.u32 %q2, %r24, 0, %q2;\n"
	"\t@%q2 ld.shared.u32 %r25, [%r22];\n"
	"\tld.shared.u32 %r26, [%r22+4];\n"
	"\tmad.lo.u32 %r23, %r23, 1000, %r26;\n"
	"\tadd.s32 %r23, %r23, %r25;\n\tmov.u32 %r22, %r8;\n"
	"\tadd.s32 %r21, %r21, 1;\n\tsetp.lt.u32 %q2, %r21, 2;\n"
	"\t@%q2 bra LOOP;\n"
	"\tst.global.u32 [%rd3+2816], %r23;\n\tret;\n"
	/* lanes from 20 on of either warp read past the 512 bytes */
	"BAD:\tand.b32 %r31, %r1, 31;\n\tshl.b32 %r31, %r31, 2;\n"
	"\tadd.s32 %r31, %r2, %r31;\n\tld.shared.u32 %r10, [%r31];\n"
	"\tld.shared.u32 %r11, [%r31+432];\n"
	"\tst.global.u32 [%rd3], %r11;\n\tret;\n}\n";

static uint32_t shape_val(uint32_t e)
{
	return 3 * e + 1;
}

static void shape_ref(uint32_t t, uint32_t *out)
{
	uint32_t e6 = t >> 3, e7 = t & 15, e8 = 7 * t & 63;
	uint32_t e9 = t & 16 ? e8 : e6;
	uint32_t r[12] = {
		shape_val(e6), shape_val(e7), shape_val(e8), shape_val(e9),
		shape_val(e6 + 2), shape_val(e7 + 1), shape_val(e8 + 3),
		shape_val(e9 + 4), shape_val(e7 + 1) & 0xffff,
		(uint32_t)(int32_t)(int8_t)(shape_val(e8) & 0xff),
		shape_val(e8 + 1), 0 };
	uint32_t acc = shape_val(e7 + 1) + shape_val(e7);
	uint32_t r25 = t & 1 ? shape_val(e7) : shape_val(e8);
	r[11] = acc * 1000 + shape_val(e8 + 1) + r25;
	for (uint32_t k = 0; k < 12; k++)
		out[k * 64 + t] = r[k];
}

/* The lowering put all 15 of shp's shared loads in chains, 6 reusing
 * a head's shapes (interp_stats), as the results cannot show. */
static bool rows_lowered(const struct ptx_program *p)
{
	const struct ptx_kernel *k = ptx_program_kernel(p, "shp");
	const struct interp_stats *s = k && k->interp ? &k->interp->stats :
						       NULL;
	bool ok = s && s->row_loads == 15 && s->row_reuses == 6;
	if (s && !ok)
		tap_diag("shp: %u shared loads in chains, %u reusing shapes",
			 s->row_loads, s->row_reuses);
	return ok;
}

static bool test_shared_shapes(void)
{
	const char *texts[] = { shape_text }, *names[] = { "shapes.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *out = test_alloc(12 * 64 * 4);
	uint32_t ref[12 * 64], bad = 0;
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out, &bad };
	struct ptx_fault f;
	for (uint32_t t = 0; t < 64; t++)
		shape_ref(t, ref);
	ok = ok && rows_lowered(p) && run_ok(p, "shp", &cfg, args) &&
	     expect_bytes("shared shapes", out, ref, sizeof(ref), 4);
	bad = 1;
	ok = ok && !run(p, "shp", &cfg, args, &f) &&
	     f.kind == PTX_FAULT_UNMAPPED && f.addr == 512 &&
	     f.thread[0] % 32 == 20;
	if (!ok)
		tap_diag("fault kind %d thread %u addr 0x%llx: %s", f.kind,
			 f.thread[0], (unsigned long long)f.addr, f.message);
	ptx_program_destroy(p);
	return ok;
}

/*
 * Registers start at zero in every CTA, also those only some paths
 * write (the interpreter zeroes just the registers live at the entry,
 * lower_frame.c): CTA 0 writes %r3, %r4 (lane 1 only) and %q2, CTA 1
 * none of them, after CTA 0 ran in the same worker.
 */
static bool test_registers_start_zero(void)
{
	static const char text[] =
		HEAD ".visible .entry uz(.param .u64 p)\n{\n"
		"\t.reg .pred %q<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
		"\tmov.u32 %r2, %ctaid.x;\n\tsetp.eq.u32 %q1, %r2, 0;\n"
		"\t@%q1 bra W;\n\tbra R;\n"
		"W:\tmov.u32 %r3, 99;\n\tsetp.eq.u32 %q2, %r1, 1;\n"
		"\t@%q2 mov.u32 %r4, 55;\n"
		"R:\tadd.u32 %r5, %r3, %r4;\n\tselp.u32 %r6, 1000, 0, %q2;\n"
		"\tadd.u32 %r5, %r5, %r6;\n\tmad.lo.u32 %r7, %r2, 32, %r1;\n"
		"\tmul.wide.u32 %rd2, %r7, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tst.global.u32 [%rd3], %r5;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "zero.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *buf = test_alloc(64 * 4);
	struct launch_cfg cfg = cfg_1d(2, 32);
	const void *args[] = { &buf };
	ok = ok && run_ok(p, "uz", &cfg, args);
	for (uint32_t i = 0; ok && i < 64; i++) {
		uint32_t want = i >= 32 ? 0 : i == 1 ? 1154 : 99;
		if (buf[i] != want) {
			tap_diag("thread %u: %u, not %u", i, buf[i], want);
			ok = false;
		}
	}
	ptx_program_destroy(p);
	return ok;
}

/* Shared-memory atomics of every integer kind the JIT does as plain
 * read-modify-writes (jit_emit_mem.c), with the old values they return:
 * 64 threads, one CTA. */
static bool test_shared_rmw(void)
{
	static const char text[] =
		HEAD ".visible .entry rmw(.param .u64 p)\n{\n"
		"\t.shared .align 8 .b32 w[6];\n\t.shared .align 8 .b64 d;\n"
		"\t.reg .pred %q<2>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
		"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
		"\tsetp.ne.u32 %q1, %r1, 0;\n"
		"\t@%q1 bra W;\n"
		"\tmov.u32 %r12, 0;\n\tmov.u32 %r13, -1;\n\tmov.u64 %rd7, 0;\n"
		"\tst.shared.u32 [w], %r12;\n\tst.shared.u32 [w+4], %r12;\n"
		"\tst.shared.u32 [w+8], %r13;\n\tst.shared.u32 [w+12], %r12;\n"
		"\tst.shared.u32 [w+16], %r12;\n\tst.shared.u32 [w+20], %r13;\n"
		"\tst.shared.u64 [d], %rd7;\n"
		"W:\tbar.sync 0;\n"
		"\tsub.s32 %r2, 20, %r1;\n"
		"\tatom.shared.min.s32 %r3, [w], %r2;\n"
		"\tatom.shared.max.u32 %r4, [w+4], %r1;\n"
		"\tnot.b32 %r5, %r1;\n"
		"\tatom.shared.and.b32 %r6, [w+8], %r5;\n"
		"\tshl.b32 %r7, 1, %r1;\n"
		"\tatom.shared.or.b32 %r8, [w+12], %r7;\n"
		"\tatom.shared.xor.b32 %r9, [w+16], %r1;\n"
		"\tatom.shared.min.u32 %r10, [w+20], %r2;\n"
		"\tcvt.u64.u32 %rd2, %r1;\n\tshl.b64 %rd2, %rd2, 40;\n"
		"\tatom.shared.add.u64 %rd3, [d], %rd2;\n"
		"\tbar.sync 0;\n"
		"\tmul.wide.u32 %rd4, %r1, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
		"\tst.global.u32 [%rd5], %r3;\n"
		"\t@%q1 ret;\n"
		"\tld.shared.u32 %r11, [w];\n\tst.global.u32 [%rd1+256], %r11;\n"
		"\tld.shared.u32 %r11, [w+4];\n\tst.global.u32 [%rd1+260], %r11;\n"
		"\tld.shared.u32 %r11, [w+8];\n\tst.global.u32 [%rd1+264], %r11;\n"
		"\tld.shared.u32 %r11, [w+12];\n\tst.global.u32 [%rd1+268], %r11;\n"
		"\tld.shared.u32 %r11, [w+16];\n\tst.global.u32 [%rd1+272], %r11;\n"
		"\tld.shared.u32 %r11, [w+20];\n\tst.global.u32 [%rd1+276], %r11;\n"
		"\tld.shared.u64 %rd6, [d];\n\tst.global.u64 [%rd1+280], %rd6;\n"
		"\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "rmw.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *out = test_alloc(288);
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out };
	ok = ok && run_ok(p, "rmw", &cfg, args);
	/* the old value of min.s32 depends on the order threads run in;
	 * the final values do not */
	uint32_t and = 0xffffffffu, or = 0, xor = 0;
	uint64_t sum = 0;
	for (uint32_t t = 0; t < 64; t++) {
		and &= ~t;
		or |= t < 32 ? 1u << t : 0;
		xor ^= t;
		sum += (uint64_t)t << 40;
	}
	uint32_t ref[8] = { (uint32_t)(20 - 63), 63, and, or, xor,
			    0, (uint32_t)sum, (uint32_t)(sum >> 32) };
	ok = ok && expect_bytes("shared rmw", out + 64, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* Endless loops, one with a barrier in it: a launch whose kill flag is
 * set stops at the warps' next switch, with PTX_FAULT_KILLED. */
static bool test_kill(void)
{
	static const char text[] =
		HEAD ".visible .entry spin()\n{\nL:\n\tbra L;\n}\n"
		".visible .entry spin_bar()\n{\nL:\n\tbar.sync 0;\n"
		"\tbra L;\n}\n";
	const char *texts[] = { text }, *names[] = { "kill.ptx" };
	char log[256];
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	atomic_bool kill = true;
	struct launch_cfg cfg = cfg_1d(4, 64);
	struct ptx_fault f = { 0 };
	cfg.kill = &kill;
	cfg.threads = 2;
	ok = ok && !run(p, "spin", &cfg, NULL, &f) &&
	     f.kind == PTX_FAULT_KILLED;
	ok = ok && !run(p, "spin_bar", &cfg, NULL, &f) &&
	     f.kind == PTX_FAULT_KILLED;
	cfg.flags = PTX_LAUNCH_COOPERATIVE;
	ok = ok && !run(p, "spin", &cfg, NULL, &f) &&
	     f.kind == PTX_FAULT_KILLED;
	if (!ok)
		tap_diag("fault kind %d: %s", f.kind, f.message);
	ptx_program_destroy(p);
	return ok;
}

/*
 * WARP_SZ, PTX's predefined constant: nvcc emits it for warpSize. And the
 * kernel's PTX arch is its module's .target (CU_FUNC_ATTRIBUTE_PTX_VERSION).
 */
static bool test_warp_sz(void)
{
	static const char text[] =
		HEAD ".visible .entry w(.param .u64 p)\n{\n"
		"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, WARP_SZ;\n"
		"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "warp_sz.ptx" };
	char log[256] = "";
	struct ptx_program *p = NULL;
	bool ok = build_texts(texts, names, 1, &p, log, sizeof(log)) == PTX_OK;
	uint32_t *buf = test_alloc(4);
	struct launch_cfg cfg = cfg_1d(1, 1);
	const void *args[] = { &buf };
	struct ptx_kernel_info info = { 0 };
	ok = ok && run_ok(p, "w", &cfg, args) && *buf == 32;
	if (ok)
		ptx_kernel_get_info(ptx_program_kernel(p, "w"), &info);
	ok = ok && info.ptx_arch == 75;
	if (!ok)
		tap_diag("WARP_SZ: %s, got %u, arch %u", log, *buf,
			 info.ptx_arch);
	ptx_program_destroy(p);
	return ok;
}

/* ---- hand-written PTX ---- */

static bool test_jump_table(void)
{
	struct ptx_program *p = program("hand.control_flow.ptx");
	uint32_t *out = test_alloc(64 * 4), ref[64];
	for (uint32_t t = 0; t < 64; t++)
		ref[t] = t % 8 == 7 ? 0 : 1100 + t % 3;
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "jump_table", &cfg, args) &&
		  expect_bytes("jump_table", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* A warp spinning on shared memory lets the others run; a barrier that
 * cannot complete is a fault, not a hang. */
static bool test_spin_and_deadlock(void)
{
	struct ptx_program *p = program("hand.control_flow.ptx");
	uint32_t *out = test_alloc(8), ref[2] = { 7, 1249975000u };
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out };
	struct ptx_fault f;
	bool ok = p && run_ok(p, "spin", &cfg, args) &&
		  expect_bytes("spin", out, ref, sizeof(ref), 4);
	ok = ok && !run(p, "deadlock", &cfg, NULL, &f) &&
	     strstr(f.message, "never completes");
	if (!ok)
		tap_diag("%s", f.message);
	ptx_program_destroy(p);
	return ok;
}

static bool test_pointer_calls(void)
{
	struct ptx_program *p = program("hand.control_flow.ptx");
	uint32_t *out = test_alloc(96 * 4), ref[96];
	for (uint32_t t = 0; t < 96; t++)
		ref[t] = t % 2 ? t + 7 : 2 * t;
	struct launch_cfg cfg = cfg_1d(1, 96);
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "pointers", &cfg, args) &&
		  expect_bytes("pointers", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* Weak, managed and .const variables, a weak function, performance
 * directives, pragmas and debug sections (tests/ptx/hand/directives.ptx). */
static bool test_directives(void)
{
	struct ptx_program *p = program("hand.directives.ptx");
	uint32_t *out = test_alloc(20);
	static const uint32_t ref[5] = { 42, 7, 5, 3, 42 };
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "directives", &cfg, args) &&
		  expect_bytes("directives", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

static bool test_misc_ops(void)
{
	struct ptx_program *p = program("hand.misc_ops.ptx");
	uint32_t *out = test_alloc(64 * 64), ref[64 * 16] = { 0 };
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t *r = &ref[t * 16], lane = t % 32;
		r[0] = t < 16 ? 0xffffffffu : 0;
		r[1] = t >= 16 ? 11 : 22;
		r[2] = 1 | (t >= 32 ? 2 : 0);
		r[3] = t < 5 ? 8 : 0;
		r[4] = t + 5;
		r[5] = t;
		r[6] = 7;
		r[7] = (t ^ 1) - 16;
		r[8] = t | t << 16;
		r[9] = t;
		r[10] = lane + 3 <= 31 ? 1000 + t + 3 : t;
		r[11] = 0x3f800000u;
		r[12] = t & 4 ? 0xf0f0f0f0u : 0;	/* the guarded lanes */
	}
	struct launch_cfg cfg = cfg_1d(1, 64);
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "misc", &cfg, args) &&
		  expect_bytes("misc_ops", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

/* PTX ISA 1.4, as nvcc 2.x wrote it: 16-bit special registers, mad.f32
 * (fused on every GPU since sm_20), sqrt.approx (within 2 ulps). */
static bool test_legacy(void)
{
	struct ptx_program *p = program("hand.legacy.ptx");
	int n = 300;
	float *in = test_alloc(n * 4), *out = test_alloc(n * 4 + 64);
	float *ref = calloc(n + 16, 4);
	for (int i = 0; i < n; i++) {
		in[i] = (float)i * 1.5f;
		ref[i] = sqrtf(fmaf(in[i], 1.1f, 2.0f));
	}
	struct launch_cfg cfg = cfg_1d(3, 128);
	const void *args[] = { &in, &out, &n };
	bool ok = p && run_ok(p, "_Z6legacyPfS_i", &cfg, args);
	size_t len;
	float *gpu = (float *)expected_file("legacy", "bin", &len);
	expect_record("legacy", out, (size_t)(n + 16) * 4);
	const float *want = gpu && len == (size_t)(n + 16) * 4 ? gpu : ref;
	for (int i = 0; ok && i < n + 16; i++) {
		ok = fabsf(out[i] - want[i]) <= 2.4e-7f * fabsf(want[i]);
		if (!ok)
			tap_diag("legacy[%d] = %.9g, want %.9g%s", i,
				 (double)out[i], (double)want[i],
				 gpu ? " (GPU)" : "");
	}
	free(gpu);
	free(ref);
	ptx_program_destroy(p);
	return ok;
}

/* ---- throughput ---- */

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs the bench loops on one thread; checks them, reports the rate. */
static bool test_throughput(void)
{
	struct ptx_program *p = program("bench.sm75.ptx");
	int blocks = 8, threads = 256, iters = 2000;
	unsigned n = (unsigned)(blocks * threads);
	uint32_t *out = test_alloc(n * 4);
	float *fout = test_alloc(n * 4);
	struct launch_cfg cfg = cfg_1d((uint32_t)blocks, (uint32_t)threads);
	const void *args[] = { &out, &iters };
	double t0 = seconds();
	bool ok = p && run_ok(p, "int_loop", &cfg, args);
	double t = seconds() - t0;
	for (unsigned i = 0; ok && i < n; i++) {
		uint32_t x = i, y = 12345;
		for (int k = 0; k < iters; k++) {
			x = x * 1664525u + 1013904223u;
			y ^= x >> 7;
			y += x & 0xff;
		}
		ok = out[i] == (x ^ y);
	}
	/* about 7 instructions per iteration (see the PTX) */
	if (ok)
		tap_diag("int_loop: %.3f s, %.0f M lane-iterations/s (one "
			 "core)", t, (double)n * iters / t / 1e6);
	const void *fargs[] = { &fout, &iters };
	t0 = seconds();
	ok = ok && run_ok(p, "float_loop", &cfg, fargs);
	t = seconds() - t0;
	for (unsigned i = 0; ok && i < n; i++) {
		/* nvcc contracts x * 0.999f + 0.5f into an fma */
		float x = (float)(i % threads) * 0.001f, y = 1.0f;
		for (int k = 0; k < iters; k++) {
			x = fmaf(x, 0.999f, 0.5f);
			y = fmaf(y, 0.9999f, x);
		}
		ok = fout[i] == x + y;
		if (!ok)
			tap_diag("float_loop[%u] = %.9g, want %.9g", i,
				 (double)fout[i], (double)(x + y));
	}
	if (ok)
		tap_diag("float_loop: %.3f s, %.0f M lane-iterations/s", t,
			 (double)n * iters / t / 1e6);
	ptx_program_destroy(p);
	return ok;
}

/* f32 NaN bits (tests/ptx/hand/nan_bits.ptx): 0x7fffffff from every
 * arithmetic instruction, however it is seen; kept by moves and loads. */
static bool test_nan_bits(void)
{
	struct ptx_program *p = program("hand.nan_bits.ptx");
	static const uint32_t input[4] = { 0x7f800000u, 0, 0x7fa00001u,
					   0x3f800000u };
	static const uint32_t ref[13] = {
		0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fa00001u, 1, 0,
		0x3f800000u, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu,
		0x7fa00002u, 0x7fffffffu, 0,
	};
	uint32_t *in = test_alloc(sizeof(input)), *out = test_alloc(sizeof(ref));
	memcpy(in, input, sizeof(input));
	struct launch_cfg cfg = cfg_1d(1, 1);
	const void *args[] = { &in, &out };
	bool ok = p && run_ok(p, "nan_bits", &cfg, args) &&
		  expect_bytes("nan_bits", out, ref, sizeof(ref), 4);
	ptx_program_destroy(p);
	return ok;
}

int main(void)
{
	tap_plan(44);
	tap_ok(test_vector_add("vector_add.sm75.ptx"), "vector_add (sm75)");
	tap_ok(test_vector_add("vector_add.sm90.ptx"), "vector_add (sm90)");
	tap_ok(test_int32(), "32-bit integer instructions");
	tap_ok(test_int64(), "64-bit integer instructions");
	tap_ok(test_small_ints(), "8- and 16-bit integers");
	tap_ok(test_f32(), "f32 in every rounding mode");
	tap_ok(test_f64(), "f64 in every rounding mode");
	tap_ok(test_conversions(), "conversions");
	tap_ok(test_approx(), "approximate functions");
	tap_ok(test_diverge(), "divergent loops and branches");
	tap_ok(test_calls("control.sm75.ptx"), "calls, recursion, pointers");
	tap_ok(test_calls("control.sm90.ptx"), "calls (sm90 PTX)");
	tap_ok(test_block_sum(), "shared reduction, dynamic shared");
	tap_ok(test_transpose(), "2-D blocks, static shared");
	tap_ok(test_bar_red(), "barrier reductions");
	tap_ok(test_atomics(), "atomics, 4 worker threads");
	tap_ok(test_warp(), "shuffles, votes, matches");
	tap_ok(test_globals(), "module variables");
	tap_ok(test_intrinsics(), "integer intrinsics");
	tap_ok(test_grid3d(), "3-D grids and blocks");
	tap_ok(test_half(), "half precision");
	tap_ok(test_sm80(), "redux.sync and cp.async (sm80)");
	tap_ok(test_mbarrier(), "mbarrier with cp.async (sm80)");
	tap_ok(test_printf(), "printf");
	tap_ok(test_assert(), "assert fault");
	tap_ok(test_faults(), "memory faults and trap");
	tap_ok(test_fault_edges(), "shared and global check edges");
	tap_ok(test_shared_tail(), "shared window in 128-byte units");
	tap_ok(test_smem_sregs(), "shared-size special registers");
	tap_ok(test_fault_first_lane(), "a warp access faults at its first bad lane");
	tap_ok(test_strided_lanes(),
	       "strided lanes: loads, guards, faults at the first bad lane");
	tap_ok(test_shared_shapes(), "shared loads by rows of one address, "
				     "consecutive or scattered");
	tap_ok(test_registers_start_zero(), "registers start at zero in every CTA");
	tap_ok(test_shared_rmw(), "shared atomics: min, max, and, or, xor, "
				  "add.u64");
	tap_ok(test_kill(), "a killed launch stops in endless loops and barriers");
	tap_ok(test_warp_sz(), "WARP_SZ is the immediate 32; PTX arch");
	tap_ok(test_jump_table(), "brx.idx jump table, exit in diverged code");
	tap_ok(test_spin_and_deadlock(), "spinning warps yield; deadlock "
					 "faults");
	tap_ok(test_pointer_calls(), "divergent calls through pointers");
	tap_ok(test_directives(), "weak entries and variables, managed and "
	       "const variables, .maxntid, pragmas, debug sections");
	tap_ok(test_misc_ops(), "set, slct, vote.uni, isspacep, cvta, "
				"packing, shfl predicate");
	tap_ok(test_legacy(), "PTX ISA 1.4 kernel");
	tap_ok(test_throughput(), "arithmetic loops (throughput)");
	tap_ok(test_nan_bits(), "f32 NaN bits through arithmetic and moves");
	test_free_all();
	return tap_done();
}
