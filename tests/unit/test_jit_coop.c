// SPDX-License-Identifier: MIT
/*
 * Cooperative launches on either executor, the JIT's on fibers
 * (libcuda/ptx/jit_fiber.c): nvcc's grid.sync() between the phases of a
 * grid-stride stencil (tests/ptx/coop_jit.cu) gives the reference's
 * results with several CTAs resident per worker and all on one, and
 * under VCUDA_EXECUTOR=jit the fibers ran it (jit_fiber_launches(), which
 * the interpreter leaves alone); CTAs spinning on a flag nothing sets end
 * with PTX_FAULT_KILLED once the launch's kill flag is set while they
 * spin, and a worker's next launches run (its fibers are kept); the
 * same kernel launched without the cooperative flag meets
 * nvcc's trap (no grid workspace), and trap faults alike where the JIT
 * compiles it; bfi, which nvcc's grid.sync() needs, gives the
 * interpreter's results.
 */
#include "harness.h"
#include "jit.h"
#include "tap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct ptx_program *prog;

static bool executor_is(const char *name)
{
	const char *v = getenv("VCUDA_EXECUTOR");
	return v && !strcmp(v, name);
}

static void reference(uint32_t *a, uint32_t *b, uint32_t n, uint32_t phases)
{
	for (uint32_t p = 0; p < phases; p++) {
		for (uint32_t i = 0; i < n; i++)
			b[i] = 3 * a[i] + a[(i + 1) % n] +
			       a[(i + n - 1) % n] + p;
		uint32_t *t = a;
		a = b;
		b = t;
	}
}

/* coop_phases on @workers worker threads; the result in a or b by the
 * phases' parity, as in the reference. */
static bool phases_ok(unsigned workers, uint32_t blocks, uint32_t threads)
{
	uint32_t n = 1000, phases = 7;
	uint32_t *a = test_alloc(n * 4), *b = test_alloc(n * 4);
	uint32_t *ra = malloc(n * 4), *rb = malloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		a[i] = ra[i] = i * 2654435761u;
	reference(ra, rb, n, phases);
	struct launch_cfg cfg = { .grid = { blocks }, .block = { threads },
				  .threads = workers,
				  .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &a, &b, &n, &phases };
	uint64_t before = jit_fiber_launches();
	bool ok = run_ok(prog, "coop_phases", &cfg, args) &&
		  expect_bytes("coop_phases", phases & 1 ? b : a,
			       phases & 1 ? rb : ra, n * 4, 4);
	uint64_t ran = jit_fiber_launches() - before;
	/* one range per worker, each run by the fibers when on the JIT
	 * (unless forced, a launch may come before the compile is done) */
	if ((executor_is("jit") && ran != workers) ||
	    (executor_is("interp") && ran)) {
		tap_diag("%llu ranges on the JIT's fibers",
			 (unsigned long long)ran);
		ok = false;
	}
	free(ra);
	free(rb);
	return ok;
}

static void *set_later(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	atomic_store((atomic_bool *)arg, true);
	return NULL;
}

/* Spinning CTAs see the kill flag set while they spin. */
static bool wait_killed(void)
{
	uint32_t *flag = test_alloc(4), *out = test_alloc(4 * 4);
	atomic_bool kill = false;
	struct launch_cfg cfg = { .grid = { 4 }, .block = { 32 },
				  .threads = 2, .kill = &kill,
				  .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &flag, &out };
	struct ptx_fault f = { 0 };
	pthread_t t;
	if (pthread_create(&t, NULL, set_later, &kill))
		return false;
	bool ran = run(prog, "coop_wait", &cfg, args, &f);
	pthread_join(t, NULL);
	if (ran || f.kind != PTX_FAULT_KILLED)
		tap_diag("fault kind %d: %s", f.kind, f.message);
	return !ran && f.kind == PTX_FAULT_KILLED && !out[0];
}

/* A cooperative launch of @kernel on worker @w alone: all CTAs its. */
static bool worker_launch(struct ptx_worker *w, const char *kernel,
			  const void *const *args, const atomic_bool *kill,
			  struct ptx_fault *f)
{
	const struct ptx_kernel *k = ptx_program_kernel(prog, kernel);
	struct ptx_kernel_info info;
	struct ptx_grid_workspace *ws = test_alloc(sizeof(*ws));
	uint8_t *params = test_alloc(64);
	uint64_t at = (uintptr_t)ws;
	ws->size = sizeof(*ws);
	ptx_kernel_get_info(k, &info);
	for (uint32_t i = 0; i < info.param_count; i++)
		memcpy(params + info.params[i].offset, args[i],
		       info.params[i].size);
	struct ptx_launch l = { .kernel = k, .grid = { 4, 1, 1 },
				.block = { 64, 1, 1 }, .params = params,
				.flags = PTX_LAUNCH_COOPERATIVE,
				.sm_count = 1, .kill = kill };
	l.envreg[1] = (uint32_t)(at >> 32);
	l.envreg[2] = (uint32_t)at;
	ptx_kernel_prepare(k);
	return ptx_run_ctas(w, &l, 0, 4, f);
}

/* A worker keeps its fibers for its next cooperative launches, also
 * after one that was stopped while its CTAs spun. */
static bool worker_reuse(void)
{
	uint32_t n = 300, phases = 4, *a = test_alloc(n * 4);
	uint32_t *b = test_alloc(n * 4), *flag = test_alloc(4);
	uint32_t *out = test_alloc(16), *ra = malloc(n * 4);
	uint32_t *rb = malloc(n * 4);
	const void *args[] = { &a, &b, &n, &phases };
	const void *wargs[] = { &flag, &out };
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f = { 0 };
	atomic_bool kill = false;
	bool ok = w && ra && rb;
	pthread_t t;
	for (int round = 0; ok && round < 2; round++) {
		for (uint32_t i = 0; i < n; i++)
			a[i] = ra[i] = i * 40503u + (uint32_t)round;
		reference(ra, rb, n, phases);
		ok = worker_launch(w, "coop_phases", args, NULL, &f) &&
		     expect_bytes("coop_phases_reuse", a, ra, n * 4, 4);
		if (!ok || round || pthread_create(&t, NULL, set_later, &kill))
			continue;
		ok = !worker_launch(w, "coop_wait", wargs, &kill, &f) &&
		     f.kind == PTX_FAULT_KILLED;
		pthread_join(t, NULL);
	}
	if (!ok)
		tap_diag("fault kind %d: %s", f.kind, f.message);
	ptx_worker_destroy(w);
	free(ra);
	free(rb);
	return ok;
}

/* grid.sync() in a launch that is not cooperative: nvcc's trap. */
static bool not_cooperative_traps(void)
{
	uint32_t n = 64, phases = 1;
	uint32_t *a = test_alloc(n * 4), *b = test_alloc(n * 4);
	struct launch_cfg cfg = { .grid = { 2 }, .block = { 32 } };
	const void *args[] = { &a, &b, &n, &phases };
	struct ptx_fault f = { 0 };
	bool ran = run(prog, "coop_phases", &cfg, args, &f);
	if (ran || f.kind != PTX_FAULT_TRAP)
		tap_diag("fault kind %d: %s", f.kind, f.message);
	return !ran && f.kind == PTX_FAULT_TRAP;
}

/* trap after a store: the store stays, the launch faults. */
static bool trap_faults(void)
{
	static const char text[] =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".visible .entry t(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n"
		"\t.reg .b32 %r<2>;\n\t.reg .pred %p<2>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %tid.x;\n\tst.global.u32 [%rd1], 7;\n"
		"\tsetp.eq.u32 %p1, %r1, 5;\n\t@%p1 trap;\n\tret;\n}\n";
	const char *texts[] = { text }, *names[] = { "trap.ptx" };
	char log[256] = "";
	struct ptx_program *p = NULL;
	uint32_t *buf = test_alloc(4);
	struct launch_cfg cfg = { .grid = { 2 }, .block = { 64 } };
	const void *args[] = { &buf };
	struct ptx_fault f = { 0 };
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK) {
		tap_diag("build: %s", log);
		return false;
	}
	const struct ptx_kernel *k = ptx_program_kernel(p, "t");
	bool compiled = ptx_kernel_compile(k);
	bool ok = !run(p, "t", &cfg, args, &f) && f.kind == PTX_FAULT_TRAP &&
		  strstr(f.message, "trap") && *buf == 7 &&
		  compiled == !executor_is("interp");
	if (!ok)
		tap_diag("fault kind %d: %s; compiled %d", f.kind, f.message,
			 compiled);
	ptx_program_destroy(p);
	return ok;
}

/*
 * bfi as PTX defines it, bit by bit (the interpreter masks instead, so
 * the two are written apart): pos and len read as 8 bits for .b32; bits
 * of b at [pos, pos + len), cut at the width, come from a's low bits.
 */
static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t pos, uint32_t len,
			unsigned bits)
{
	if (bits == 32) {
		pos &= 0xff;
		len &= 0xff;
	}
	uint64_t r = b;
	for (uint32_t i = 0; i < len && (uint64_t)pos + i < bits; i++) {
		uint64_t bit = 1ull << (pos + i);
		r = (a >> i & 1) ? r | bit : r & ~bit;
	}
	return bits == 32 ? (uint32_t)r : r;
}

/* bfi.b32 and .b64 (nvcc's grid.sync() builds the workspace's address
 * with it) over edge cases of pos and len, one case per thread. */
static bool bfi_cases(void)
{
	static const char text[] =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".visible .entry f(.param .u64 in, .param .u64 out)\n{\n"
		"\t.reg .b64 %rd<12>;\n\t.reg .b32 %r<8>;\n"
		"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
		"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 24;\n"
		"\tadd.u64 %rd4, %rd1, %rd3;\n\tld.global.u64 %rd5, [%rd4];\n"
		"\tld.global.u64 %rd6, [%rd4+8];\n"
		"\tld.global.u32 %r2, [%rd4+16];\n"
		"\tld.global.u32 %r3, [%rd4+20];\n"
		"\tcvt.u32.u64 %r4, %rd5;\n\tcvt.u32.u64 %r5, %rd6;\n"
		"\tbfi.b32 %r6, %r4, %r5, %r2, %r3;\n"
		"\tbfi.b64 %rd7, %rd5, %rd6, %r2, %r3;\n"
		"\tmul.wide.u32 %rd8, %r1, 16;\n\tadd.u64 %rd9, %rd2, %rd8;\n"
		"\tcvt.u64.u32 %rd10, %r6;\n\tst.global.u64 [%rd9], %rd10;\n"
		"\tst.global.u64 [%rd9+8], %rd7;\n\tret;\n}\n";
	static const uint32_t pl[][2] = {
		{ 0, 0 }, { 0, 1 }, { 3, 5 }, { 0, 32 }, { 32, 32 },
		{ 31, 1 }, { 31, 9 }, { 60, 8 }, { 0, 64 }, { 0, 70 },
		{ 64, 1 }, { 255, 3 }, { 256 + 4, 256 + 8 }, { 16, 0 },
		{ 1, 63 }, { 40, 300 },
	};
	enum { N = sizeof(pl) / sizeof(pl[0]) };
	const char *texts[] = { text }, *names[] = { "bfi.ptx" };
	char log[256] = "";
	struct ptx_program *p = NULL;
	uint8_t *in = test_alloc(N * 24);
	uint64_t *out = test_alloc(N * 16), ref[2 * N];
	for (uint32_t i = 0; i < N; i++) {
		uint64_t a = 0x9e3779b97f4a7c15ull * (i + 1);
		uint64_t b = 0xc2b2ae3d27d4eb4full ^ ((uint64_t)i << 40);
		memcpy(in + 24 * i, &a, 8);
		memcpy(in + 24 * i + 8, &b, 8);
		memcpy(in + 24 * i + 16, pl[i], 8);
		ref[2 * i] = bfi_ref((uint32_t)a, (uint32_t)b, pl[i][0],
				     pl[i][1], 32);
		ref[2 * i + 1] = bfi_ref(a, b, pl[i][0], pl[i][1], 64);
	}
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK) {
		tap_diag("build: %s", log);
		return false;
	}
	struct launch_cfg cfg = { .grid = { 1 }, .block = { N } };
	const void *args[] = { &in, &out };
	bool compiled = ptx_kernel_compile(ptx_program_kernel(p, "f"));
	bool ok = run_ok(p, "f", &cfg, args) &&
		  expect_bytes("bfi_cases", out, ref, sizeof(ref), 8) &&
		  compiled == !executor_is("interp");
	ptx_program_destroy(p);
	return ok;
}

int main(void)
{
	const char *files[] = { "coop_jit.sm75.ptx" };
	char log[512] = "";
	tap_plan(8);
	if (build_corpus(files, 1, &prog, log, sizeof(log)) != PTX_OK)
		tap_diag("build: %s", log);
	tap_ok(prog && phases_ok(2, 8, 64), "grid.sync, 4 CTAs per worker");
	tap_ok(prog && phases_ok(1, 6, 96), "grid.sync, all CTAs on one");
	tap_ok(prog && phases_ok(3, 3, 1024), "grid.sync, 1024 threads");
	tap_ok(prog && wait_killed(), "spinning CTAs see the kill flag");
	tap_ok(prog && worker_reuse(), "one worker's launches, one stopped");
	tap_ok(prog && not_cooperative_traps(),
	       "grid.sync outside a cooperative launch traps");
	tap_ok(trap_faults(), "trap faults");
	tap_ok(bfi_cases(), "bfi.b32 and bfi.b64");
	ptx_program_destroy(prog);
	test_free_all();
	return tap_done();
}
