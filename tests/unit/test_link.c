// SPDX-License-Identifier: MIT
/*
 * Linker and program API: modules linked as nvlink would (extern against
 * visible, weak overridden, duplicates and unresolved names refused),
 * kernel information, variable placement and lookup.
 */
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static enum ptx_status build2(const char *a, const char *b,
			      struct ptx_program **p, char *log, size_t len)
{
	const char *texts[2] = { a, b }, *names[2] = { "a.ptx", "b.ptx" };
	return build_texts(texts, names, b ? 2 : 1, p, log, len);
}

/* out[tid] = f(tid) through a kernel in module A. */
static const char caller[] =
	HEAD ".extern .func (.param .b32 r) f(.param .b32 x);\n"
	".visible .entry k(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n"
	"\t.param .b32 r0;\n\tcall.uni (r0), f, (p0);\n"
	"\tld.param.b32 %r2, [r0];\n\t}\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";

static char *callee(const char *linkage, int k)
{
	char *s = malloc(512);
	snprintf(s, 512,
		 HEAD "%s .func (.param .b32 r) f(.param .b32 x)\n{\n"
		 "\t.reg .b32 %%r<3>;\n\tld.param.b32 %%r1, [x];\n"
		 "\tmul.lo.s32 %%r2, %%r1, %d;\n\tst.param.b32 [r], %%r2;\n"
		 "\tret;\n}\n", linkage, k);
	return s;
}

static bool run_caller(struct ptx_program *p, int k)
{
	int *out = test_alloc(32 * sizeof(int));
	struct launch_cfg cfg = { .block = { 32 } };
	const void *args[] = { &out };
	bool ok = run_ok(p, "k", &cfg, args);
	for (int i = 0; ok && i < 32; i++)
		ok = out[i] == i * k;
	return ok;
}

static bool test_extern(void)
{
	char log[512], *f = callee(".visible", 3);
	struct ptx_program *p;
	bool ok = build2(caller, f, &p, log, sizeof(log)) == PTX_OK &&
		  run_caller(p, 3);
	if (!ok)
		tap_diag("%s", log);
	ptx_program_destroy(p);
	free(f);
	return ok;
}

/* A weak definition in the caller's module loses to a visible one. */
static bool test_weak(void)
{
	char log[512], *weak = callee(".weak", 5), *strong = callee(".visible",
								    7);
	char *a = malloc(4096);
	/* caller + weak f in one module */
	snprintf(a, 4096, "%s%s", weak, strstr(caller, ".visible .entry"));
	struct ptx_program *p = NULL;
	bool ok = build2(a, strong, &p, log, sizeof(log)) == PTX_OK &&
		  run_caller(p, 7);
	ptx_program_destroy(p);
	p = NULL;
	ok = ok && build2(a, NULL, &p, log, sizeof(log)) == PTX_OK &&
	     run_caller(p, 5);
	if (!ok)
		tap_diag("%s", log);
	ptx_program_destroy(p);
	free(a);
	free(weak);
	free(strong);
	return ok;
}

static bool test_duplicate(void)
{
	char log[512] = "", *f1 = callee(".visible", 1),
	     *f2 = callee(".visible", 2);
	struct ptx_program *p = NULL;
	enum ptx_status st = build2(f1, f2, &p, log, sizeof(log));
	bool ok = st == PTX_ERR_LINK && strstr(log, "'f'") &&
		  strstr(log, "duplicate");
	if (!ok)
		tap_diag("status %d: %s", st, log);
	ptx_program_destroy(p);
	free(f1);
	free(f2);
	return ok;
}

static bool test_unresolved(void)
{
	char log[512] = "";
	struct ptx_program *p = NULL;
	enum ptx_status st = build2(caller, NULL, &p, log, sizeof(log));
	bool ok = st == PTX_ERR_LINK && strstr(log, "unresolved function 'f'");
	const char *var = HEAD ".extern .global .u32 gv;\n"
			  ".visible .entry k()\n{\n\t.reg .b32 %r1;\n"
			  "\tld.global.u32 %r1, [gv];\n\tret;\n}\n";
	enum ptx_status st2 = build2(var, NULL, &p, log + 256, 256);
	ok = ok && st2 == PTX_ERR_LINK && strstr(log + 256, "'gv'");
	if (!ok)
		tap_diag("status %d/%d: %s / %s", st, st2, log, log + 256);
	return ok;
}

/* Parameter layout, shared and local sizes, launch bounds. */
static bool test_kernel_info(void)
{
	const char *files[] = { "control.sm75.ptx" };
	char log[512];
	struct ptx_program *p = NULL;
	struct ptx_kernel_info vi, ti, ci;
	bool ok = build_corpus(files, 1, &p, log, sizeof(log)) == PTX_OK;
	const struct ptx_kernel *k = ok ? ptx_program_kernel(p, "transpose") :
					 NULL;
	ok = k && ptx_program_kernel(p, "calls") &&
	     !ptx_program_kernel(p, "nope");
	if (ok) {
		ptx_kernel_get_info(k, &ti);
		ptx_kernel_get_info(ptx_program_kernel(p, "calls"), &ci);
		ok = ti.param_count == 4 && ti.param_size == 24 &&
		     ti.params[2].offset == 16 && ti.params[3].offset == 20 &&
		     ti.params[3].size == 4 &&
		     ti.static_shared_size == 16 * 17 * 4 && ci.local_size >= 64;
	}
	ptx_program_destroy(p);
	const char *bounds = HEAD ".visible .entry b(.param .align 8 .b8 s[12])\n"
			     ".reqntid 64, 2, 1\n{\n\tret;\n}\n";
	ok = ok && build2(bounds, NULL, &p, log, sizeof(log)) == PTX_OK;
	if (ok) {
		ptx_kernel_get_info(ptx_program_kernel(p, "b"), &vi);
		ok = vi.reqntid[0] == 64 && vi.reqntid[1] == 2 &&
		     vi.max_threads == 128 && vi.params[0].size == 12 &&
		     vi.params[0].align == 8;
	}
	ptx_program_destroy(p);
	if (!ok)
		tap_diag("kernel info: %s", log);
	return ok;
}

/* User constant memory: the program's .const bank, each variable aligned. */
static bool test_const_size(void)
{
	const char *text = HEAD
		".const .align 4 .b32 one;\n"
		".const .align 8 .b8 table[44];\n"
		".const .align 4 .b8 unused[100];\n"
		".visible .entry uses(.param .u64 out)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.const.u32 %r1, [one];\n\tld.const.u32 %r2, [table+40];\n"
		"\tadd.u32 %r1, %r1, %r2;\n\tld.param.u64 %rd1, [out];\n"
		"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
		".visible .entry none()\n{\n\tret;\n}\n";
	char log[512] = "";
	struct ptx_program *p = NULL;
	struct ptx_kernel_info ui, ni;
	bool ok = build2(text, NULL, &p, log, sizeof(log)) == PTX_OK;

	if (ok) {
		ptx_kernel_get_info(ptx_program_kernel(p, "uses"), &ui);
		ptx_kernel_get_info(ptx_program_kernel(p, "none"), &ni);
		/* the program's whole bank, for each kernel, as NVIDIA's
		 * driver answers: one at 0, table at 8 (its alignment),
		 * unused at 52: 52 + 100 */
		ok = ui.const_size == 152 && ni.const_size == 152;
		if (!ok)
			tap_diag("const sizes %u and %u", ui.const_size,
				 ni.const_size);
	} else {
		tap_diag("%s", log);
	}
	ptx_program_destroy(p);
	return ok;
}

/* Variables: placed with their initial values, found by name. */
static bool test_variables(void)
{
	const char *files[] = { "globals.sm75.ptx" };
	char log[512];
	struct ptx_program *p = NULL;
	uint64_t counts, second, msg;
	size_t size, ssize, msize;
	bool ok = build_corpus(files, 1, &p, log, sizeof(log)) == PTX_OK &&
		  ptx_program_variable(p, "counts", &counts, &size) &&
		  ptx_program_variable(p, "second", &second, &ssize) &&
		  ptx_program_variable(p, "message", &msg, &msize) &&
		  !ptx_program_variable(p, "nothing", &msg, &msize);
	ok = ok && size == 16 && ssize == 8 && msize == 6;
	if (ok) {
		const int *c = (const int *)(uintptr_t)counts;
		uint64_t s;
		memcpy(&s, (const void *)(uintptr_t)second, 8);
		ok = c[0] == 1 && c[3] == 4 && s == counts + 4 &&
		     !strcmp((const char *)(uintptr_t)msg, "hello");
	}
	if (!ok)
		tap_diag("variables: %s", log);
	ptx_program_destroy(p);
	return ok;
}

/* rdc units from the corpus, linked (also as compute_90 PTX). */
static bool test_rdc_units(const char *suffix)
{
	char a[64], b[64], log[512];
	snprintf(a, sizeof(a), "rdc_a.%s.ptx", suffix);
	snprintf(b, sizeof(b), "rdc_b.%s.ptx", suffix);
	const char *files[] = { a, b };
	struct ptx_program *p = NULL;
	bool ok = build_corpus(files, 2, &p, log, sizeof(log)) == PTX_OK;
	int *out = test_alloc(64);
	struct launch_cfg cfg = { .block = { 16 } };
	const void *args[] = { &out };
	ok = ok && run_ok(p, "rdc_kernel", &cfg, args);
	for (int t = 0; ok && t < 16; t++)
		ok = out[t] == 3 * t + 80 + 40;
	if (!ok)
		tap_diag("%s", log);
	ptx_program_destroy(p);
	return ok;
}

/* .alias: the call goes to the aliased function. */
static bool test_alias(void)
{
	const char *files[] = { "hand.alias.ptx" };
	char log[512];
	struct ptx_program *p = NULL;
	bool ok = build_corpus(files, 1, &p, log, sizeof(log)) == PTX_OK;
	int *out = test_alloc(32 * 4);
	struct launch_cfg cfg = { .block = { 32 } };
	const void *args[] = { &out };
	ok = ok && run_ok(p, "use_alias", &cfg, args);
	for (int t = 0; ok && t < 32; t++)
		ok = out[t] == 9 * t;
	if (!ok)
		tap_diag("%s", log);
	ptx_program_destroy(p);
	return ok;
}

static bool test_bad_args(void)
{
	struct ptx_program *p = (struct ptx_program *)1;
	char log[64];
	return ptx_program_build(NULL, 0, &p, log, sizeof(log)) ==
		       PTX_ERR_INVALID && !p;
}

int main(void)
{
	tap_plan(12);
	tap_ok(test_extern(), ".extern resolved against .visible");
	tap_ok(test_weak(), ".weak overridden by .visible");
	tap_ok(test_duplicate(), "duplicate .visible is a link error");
	tap_ok(test_unresolved(), "unresolved function and variable");
	tap_ok(test_kernel_info(), "kernel info: params, shared, local, "
				   "bounds");
	tap_ok(test_const_size(), "kernel info: the constant bank's size");
	tap_ok(test_variables(), "variables placed and found");
	tap_ok(test_rdc_units("sm75"), "rdc units linked (compute_75)");
	tap_ok(test_rdc_units("sm80"), "rdc units linked (compute_80)");
	tap_ok(test_rdc_units("sm90"), "rdc units linked (compute_90)");
	tap_ok(test_alias(), ".alias");
	tap_ok(test_bad_args(), "invalid arguments");
	test_free_all();
	return tap_done();
}
