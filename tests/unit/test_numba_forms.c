// SPDX-License-Identifier: MIT
/*
 * PTX forms that numba-cuda emits and that its own test suite checks:
 * .shared and .local variables aligned to 256 and 512 bytes, fma with
 * .relu on f16 and bf16, and a call with a return slot to a function
 * that returns nothing (numba's declaration of a C function returning
 * void). Runs on the default executor and on the interpreter.
 */
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

static struct ptx_program *build(const char *const *texts, size_t n)
{
	static const char *const names[] = { "forms_a.ptx", "forms_b.ptx" };
	char log[1024] = "";
	struct ptx_program *p = NULL;
	if (build_texts(texts, names, n, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("build: %s", log);
	return p;
}

static struct launch_cfg cfg_1d(uint32_t grid, uint32_t block)
{
	struct launch_cfg c = { .grid = { grid }, .block = { block } };
	return c;
}

/* ---- alignment ---- */

/*
 * Each thread writes the generic addresses of its variables modulo their
 * alignment: every word must be 0. Small variables come first, so that
 * only padding can align the big ones; 40 threads and 3 CTAs, so that
 * every thread's stack and the shared block of every CTA count.
 */
static const char align_text[] = HEAD
	".func (.param .b32 r) callee_local()\n{\n"
	"\t.local .align 4 .b8 pad[4];\n"
	"\t.local .align 512 .b8 big[16];\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u64 %rd1, big;\n\tcvta.local.u64 %rd1, %rd1;\n"
	"\tcvt.u32.u64 %r1, %rd1;\n\tand.b32 %r1, %r1, 511;\n"
	"\tmov.u64 %rd2, pad;\n\tst.local.u32 [%rd2], %r1;\n"
	"\tst.param.b32 [r], %r1;\n\tret;\n}\n"
	".visible .entry align_shared(.param .u64 out)\n{\n"
	"\t.shared .align 4 .b8 s4[4];\n"
	"\t.shared .align 512 .b8 s512[8];\n"
	"\t.shared .align 256 .b8 s256[8];\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmad.lo.u32 %r1, %r2, %r3, %r1;\n"
	"\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
	"\tst.shared.u32 [s4], %r1;\n"
	"\tmov.u64 %rd3, s512;\n\tcvta.shared.u64 %rd3, %rd3;\n"
	"\tcvt.u32.u64 %r2, %rd3;\n\tand.b32 %r2, %r2, 511;\n"
	"\tmov.u64 %rd4, s256;\n\tcvta.shared.u64 %rd4, %rd4;\n"
	"\tcvt.u32.u64 %r3, %rd4;\n\tand.b32 %r3, %r3, 255;\n"
	"\tst.global.v2.u32 [%rd1], {%r2, %r3};\n\tret;\n}\n"
	".visible .entry align_local(.param .u64 out)\n{\n"
	"\t.local .align 8 .b8 small[24];\n"
	"\t.local .align 256 .b8 l256[8];\n"
	"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmad.lo.u32 %r1, %r2, %r3, %r1;\n"
	"\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
	"\tmov.u64 %rd3, small;\n\tst.local.u32 [%rd3], %r1;\n"
	"\tmov.u64 %rd4, l256;\n\tcvta.local.u64 %rd4, %rd4;\n"
	"\tcvt.u32.u64 %r3, %rd4;\n\tand.b32 %r3, %r3, 255;\n"
	"\t{\n\t.param .b32 rv;\n"
	"\tcall.uni (rv), callee_local;\n"
	"\tld.param.b32 %r4, [rv];\n\t}\n"
	"\tst.global.v2.u32 [%rd1], {%r3, %r4};\n\tret;\n}\n";

static bool check_zero(const char *what, const uint32_t *out, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (out[i]) {
			tap_diag("%s: thread %u, variable %u: address %% "
				 "alignment = %u", what, i / 2, i % 2, out[i]);
			return false;
		}
	return true;
}

static bool test_alignment(void)
{
	const char *texts[] = { align_text };
	struct ptx_program *p = build(texts, 1);
	enum { CTAS = 3, THREADS = 40, WORDS = 2 * CTAS * THREADS };
	uint32_t *out = test_alloc(WORDS * 4);
	struct launch_cfg cfg = cfg_1d(CTAS, THREADS);
	const void *args[] = { &out };
	bool ok = p != NULL;
	memset(out, 0xff, WORDS * 4);
	ok = ok && run_ok(p, "align_shared", &cfg, args) &&
	     check_zero(".shared", out, WORDS);
	memset(out, 0xff, WORDS * 4);
	ok = ok && run_ok(p, "align_local", &cfg, args) &&
	     check_zero(".local", out, WORDS);
	ptx_program_destroy(p);
	return ok;
}

/* ---- fma.rn.relu ---- */

/*
 * Expected values follow the PTX ISA's rules for fma with .relu (a
 * negative result is +0, any NaN result the canonical NaN 0x7fff) and
 * IEEE 754 rounding to nearest even; they are worked out by hand, not
 * recorded on a GPU. Inputs are chosen so that each result is exact or
 * has one obvious rounding.
 */
struct relu_case {
	uint16_t a, b, c, want;
};

/* f16: 1 is 0x3c00, 2 0x4000, 1.5 0x3e00, 4 0x4400, -4 0xc400. */
static const struct relu_case relu_f16[] = {
	{ 0x3e00, 0x4000, 0x3c00, 0x4400 },	/* 1.5*2+1 = 4 */
	{ 0x3e00, 0x4000, 0xc400, 0x0000 },	/* -1 -> +0 */
	{ 0x8000, 0x3c00, 0x8000, 0x0000 },	/* -0 -> +0 */
	{ 0x7e01, 0x3c00, 0x3c00, 0x7fff },	/* NaN -> canonical */
	{ 0xfe00, 0x3c00, 0x3c00, 0x7fff },	/* -NaN -> canonical */
	{ 0x7c00, 0x0000, 0x3c00, 0x7fff },	/* inf*0: NaN */
	{ 0x7bff, 0x4000, 0x0000, 0x7c00 },	/* 65504*2: +inf */
	{ 0xfbff, 0x4000, 0x0000, 0x0000 },	/* -inf -> +0 */
	{ 0x3c00, 0x3c00, 0x1000, 0x3c00 },	/* 1+2^-11: tie to even */
	{ 0x3c01, 0x3c00, 0x1000, 0x3c02 },	/* tie to even, up */
	{ 0x0400, 0x3800, 0x0000, 0x0200 },	/* 2^-15, subnormal */
};

/* bf16: 1 is 0x3f80, 2 0x4000, 1.5 0x3fc0, 4 0x4080, -4 0xc080. */
static const struct relu_case relu_bf16[] = {
	{ 0x3fc0, 0x4000, 0x3f80, 0x4080 },	/* 1.5*2+1 = 4 */
	{ 0x3fc0, 0x4000, 0xc080, 0x0000 },	/* -1 -> +0 */
	{ 0x4000, 0x4040, 0xc0c0, 0x0000 },	/* 2*3-6 = +0 */
	{ 0x8000, 0x3f80, 0x8000, 0x0000 },	/* -0 -> +0 */
	{ 0x7fc1, 0x3f80, 0x3f80, 0x7fff },	/* NaN -> canonical */
	{ 0xffc0, 0x3f80, 0x3f80, 0x7fff },	/* -NaN -> canonical */
	{ 0x7f80, 0x0000, 0x3f80, 0x7fff },	/* inf*0: NaN */
	{ 0x7f7f, 0x4000, 0x0000, 0x7f80 },	/* max*2: +inf */
	{ 0xff7f, 0x4000, 0x0000, 0x0000 },	/* -inf -> +0 */
	{ 0x3f80, 0x3f80, 0x3b80, 0x3f80 },	/* 1+2^-8: tie to even */
	{ 0x3f81, 0x3f80, 0x3b80, 0x3f82 },	/* tie to even, up */
};

#define NRELU (sizeof(relu_f16) / sizeof(relu_f16[0]))

/* One thread per element; @bits 16 (scalar) or 32 (pair). */
static void relu_kernel(char *buf, size_t len, const char *name,
			const char *insn, unsigned bits)
{
	unsigned sz = bits / 8;
	snprintf(buf, len,
		 ".visible .entry %s(.param .u64 pa, .param .u64 pb, "
		 ".param .u64 pc, .param .u64 pd)\n{\n"
		 "\t.reg .b%u %%v<5>;\n\t.reg .b32 %%r<2>;\n"
		 "\t.reg .b64 %%rd<10>;\n"
		 "\tmov.u32 %%r1, %%tid.x;\n"
		 "\tmul.wide.u32 %%rd9, %%r1, %u;\n"
		 "\tld.param.u64 %%rd1, [pa];\n\tadd.s64 %%rd1, %%rd1, %%rd9;\n"
		 "\tld.param.u64 %%rd2, [pb];\n\tadd.s64 %%rd2, %%rd2, %%rd9;\n"
		 "\tld.param.u64 %%rd3, [pc];\n\tadd.s64 %%rd3, %%rd3, %%rd9;\n"
		 "\tld.param.u64 %%rd4, [pd];\n\tadd.s64 %%rd4, %%rd4, %%rd9;\n"
		 "\tld.global.b%u %%v1, [%%rd1];\n"
		 "\tld.global.b%u %%v2, [%%rd2];\n"
		 "\tld.global.b%u %%v3, [%%rd3];\n"
		 "\t%s %%v4, %%v1, %%v2, %%v3;\n"
		 "\tst.global.b%u [%%rd4], %%v4;\n\tret;\n}\n",
		 name, bits, sz, bits, bits, bits, insn, bits);
}

/*
 * Runs @kernel over @cases: scalars as given; pairs with case i in the
 * low half and case n-1-i in the high half, so both halves are checked.
 */
static bool run_relu(struct ptx_program *p, const char *kernel,
		     const struct relu_case *cases, bool pairs)
{
	unsigned n = NRELU, per = pairs ? 2 : 1;
	uint16_t *a = test_alloc(n * 4), *b = test_alloc(n * 4),
		 *c = test_alloc(n * 4), *d = test_alloc(n * 4), want[2 * NRELU];
	for (unsigned i = 0; i < n; i++)
		for (unsigned h = 0; h < per; h++) {
			const struct relu_case *k = &cases[h ? n - 1 - i : i];
			a[i * per + h] = k->a;
			b[i * per + h] = k->b;
			c[i * per + h] = k->c;
			want[i * per + h] = k->want;
			d[i * per + h] = 0x5555;
		}
	struct launch_cfg cfg = cfg_1d(1, n);
	const void *args[] = { &a, &b, &c, &d };
	if (!run_ok(p, kernel, &cfg, args))
		return false;
	for (unsigned i = 0; i < n * per; i++)
		if (d[i] != want[i]) {
			tap_diag("%s: %04x*%04x+%04x = %04x, want %04x", kernel,
				 a[i], b[i], c[i], d[i], want[i]);
			return false;
		}
	return true;
}

static bool test_fma_relu(void)
{
	static const struct {
		const char *name, *insn;
		const struct relu_case *cases;
		bool pairs;
	} forms[] = {
		{ "relu_f16", "fma.rn.relu.f16", relu_f16, false },
		{ "relu_f16x2", "fma.rn.relu.f16x2", relu_f16, true },
		{ "relu_bf16", "fma.rn.relu.bf16", relu_bf16, false },
		{ "relu_bf16x2", "fma.rn.relu.bf16x2", relu_bf16, true },
	};
	char text[8192] = HEAD;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t len = strlen(text);
		relu_kernel(text + len, sizeof(text) - len, forms[i].name,
			    forms[i].insn, forms[i].pairs ? 32 : 16);
	}
	const char *texts[] = { text };
	struct ptx_program *p = build(texts, 1);
	bool ok = p != NULL;
	for (size_t i = 0; ok && i < sizeof(forms) / sizeof(forms[0]); i++)
		ok = run_relu(p, forms[i].name, forms[i].cases,
			      forms[i].pairs);
	ptx_program_destroy(p);
	return ok;
}

/* .ftz flushes the subnormal result 2^-15 to +0, and the negative one
 * to +0 too. */
static bool test_fma_relu_ftz(void)
{
	static const struct relu_case cases[] = {
		{ 0x0400, 0x3800, 0x0000, 0x0000 },	/* 2^-15 */
		{ 0x8400, 0x3800, 0x0000, 0x0000 },	/* -2^-15 */
		{ 0x3e00, 0x4000, 0x3c00, 0x4400 },	/* 4 */
	};
	char text[4096] = HEAD;
	size_t len = strlen(text);
	relu_kernel(text + len, sizeof(text) - len, "relu_ftz",
		    "fma.rn.ftz.relu.f16", 16);
	const char *texts[] = { text };
	struct ptx_program *p = build(texts, 1);
	uint16_t *a = test_alloc(8), *b = test_alloc(8), *c = test_alloc(8),
		 *d = test_alloc(8);
	for (unsigned i = 0; i < 3; i++) {
		a[i] = cases[i].a;
		b[i] = cases[i].b;
		c[i] = cases[i].c;
		d[i] = 0x5555;
	}
	struct launch_cfg cfg = cfg_1d(1, 3);
	const void *args[] = { &a, &b, &c, &d };
	bool ok = p && run_ok(p, "relu_ftz", &cfg, args);
	for (unsigned i = 0; ok && i < 3; i++)
		if (d[i] != cases[i].want) {
			tap_diag("ftz.relu: %04x, want %04x", d[i],
				 cases[i].want);
			ok = false;
		}
	ptx_program_destroy(p);
	return ok;
}

/* ---- a return slot the callee does not fill ---- */

/* numba declares consume() with a .b64 return; the C definition returns
 * nothing. NVIDIA's linker links the pair (nvJitLink 13: reports
 * "Prototype doesn't match" and completes); the slot's value is
 * undefined, so only what the call does is checked. */
static const char caller_text[] = HEAD
	".extern .func (.param .b64 func_retval0) consume\n"
	"(\n\t.param .b64 p0,\n\t.param .b32 p1\n)\n;\n"
	".visible .entry call_void(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, 7;\n"
	"\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd1;\n"
	"\t.param .b32 param1;\n\tst.param.b32 [param1], %r1;\n"
	"\t.param .b64 retval0;\n"
	"\tcall.uni (retval0), consume, (param0, param1);\n"
	"\tld.param.b64 %rd2, [retval0];\n\t}\n"
	"\tshl.b32 %r2, %r1, 1;\n\tst.global.u32 [%rd1+4], %r2;\n"
	"\tret;\n}\n";

static const char callee_text[] = HEAD
	".visible .func consume(.param .b64 p0, .param .b32 p1)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p0];\n\tld.param.u32 %r1, [p1];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static bool test_call_void(void)
{
	const char *texts[] = { caller_text, callee_text };
	struct ptx_program *p = build(texts, 2);
	uint32_t *out = test_alloc(8);
	struct launch_cfg cfg = cfg_1d(1, 32);
	const void *args[] = { &out };
	bool ok = p && run_ok(p, "call_void", &cfg, args) && out[0] == 7 &&
		  out[1] == 14;
	if (p && !ok)
		tap_diag("call_void wrote %u %u, want 7 14", out[0], out[1]);
	ptx_program_destroy(p);
	return ok;
}

int main(void)
{
	tap_plan(4);
	tap_ok(test_alignment(), ".align 256 and 512 on .shared and .local");
	tap_ok(test_fma_relu(), "fma.rn.relu on f16, f16x2, bf16, bf16x2");
	tap_ok(test_fma_relu_ftz(), "fma.rn.ftz.relu.f16");
	tap_ok(test_call_void(), "a return slot to a function that has none");
	test_free_all();
	return tap_done();
}
