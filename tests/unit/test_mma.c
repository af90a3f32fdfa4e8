// SPDX-License-Identifier: MIT
/*
 * Warp matrix instructions (tests/ptx/mma.cu): wmma fragment contents
 * after loads of every census shape/type/layout (compared with an H100's,
 * which defines the layout wmma leaves unspecified), where stores put
 * each register, wmma and mma.sync products (exact for small integers,
 * within a few ulps for arbitrary values, since tensor cores round their
 * partial sums their own way), and ldmatrix.
 */
#include "f16.h"
#include "harness.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ptx_program *prog;
static uint32_t rng = 7;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static const struct launch_cfg warp = { .grid = { 1 }, .block = { 32 } };

/* Compares with the GPU's file when there is one, else with @ref.
 * Without either there is nothing to compare with: the result is
 * recorded (for a new recording on the GPU) and the check fails. */
static bool check(const char *name, const void *got, const void *ref,
		  size_t bytes, unsigned elem)
{
	if (!ref && !expected_exists(name, "bin")) {
		expect_record(name, got, bytes);
		tap_diag("%s: no ground truth (tests/ptx/expected/%s.bin)",
			 name, name);
		return false;
	}
	return expect_bytes(name, got, ref ? ref : got, bytes, elem);
}

/* ---- fragment dumps ---- */

static bool dump(const char *kernel, const void *m, int ld)
{
	uint32_t *out = test_alloc(32 * 8 * 4);
	const void *args[] = { &m, &out, &ld };
	return run_ok(prog, kernel, &warp, args) &&
	       check(kernel, out, NULL, 32 * 8 * 4, 4);
}

static bool test_dumps(void)
{
	uint16_t *h = test_alloc(256 * 2), *bf = test_alloc(256 * 2);
	uint8_t *u8 = test_alloc(256);
	float *f = test_alloc(256 * 4);
	int32_t *s = test_alloc(256 * 4);
	for (int i = 0; i < 256; i++) {
		h[i] = f64_to_f16(i, RND_NEAREST);
		bf[i] = f64_to_bf16(i, RND_NEAREST);
		u8[i] = (uint8_t)i;
		f[i] = (float)i;
		s[i] = i;
	}
	bool ok = dump("dump_a_f16_row", h, 16) && dump("dump_a_f16_col", h, 16) &&
		  dump("dump_b_f16_col", h, 16) && dump("dump_b_f16_row", h, 16) &&
		  dump("dump_c_f32_row", f, 16) && dump("dump_c_f32_col", f, 16) &&
		  dump("dump_c_f16_row", h, 16) && dump("dump_a_u8_row", u8, 16) &&
		  dump("dump_a_s8_col", u8, 16) && dump("dump_b_u8_col", u8, 16) &&
		  dump("dump_b_s8_row", u8, 16) && dump("dump_c_s32_row", s, 16) &&
		  dump("dump_a_bf16_row", bf, 16) &&
		  dump("dump_b_bf16_col", bf, 16) &&
		  dump("dump_a_tf32_row", f, 8) && dump("dump_b_tf32_col", f, 8) &&
		  dump("dump_c_tf32_row", f, 16);
	double *a = test_alloc(32 * 8), *b = test_alloc(32 * 8),
	       *c = test_alloc(64 * 8);
	for (int i = 0; i < 64; i++) {
		if (i < 32) {
			a[i] = i;
			b[i] = 100 + i;
		}
		c[i] = 1000 + i;
	}
	uint64_t *o = test_alloc(32 * 4 * 8);
	const void *args[] = { &a, &b, &c, &o };
	return ok && run_ok(prog, "dump_f64", &warp, args) &&
	       check("dump_f64", o, NULL, 32 * 4 * 8, 8);
}

static bool test_store_map(void)
{
	float *d = test_alloc(512 * 4);
	int32_t *di = test_alloc(256 * 4);
	double *dd = test_alloc(64 * 8);
	const void *args[] = { &d, &di, &dd };
	return run_ok(prog, "wmma_store_map", &warp, args) &&
	       check("wmma_store_map_f32", d, NULL, 512 * 4, 4) &&
	       check("wmma_store_map_s32", di, NULL, 256 * 4, 4) &&
	       check("wmma_store_map_f64", dd, NULL, 64 * 8, 8);
}

/* ---- products ---- */

/* Small integers and halves: every product and sum is exact, so the
 * result is the same whatever the order of accumulation. */
static float small(void)
{
	return (float)((int)(rnd() % 9) - 4) * 0.5f;
}

static float real(void)
{
	return ((float)(rnd() % 20001) - 10000.0f) / 3001.0f;
}

struct mats {
	float a[16 * 32], b[32 * 16], c[16 * 16];
};

static void fill(struct mats *m, bool exact, size_t na, size_t nb, size_t nc)
{
	for (size_t i = 0; i < na; i++)
		m->a[i] = exact ? small() : real();
	for (size_t i = 0; i < nb; i++)
		m->b[i] = exact ? small() : real();
	for (size_t i = 0; i < nc; i++)
		m->c[i] = exact ? small() * 4 : real();
}

/* Magnitude of each element's terms, sum |a b| + |c|, of the last
 * product(): the scale of the tensor cores' truncation error. */
static double term_mag[512];

/* D = A x B + C in double; A is M x K row-major, B K x N column-major
 * (b_col) or row-major. */
static void product(const struct mats *m, int M, int N, int K, bool b_col,
		    double *d)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double acc = m->c[i * N + j];
			double mag = fabs(acc);
			for (int k = 0; k < K; k++) {
				double t = (double)m->a[i * K + k] *
					   m->b[b_col ? j * K + k : k * N + j];
				acc += t;
				mag += fabs(t);
			}
			d[i * N + j] = acc;
			term_mag[i * N + j] = mag;
		}
}

/* Against the GPU's results: the interpreter models the tensor cores'
 * accumulation (exec_mma.c), bit-exact for most elements; the others may
 * differ by a few units of the truncation grid, 2^-26 of the largest
 * term. */
static bool near_gpu(const char *name, const float *got, int n)
{
	size_t len;
	float *want = (float *)expected_file(name, "bin", &len);
	bool ok = want && len == (size_t)n * 4;
	int same = 0;
	for (int i = 0; ok && i < n; i++) {
		same += got[i] == want[i] || (got[i] != got[i] &&
					      want[i] != want[i]);
		if (fabs((double)got[i] - want[i]) > 0x1p-22 * term_mag[i]) {
			tap_diag("%s[%d] = %a, GPU %a", name, i,
				 (double)got[i], (double)want[i]);
			ok = false;
		}
	}
	tap_diag("%s: %d of %d elements bit-exact with the GPU", name, same,
		 n);
	expect_record(name, got, (size_t)n * 4);
	free(want);
	return ok;
}

/* Floats equal to the reference when @exact (sums exact in f32, so
 * also on the GPU), else as near the GPU's as near_gpu() says, or,
 * without its file, within a relative 1e-5 of the exact result. */
static bool near_floats(const char *name, const float *got, const double *ref,
			int n, bool exact)
{
	if (exact) {
		float r[512];
		for (int i = 0; i < n; i++)
			r[i] = (float)ref[i];
		return expect_bytes(name, got, r, (size_t)n * 4, 4);
	}
	if (expected_exists(name, "bin"))
		return near_gpu(name, got, n);
	expect_record(name, got, (size_t)n * 4);
	for (int i = 0; i < n; i++)
		if (fabs(got[i] - ref[i]) > 1e-5 * fabs(ref[i]) + 1e-6) {
			tap_diag("%s[%d] = %.9g, want %.9g", name, i,
				 (double)got[i], ref[i]);
			return false;
		}
	return true;
}

static bool test_wmma_f16(bool exact)
{
	struct mats m;
	fill(&m, exact, 256, 256, 256);
	uint16_t *a = test_alloc(512), *b = test_alloc(512), *dh = test_alloc(512);
	float *c = test_alloc(1024), *d = test_alloc(1024);
	for (int i = 0; i < 256; i++) {
		a[i] = f64_to_f16(m.a[i], RND_NEAREST);
		b[i] = f64_to_f16(m.b[i], RND_NEAREST);
		m.a[i] = f16_to_f32(a[i]);
		m.b[i] = f16_to_f32(b[i]);
		c[i] = m.c[i];
	}
	double ref[256];
	product(&m, 16, 16, 16, true, ref);
	const void *args[] = { &a, &b, &c, &d, &dh };
	bool ok = run_ok(prog, "wmma_f16_global", &warp, args) &&
		  near_floats(exact ? "wmma_f16_exact" : "wmma_f16_real", d, ref,
			      256, exact);
	/* f16 accumulation from 0.5, stored column-major */
	struct mats h = m;
	for (int i = 0; i < 256; i++)
		h.c[i] = 0.5f;
	product(&h, 16, 16, 16, true, ref);
	uint16_t rh[256];
	for (int i = 0; i < 256; i++)
		rh[(i % 16) * 16 + i / 16] = f64_to_f16(ref[i], RND_NEAREST);
	ok = ok && (exact ? expect_bytes("wmma_f16acc_exact", dh, rh, 512, 2) :
			    check("wmma_f16acc_real", dh, NULL, 512, 2));
	return ok;
}

static bool test_wmma_shared(void)
{
	struct mats m;
	fill(&m, true, 256, 256, 256);
	uint16_t *a = test_alloc(512), *b = test_alloc(512);
	float *c = test_alloc(1024), *d = test_alloc(1024);
	for (int i = 0; i < 256; i++) {
		a[i] = f64_to_f16(m.a[i], RND_NEAREST);
		b[i] = f64_to_f16(m.b[i], RND_NEAREST);
		c[i] = m.c[i];
	}
	double ref[256];
	product(&m, 16, 16, 16, true, ref);
	const void *args[] = { &a, &b, &c, &d };
	bool ok = run_ok(prog, "wmma_shared_f16", &warp, args) &&
		  near_floats("wmma_shared_f16", d, ref, 256, true);
	uint8_t *ua = test_alloc(256), *ub = test_alloc(256);
	int32_t *ic = test_alloc(1024), *id = test_alloc(1024), iref[256];
	for (int i = 0; i < 256; i++) {
		ua[i] = (uint8_t)rnd();
		ub[i] = (uint8_t)rnd();
		ic[i] = (int32_t)rnd() >> 4;
	}
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			int32_t acc = ic[i * 16 + j];
			for (int k = 0; k < 16; k++)
				acc += ua[i * 16 + k] * ub[j * 16 + k];
			iref[i * 16 + j] = acc;
		}
	const void *iargs[] = { &ua, &ub, &ic, &id };
	return ok && run_ok(prog, "wmma_shared_u8", &warp, iargs) &&
	       expect_bytes("wmma_shared_u8", id, iref, sizeof(iref), 4);
}

static bool test_wmma_int(void)
{
	uint8_t *a = test_alloc(256);
	int8_t *b = test_alloc(256);
	int32_t *c = test_alloc(1024), *d = test_alloc(1024), ref[256];
	for (int i = 0; i < 256; i++) {
		a[i] = (uint8_t)rnd();
		b[i] = (int8_t)rnd();
		c[i] = i % 7 == 0 ? INT32_MAX - 1000 : (int32_t)rnd() >> 2;
	}
	/* the API's mma with satfinite: clamped to the s32 range; the
	 * fragment of b is read as u8 */
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			int64_t acc = c[i * 16 + j];
			for (int k = 0; k < 16; k++)
				acc += (int64_t)a[i * 16 + k] *
				       (uint8_t)b[j * 16 + k];
			ref[i * 16 + j] = acc > INT32_MAX ? INT32_MAX :
					  acc < INT32_MIN ? INT32_MIN :
							    (int32_t)acc;
		}
	const void *args[] = { &a, &b, &c, &d };
	return run_ok(prog, "wmma_u8_global", &warp, args) &&
	       expect_bytes("wmma_u8_satfinite", d, ref, sizeof(ref), 4);
}

static bool test_wmma_bf16_tf32(bool exact)
{
	struct mats m;
	fill(&m, exact, 256, 256, 256);
	uint16_t *a = test_alloc(512), *b = test_alloc(512);
	float *c = test_alloc(1024), *d = test_alloc(1024);
	for (int i = 0; i < 256; i++) {
		a[i] = f64_to_bf16(m.a[i], RND_NEAREST);
		b[i] = f64_to_bf16(m.b[i], RND_NEAREST);
		m.a[i] = bf16_to_f32(a[i]);
		m.b[i] = bf16_to_f32(b[i]);
		c[i] = m.c[i];
	}
	double ref[256];
	product(&m, 16, 16, 16, true, ref);
	const void *args[] = { &a, &b, &c, &d };
	bool ok = run_ok(prog, "wmma_bf16", &warp, args) &&
		  near_floats(exact ? "wmma_bf16_exact" : "wmma_bf16_real", d,
			      ref, 256, exact);
	/* tf32: 16x8 times 8x16 */
	float *ta = test_alloc(512), *tb = test_alloc(512);
	float *tc = test_alloc(1024), *td = test_alloc(1024);
	fill(&m, exact, 128, 128, 256);
	for (int i = 0; i < 128; i++) {
		ta[i] = m.a[i];
		tb[i] = m.b[i];
	}
	for (int i = 0; i < 256; i++)
		tc[i] = m.c[i];
	/* inputs are rounded to tf32 (cvt.rna) in the kernel */
	for (int i = 0; i < 128; i++) {
		uint32_t x = f32_to_tf32(m.a[i], RND_NEAREST_AWAY);
		uint32_t y = f32_to_tf32(m.b[i], RND_NEAREST_AWAY);
		memcpy(&m.a[i], &x, 4);
		memcpy(&m.b[i], &y, 4);
	}
	product(&m, 16, 16, 8, true, ref);
	const void *targs[] = { &ta, &tb, &tc, &td };
	return ok && run_ok(prog, "wmma_tf32", &warp, targs) &&
	       near_floats(exact ? "wmma_tf32_exact" : "wmma_tf32_real", td,
			   ref, 256, exact);
}

static bool test_f64(void)
{
	double *a = test_alloc(32 * 8), *b = test_alloc(32 * 8),
	       *c = test_alloc(64 * 8), *d = test_alloc(64 * 8),
	       *d2 = test_alloc(64 * 8), ref[64];
	for (int i = 0; i < 64; i++) {
		if (i < 32) {
			a[i] = real() * 1.000001;
			b[i] = real() / 3.0;
		}
		c[i] = real() * 7.0;
	}
	for (int i = 0; i < 8; i++)	/* B column-major (wmma .col) */
		for (int j = 0; j < 8; j++) {
			double acc = c[i * 8 + j];
			for (int k = 0; k < 4; k++)
				acc = fma(a[i * 4 + k], b[j * 4 + k], acc);
			ref[i * 8 + j] = acc;
		}
	const void *args[] = { &a, &b, &c, &d };
	bool ok = run_ok(prog, "wmma_f64", &warp, args) &&
		  expect_bytes("wmma_f64", d, ref, sizeof(ref), 8);
	for (int i = 0; i < 8; i++)	/* mma.sync: B is 4x8 row-major */
		for (int j = 0; j < 8; j++) {
			double acc = c[i * 8 + j];
			for (int k = 0; k < 4; k++)
				acc = fma(a[i * 4 + k], b[k * 8 + j], acc);
			ref[i * 8 + j] = acc;
		}
	const void *args2[] = { &a, &b, &c, &d2 };
	return ok && run_ok(prog, "mma_m8n8k4_f64", &warp, args2) &&
	       expect_bytes("mma_m8n8k4_f64", d2, ref, sizeof(ref), 8);
}

static bool test_mma_sync(void)
{
	struct mats m;
	fill(&m, true, 256, 128, 128);
	uint16_t *a = test_alloc(512), *b = test_alloc(256);
	float *c = test_alloc(512), *d = test_alloc(512);
	for (int i = 0; i < 256; i++) {
		a[i] = f64_to_f16(m.a[i], RND_NEAREST);
		if (i < 128) {
			b[i] = f64_to_f16(m.b[i], RND_NEAREST);
			c[i] = m.c[i];
		}
	}
	double ref[128];
	product(&m, 16, 8, 16, false, ref);
	const void *args[] = { &a, &b, &c, &d };
	bool ok = run_ok(prog, "mma_m16n8k16_f16", &warp, args) &&
		  near_floats("mma_m16n8k16_f16", d, ref, 128, true);
	float *ta = test_alloc(512), *tb = test_alloc(256);
	fill(&m, true, 128, 64, 128);
	for (int i = 0; i < 128; i++) {
		ta[i] = m.a[i];
		c[i] = m.c[i];
		if (i < 64)
			tb[i] = m.b[i];
	}
	product(&m, 16, 8, 8, false, ref);
	const void *targs[] = { &ta, &tb, &c, &d };
	ok = ok && run_ok(prog, "mma_m16n8k8_tf32", &warp, targs) &&
	     near_floats("mma_m16n8k8_tf32", d, ref, 128, true);
	int8_t *ia = test_alloc(512), *ib = test_alloc(256);
	int32_t *ic = test_alloc(512), *id = test_alloc(512), iref[128];
	for (int i = 0; i < 512; i++) {
		ia[i] = (int8_t)rnd();
		if (i < 256)
			ib[i] = (int8_t)rnd();
		if (i < 128)
			ic[i] = (int32_t)rnd() >> 8;
	}
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 8; j++) {
			int32_t acc = ic[i * 8 + j];
			for (int k = 0; k < 32; k++)
				acc += ia[i * 32 + k] * ib[k * 8 + j];
			iref[i * 8 + j] = acc;
		}
	const void *iargs[] = { &ia, &ib, &ic, &id };
	return ok && run_ok(prog, "mma_m16n8k32_s8", &warp, iargs) &&
	       expect_bytes("mma_m16n8k32_s8", id, iref, sizeof(iref), 4);
}

static bool test_ldmatrix(void)
{
	uint16_t *m = test_alloc(512);
	uint32_t *out = test_alloc(32 * 11 * 4), ref[32 * 11];
	for (int i = 0; i < 256; i++)
		m[i] = (uint16_t)(i * 3 + 1);
	for (int l = 0; l < 32; l++) {
		int r = l / 4, c = 2 * (l % 4);
		for (int k = 0; k < 4; k++) {
			const uint16_t *mk = m + k * 64;
			ref[l * 11 + k] = mk[r * 8 + c] |
					  (uint32_t)mk[r * 8 + c + 1] << 16;
			ref[l * 11 + 4 + k] = mk[c * 8 + r] |
					      (uint32_t)mk[(c + 1) * 8 + r] << 16;
		}
		ref[l * 11 + 8] = ref[l * 11];
		ref[l * 11 + 9] = ref[l * 11 + 4];
		ref[l * 11 + 10] = ref[l * 11 + 5];
	}
	const void *args[] = { &m, &out };
	return run_ok(prog, "ldmatrix_ops", &warp, args) &&
	       expect_bytes("ldmatrix", out, ref, sizeof(ref), 4);
}

int main(void)
{
	char log[2048];
	const char *files[] = { "mma.sm80.ptx" };
	tap_plan(11);
	if (build_corpus(files, 1, &prog, log, sizeof(log)) != PTX_OK)
		tap_diag("%s", log);
	tap_ok(test_dumps(), "wmma fragments after loads");
	tap_ok(test_store_map(), "wmma stores of fragments");
	tap_ok(test_wmma_f16(true), "wmma f16, exact products");
	tap_ok(test_wmma_f16(false), "wmma f16, rounded products");
	tap_ok(test_wmma_shared(), "wmma through shared memory (f16, u8)");
	tap_ok(test_wmma_int(), "wmma u8 with satfinite");
	tap_ok(test_wmma_bf16_tf32(true), "wmma bf16 and tf32, exact");
	tap_ok(test_wmma_bf16_tf32(false), "wmma bf16 and tf32, rounded");
	tap_ok(test_f64(), "wmma and mma.sync f64");
	tap_ok(test_mma_sync(), "mma.sync f16, tf32, s8 (PTX ISA layouts)");
	tap_ok(test_ldmatrix(), "ldmatrix x1/x2/x4, .trans");
	ptx_program_destroy(prog);
	test_free_all();
	return tap_done();
}
