// SPDX-License-Identifier: MIT
/*
 * The cooperative-groups functions of the CUDA device runtime
 * (cuda_device_runtime_api.h: cudaCGGetIntrinsicHandle, cudaCGSynchronize,
 * cudaCGSynchronizeGrid, cudaCGGetSize, cudaCGGetRank), which
 * libcudadevrt.a defines in SASS only and numba-cuda's grid group calls.
 * vcuda defines them in PTX of its own, added to a program that calls
 * them without defining them, as weak definitions (a program's own
 * definition wins).
 *
 * A grid handle is the address of the cooperative launch's grid
 * workspace (%envreg1:%envreg2, struct ptx_grid_workspace), 0 in a launch
 * that is not cooperative, as CUDA 10's grid_group::is_valid() read it.
 * The grid barrier is the one nvcc's cooperative_groups uses on the same
 * word (the workspace's barrier, its top bit flipped once per barrier),
 * so the two can be mixed in one kernel; like theirs it spins, so these
 * kernels run on the interpreter, which switches warps in spin loops.
 *
 * As libcudadevrt's own code does, a null handle makes a function return
 * cudaErrorUnknown (999) without synchronizing; cudaCGGetSize and
 * cudaCGGetRank then report 0. Bit 0 of the
 * synchronize flags means that one thread per CTA calls, its CTA already
 * synchronized (cudaCGSynchronizeGrid's own call). Grid sync in a launch
 * that is not cooperative faults (__vcuda_cg_not_cooperative, a builtin
 * of exec_builtin.c): on a GPU the grid need not be resident.
 */
#include "link.h"

#include <stdlib.h>
#include <string.h>

static const char devrt_cg_ptx[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".extern .func __vcuda_cg_not_cooperative();\n"

	/* the grid workspace, 0 when the launch is not cooperative */
	".func (.param .b64 ws) vcuda_cg_workspace()\n{\n"
	"  .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
	"  mov.u32 %r1, %envreg1; mov.u32 %r2, %envreg2;\n"
	"  cvt.u64.u32 %rd1, %r1; cvt.u64.u32 %rd2, %r2;\n"
	"  shl.b64 %rd1, %rd1, 32; or.b64 %rd3, %rd1, %rd2;\n"
	"  st.param.b64 [ws], %rd3;\n  ret;\n}\n"

	/* whether this thread is its CTA's thread (0,0,0) */
	".func (.param .b32 first) vcuda_cg_first_thread()\n{\n"
	"  .reg .b32 %r<5>; .reg .pred %p1;\n"
	"  mov.u32 %r1, %tid.x; mov.u32 %r2, %tid.y; mov.u32 %r3, %tid.z;\n"
	"  or.b32 %r4, %r1, %r2; or.b32 %r4, %r4, %r3;\n"
	"  setp.eq.u32 %p1, %r4, 0; selp.u32 %r4, 1, 0, %p1;\n"
	"  st.param.b32 [first], %r4;\n  ret;\n}\n"

	/*
	 * One CTA's arrival at the grid barrier @bar, then the wait for all
	 * CTAs. The n arrivals add 0x80000000 in all (CTA (0,0,0) adds
	 * 0x80000000 - (n - 1), the others 1), flipping the top bit.
	 */
	".func vcuda_cg_grid_barrier(.param .b64 bar)\n{\n"
	"  .reg .b32 %r<16>; .reg .b64 %rd2; .reg .pred %p<3>;\n"
	"  ld.param.b64 %rd2, [bar];\n"
	"  mov.u32 %r1, %nctaid.x; mov.u32 %r2, %nctaid.y;"
	" mov.u32 %r3, %nctaid.z;\n"
	"  mul.lo.u32 %r4, %r1, %r2; mul.lo.u32 %r4, %r4, %r3;\n"
	"  mov.u32 %r5, %ctaid.x; mov.u32 %r6, %ctaid.y;"
	" mov.u32 %r7, %ctaid.z;\n"
	"  or.b32 %r8, %r5, %r6; or.b32 %r8, %r8, %r7;\n"
	"  setp.eq.u32 %p1, %r8, 0;\n"
	"  sub.u32 %r9, 0x80000001, %r4;\n"	/* 0x80000000 - (n - 1) */
	"  selp.b32 %r10, %r9, 1, %p1;\n"
	"  atom.release.gpu.add.u32 %r11, [%rd2], %r10;\n"
	"L_wait:\n"
	"  ld.acquire.gpu.u32 %r12, [%rd2];\n"
	"  xor.b32 %r13, %r12, %r11; and.b32 %r13, %r13, 0x80000000;\n"
	"  setp.eq.u32 %p2, %r13, 0;\n"
	"  @%p2 bra L_wait;\n  ret;\n}\n"

	".weak .func (.param .b64 handle) cudaCGGetIntrinsicHandle"
	"(.param .b32 scope)\n{\n"
	"  .reg .b32 %r1; .reg .b64 %rd<3>; .reg .pred %p1;\n"
	"  ld.param.b32 %r1, [scope];\n"
	"  { .param .b64 w; call.uni (w), vcuda_cg_workspace, ();"
	" ld.param.b64 %rd1, [w]; }\n"
	"  setp.eq.u32 %p1, %r1, 1;\n"	/* cudaCGScopeGrid */
	"  selp.b64 %rd2, %rd1, 0, %p1;\n"
	"  st.param.b64 [handle], %rd2;\n  ret;\n}\n"

	".weak .func (.param .b32 status) cudaCGSynchronize"
	"(.param .b64 handle, .param .b32 flags)\n{\n"
	"  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
	"  ld.param.b64 %rd1, [handle]; ld.param.b32 %r1, [flags];\n"
	"  { .param .b64 w; call.uni (w), vcuda_cg_workspace, ();"
	" ld.param.b64 %rd2, [w]; }\n"
	"  setp.eq.u64 %p1, %rd2, 0;\n"
	"  @%p1 bra L_not_coop;\n"
	"  setp.eq.u64 %p1, %rd1, 0;\n"
	"  @%p1 bra L_null;\n"
	"  add.u64 %rd3, %rd2, 4;\n"	/* the workspace's barrier */
	"  and.b32 %r2, %r1, 1; setp.ne.u32 %p2, %r2, 0;\n"
	"  @%p2 bra L_cta_only;\n"
	"  bar.sync 0;\n"
	"  { .param .b32 f; call.uni (f), vcuda_cg_first_thread, ();"
	" ld.param.b32 %r3, [f]; }\n"
	"  setp.ne.u32 %p3, %r3, 0;\n"
	"  @!%p3 bra L_cta_wait;\n"
	"  { .param .b64 b; st.param.b64 [b], %rd3;"
	" call.uni vcuda_cg_grid_barrier, (b); }\n"
	"L_cta_wait:\n"
	"  bar.sync 0;\n"
	"  st.param.b32 [status], 0;\n  ret;\n"
	"L_cta_only:\n"
	"  { .param .b64 b; st.param.b64 [b], %rd3;"
	" call.uni vcuda_cg_grid_barrier, (b); }\n"
	"  st.param.b32 [status], 0;\n  ret;\n"
	"L_null:\n"
	"  st.param.b32 [status], 999;\n  ret;\n"
	"L_not_coop:\n"
	"  call.uni __vcuda_cg_not_cooperative, ();\n"
	"  st.param.b32 [status], 999;\n  ret;\n}\n"

	/* the whole CTA calls; its first thread stands for it */
	".weak .func (.param .b32 status) cudaCGSynchronizeGrid"
	"(.param .b64 handle, .param .b32 flags)\n{\n"
	"  .reg .b32 %r<3>; .reg .b64 %rd1;\n"
	"  ld.param.b64 %rd1, [handle]; ld.param.b32 %r1, [flags];\n"
	"  and.b32 %r1, %r1, 0xfffffffe;\n"
	"  { .param .b64 h; .param .b32 f; .param .b32 s;"
	" st.param.b64 [h], %rd1; st.param.b32 [f], %r1;"
	" call.uni (s), cudaCGSynchronize, (h, f); ld.param.b32 %r2, [s]; }\n"
	"  st.param.b32 [status], %r2;\n  ret;\n}\n"

	/* threads in the grid, and grids (one) */
	".weak .func (.param .b32 status) cudaCGGetSize(.param .b64 threads,"
	" .param .b64 grids, .param .b64 handle)\n{\n"
	"  .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
	"  ld.param.b64 %rd1, [threads]; ld.param.b64 %rd2, [grids];"
	" ld.param.b64 %rd3, [handle];\n"
	"  setp.eq.u64 %p1, %rd3, 0;\n"
	"  mov.u32 %r1, %nctaid.x; mov.u32 %r2, %nctaid.y;"
	" mov.u32 %r3, %nctaid.z;\n"
	"  mov.u32 %r4, %ntid.x; mov.u32 %r5, %ntid.y; mov.u32 %r6, %ntid.z;\n"
	"  mul.lo.u32 %r7, %r1, %r2; mul.lo.u32 %r7, %r7, %r3;\n"
	"  mul.lo.u32 %r7, %r7, %r4; mul.lo.u32 %r7, %r7, %r5;"
	" mul.lo.u32 %r7, %r7, %r6;\n"
	"  selp.b32 %r7, 0, %r7, %p1; selp.b32 %r8, 0, 1, %p1;\n"
	"  selp.b32 %r9, 999, 0, %p1;\n"
	"  setp.ne.u64 %p2, %rd1, 0; setp.ne.u64 %p3, %rd2, 0;\n"
	"  @%p2 st.u32 [%rd1], %r7;\n  @%p3 st.u32 [%rd2], %r8;\n"
	"  st.param.b32 [status], %r9;\n  ret;\n}\n"

	/* the thread's rank in the grid, and the grid's (0) */
	".weak .func (.param .b32 status) cudaCGGetRank(.param .b64 thread,"
	" .param .b64 grid, .param .b64 handle)\n{\n"
	"  .reg .b32 %r<16>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
	"  ld.param.b64 %rd1, [thread]; ld.param.b64 %rd2, [grid];"
	" ld.param.b64 %rd3, [handle];\n"
	"  setp.eq.u64 %p1, %rd3, 0;\n"
	"  mov.u32 %r1, %nctaid.x; mov.u32 %r2, %nctaid.y;\n"
	"  mov.u32 %r3, %ctaid.x; mov.u32 %r4, %ctaid.y; mov.u32 %r5, %ctaid.z;\n"
	"  mad.lo.u32 %r6, %r5, %r2, %r4; mad.lo.u32 %r6, %r6, %r1, %r3;\n"
	"  mov.u32 %r7, %ntid.x; mov.u32 %r8, %ntid.y; mov.u32 %r9, %ntid.z;\n"
	"  mov.u32 %r10, %tid.x; mov.u32 %r11, %tid.y; mov.u32 %r12, %tid.z;\n"
	"  mad.lo.u32 %r13, %r12, %r8, %r11; mad.lo.u32 %r13, %r13, %r7, %r10;\n"
	"  mul.lo.u32 %r14, %r7, %r8; mul.lo.u32 %r14, %r14, %r9;\n"
	"  mad.lo.u32 %r13, %r6, %r14, %r13;\n"
	"  selp.b32 %r13, 0, %r13, %p1; selp.b32 %r15, 999, 0, %p1;\n"
	"  setp.ne.u64 %p2, %rd1, 0; setp.ne.u64 %p3, %rd2, 0;\n"
	"  mov.u32 %r14, 0;\n"
	"  @%p2 st.u32 [%rd1], %r13;\n  @%p3 st.u32 [%rd2], %r14;\n"
	"  st.param.b32 [status], %r15;\n  ret;\n}\n";

/* Whether @m calls a function named cudaCG* that it does not define. */
static bool declares_cg(const struct ir_module *m)
{
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const struct ir_sym *s = m->syms[i];
		if (s->kind == SYM_FUNC && !s->alias_of &&
		    !(s->func && s->func->has_body) &&
		    !strncmp(s->name, "cudaCG", 6))
			return true;
	}
	return false;
}

int devrt_cg_add(struct ptx_program *prog, struct msgbuf *log)
{
	bool needed = false;
	for (uint32_t i = 0; i < prog->nmodules && !needed; i++)
		needed = declares_cg(prog->modules[i]);
	if (!needed)
		return PTX_OK;
	struct ir_module **mods = realloc(prog->modules, (prog->nmodules + 1) *
					  sizeof(*mods));
	if (!mods)
		return PTX_ERR_NO_MEMORY;
	prog->modules = mods;
	int st = PTX_ERR_NO_MEMORY;
	struct ir_module *m = ir_parse(devrt_cg_ptx, sizeof(devrt_cg_ptx) - 1,
				       "vcuda-devrt-cg", &st, log->buf,
				       log->cap);
	if (!m)
		return st;
	prog->modules[prog->nmodules++] = m;
	return ir_build_cfg(m, log) ? PTX_OK : PTX_ERR_NO_MEMORY;
}
