// SPDX-License-Identifier: MIT
/*
 * The warp matrix shapes beyond the census (tests/ptx/mma_shapes.cu):
 * wmma m32n8k16 and m8n32k16, the sub-byte wmma m8n8k32 and m8n8k128,
 * and the integer mma.sync shapes. Fragment dumps are compared with an
 * H100's (wmma leaves the layout unspecified, so the GPU's answer is the
 * only reference: without its file a dump fails); products are compared
 * with D = A x B + C computed here, and with the GPU's file.
 */
#include "f16.h"
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

static struct ptx_program *prog;
static uint32_t rng = 11;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static const struct launch_cfg warp = { .grid = { 1 }, .block = { 32 } };

/* ---- fragment dumps ---- */

/* Only the GPU knows: a dump without its recording fails. */
static bool gpu_only(const char *name, const void *got, size_t bytes)
{
	if (!expected_exists(name, "bin")) {
		expect_record(name, got, bytes);
		tap_diag("%s: no ground truth recorded (tests/ptx/expected)",
			 name);
		return false;
	}
	return expect_bytes(name, got, got, bytes, 4);
}

/*
 * A matrix whose element i holds plane @plane of i: its bits
 * [plane * bits, (plane + 1) * bits). Enough planes tell each element's
 * position whatever the element size.
 */
static void *position_plane(unsigned bits, unsigned plane, size_t n)
{
	uint8_t *m = test_alloc(n * bits / 8 + 64);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = i >> (plane * bits) & ((1ull << bits) - 1);
		size_t bit = i * bits;
		if (bits >= 8)
			memcpy(m + bit / 8, &v, bits / 8);
		else
			m[bit / 8] |= (uint8_t)(v << bit % 8);
	}
	return m;
}

struct dump_case {
	const char *kernel;
	unsigned bits;		/* element size */
	int ld;
	unsigned positions;	/* elements the load may read */
};

static bool dump(const struct dump_case *d)
{
	unsigned planes = 1;
	while (d->bits < 32 && (1u << (planes * d->bits)) < d->positions)
		planes++;
	bool ok = true;
	for (unsigned p = 0; p < planes; p++) {
		const void *m = position_plane(d->bits, p, d->positions);
		uint32_t *out = test_alloc(32 * 8 * 4);
		const void *args[] = { &m, &out, &d->ld };
		char name[96];
		snprintf(name, sizeof(name), planes > 1 ? "%s_p%u" : "%s",
			 d->kernel, p);
		ok = run_ok(prog, d->kernel, &warp, args) &&
		     gpu_only(name, out, 32 * 8 * 4) && ok;
	}
	return ok;
}

static const struct dump_case dumps[] = {
	{ "dump_m32n8k16_a_f16_row", 16, 16, 512 },
	{ "dump_m32n8k16_a_f16_col", 16, 32, 512 },
	{ "dump_m32n8k16_b_f16_row", 16, 8, 128 },
	{ "dump_m32n8k16_b_f16_col", 16, 16, 128 },
	{ "dump_m32n8k16_c_f32_row", 32, 8, 256 },
	{ "dump_m32n8k16_c_f32_col", 32, 32, 256 },
	{ "dump_m32n8k16_c_f16_row", 16, 8, 256 },
	{ "dump_m32n8k16_a_u8_row", 8, 16, 512 },
	{ "dump_m32n8k16_a_s8_col", 8, 32, 512 },
	{ "dump_m32n8k16_b_u8_col", 8, 16, 128 },
	{ "dump_m32n8k16_b_s8_row", 8, 8, 128 },
	{ "dump_m32n8k16_c_s32_row", 32, 8, 256 },
	{ "dump_m32n8k16_a_bf16_row", 16, 16, 512 },
	{ "dump_m32n8k16_b_bf16_col", 16, 16, 128 },
	{ "dump_m8n32k16_a_f16_row", 16, 16, 128 },
	{ "dump_m8n32k16_a_f16_col", 16, 8, 128 },
	{ "dump_m8n32k16_b_f16_row", 16, 32, 512 },
	{ "dump_m8n32k16_b_f16_col", 16, 16, 512 },
	{ "dump_m8n32k16_c_f32_row", 32, 32, 256 },
	{ "dump_m8n32k16_c_f32_col", 32, 8, 256 },
	{ "dump_m8n32k16_c_f16_col", 16, 8, 256 },
	{ "dump_m8n32k16_a_u8_row", 8, 16, 128 },
	{ "dump_m8n32k16_a_s8_col", 8, 8, 128 },
	{ "dump_m8n32k16_b_u8_col", 8, 16, 512 },
	{ "dump_m8n32k16_b_s8_row", 8, 32, 512 },
	{ "dump_m8n32k16_c_s32_col", 32, 8, 256 },
	{ "dump_m8n32k16_a_bf16_row", 16, 16, 128 },
	{ "dump_m8n32k16_b_bf16_col", 16, 16, 512 },
	{ "dump_m8n8k32_a_s4_row", 4, 32, 256 },
	{ "dump_m8n8k32_b_u4_col", 4, 32, 256 },
	{ "dump_m8n8k32_c_s32_row", 32, 8, 64 },
	{ "dump_m8n8k128_a_b1_row", 1, 128, 1024 },
	{ "dump_m8n8k128_b_b1_col", 1, 128, 1024 },
	{ "dump_m8n8k128_c_s32_col", 32, 8, 64 },
};

static bool test_dumps(void)
{
	bool ok = true;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
		ok = dump(&dumps[i]) && ok;
	return ok;
}

static bool test_store_map(void)
{
	uint32_t *d = test_alloc(1408 * 4);
	const void *args[] = { &d };
	return run_ok(prog, "store_map_shapes", &warp, args) &&
	       gpu_only("store_map_shapes", d, 1408 * 4);
}

/* ---- products ---- */

/* Compares with the reference and, where recorded, the GPU's file. */
static bool same(const char *name, const void *got, const void *ref,
		 size_t bytes)
{
	return expect_bytes(name, got, ref, bytes, 4);
}

/* Small values: every product and sum is exact in f32. */
static float small(void)
{
	return (float)((int)(rnd() % 9) - 4) * 0.5f;
}

/*
 * D = A x B + C in f32 for M x N x K: A row-major (or column-major with
 * @a_col), B column-major (or row-major with @b_row), C and D row-major.
 */
static void gemm(int M, int N, int K, const float *a, bool a_col,
		 const float *b, bool b_row, const float *c, float *d)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float acc = c[i * N + j];
			for (int k = 0; k < K; k++)
				acc += a[a_col ? k * M + i : i * K + k] *
				       b[b_row ? k * N + j : j * K + k];
			d[i * N + j] = acc;
		}
}

static bool float_product(const char *kernel, int M, int N, bool bf16,
			  bool a_col, bool b_row)
{
	const int K = 16;
	float fa[512], fb[512], fc[256], ref[256];
	uint16_t *a = test_alloc(1024), *b = test_alloc(1024);
	float *c = test_alloc(1024), *d = test_alloc(1024);
	for (int i = 0; i < M * K; i++) {
		a[i] = bf16 ? f64_to_bf16(small(), RND_NEAREST) :
			      f64_to_f16(small(), RND_NEAREST);
		fa[i] = bf16 ? bf16_to_f32(a[i]) : f16_to_f32(a[i]);
	}
	for (int i = 0; i < K * N; i++) {
		b[i] = bf16 ? f64_to_bf16(small(), RND_NEAREST) :
			      f64_to_f16(small(), RND_NEAREST);
		fb[i] = bf16 ? bf16_to_f32(b[i]) : f16_to_f32(b[i]);
	}
	for (int i = 0; i < M * N; i++)
		c[i] = fc[i] = small() * 4;
	gemm(M, N, K, fa, a_col, fb, b_row, fc, ref);
	int lda = a_col ? M : K, ldb = b_row ? N : K;
	const void *args[] = { &a, &b, &c, &d, &lda, &ldb };
	return run_ok(prog, kernel, &warp, args) &&
	       same(kernel, d, ref, (size_t)M * N * 4);
}

static bool test_float_products(void)
{
	return float_product("wmma_m32n8k16_f16_row_col", 32, 8, false,
			     false, false) &
	       float_product("wmma_m8n32k16_f16_col_row", 8, 32, false,
			     true, true) &
	       float_product("wmma_m32n8k16_bf16_row_col", 32, 8, true,
			     false, false) &
	       float_product("wmma_m8n32k16_bf16_row_col", 8, 32, true,
			     false, false);
}

/*
 * Integer D = A x B + C: A M x K row-major, B column-major, both packed
 * @bits to an element from the low bits up; elements read as @a_signed /
 * @b_signed; .b1 multiplies by and (@bitop 'a') or xor ('x'). With
 * @satfinite the sum clamps to s32, else wraps.
 */
struct int_mma {
	const char *kernel;
	int M, N, K;
	unsigned bits;
	bool a_signed, b_signed, satfinite;
	char bitop;
};

static int64_t elem(const uint8_t *m, int i, unsigned bits, bool sign)
{
	unsigned v = (unsigned)(m[i * (int)bits / 8] >> (i * bits % 8)) &
		     ((1u << bits) - 1);
	return sign && (v >> (bits - 1)) ? (int64_t)v - (1 << bits) : v;
}

static void int_ref(const struct int_mma *t, const uint8_t *a,
		    const uint8_t *b, const int32_t *c, int32_t *d)
{
	for (int i = 0; i < t->M; i++)
		for (int j = 0; j < t->N; j++) {
			int64_t acc = c[i * t->N + j];
			for (int k = 0; k < t->K; k++) {
				int64_t x = elem(a, i * t->K + k, t->bits,
						 t->a_signed);
				int64_t y = elem(b, j * t->K + k, t->bits,
						 t->b_signed);
				acc += t->bits == 1 ? (t->bitop == 'a' ? x & y :
								 x ^ y) :
						      x * y;
			}
			if (t->satfinite)
				acc = acc > INT32_MAX ? INT32_MAX :
				      acc < INT32_MIN ? INT32_MIN : acc;
			d[i * t->N + j] = (int32_t)(uint32_t)acc;
		}
}

static bool int_product(const struct int_mma *t)
{
	size_t abytes = (size_t)t->M * t->K * t->bits / 8;
	size_t bbytes = (size_t)t->N * t->K * t->bits / 8;
	uint8_t *a = test_alloc(abytes), *b = test_alloc(bbytes);
	int32_t *c = test_alloc(1024 * 4), *d = test_alloc(1024 * 4);
	int32_t ref[256];
	for (size_t i = 0; i < abytes; i++)
		a[i] = (uint8_t)rnd();
	for (size_t i = 0; i < bbytes; i++)
		b[i] = (uint8_t)rnd();
	for (int i = 0; i < t->M * t->N; i++)	/* some near the limits */
		c[i] = i % 5 == 0 ? INT32_MAX - (int32_t)(rnd() % 64) :
		       i % 5 == 1 ? INT32_MIN + (int32_t)(rnd() % 64) :
				    (int32_t)rnd() >> 4;
	int_ref(t, a, b, c, ref);
	const void *args[] = { &a, &b, &c, &d };
	return run_ok(prog, t->kernel, &warp, args) &&
	       same(t->kernel, d, ref, (size_t)t->M * t->N * 4);
}

static const struct int_mma int_mmas[] = {
	{ "wmma_m32n8k16_u8", 32, 8, 16, 8, false, false, true, 0 },
	{ "wmma_m8n32k16_s8", 8, 32, 16, 8, true, true, false, 0 },
	{ "wmma_m8n8k32_s4", 8, 8, 32, 4, true, true, false, 0 },
	{ "wmma_m8n8k32_u4_satfinite", 8, 8, 32, 4, false, false, true, 0 },
	{ "wmma_m8n8k128_xor", 8, 8, 128, 1, false, false, false, 'x' },
	{ "wmma_m8n8k128_and", 8, 8, 128, 1, false, false, false, 'a' },
	{ "mma_m8n8k16_s8_u8", 8, 8, 16, 8, true, false, false, 0 },
	{ "mma_m8n8k16_u8_satfinite", 8, 8, 16, 8, false, false, true, 0 },
	{ "mma_m8n8k32_s4_u4", 8, 8, 32, 4, true, false, false, 0 },
	{ "mma_m8n8k128_xor", 8, 8, 128, 1, false, false, false, 'x' },
	{ "mma_m16n8k32_s4", 16, 8, 32, 4, true, true, false, 0 },
	{ "mma_m16n8k64_u4_satfinite", 16, 8, 64, 4, false, false, true, 0 },
	{ "mma_m16n8k128_xor", 16, 8, 128, 1, false, false, false, 'x' },
	{ "mma_m16n8k256_and", 16, 8, 256, 1, false, false, false, 'a' },
};

static bool test_int_products(void)
{
	bool ok = true;
	for (size_t i = 0; i < sizeof(int_mmas) / sizeof(int_mmas[0]); i++)
		ok = int_product(&int_mmas[i]) && ok;
	return ok;
}

int main(void)
{
	char log[2048];
	const char *files[] = { "mma_shapes.sm80.ptx" };
	tap_plan(4);
	if (build_corpus(files, 1, &prog, log, sizeof(log)) != PTX_OK)
		tap_diag("%s", log);
	tap_ok(test_float_products(),
	       "wmma m32n8k16 and m8n32k16 f16/bf16 products");
	tap_ok(test_int_products(),
	       "integer and sub-byte wmma and mma.sync products");
	tap_ok(test_dumps(), "fragments after loads of the other shapes");
	tap_ok(test_store_map(), "stores of the other shapes' fragments");
	ptx_program_destroy(prog);
	test_free_all();
	return tap_done();
}
