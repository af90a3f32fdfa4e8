// SPDX-License-Identifier: MIT
/*
 * The launch tree of dynamic parallelism on the host, without a device:
 * a kernel's device-side launches (the calls nvcc -rdc emits) run after
 * the launching grid, children in launch order with their own
 * descendants before a tail launch, and the pending-launch limit fails a
 * launch with cudaErrorLaunchPendingCountExceeded (69).
 */
#include "harness.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/*
 * step(out, idx): out[1 + idx] = ++out[0] (its turn). parent(out, n)
 * launches step(out, 0) into cudaStreamTailLaunch first, then step(out,
 * 1..n) into its NULL stream, each of which launches nothing; the
 * launch results go to out[16 + i]. mid(out) launches step(out, 9).
 */
static const char ptx[] =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2"
	"(.param .b64 f, .param .align 4 .b8 g[12], .param .align 4 .b8 b[12],"
	" .param .b32 s);\n"
	".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2"
	"(.param .b64 p, .param .b64 s);\n"
	".visible .entry step(.param .u64 out, .param .u32 idx)\n{\n"
	"  .reg .b64 %rd<4>; .reg .b32 %r<4>;\n"
	"  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [idx];\n"
	"  atom.global.add.u32 %r2, [%rd1], 1; add.u32 %r2, %r2, 1;\n"
	"  mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2;\n"
	"  st.global.u32 [%rd3+4], %r2;\n  ret;\n}\n"
	".visible .entry parent(.param .u64 out, .param .u32 n)\n{\n"
	"  .reg .b64 %rd<8>; .reg .b32 %r<8>; .reg .pred %p<3>;\n"
	"  ld.param.u64 %rd1, [out]; ld.param.u32 %r5, [n];\n"
	"  mov.u32 %r1, 0;\n"
	"L_loop:\n"
	"  mov.u64 %rd2, step;\n"
	"  { .param .b64 a0; .param .align 4 .b8 a1[12];"
	" .param .align 4 .b8 a2[12]; .param .b32 a3; .param .b64 rv;\n"
	"    st.param.b64 [a0], %rd2;\n"
	"    st.param.b32 [a1], 1; st.param.b32 [a1+4], 1; st.param.b32 [a1+8], 1;\n"
	"    st.param.b32 [a2], 1; st.param.b32 [a2+4], 1; st.param.b32 [a2+8], 1;\n"
	"    st.param.b32 [a3], 0;\n"
	"    call.uni (rv), __cudaCDP2GetParameterBufferV2, (a0, a1, a2, a3);\n"
	"    ld.param.b64 %rd3, [rv]; }\n"
	"  st.u64 [%rd3], %rd1; st.u32 [%rd3+8], %r1;\n"
	"  setp.eq.u32 %p1, %r1, 0;\n"
	"  selp.b64 %rd4, 3, 0, %p1;\n"
	"  { .param .b64 b0; .param .b64 b1; .param .b32 rv;\n"
	"    st.param.b64 [b0], %rd3; st.param.b64 [b1], %rd4;\n"
	"    call.uni (rv), __cudaCDP2LaunchDeviceV2, (b0, b1);\n"
	"    ld.param.b32 %r2, [rv]; }\n"
	"  mul.wide.u32 %rd5, %r1, 4; add.u64 %rd6, %rd1, %rd5;\n"
	"  st.global.u32 [%rd6+64], %r2;\n"
	"  add.u32 %r1, %r1, 1;\n"
	"  setp.le.u32 %p2, %r1, %r5;\n"
	"  @%p2 bra L_loop;\n"
	"  ret;\n}\n";

static bool run_grid(void *user, const struct ptx_launch *l,
		     struct ptx_fault *fault)
{
	uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	return ptx_run_ctas(user, l, 0, n, fault);
}

/* Runs parent(out, n) as a host launch with a pending limit of @limit;
 * @early: out[0] when the parent's CTAs had run. */
static bool run_parent(struct ptx_program *p, uint32_t *out, uint32_t n,
		       uint32_t limit, uint32_t *early)
{
	const struct ptx_kernel *k = ptx_program_kernel(p, "parent");
	struct ptx_kernel_info ki;
	unsigned char params[16] = { 0 };
	struct ptx_launch l = { .kernel = k, .grid = { 1, 1, 1 },
				.block = { 1, 1, 1 }, .params = params };
	struct ptx_cdp_config cf = {
		.pending_limit = limit, .max_threads = 1024,
		.max_block = { 1024, 1024, 64 },
		.max_grid = { 0x7fffffff, 65535, 65535 },
		.max_shared = 48 << 10, .device_count = 1,
	};
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f;
	uint64_t addr = (uint64_t)(uintptr_t)out;
	if (!k || !w)
		return false;
	ptx_kernel_get_info(k, &ki);
	memcpy(params + ki.params[0].offset, &addr, 8);
	memcpy(params + ki.params[1].offset, &n, 4);
	struct ptx_cdp_grid *root = ptx_cdp_root(&l, &cf);
	bool ok = root && ptx_run_ctas(w, &l, 0, 1, &f);
	*early = out[0];
	ok = root && ptx_cdp_finish(root, ok, run_grid, w, &f) && ok;
	if (!ok)
		tap_diag("fault: %s", f.message);
	ptx_worker_destroy(w);
	return ok;
}

/* Tail first in launch order, yet last to run; the rest in order. */
static bool test_order(struct ptx_program *p)
{
	uint32_t *out = test_alloc(256), early;
	bool ok = run_parent(p, out, 4, 2048, &early);
	bool good = ok && early == 0 && out[0] == 5 && out[1] == 5;
	for (uint32_t i = 1; i <= 4; i++)
		good = good && out[1 + i] == i && out[16 + i] == 0;
	if (!good)
		tap_diag("early %u, turns %u %u %u %u %u", early, out[1], out[2],
			 out[3], out[4], out[5]);
	return good;
}

/* 40 launches with 32 slots: the 33rd and later fail, and never run. */
static bool test_pending_limit(struct ptx_program *p)
{
	uint32_t *out = test_alloc(4096), early;
	bool ok = run_parent(p, out, 39, 32, &early);
	uint32_t failed = 0, first = 0;
	for (uint32_t i = 0; i < 40; i++)
		if (out[16 + i] == 69 && !failed++)
			first = i;
	bool good = ok && failed == 8 && first == 32 && out[0] == 32;
	if (!good)
		tap_diag("%u failed from %u; %u ran", failed, first, out[0]);
	return good;
}

int main(void)
{
	char log[2048];
	const char *texts[] = { ptx }, *names[] = { "cdp.ptx" };
	struct ptx_program *p = NULL;
	tap_plan(2);
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("%s", log);
	tap_ok(p && test_order(p), "device launches: after the parent, "
	       "in launch order, the tail launch last");
	tap_ok(p && test_pending_limit(p), "pending launch limit: error 69 "
	       "past it, the failed grids never run");
	if (p)
		ptx_program_destroy(p);
	test_free_all();
	return tap_done();
}
