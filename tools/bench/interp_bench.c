// SPDX-License-Identifier: MIT
/*
 * The interpreter's benchmark (make bench): each kernel of kernels.cu
 * runs on one worker thread (one core) of the PTX interpreter, once
 * counting lane-instructions (active lanes of every executed
 * instruction) and once timed; the same algorithm in C (baseline.c,
 * -O3) runs in the same process, and the results must agree. Prints a
 * table and writes the numbers, tab-separated, to the file named by the
 * first argument:
 *
 *   kernel  lane_insns  interp_s  lane_insns_per_s  c_s  slowdown
 */
#include "baseline.h"
#include "interp.h"
#include "ptx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct buf {
	void *p;
	size_t size;
};

/* One benchmark: a kernel launch, its buffers, its C twin. */
struct bench {
	const char *name, *kernel;
	uint32_t grid[3], block[3];
	struct buf bufs[3];
	unsigned nbufs;
	uint8_t params[64];	/* packed as the kernel's info says */
	const void *args[5];
	unsigned nargs;
	void (*c_run)(struct bench *b);
	bool (*check)(const struct bench *b);
	void *c_out;		/* the C version's result */
	int n;			/* problem size */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *zalloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fputs("interp-bench: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static void *add_buf(struct bench *b, size_t size)
{
	struct buf *x = &b->bufs[b->nbufs++];
	x->p = zalloc(size);
	x->size = size;
	return x->p;
}

static float randf(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) * 0x1p-24f - 0.5f;
}

/* ---- the benchmarks ---- */

enum { HASH_ITERS = 2000, POLY_ITERS = 1000, THREADS = 64 * 256 };
enum { MW = 512, MH = 256, MITER = 256, MM = 256, RN = 1 << 22 };
enum { RBLOCKS = 256, SN = 1 << 22 };

static int hash_iters = HASH_ITERS, poly_iters = POLY_ITERS;
static int mw = MW, mh = MH, miter = MITER, mm = MM, rn = RN, sn = SN;
static float saxpy_a = 2.5f;

static void c_hash(struct bench *b) { c_int_hash(b->c_out, THREADS, hash_iters); }
static void c_poly(struct bench *b) { c_fma_poly(b->c_out, THREADS, poly_iters); }
static void c_mand(struct bench *b) { c_mandel(b->c_out, mw, mh, miter); }

static void c_mat(struct bench *b)
{
	c_matmul(b->bufs[0].p, b->bufs[1].p, b->c_out, mm);
}

static void c_red(struct bench *b)
{
	c_reduce(b->bufs[0].p, b->c_out, rn, RBLOCKS, 256);
}

static void c_sax(struct bench *b)
{
	c_saxpy(saxpy_a, b->bufs[0].p, b->bufs[1].p, b->c_out, sn);
}

static bool same_bytes(const struct bench *b)
{
	return !memcmp(b->bufs[b->nbufs - 1].p, b->c_out,
		       b->bufs[b->nbufs - 1].size);
}

static struct bench *new_bench(struct bench *all, unsigned *n,
				const char *name, const char *kernel,
				uint32_t gx, uint32_t gy, uint32_t bx,
				uint32_t by)
{
	struct bench *b = &all[(*n)++];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->kernel = kernel;
	b->grid[0] = gx, b->grid[1] = gy, b->grid[2] = 1;
	b->block[0] = bx, b->block[1] = by, b->block[2] = 1;
	return b;
}

/* The arithmetic-heavy loops. */
static void setup_loops(struct bench *all, unsigned *n)
{
	struct bench *b = new_bench(all, n, "int_hash", "int_hash", 64, 1,
				    256, 1);
	add_buf(b, THREADS * 4);
	b->args[0] = &b->bufs[0].p, b->args[1] = &hash_iters, b->nargs = 2;
	b->c_run = c_hash, b->check = same_bytes;
	b->c_out = zalloc(THREADS * 4);

	b = new_bench(all, n, "fma_poly", "fma_poly", 64, 1, 256, 1);
	add_buf(b, THREADS * 4);
	b->args[0] = &b->bufs[0].p, b->args[1] = &poly_iters, b->nargs = 2;
	b->c_run = c_poly, b->check = same_bytes;
	b->c_out = zalloc(THREADS * 4);

	b = new_bench(all, n, "mandelbrot", "mandel", MW / 128, MH, 128, 1);
	add_buf(b, MW * MH * 4);
	b->args[0] = &b->bufs[0].p, b->args[1] = &mw, b->args[2] = &mh;
	b->args[3] = &miter, b->nargs = 4;
	b->c_run = c_mand, b->check = same_bytes;
	b->c_out = zalloc(MW * MH * 4);
}

/* Shapes of real programs: shared-memory tiles, a reduction, a stream. */
static void setup_programs(struct bench *all, unsigned *n)
{
	uint32_t s = 1;
	struct bench *b = new_bench(all, n, "matmul_256", "matmul", MM / 16,
				    MM / 16, 16, 16);
	float *ma = add_buf(b, MM * MM * 4), *mb = add_buf(b, MM * MM * 4);
	add_buf(b, MM * MM * 4);
	for (int i = 0; i < MM * MM; i++) {
		ma[i] = randf(&s);
		mb[i] = randf(&s);
	}
	b->args[0] = &b->bufs[0].p, b->args[1] = &b->bufs[1].p;
	b->args[2] = &b->bufs[2].p, b->args[3] = &mm, b->nargs = 4;
	b->c_run = c_mat, b->check = same_bytes;
	b->c_out = zalloc(MM * MM * 4);

	b = new_bench(all, n, "reduce_4M", "reduce", RBLOCKS, 1, 256, 1);
	float *in = add_buf(b, (size_t)RN * 4);
	add_buf(b, RBLOCKS * 4);
	for (int i = 0; i < RN; i++)
		in[i] = randf(&s);
	b->args[0] = &b->bufs[0].p, b->args[1] = &b->bufs[1].p;
	b->args[2] = &rn, b->nargs = 3;
	b->c_run = c_red, b->check = same_bytes;
	b->c_out = zalloc(RBLOCKS * 4);

	b = new_bench(all, n, "saxpy_4M", "saxpy", SN / 256, 1, 256, 1);
	float *x = add_buf(b, (size_t)SN * 4), *y = add_buf(b, (size_t)SN * 4);
	add_buf(b, (size_t)SN * 4);
	b->c_out = zalloc((size_t)SN * 4);
	for (int i = 0; i < SN; i++) {
		x[i] = randf(&s);
		y[i] = randf(&s);
	}
	b->args[0] = &saxpy_a, b->args[1] = &b->bufs[0].p;
	b->args[2] = &b->bufs[1].p, b->args[3] = &b->bufs[2].p;
	b->args[4] = &sn, b->nargs = 5;
	b->c_run = c_sax, b->check = same_bytes;
}

/* ---- running on the interpreter ---- */

static int range_cmp(const void *a, const void *b)
{
	const struct ptx_mem_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* One launch of @b on one worker; with @count, its lane-instructions
 * into *@count. Returns the seconds it took, or -1. */
static double launch(const struct ptx_program *prog, struct bench *b,
		     uint64_t *count)
{
	const struct ptx_kernel *k = ptx_program_kernel(prog, b->kernel);
	if (!k)
		return -1;
	struct ptx_kernel_info info;
	ptx_kernel_get_info(k, &info);
	memset(b->params, 0, sizeof(b->params));
	for (unsigned i = 0; i < b->nargs && i < info.param_count; i++)
		memcpy(b->params + info.params[i].offset, b->args[i],
		       info.params[i].size);
	/* accesses checked against the buffers, as libcuda's launches are */
	struct ptx_mem_range ranges[3];
	for (unsigned i = 0; i < b->nbufs; i++)
		ranges[i] = (struct ptx_mem_range){
			(uintptr_t)b->bufs[i].p,
			(uintptr_t)b->bufs[i].p + b->bufs[i].size, true };
	qsort(ranges, b->nbufs, sizeof(ranges[0]), range_cmp);
	struct ptx_launch l = { .kernel = k, .params = b->params,
				.ranges = ranges, .range_count = b->nbufs };
	memcpy(l.grid, b->grid, sizeof(l.grid));
	memcpy(l.block, b->block, sizeof(l.block));
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault fault;
	if (!w)
		return -1;
	ptx_worker_count(w, count);
	double t0 = now();
	bool ok = ptx_run_ctas(w, &l, 0,
			       (uint64_t)b->grid[0] * b->grid[1] * b->grid[2],
			       &fault);
	double t = now() - t0;
	ptx_worker_destroy(w);
	if (!ok)
		fprintf(stderr, "interp-bench: %s faulted: %s\n", b->name,
			fault.message);
	return ok ? t : -1;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *t = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (t && fread(t, 1, (size_t)n, f) == (size_t)n)
		t[n] = 0;
	fclose(f);
	return t;
}

/* Best of @reps runs of @fn: what the machine can do, undisturbed. */
#define BEST_OF(reps, expr)                                     \
	({                                                      \
		double best_ = 1e30;                            \
		for (int r_ = 0; r_ < (reps); r_++) {           \
			double t_ = (expr);                     \
			if (t_ < best_)                         \
				best_ = t_;                     \
		}                                               \
		best_;                                          \
	})

static double time_c(struct bench *b)
{
	double t0 = now();
	b->c_run(b);
	return now() - t0;
}

int main(int argc, char **argv)
{
	const char *out_path = argc > 1 ? argv[1] : "interp.tsv";
	char *text = read_text(BENCH_PTX);
	char log[2048];
	struct ptx_source src = { text, text ? strlen(text) : 0, BENCH_PTX };
	struct ptx_program *prog = NULL;
	/* the interpreter's benchmark: the JIT would run these kernels by
	 * default, and count no lane-instructions */
	setenv("VCUDA_EXECUTOR", "interp", 1);
	if (!text || ptx_program_build(&src, 1, &prog, log, sizeof(log))) {
		fprintf(stderr, "interp-bench: %s: %s\n", BENCH_PTX,
			text ? log : "cannot read");
		return 1;
	}
	struct bench all[8];
	unsigned n = 0;
	setup_loops(all, &n);
	setup_programs(all, &n);
	FILE *out = fopen(out_path, "w");
	if (!out)
		return 1;
	fprintf(out, "kernel\tlane_insns\tinterp_s\tlane_insns_per_s\tc_s\t"
		     "slowdown\n");
	printf("%-12s %14s %10s %16s %10s %9s\n", "kernel", "lane-insns",
	       "interp s", "lane-insns/s", "C -O3 s", "slowdown");
	int status = 0;
	for (unsigned i = 0; i < n; i++) {
		struct bench *b = &all[i];
		uint64_t insns = 0;
		double t = launch(prog, b, &insns) < 0 ? -1 :
			   BEST_OF(3, launch(prog, b, NULL));
		double c = BEST_OF(3, time_c(b));
		bool ok = t > 0 && b->check(b);
		if (!ok) {
			fprintf(stderr, "interp-bench: %s: results differ from "
				"C's\n", b->name);
			status = 1;
		}
		double rate = t > 0 ? (double)insns / t : 0;
		printf("%-12s %14llu %10.4f %16.3e %10.5f %9.1f%s\n", b->name,
		       (unsigned long long)insns, t, rate, c, t / c,
		       ok ? "" : "  WRONG");
		fprintf(out, "%s\t%llu\t%.6f\t%.6e\t%.6f\t%.2f\n", b->name,
			(unsigned long long)insns, t, rate, c, t / c);
	}
	fclose(out);
	ptx_program_destroy(prog);
	free(text);
	return status;
}
