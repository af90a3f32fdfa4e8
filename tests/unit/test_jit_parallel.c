// SPDX-License-Identifier: MIT
/*
 * Kernels compiled while they run (libcuda/ptx/backend.c, jit_compile.c):
 * a kernel launched from several worker threads at once before it is
 * compiled gives the right results, whether the launch waits for the
 * compile (VCUDA_EXECUTOR=jit) or runs CTAs on the interpreter until the
 * code is ready (VCUDA_JIT_ASYNC=1, set for every test but the waiting
 * one, so that compiles run while launches do); kernels compile in
 * parallel; two programs
 * of one text compiled at once end sharing one loaded copy; a program
 * destroyed while its kernels compile goes cleanly. Nothing here is
 * timed: which CTAs ran on which back end is the scheduler's business,
 * the results are not. Under VCUDA_EXECUTOR=interp there is no JIT to
 * test: every test skips.
 */
#include "harness.h"
#include "jit.h"
#include "tap.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	NTESTS = 8,
	NKERNELS = 4,		/* in the program of several kernels */
	CTAS = 64,
	THREADS = 64,		/* per CTA */
	ITERS = 300,		/* of the loop in each thread */
	WORKERS = 8,		/* threads launching the grid at once */
};

/* Kernel mix<i>: each thread hashes (global id + salt) ITERS times. */
static const char kernel_format[] =
	".visible .entry mix%u(.param .u64 out, .param .u32 iters)\n{\n"
	"\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<10>;\n\t.reg .b64 %%rd<4>;\n"
	"\tld.param.u64 %%rd1, [out];\n\tld.param.u32 %%r1, [iters];\n"
	"\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n"
	"\tmov.u32 %%r4, %%tid.x;\n\tmad.lo.u32 %%r5, %%r2, %%r3, %%r4;\n"
	"\tadd.u32 %%r6, %%r5, %u;\n\tmov.u32 %%r7, 0;\n"
	"LOOP:\n\tsetp.ge.u32 %%p1, %%r7, %%r1;\n\t@%%p1 bra DONE;\n"
	"\tmad.lo.u32 %%r6, %%r6, 1664525, 1013904223;\n"
	"\tshr.u32 %%r8, %%r6, 13;\n\txor.b32 %%r6, %%r6, %%r8;\n"
	"\tadd.u32 %%r7, %%r7, 1;\n\tbra LOOP;\n"
	"DONE:\n\tmul.wide.u32 %%rd2, %%r5, 4;\n"
	"\tadd.u64 %%rd3, %%rd1, %%rd2;\n\tst.global.u32 [%%rd3], %%r6;\n"
	"\tret;\n}\n";

static uint32_t salt_of(unsigned i)
{
	return 0x9e37u * (i + 1);
}

static uint32_t reference(uint32_t gid, uint32_t salt, uint32_t iters)
{
	uint32_t x = gid + salt;
	for (uint32_t i = 0; i < iters; i++) {
		x = x * 1664525u + 1013904223u;
		x ^= x >> 13;
	}
	return x;
}

/* A program of kernels mix0 .. mix<n - 1>, built for @executor (NULL:
 * the default). */
static struct ptx_program *build(unsigned n, const char *executor)
{
	char text[8192], log[512];
	int len = snprintf(text, sizeof(text), ".version 7.0\n.target sm_75\n"
			   ".address_size 64\n");
	for (unsigned i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - (size_t)len,
				kernel_format, i, salt_of(i));
	const char *texts[] = { text }, *names[] = { "jit_parallel" };
	const char *saved = getenv("VCUDA_EXECUTOR");
	char *keep = saved ? strdup(saved) : NULL;
	struct ptx_program *p = NULL;
	if (executor)
		setenv("VCUDA_EXECUTOR", executor, 1);
	else
		unsetenv("VCUDA_EXECUTOR");
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("build: %s", log);
	if (keep)
		setenv("VCUDA_EXECUTOR", keep, 1);
	else
		unsetenv("VCUDA_EXECUTOR");
	free(keep);
	return p;
}

static const struct ptx_kernel *kernel(struct ptx_program *p, unsigned i)
{
	char name[16];
	snprintf(name, sizeof(name), "mix%u", i);
	return p ? ptx_program_kernel(p, name) : NULL;
}

/* Launches mix<i> on WORKERS threads at once; true when every output is
 * right. */
static bool runs_right(struct ptx_program *p, unsigned i)
{
	char name[16];
	uint32_t *out = test_alloc(CTAS * THREADS * 4), iters = ITERS;
	const void *args[] = { &out, &iters };
	struct launch_cfg cfg = { .grid = { CTAS, 1, 1 },
				  .block = { THREADS, 1, 1 },
				  .threads = WORKERS };
	struct ptx_fault f;
	snprintf(name, sizeof(name), "mix%u", i);
	if (!p || !out)
		return false;
	if (!run(p, name, &cfg, args, &f)) {
		tap_diag("%s faulted: %s", name, f.message);
		return false;
	}
	for (uint32_t g = 0; g < CTAS * THREADS; g++)
		if (out[g] != reference(g, salt_of(i), ITERS)) {
			tap_diag("%s: thread %u wrote %#x, not %#x", name, g,
				 out[g], reference(g, salt_of(i), ITERS));
			return false;
		}
	return true;
}

static void test_launch_while_compiling(void)
{
	struct ptx_program *p = build(1, NULL);
	tap_ok(runs_right(p, 0), "a first launch on %d threads, its CTAs on "
	       "the interpreter until the code is ready, is right", WORKERS);
	tap_ok(ptx_kernel_compile(kernel(p, 0)) && runs_right(p, 0),
	       "the kernel compiled, and then runs right on its code");
	if (p)
		ptx_program_destroy(p);
}

struct chunk_run {
	const struct ptx_launch *launch;
	uint64_t first, count;
	bool ok;
};

static void *chunk_thread(void *arg)
{
	struct chunk_run *r = arg;
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f;
	r->ok = w && ptx_run_ctas(w, r->launch, r->first, r->count, &f);
	ptx_worker_destroy(w);
	return NULL;
}

/*
 * Two workers each given half the grid in one call, as libcuda's SM
 * threads claim chunks: they start on the interpreter and take the
 * compiled code for the CTAs left whenever it is ready.
 */
static void test_long_chunks(void)
{
	struct ptx_program *p = build(1, NULL);
	const struct ptx_kernel *k = kernel(p, 0);
	/* longer than a compile on the interpreter, as a rule */
	uint32_t *out = test_alloc(CTAS * THREADS * 4), iters = 20 * ITERS;
	struct ptx_kernel_info info;
	uint8_t params[16] = { 0 };
	bool ok = k && out;
	if (ok) {
		ptx_kernel_get_info(k, &info);
		memcpy(params + info.params[0].offset, &out, sizeof(out));
		memcpy(params + info.params[1].offset, &iters, sizeof(iters));
	}
	struct ptx_launch l = { .kernel = k, .grid = { CTAS, 1, 1 },
				.block = { THREADS, 1, 1 },
				.params = params, .sm_count = 2 };
	struct chunk_run r[2] = { { &l, 0, CTAS / 2, false },
				  { &l, CTAS / 2, CTAS / 2, false } };
	pthread_t t[2];
	int started = 0;
	for (int i = 0; ok && i < 2; i++)
		started += !pthread_create(&t[i], NULL, chunk_thread, &r[i]);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	ok = ok && started == 2 && r[0].ok && r[1].ok;
	for (uint32_t g = 0; ok && g < CTAS * THREADS; g++)
		ok = out[g] == reference(g, salt_of(0), iters);
	tap_ok(ok, "workers given half a grid each, switching to the code "
	       "when it is ready, are right");
	if (p)
		ptx_program_destroy(p);
}

static void test_launch_waiting(void)
{
	struct ptx_program *p = build(1, "jit");
	const struct ptx_kernel *k = kernel(p, 0);
	bool ok = runs_right(p, 0) && k &&
		  __atomic_load_n(&k->jit_state, __ATOMIC_ACQUIRE) ==
			  JIT_READY;
	tap_ok(ok, "under VCUDA_EXECUTOR=jit, %d threads launching at once "
	       "wait for one compile and run right", WORKERS);
	if (p)
		ptx_program_destroy(p);
}

static void test_kernels_in_parallel(void)
{
	struct ptx_program *p = build(NKERNELS, NULL);
	bool ok = p != NULL;
	/* every compile queued before any launch, as a module's kernels
	 * are when a program launches them one after another */
	for (unsigned i = 0; ok && i < NKERNELS; i++)
		ptx_kernel_prepare(kernel(p, i));
	for (unsigned i = 0; ok && i < NKERNELS; i++)
		ok = runs_right(p, i);
	for (unsigned i = 0; ok && i < NKERNELS; i++)
		ok = ptx_kernel_compile(kernel(p, i)) && runs_right(p, i);
	tap_ok(ok, "%d kernels compiling at once each run right, before "
	       "and after", NKERNELS);
	if (p)
		ptx_program_destroy(p);
}

static void *compile_thread(void *arg)
{
	return ptx_kernel_compile(arg) ? arg : NULL;
}

static void test_equal_keys(void)
{
	struct ptx_program *p[2] = { build(1, NULL), build(1, NULL) };
	pthread_t t[2];
	void *res[2] = { NULL, NULL };
	int started = 0;
	for (int i = 0; i < 2 && p[i]; i++)
		started += !pthread_create(&t[i], NULL, compile_thread,
					   (void *)kernel(p[i], 0));
	for (int i = 0; i < started; i++)
		pthread_join(t[i], &res[i]);
	const struct ptx_kernel *k0 = kernel(p[0], 0), *k1 = kernel(p[1], 0);
	bool ok = started == 2 && res[0] && res[1] && k0->jit && k1->jit &&
		  k0->jit->entry == k1->jit->entry;
	tap_ok(ok, "two programs of one text compiled at once share one "
	       "loaded copy");
	if (p[0])
		ptx_program_destroy(p[0]);
	tap_ok(ok && runs_right(p[1], 0), "which outlives the first program");
	if (p[1])
		ptx_program_destroy(p[1]);
}

static void test_destroy_while_compiling(void)
{
	struct ptx_program *p = build(NKERNELS, NULL);
	for (unsigned i = 0; p && i < NKERNELS; i++)
		ptx_kernel_prepare(kernel(p, i));
	if (p)
		ptx_program_destroy(p);
	/* the compile threads carry on with another program */
	p = build(1, NULL);
	bool ok = ptx_kernel_compile(kernel(p, 0)) && runs_right(p, 0);
	if (p)
		ptx_program_destroy(p);
	tap_ok(ok, "a program destroyed while its kernels compile goes; "
	       "compiles go on");
}

int main(void)
{
	tap_plan(NTESTS);
	const char *ex = getenv("VCUDA_EXECUTOR");
	if (ex && !strcmp(ex, "interp")) {
		for (int i = 0; i < NTESTS; i++)
			tap_ok(true, "# SKIP no JIT under VCUDA_EXECUTOR=interp");
		return tap_done();
	}
	/* every kernel compiled here, none read from a disk cache */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	setenv("VCUDA_JIT_ASYNC", "1", 1);
	test_launch_while_compiling();
	test_long_chunks();
	test_launch_waiting();
	test_kernels_in_parallel();
	test_equal_keys();
	test_destroy_while_compiling();
	test_free_all();
	return tap_done();
}
