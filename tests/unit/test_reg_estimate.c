// SPDX-License-Identifier: MIT
/*
 * CU_FUNC_ATTRIBUTE_NUM_REGS as vcuda estimates it (libcuda/ptx/
 * reg_estimate.c): the most 32-bit registers live at once plus
 * REG_ESTIMATE_OVERHEAD, at least 16, at most what .maxnreg and
 * .maxntid leave. Each kernel loads values that stay live until it
 * stores them all, so its peak is known exactly; registers declared but
 * never live at the same time (NVVM's one per value) must not count.
 */
#include "harness.h"
#include "reg_estimate.h"
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OH REG_ESTIMATE_OVERHEAD

struct text {
	char buf[64 * 1024];
	size_t len;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(t->buf) - t->len)
		t->len += (size_t)n;
}

/* @n values of @type (b32 or b64) loaded from [%rd2] into %v<n>. */
static void load_values(struct text *t, const char *type, unsigned n)
{
	unsigned size = strcmp(type, "b64") ? 4 : 8;
	for (unsigned i = 0; i < n; i++)
		put(t, "  ld.global.volatile.%s %%v%u, [%%rd2+%u];\n", type, i,
		    i * size);
}

static void store_values(struct text *t, const char *type, unsigned n)
{
	unsigned size = strcmp(type, "b64") ? 4 : 8;
	for (unsigned i = 0; i < n; i++)
		put(t, "  st.global.volatile.%s [%%rd2+%u], %%v%u;\n", type,
		    i * size, i);
}

static void kernel_head(struct text *t, const char *name,
			const char *directives, const char *type, unsigned n)
{
	put(t, ".visible .entry %s(.param .u64 p)%s\n{\n", name, directives);
	put(t, "  .reg .%s %%v<%u>;\n  .reg .b64 %%rd<3>;\n", type, n);
	put(t, "  ld.param.u64 %%rd1, [p];\n"
	       "  cvta.to.global.u64 %%rd2, %%rd1;\n");
}

/* @n values of @type live at once (and %rd2, two units). */
static void all_live(struct text *t, const char *name, const char *directives,
		     const char *type, unsigned n)
{
	kernel_head(t, name, directives, type, n);
	load_values(t, type, n);
	store_values(t, type, n);
	put(t, "  ret;\n}\n");
}

/* 200 registers declared, each dead once the next is computed. */
static void chain(struct text *t)
{
	put(t, ".visible .entry chain(.param .u64 p)\n{\n"
	       "  .reg .b32 %%v<200>;\n  .reg .b64 %%rd<3>;\n"
	       "  ld.param.u64 %%rd1, [p];\n"
	       "  cvta.to.global.u64 %%rd2, %%rd1;\n"
	       "  ld.global.u32 %%v0, [%%rd2];\n");
	for (unsigned i = 1; i < 200; i++)
		put(t, "  add.u32 %%v%u, %%v%u, %u;\n", i, i - 1, i);
	put(t, "  st.global.u32 [%%rd2], %%v199;\n  ret;\n}\n");
}

/* 30 values and 40 predicates live at once: predicates take none. */
static void preds(struct text *t)
{
	kernel_head(t, "preds", "", "b32", 30);
	put(t, "  .reg .pred %%p<40>;\n");
	load_values(t, "b32", 30);
	for (unsigned i = 0; i < 40; i++)
		put(t, "  setp.ne.u32 %%p%u, %%v%u, %u;\n", i, i % 30, i);
	for (unsigned i = 0; i < 40; i++)
		put(t, "  @%%p%u st.global.u32 [%%rd2+%u], %%v%u;\n", i, 4 * i,
		    i % 30);
	store_values(t, "b32", 30);
	put(t, "  ret;\n}\n");
}

/* 30 values live around a loop's back edge, with its counter. */
static void loop(struct text *t)
{
	kernel_head(t, "loop", "", "b32", 30);
	put(t, "  .reg .b32 %%i;\n  .reg .pred %%done;\n");
	load_values(t, "b32", 30);
	put(t, "  mov.u32 %%i, 0;\nL_top:\n  add.u32 %%i, %%i, 1;\n"
	       "  setp.lt.u32 %%done, %%i, 8;\n  @%%done bra L_top;\n");
	store_values(t, "b32", 30);
	put(t, "  ret;\n}\n");
}

/* A function holding 20 values and its pointer (22 units), called
 * while the kernel holds 30 values and %rd2 (32 units). */
static void call(struct text *t)
{
	put(t, ".func hold20(.param .b64 a)\n{\n"
	       "  .reg .b32 %%v<20>;\n  .reg .b64 %%rd<3>;\n"
	       "  ld.param.b64 %%rd2, [a];\n");
	load_values(t, "b32", 20);
	store_values(t, "b32", 20);
	put(t, "  ret;\n}\n");
	kernel_head(t, "caller", "", "b32", 30);
	load_values(t, "b32", 30);
	put(t, "  { .param .b64 a; st.param.b64 [a], %%rd2;\n"
	       "    call.uni hold20, (a); }\n");
	store_values(t, "b32", 30);
	put(t, "  ret;\n}\n");
}

static struct ptx_program *build(void)
{
	static struct text t;
	put(&t, ".version 7.0\n.target sm_80\n.address_size 64\n");
	all_live(&t, "live32", "", "b32", 40);
	all_live(&t, "live64", "", "b64", 30);
	all_live(&t, "maxnreg", " .maxnreg 32", "b32", 40);
	all_live(&t, "maxntid", " .maxntid 1024, 1, 1", "b32", 80);
	all_live(&t, "huge", "", "b32", 300);
	chain(&t);
	preds(&t);
	loop(&t);
	call(&t);
	const char *texts[] = { t.buf }, *names[] = { "regs.ptx" };
	char log[2048];
	struct ptx_program *p = NULL;
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK) {
		tap_diag("%s", log);
		return NULL;
	}
	return p;
}

static bool regs_are(const struct ptx_program *p, const char *kernel,
		     uint32_t want)
{
	const struct ptx_kernel *k = p ? ptx_program_kernel(p, kernel) : NULL;
	struct ptx_kernel_info info = { 0 };
	if (!k)
		return false;
	ptx_kernel_get_info(k, &info);
	if (info.num_regs != want)
		tap_diag("%s: %u registers, want %u", kernel, info.num_regs,
			 want);
	return info.num_regs == want;
}

int main(void)
{
	struct ptx_program *p = build();
	tap_plan(8);
	tap_ok(regs_are(p, "live32", 40 + 2 + OH),
	       "40 .b32 values live at once, and a pointer");
	tap_ok(regs_are(p, "live64", 60 + 2 + OH),
	       "a .b64 takes two registers");
	tap_ok(regs_are(p, "chain", 16),
	       "200 declared, two live at once: the floor of 16");
	tap_ok(regs_are(p, "preds", 30 + 2 + OH),
	       "predicates are not data registers");
	tap_ok(regs_are(p, "loop", 30 + 2 + 1 + OH),
	       "values live around a loop count");
	tap_ok(regs_are(p, "caller", 32 + 22 + OH),
	       "a call adds the callee's peak to what lives across it");
	tap_ok(regs_are(p, "maxnreg", 32) && regs_are(p, "maxntid", 64),
	       ".maxnreg and .maxntid bound the estimate");
	tap_ok(regs_are(p, "huge", 255), "at most 255");
	if (p)
		ptx_program_destroy(p);
	return tap_done();
}
