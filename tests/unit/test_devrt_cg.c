// SPDX-License-Identifier: MIT
/*
 * The device runtime's cooperative-groups functions (libcuda/ptx/
 * devrt_cg.c) called as numba-cuda's grid group calls them (declared
 * .extern, libcudadevrt.a defining them in SASS only): the grid barrier
 * of cudaCGSynchronize between rows that threads of other CTAs wrote,
 * with CTAs spread over workers or all on one; the handle, size and rank
 * functions; the fault of grid sync in a launch that is not
 * cooperative; and nvcc's grid.sync() mixed with cudaCGSynchronize in
 * one kernel.
 */
#include "harness.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#define DECLS \
	".version 7.0\n.target sm_80\n.address_size 64\n" \
	".extern .func (.param .b64 r) cudaCGGetIntrinsicHandle" \
	"(.param .b32 s);\n" \
	".extern .func (.param .b32 r) cudaCGSynchronize" \
	"(.param .b64 h, .param .b32 f);\n" \
	".extern .func (.param .b32 r) cudaCGSynchronizeGrid" \
	"(.param .b64 h, .param .b32 f);\n" \
	".extern .func (.param .b32 r) cudaCGGetSize" \
	"(.param .b64 n, .param .b64 g, .param .b64 h);\n" \
	".extern .func (.param .b32 r) cudaCGGetRank" \
	"(.param .b64 n, .param .b64 g, .param .b64 h);\n"

/* call.uni (rv), name, (a0, a1); as NVVM writes it */
#define HANDLE(dst, scope) \
	"  { .param .b32 a0; .param .b64 rv; st.param.b32 [a0], " scope ";\n" \
	"    call.uni (rv), cudaCGGetIntrinsicHandle, (a0);\n" \
	"    ld.param.b64 " dst ", [rv]; }\n"
#define SYNC(fn, dst, h, flags) \
	"  { .param .b64 a0; .param .b32 a1; .param .b32 rv;\n" \
	"    st.param.b64 [a0], " h "; st.param.b32 [a1], " flags ";\n" \
	"    call.uni (rv), " fn ", (a0, a1);\n" \
	"    ld.param.b32 " dst ", [rv]; }\n"
#define QUERY(fn, dst, p0, p1, h) \
	"  { .param .b64 a0; .param .b64 a1; .param .b64 a2; .param .b32 rv;\n" \
	"    st.param.b64 [a0], " p0 "; st.param.b64 [a1], " p1 ";\n" \
	"    st.param.b64 [a2], " h ";\n" \
	"    call.uni (rv), " fn ", (a0, a1, a2);\n" \
	"    ld.param.b32 " dst ", [rv]; }\n"

/*
 * rows(m, rows, cols): numba's test_sync_at_matrix_row. Thread col
 * writes m[row][col] = m[row - 1][cols - 1 - col] + 1, a grid sync after
 * each row: m[row][col] == row for all when the barrier holds.
 * handle(out): out[0] = the grid handle, out[1] = scope 0's.
 */
static const char ptx[] = DECLS
	".visible .entry rows(.param .u64 m, .param .u32 rows,"
	" .param .u32 cols)\n{\n"
	"  .reg .b64 %rd<12>; .reg .b32 %r<16>; .reg .pred %p<2>;\n"
	"  ld.param.u64 %rd1, [m]; ld.param.u32 %r1, [rows];"
	" ld.param.u32 %r2, [cols];\n"
	"  mov.u32 %r3, %ctaid.x; mov.u32 %r4, %ntid.x; mov.u32 %r5, %tid.x;\n"
	"  mad.lo.u32 %r6, %r3, %r4, %r5;\n"		/* col */
	"  sub.u32 %r7, %r2, %r6; sub.u32 %r7, %r7, 1;\n"	/* opposite */
	HANDLE("%rd2", "1")
	"  mov.u32 %r8, 1;\n"
	"L_row:\n"
	"  setp.ge.u32 %p1, %r8, %r1;\n"
	"  @%p1 bra L_done;\n"
	"  sub.u32 %r9, %r8, 1; mad.lo.u32 %r10, %r9, %r2, %r7;\n"
	"  mul.wide.u32 %rd3, %r10, 4; add.u64 %rd4, %rd1, %rd3;\n"
	"  ld.global.u32 %r11, [%rd4]; add.u32 %r11, %r11, 1;\n"
	"  mad.lo.u32 %r12, %r8, %r2, %r6;\n"
	"  mul.wide.u32 %rd5, %r12, 4; add.u64 %rd6, %rd1, %rd5;\n"
	"  st.global.u32 [%rd6], %r11;\n"
	SYNC("cudaCGSynchronize", "%r13", "%rd2", "0")
	"  add.u32 %r8, %r8, 1;\n"
	"  bra.uni L_row;\n"
	"L_done:\n  ret;\n}\n"
	".visible .entry handle(.param .u64 out)\n{\n"
	"  .reg .b64 %rd<4>;\n"
	"  ld.param.u64 %rd1, [out];\n"
	HANDLE("%rd2", "1")
	HANDLE("%rd3", "0")
	"  st.global.u64 [%rd1], %rd2; st.global.u64 [%rd1+8], %rd3;\n"
	"  ret;\n}\n"
	/*
	 * info(out): thread t (its linear index, computed here) writes at
	 * out[8t]: cudaCGGetRank's thread and grid ranks and status,
	 * cudaCGGetSize's threads, grids and status, then the status of
	 * cudaCGSynchronizeGrid and of cudaCGSynchronize with a null handle.
	 */
	".visible .entry info(.param .u64 out)\n{\n"
	"  .reg .b64 %rd<16>; .reg .b32 %r<24>;\n"
	"  ld.param.u64 %rd1, [out];\n"
	"  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ctaid.y; mov.u32 %r3, %nctaid.x;\n"
	"  mad.lo.u32 %r4, %r2, %r3, %r1;\n"		/* block */
	"  mov.u32 %r5, %tid.x; mov.u32 %r6, %tid.y; mov.u32 %r7, %ntid.x;\n"
	"  mov.u32 %r8, %ntid.y; mul.lo.u32 %r9, %r7, %r8;\n"
	"  mad.lo.u32 %r10, %r6, %r7, %r5; mad.lo.u32 %r10, %r4, %r9, %r10;\n"
	"  mul.wide.u32 %rd2, %r10, 32; add.u64 %rd3, %rd1, %rd2;\n"
	HANDLE("%rd4", "1")
	"  add.u64 %rd5, %rd3, 4; add.u64 %rd6, %rd3, 12;"
	" add.u64 %rd7, %rd3, 16;\n"
	QUERY("cudaCGGetRank", "%r11", "%rd3", "%rd5", "%rd4")
	QUERY("cudaCGGetSize", "%r12", "%rd6", "%rd7", "%rd4")
	SYNC("cudaCGSynchronizeGrid", "%r13", "%rd4", "0")
	"  mov.u64 %rd8, 0;\n"
	SYNC("cudaCGSynchronize", "%r14", "%rd8", "0")
	"  st.global.u32 [%rd3+8], %r11; st.global.u32 [%rd3+20], %r12;\n"
	"  st.global.u32 [%rd3+24], %r13; st.global.u32 [%rd3+28], %r14;\n"
	"  ret;\n}\n";

static bool test_rows(struct ptx_program *p, unsigned workers)
{
	uint32_t blocks = 8, threads = 32, cols = blocks * threads, nrows = 12;
	uint32_t *m = test_alloc(nrows * cols * 4), bad = 0;
	struct launch_cfg cfg = { .grid = { blocks }, .block = { threads },
				  .threads = workers,
				  .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &m, &nrows, &cols };
	if (!run_ok(p, "rows", &cfg, args))
		return false;
	for (uint32_t r = 0; r < nrows; r++)
		for (uint32_t c = 0; c < cols; c++)
			if (m[r * cols + c] != r && !bad++)
				tap_diag("m[%u][%u] = %u", r, c, m[r * cols + c]);
	return !bad;
}

static bool test_handle(struct ptx_program *p)
{
	uint64_t *out = test_alloc(16);
	struct launch_cfg cfg = { .grid = { 1 }, .block = { 1 },
				  .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &out };
	bool coop = run_ok(p, "handle", &cfg, args) && out[0] && !out[1];
	cfg.flags = 0;
	out[0] = out[1] = 7;
	return coop && run_ok(p, "handle", &cfg, args) && !out[0] && !out[1];
}

static bool test_info(struct ptx_program *p)
{
	uint32_t n = 2 * 3 * 4 * 2, *out = test_alloc(n * 32), bad = 0;
	struct launch_cfg cfg = { .grid = { 2, 3 }, .block = { 4, 2 },
				  .threads = 3, .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &out };
	if (!run_ok(p, "info", &cfg, args))
		return false;
	for (uint32_t t = 0; t < n; t++) {
		const uint32_t *o = out + 8 * t;
		uint32_t want[8] = { t, 0, 0, n, 1, 0, 0, 999 };
		if (memcmp(o, want, sizeof(want)) && !bad++)
			tap_diag("thread %u: %u %u %u %u %u %u %u %u", t, o[0],
				 o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
	}
	return !bad;
}

/* Grid sync in a launch that is not cooperative faults, saying so. */
static bool test_not_cooperative(struct ptx_program *p)
{
	uint32_t cols = 64, nrows = 2, *m = test_alloc(nrows * cols * 4);
	struct launch_cfg cfg = { .grid = { 2 }, .block = { 32 } };
	const void *args[] = { &m, &nrows, &cols };
	struct ptx_fault f;
	bool ran = run(p, "rows", &cfg, args, &f);
	bool good = !ran && f.kind == PTX_FAULT_TRAP &&
		    strstr(f.message, "not cooperative") &&
		    strstr(f.message, "cudaCGSynchronize");
	if (!good)
		tap_diag("ran %d, fault %d: %s", ran, f.kind, f.message);
	return good;
}

/*
 * coop_mixed (tests/ptx/runtime.cu, built by nvcc): rows as in rows(),
 * the barrier after each row alternating between nvcc's grid.sync(),
 * inline, and cudaCGSynchronize, on the one barrier word of the grid
 * workspace; CTAs spread over @workers.
 */
static bool test_mixed(const char *file, unsigned workers)
{
	char log[2048];
	const char *files[] = { file };
	struct ptx_program *p = NULL;
	if (build_corpus(files, 1, &p, log, sizeof(log)) != PTX_OK) {
		tap_diag("%s: %s", file, log);
		return false;
	}
	uint32_t blocks = 6, threads = 32, cols = blocks * threads, nrows = 9;
	uint32_t *m = test_alloc(nrows * cols * 4), bad = 0;
	struct launch_cfg cfg = { .grid = { blocks }, .block = { threads },
				  .threads = workers,
				  .flags = PTX_LAUNCH_COOPERATIVE };
	const void *args[] = { &m, &nrows, &cols };
	bool ok = run_ok(p, "coop_mixed", &cfg, args);
	for (uint32_t r = 0; ok && r < nrows; r++)
		for (uint32_t c = 0; c < cols; c++)
			if (m[r * cols + c] != r && !bad++)
				tap_diag("%s, %u workers: m[%u][%u] = %u", file,
					 workers, r, c, m[r * cols + c]);
	ptx_program_destroy(p);
	return ok && !bad;
}

/* A program's own definition wins over vcuda's. */
static bool test_own_definition(void)
{
	static const char own[] =
		".version 7.0\n.target sm_80\n.address_size 64\n"
		".visible .func (.param .b64 r) cudaCGGetIntrinsicHandle"
		"(.param .b32 s)\n{\n  .reg .b64 %rd1;\n  mov.u64 %rd1, 42;\n"
		"  st.param.b64 [r], %rd1;\n  ret;\n}\n";
	const char *texts[] = { ptx, own }, *names[] = { "cg.ptx", "own.ptx" };
	char log[1024];
	struct ptx_program *p = NULL;
	if (build_texts(texts, names, 2, &p, log, sizeof(log)) != PTX_OK) {
		tap_diag("%s", log);
		return false;
	}
	uint64_t *out = test_alloc(16);
	struct launch_cfg cfg = { .grid = { 1 }, .block = { 1 } };
	const void *args[] = { &out };
	bool ok = run_ok(p, "handle", &cfg, args) && out[0] == 42 &&
		  out[1] == 42;
	ptx_program_destroy(p);
	return ok;
}

int main(void)
{
	char log[2048];
	const char *texts[] = { ptx }, *names[] = { "cg.ptx" };
	struct ptx_program *p = NULL;
	tap_plan(7);
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("%s", log);
	tap_ok(p && test_rows(p, 4) && test_rows(p, 3),
	       "cudaCGSynchronize: rows written across CTAs, CTAs on workers");
	tap_ok(p && test_rows(p, 1), "cudaCGSynchronize: all CTAs on one "
	       "worker");
	tap_ok(p && test_handle(p), "cudaCGGetIntrinsicHandle: the grid's, "
	       "0 for another scope or a launch that is not cooperative");
	tap_ok(p && test_info(p), "cudaCGGetRank, cudaCGGetSize, "
	       "cudaCGSynchronizeGrid; a null handle gives 999");
	tap_ok(p && test_not_cooperative(p), "grid sync in a launch that is "
	       "not cooperative faults");
	tap_ok(test_own_definition(), "a program's own cudaCG* definition "
	       "wins");
	tap_ok(test_mixed("runtime.sm75.ptx", 4) &&
	       test_mixed("runtime.sm75.ptx", 1) &&
	       test_mixed("runtime.sm90.ptx", 3),
	       "nvcc's grid.sync() and cudaCGSynchronize in one kernel");
	if (p)
		ptx_program_destroy(p);
	test_free_all();
	return tap_done();
}
