// SPDX-License-Identifier: MIT
/*
 * The JIT's vector form (libcuda/ptx/jit_emit_vec.c) against the
 * interpreter, the reference, and the scalar JIT (VCUDA_JIT_LANES=0):
 * kernels of tests/ptx/jit_lanes.cu and hand-written ones with guarded
 * instructions and with branches the vector form runs under a lane mask
 * (jit_emit_vmask.c), each run three ways on the same inputs; the
 * outputs, or the fault (its kind, address, CTA and thread), must be
 * the same bit for bit. Since the lane-by-lane paths give the same
 * results, the compile-time counts of the vector form's paths
 * (jit_stats) must show that each fast path was emitted too, and the
 * width chosen for a kernel (16 lanes, or 8 for blocks whose x extent
 * is not a multiple of 16) the one its blocks allow. Under
 * VCUDA_EXECUTOR=interp every test skips: there is no JIT to compare.
 */
#include "harness.h"
#include "jit.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NMODES = 3, NCASES = 34, NFAULT_TESTS = NMODES, NFAST = 8,
       NAPART_TESTS = NMODES, NWIDTH = 7,
       NTESTS = NCASES * (NMODES - 1) + NFAULT_TESTS + NFAST +
		NAPART_TESTS + NWIDTH };

/* @text built for mode @m: a comment of its own keeps the JIT from
 * sharing code between the builds of one text. */
static struct ptx_program *build_mode(const char *text, const char *name,
				      int m)
{
	size_t len = strlen(text) + 32;
	char *tagged = malloc(len), log[1024] = "";
	struct ptx_program *p = NULL;
	if (!tagged)
		return NULL;
	snprintf(tagged, len, "// mode %d\n%s", m, text);
	const char *texts[] = { tagged }, *names[] = { name };
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("%s: %s", name, log);
	free(tagged);
	return p;
}

/* One kernel's launch: inputs copied in, outputs compared. */
struct lanes_case {
	const char *text, *file, *kernel;
	struct launch_cfg cfg;
	unsigned nargs;
	size_t size[6];		/* bytes of buffer arguments; 0: a u32 */
	uint32_t value[6];	/* the u32 arguments */
	bool output[6];
	void (*fill)(unsigned arg, void *buf, size_t size);
	bool faults;		/* compare the fault, not the outputs */
};

/* What identifies a fault: all but the message's wording. */
static void fault_bytes(const struct ptx_fault *f, uint8_t *out,
			size_t *len)
{
	uint64_t w[8] = { f->kind, f->addr, f->cta[0], f->cta[1], f->cta[2],
			  f->thread[0], f->thread[1], f->thread[2] };
	memcpy(out, w, sizeof(w));
	*len = sizeof(w);
}

/* A fault's address in one of @c's buffers as its offset there, tagged
 * with the buffer's number: the same in every mode. */
static void relative_fault(struct ptx_fault *f, const struct lanes_case *c,
			   void *const *bufs)
{
	for (unsigned a = 0; a < c->nargs; a++) {
		uint64_t base = (uint64_t)(uintptr_t)bufs[a];
		if (bufs[a] && f->addr >= base &&
		    f->addr - base < c->size[a] + 256) {
			f->addr = f->addr - base + ((uint64_t)(a + 1) << 48);
			return;
		}
	}
}

/* Runs @c on mode @m; its outputs concatenated in @out (malloc'ed). */
static bool run_mode(const struct lanes_case *c, int m, uint8_t **out,
		     size_t *out_len)
{
	set_exec_mode(m);
	struct ptx_program *p = build_mode(c->text, c->file, m);
	void *bufs[6] = { 0 };
	const void *args[6];
	size_t total = 0;
	for (unsigned a = 0; a < c->nargs; a++) {
		if (!c->size[a]) {
			args[a] = &c->value[a];
			continue;
		}
		bufs[a] = test_alloc(c->size[a]);
		c->fill(a, bufs[a], c->size[a]);
		args[a] = &bufs[a];
		total += c->output[a] ? c->size[a] : 0;
	}
	struct ptx_fault fault = { 0 };
	bool ok = p && (c->faults ? !run(p, c->kernel, &c->cfg, args, &fault) :
				    run_ok(p, c->kernel, &c->cfg, args));
	if (c->faults)
		total = 64;
	*out = malloc(total ? total : 1);
	*out_len = 0;
	if (ok && *out && c->faults) {
		relative_fault(&fault, c, bufs);
		fault_bytes(&fault, *out, out_len);
	}
	for (unsigned a = 0; ok && *out && !c->faults && a < c->nargs; a++)
		if (c->output[a]) {
			memcpy(*out + *out_len, bufs[a], c->size[a]);
			*out_len += c->size[a];
		}
	if (p)
		ptx_program_destroy(p);
	unset_exec_mode();
	return ok && *out;
}

static void check_case(const struct lanes_case *c)
{
	uint8_t *res[NMODES] = { 0 };
	size_t len[NMODES];
	bool ran[NMODES];
	for (int m = 0; m < NMODES; m++)
		ran[m] = run_mode(c, m, &res[m], &len[m]);
	for (int m = 1; m < NMODES; m++) {
		bool same = ran[0] && ran[m] && len[m] == len[0] &&
			    !memcmp(res[m], res[0], len[0]);
		for (size_t i = 0; ran[0] && ran[m] && !same && i < len[0];
		     i += 4)
			if (memcmp(res[m] + i, res[0] + i, 4)) {
				tap_diag("byte %zu: %08x, interpreter %08x", i,
					 *(uint32_t *)(res[m] + i),
					 *(uint32_t *)(res[0] + i));
				break;
			}
		tap_ok(same, "%s on the %s as on the interpreter", c->kernel,
		       exec_mode_name[m]);
	}
	for (int m = 0; m < NMODES; m++)
		free(res[m]);
}

/* ---- inputs ---- */

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* Small floats and counts, the same for every mode. */
static void fill_mixed(unsigned arg, void *buf, size_t size)
{
	uint32_t seed = 0x9e3779b9u + arg, *w = buf;
	for (size_t i = 0; i < size / 4; i++) {
		uint32_t r = xorshift(&seed);
		float f = (float)(r % 2000) / 500.0f - 2.0f;
		if (arg == 0)
			memcpy(&w[i], &f, 4);
		else if (arg == 1)
			w[i] = r;
		else
			w[i] = 0;
	}
}

static void fill_ints(unsigned arg, void *buf, size_t size)
{
	uint32_t seed = 12345u + arg, *w = buf;
	bool in = arg < 3;
	for (size_t i = 0; i < size / 4; i++)
		w[i] = in ? xorshift(&seed) % 1000 : 0;
}

static void fill_bytes(unsigned arg, void *buf, size_t size)
{
	uint32_t seed = 777u + arg;
	uint8_t *b = buf;
	bool in = arg < 3;
	for (size_t i = 0; i < size; i++)
		b[i] = in ? (uint8_t)xorshift(&seed) : 0;
	if (arg == 2)	/* float4s: keep them finite */
		for (size_t i = 0; i < size / 4; i++) {
			float f = (float)(i * 37 % 101) - 50.5f;
			memcpy(b + 4 * i, &f, 4);
		}
}

/* The CTA's two warps wait at two different bar.sync: the interpreter
 * counts them at barrier 0 alike, the JIT needs its regions' threads to
 * meet and faults (its vector form checks where a region reaches two
 * barriers). */
static const char apart_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_apart(.param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.lt.u32 %p1, %r1, 32;\n\t@%p1 bra LOW;\n"
	"\tbar.sync 0;\n\tbra.uni DONE;\nLOW:\n\tbar.sync 0;\nDONE:\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";

static void check_apart(void)
{
	for (int m = 0; m < NMODES; m++) {
		set_exec_mode(m);
		struct ptx_program *p = build_mode(apart_text, "apart.ptx", m);
		uint32_t *out = test_alloc(64 * 4);
		const void *args[1] = { &out };
		struct launch_cfg cfg = { .grid = { 1 }, .block = { 64 } };
		struct ptx_fault f;
		memset(&f, 0, sizeof(f));
		bool ran = p && run(p, "lanes_apart", &cfg, args, &f);
		if (m == 0)
			tap_ok(ran && out[63] == 63,
			       "lanes_apart runs through on the interpreter");
		else
			tap_ok(p && !ran &&
				       f.kind == PTX_FAULT_ILLEGAL_INSTRUCTION,
			       "lanes_apart faults on the %s (barriers apart)",
			       exec_mode_name[m]);
		if (p)
			ptx_program_destroy(p);
	}
	unset_exec_mode();
}

static const char guards_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_guards(.param .u64 out, .param .u32 n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %tid.x;\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tand.b32 %r3, %r2, 3;\n\tsetp.eq.u32 %p1, %r3, 1;\n"
	"\tmov.u32 %r4, 100;\n"
	"\t@%p1 add.u32 %r4, %r4, %r2;\n"	/* parts the group */
	"\tsetp.lt.u32 %p2, %r2, %r1;\n"
	"\t@%p2 add.u32 %r4, %r4, 7;\n"	/* the same in every lane */
	"\t@!%p2 add.u32 %r4, %r4, 1000;\n"
	"\tst.global.u32 [%rd3], %r4;\n"
	"\tsetp.eq.u32 %p3, %r3, 2;\n"
	"\t@%p3 exit;\n"
	"\t@%p1 st.global.u32 [%rd3], %r2;\n"
	"\tret;\n}\n";

/*
 * Forward branches with a guard that differs within a group. In
 * lanes_masked the piece (a shared load of s[tid - k], arithmetic, a
 * predicate) runs under a mask: the lanes that jump (tid < k) would
 * read below the shared window. lanes_masked_fault's piece loads 4 KiB
 * further in group 0: its active lanes fault, the first of them (tid k)
 * named. The branch of lanes_masked_store skips a load and a store (run
 * masked too) and that of lanes_masked_nested a piece with a branch of
 * its own: groups part.
 */
#define MASKED_HEAD(name) \
	".visible .entry " name "(.param .u64 out, .param .u64 in, " \
	".param .u32 k)\n{\n" \
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n" \
	"\t.shared .align 4 .b8 s[512];\n" \
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n" \
	"\tld.param.u32 %r1, [k];\n\tcvta.to.global.u64 %rd1, %rd1;\n" \
	"\tcvta.to.global.u64 %rd2, %rd2;\n\tmov.u32 %r2, %tid.x;\n" \
	"\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n" \
	"\tld.global.u32 %r3, [%rd4];\n\tmov.u32 %r4, s;\n" \
	"\tshl.b32 %r5, %r2, 2;\n\tadd.s32 %r6, %r4, %r5;\n" \
	"\tst.shared.u32 [%r6], %r3;\n\tbar.sync 0;\n" \
	"\tmov.u32 %r7, 5;\n\tsetp.eq.u32 %p2, %r2, 1;\n" \
	"\tshr.u32 %r11, %r2, 3;\n\tsetp.eq.u32 %p3, %r11, 0;\n" \
	"\tselp.u32 %r12, 4096, 0, %p3;\n" \
	"\tshl.b32 %r8, %r1, 2;\n\tsub.s32 %r9, %r6, %r8;\n" \
	"\tsetp.lt.u32 %p1, %r2, %r1;\n"
#define MASKED_TAIL \
	"$L1:\n\tselp.u32 %r10, 1000, 0, %p2;\n" \
	"\tadd.s32 %r10, %r10, %r7;\n\tbar.sync 0;\n" \
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r10;\n" \
	"\tret;\n}\n"

static const char masked_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	MASKED_HEAD("lanes_masked")
	"\t@%p1 bra $L1;\n"
	"\tld.shared.u32 %r7, [%r9];\n\tadd.s32 %r7, %r7, %r2;\n"
	"\tsetp.gt.u32 %p2, %r7, 500;\n"
	MASKED_TAIL
	MASKED_HEAD("lanes_masked_fault")
	"\t@%p1 bra $L1;\n"
	"\tadd.s32 %r13, %r9, %r12;\n\tld.shared.u32 %r7, [%r13];\n"
	MASKED_TAIL
	MASKED_HEAD("lanes_masked_store")
	"\t@%p1 bra $L1;\n"
	"\tld.shared.u32 %r7, [%r9];\n\tst.shared.u32 [%r6+256], %r2;\n"
	MASKED_TAIL
	MASKED_HEAD("lanes_masked_nested")
	"\t@%p1 bra $L1;\n"
	"\tld.shared.u32 %r7, [%r9];\n\t@%p2 bra $L1;\n"
	"\tadd.s32 %r7, %r7, 77;\n"
	MASKED_TAIL;

#define MASKED_CASE(name, k, fault) \
	{ masked_text, "masked.ptx", name, { .grid = { 2 }, .block = { 64 } }, \
	  3, { 4 * 64, 4 * 64, 0 }, { [2] = k }, { [0] = true }, fill_ints, \
	  fault }

/*
 * Addresses of every shape the vector form tells apart at compile time
 * (ir_shape.c): contiguous (also .v2 and .v4), uniform (a parameter's,
 * a row's), strided by twice the element, gathered through an index; shared memory
 * stored contiguously and read at a row's address and in a loop whose
 * branch is uniform; a branch that is not; stores contiguous and at
 * one address for the whole CTA (of data the same in every thread:
 * which thread stores last is not defined).
 */
static const char shapes_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_shapes(.param .u64 out, .param .u64 in,\n"
	"\t.param .u64 idx, .param .u32 n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n"
	"\t.shared .align 4 .b32 s[64];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u64 %rd3, [idx];\n\tld.param.u32 %r1, [n];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tcvta.to.global.u64 %rd3, %rd3;\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %tid.y;\n"
	"\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %ntid.x;\n"
	"\tmad.lo.s32 %r6, %r3, %r5, %r2;\n"
	"\tmul.lo.s32 %r7, %r4, 64;\n\tadd.s32 %r8, %r7, %r6;\n"
	"\tmul.wide.u32 %rd4, %r8, 4;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
	"\tld.global.u32 %r9, [%rd5];\n"		/* contiguous */
	"\tld.global.u32 %r10, [%rd2+4];\n"		/* uniform */
	"\tmul.wide.u32 %rd6, %r3, 4;\n\tadd.s64 %rd7, %rd2, %rd6;\n"
	"\tld.global.u32 %r11, [%rd7+8];\n"		/* a row's */
	"\tmul.wide.u32 %rd8, %r8, 8;\n\tadd.s64 %rd9, %rd2, %rd8;\n"
	"\tld.global.u32 %r12, [%rd9];\n"		/* stride 8 */
	"\tld.global.v2.u32 {%r30, %r31}, [%rd9];\n"	/* contiguous v2 */
	"\tmul.wide.u32 %rd16, %r8, 16;\n\tadd.s64 %rd17, %rd2, %rd16;\n"
	"\tld.global.v4.u32 {%r32, %r33, %r34, %r35}, [%rd17];\n"
	"\txor.b32 %r30, %r30, %r33;\n\txor.b32 %r31, %r31, %r35;\n"
	"\tsub.s32 %r36, %r32, %r34;\n"
	"\tadd.s64 %rd10, %rd3, %rd4;\n\tld.global.u32 %r13, [%rd10];\n"
	"\tand.b32 %r13, %r13, 127;\n\tmul.wide.u32 %rd11, %r13, 4;\n"
	"\tadd.s64 %rd12, %rd2, %rd11;\n"
	"\tld.global.u32 %r14, [%rd12];\n"		/* gathered */
	"\tshl.b32 %r15, %r6, 2;\n\tmov.u32 %r16, s;\n"
	"\tadd.s32 %r17, %r16, %r15;\n\tst.shared.u32 [%r17], %r9;\n"
	"\tbar.sync 0;\n"
	"\tshl.b32 %r18, %r3, 2;\n\tadd.s32 %r19, %r16, %r18;\n"
	"\tld.shared.u32 %r20, [%r19];\n"
	"\tmov.u32 %r21, 0;\n\tmov.u32 %r22, 0;\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $Ldone;\n"
	"$Lloop:\n\tshl.b32 %r23, %r21, 2;\n\tadd.s32 %r24, %r16, %r23;\n"
	"\tld.shared.u32 %r25, [%r24];\n\tadd.s32 %r22, %r22, %r25;\n"
	"\tadd.s32 %r21, %r21, 1;\n\tsetp.lt.u32 %p2, %r21, %r1;\n"
	"\t@%p2 bra $Lloop;\n"
	"$Ldone:\n\tand.b32 %r26, %r2, 1;\n\tsetp.eq.u32 %p3, %r26, 1;\n"
	"\tmov.u32 %r27, 0;\n\t@%p3 bra $Lodd;\n\tbra $Ljoin;\n"
	"$Lodd:\n\tmov.u32 %r27, 1000;\n"
	"$Ljoin:\n\tmad.lo.s32 %r28, %r10, 3, %r9;\n"
	"\tmad.lo.s32 %r28, %r11, 5, %r28;\n\tmad.lo.s32 %r28, %r12, 7, %r28;\n"
	"\tmad.lo.s32 %r28, %r14, 11, %r28;\n\tmad.lo.s32 %r28, %r20, 13, %r28;\n"
	"\tmad.lo.s32 %r28, %r22, 17, %r28;\n\tadd.s32 %r28, %r28, %r27;\n"
	"\tmad.lo.s32 %r28, %r30, 19, %r28;\n\tmad.lo.s32 %r28, %r31, 23, %r28;\n"
	"\tmad.lo.s32 %r28, %r36, 29, %r28;\n"
	"\tst.global.v2.u32 [%rd9+2048], {%r36, %r30};\n"
	"\tadd.s64 %rd13, %rd1, %rd4;\n\tst.global.u32 [%rd13], %r28;\n"
	"\tmul.wide.u32 %rd14, %r4, 16;\n\tadd.s64 %rd15, %rd1, %rd14;\n"
	"\tst.global.u32 [%rd15+512], %r10;\n"	/* one address */
	"\tst.global.v2.u32 [%rd15+520], {%r4, %r10};\n"
	"\tret;\n}\n";

/*
 * Strides the vector form knows at compile time, other than the
 * element's (jit_emit_vstride.c): loads and stores of 1, 2, 4 and 8
 * bytes and .v2, 2 to 32 bytes apart (a span the group reads whole, or
 * a gather), backwards, in global and shared memory; one load whose
 * last lane reads the input's last bytes (the span's check fails
 * there). Each kind of store writes a region of out of its own.
 */
static const char strided_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_strided(.param .u64 out, .param .u64 in)\n{\n"
	"\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<40>;\n"
	"\t.shared .align 16 .b8 sh[4096];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
	"\tmad.lo.s32 %r3, %r2, 64, %r1;\n"
	"\tmul.wide.u32 %rd3, %r3, 8;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r4, [%rd4+4];\n"		/* 8 apart: a span */
	"\tmul.wide.u32 %rd5, %r3, 32;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
	"\tld.global.u32 %r5, [%rd6+12];\n"		/* 32: a gather */
	"\tmul.wide.u32 %rd7, %r3, 16;\n\tadd.s64 %rd8, %rd2, %rd7;\n"
	"\tld.global.v2.u32 {%r6, %r7}, [%rd8+8];\n"
	"\tld.global.v2.u32 {%r8, %r9}, [%rd6+16];\n"
	"\tmul.wide.u32 %rd9, %r3, 2;\n\tadd.s64 %rd10, %rd2, %rd9;\n"
	"\tld.global.s8 %r10, [%rd10+1];\n"
	"\tmul.wide.u32 %rd11, %r3, 6;\n\tadd.s64 %rd12, %rd2, %rd11;\n"
	"\tld.global.s16 %r11, [%rd12+2];\n"
	"\tmul.wide.u32 %rd13, %r3, 24;\n\tadd.s64 %rd14, %rd2, %rd13;\n"
	"\tld.global.u64 %rd15, [%rd14];\n"
	"\tsub.s64 %rd17, %rd2, %rd3;\n"
	"\tld.global.u32 %r12, [%rd17+2040];\n"	/* backwards */
	"\tld.global.u32 %r13, [%rd8+2060];\n"	/* ends at in's end */
	"\tadd.s32 %r20, %r4, %r5;\n\txor.b32 %r20, %r20, %r6;\n"
	"\tadd.s32 %r20, %r20, %r7;\n\txor.b32 %r20, %r20, %r8;\n"
	"\tadd.s32 %r20, %r20, %r9;\n\txor.b32 %r20, %r20, %r10;\n"
	"\tadd.s32 %r20, %r20, %r11;\n\tcvt.u32.u64 %r21, %rd15;\n"
	"\txor.b32 %r20, %r20, %r21;\n\tadd.s32 %r20, %r20, %r12;\n"
	"\txor.b32 %r20, %r20, %r13;\n"
	"\tadd.s64 %rd20, %rd1, %rd7;\n\tst.global.u32 [%rd20+4], %r20;\n"
	"\tadd.s64 %rd21, %rd1, %rd5;\n"
	"\tst.global.v2.u32 [%rd21+2056], {%r10, %r20};\n"
	"\tadd.s64 %rd22, %rd1, %rd9;\n\tst.global.u8 [%rd22+6145], %r20;\n"
	"\tadd.s64 %rd23, %rd1, %rd11;\n\tst.global.u16 [%rd23+6402], %r11;\n"
	"\tadd.s64 %rd24, %rd1, %rd13;\n\tst.global.u64 [%rd24+7168], %rd15;\n"
	"\tsub.s64 %rd25, %rd1, %rd3;\n\tst.global.u32 [%rd25+11256], %r12;\n"
	"\tshl.b32 %r22, %r1, 5;\n\tmov.u32 %r23, sh;\n"
	"\tadd.s32 %r24, %r23, %r22;\n\tst.shared.u32 [%r24+4], %r20;\n"
	"\tshl.b32 %r25, %r1, 3;\n\tadd.s32 %r26, %r23, %r25;\n"
	"\tst.shared.v2.u32 [%r26+2048], {%r4, %r5};\n"
	"\tbar.sync 0;\n"
	"\tld.shared.u32 %r27, [%r24+4];\n"
	"\tld.shared.v2.u32 {%r28, %r29}, [%r26+2048];\n"
	"\tadd.s32 %r27, %r27, %r28;\n\txor.b32 %r27, %r27, %r29;\n"
	"\tmul.wide.u32 %rd26, %r3, 4;\n\tadd.s64 %rd27, %rd1, %rd26;\n"
	"\tst.global.u32 [%rd27+11264], %r27;\n"
	"\tret;\n}\n"
	/* lanes 16 bytes apart, past in's end from thread 15 on */
	".visible .entry lanes_stride_fault(.param .u64 out, .param .u64 in)\n"
	"{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4+8];\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r2;\n"
	"\tret;\n}\n"
	/* the same for a store, in out */
	".visible .entry lanes_stride_store_fault(.param .u64 out,\n"
	"\t.param .u64 in)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5+8], %r1;\n"
	"\tret;\n}\n";

/*
 * Runs of strided accesses done as one (jit_emit_vrun.c). lanes_run:
 * four u32 loads 4 bytes apart, 16 bytes a lane, out of order with
 * arithmetic between, as scan's in[4 * tid + k]; two u64 loads 8 apart;
 * four s32 loads where an add between reads a later load's destination
 * (no run); four u32 stores 4 apart, 16 a lane, with arithmetic between,
 * as scan's out[4 * tid + k]; two u64 stores 8 apart; three stores that
 * leave a gap in each lane's 16 bytes (no run); and four whose first
 * data register is written after its store (no run either).
 * lanes_run_fault: the run's third store passes out's end in thread 31,
 * after the first two stored in every lane; lanes_lrun_fault: a load
 * run's span passes in's end in thread 31.
 */
static const char run_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_run(.param .u64 out, .param .u64 in)\n{\n"
	"\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<20>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n"
	"\tmad.lo.s32 %r3, %r2, 64, %r1;\n"
	"\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r4, [%rd4];\n"
	"\tmul.wide.u32 %rd5, %r3, 16;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
	"\tadd.s64 %rd11, %rd2, %rd5;\n"
	"\tld.global.u32 %r10, [%rd11+4];\n\tld.global.u32 %r11, [%rd11];\n"
	"\tadd.s32 %r12, %r10, %r11;\n\tld.global.u32 %r13, [%rd11+8];\n"
	"\tadd.s32 %r12, %r12, %r13;\n\tld.global.u32 %r14, [%rd11+12];\n"
	"\tadd.s32 %r4, %r4, %r14;\n\txor.b32 %r4, %r4, %r12;\n"
	"\tld.global.s32 %r10, [%rd11+1024];\n\tadd.s32 %r15, %r14, 1;\n"
	"\tld.global.s32 %r14, [%rd11+1028];\n"
	"\tld.global.s32 %r11, [%rd11+1032];\n"
	"\tld.global.s32 %r13, [%rd11+1036];\n"
	"\tadd.s32 %r4, %r4, %r10;\n\tadd.s32 %r4, %r4, %r14;\n"
	"\tadd.s32 %r4, %r4, %r11;\n\tadd.s32 %r4, %r4, %r13;\n"
	"\tadd.s32 %r4, %r4, %r15;\n"
	"\tld.global.u64 %rd12, [%rd11+2056];\n"
	"\tld.global.u64 %rd13, [%rd11+2048];\n"
	"\txor.b64 %rd12, %rd12, %rd13;\n\tcvt.u32.u64 %r16, %rd12;\n"
	"\tadd.s32 %r4, %r4, %r16;\n"
	"\tst.global.u32 [%rd6], %r4;\n\tadd.s32 %r5, %r4, %r3;\n"
	"\tst.global.u32 [%rd6+4], %r5;\n\txor.b32 %r6, %r5, 3;\n"
	"\tmul.lo.s32 %r7, %r6, 5;\n\tst.global.u32 [%rd6+8], %r6;\n"
	"\tst.global.u32 [%rd6+12], %r7;\n"
	"\tcvt.u64.u32 %rd7, %r7;\n\tshl.b64 %rd8, %rd7, 33;\n"
	"\tadd.s64 %rd9, %rd6, 2048;\n\tst.global.u64 [%rd9], %rd8;\n"
	"\tor.b64 %rd10, %rd8, 7;\n\tst.global.u64 [%rd9+8], %rd10;\n"
	"\tst.global.u32 [%rd6+4096], %r5;\n"
	"\tst.global.u32 [%rd6+4100], %r6;\n"
	"\tst.global.u32 [%rd6+4108], %r7;\n"
	"\tst.global.u32 [%rd6+6144], %r4;\n\tadd.s32 %r4, %r4, 1;\n"
	"\tst.global.u32 [%rd6+6148], %r4;\n\tst.global.u32 [%rd6+6152], %r6;\n"
	"\tst.global.u32 [%rd6+6156], %r7;\n"
	"\tret;\n}\n"
	".visible .entry lanes_run_fault(.param .u64 out, .param .u64 in)\n"
	"{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r1;\n"
	"\tst.global.u32 [%rd5+4], %r1;\n\tst.global.u32 [%rd5+8], %r1;\n"
	"\tst.global.u32 [%rd5+12], %r1;\n"
	"\tret;\n}\n"
	".visible .entry lanes_lrun_fault(.param .u64 out, .param .u64 in)\n"
	"{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4+8];\n"
	"\tld.global.u32 %r3, [%rd4];\n\tld.global.u32 %r4, [%rd4+12];\n"
	"\tld.global.u32 %r5, [%rd4+4];\n\tadd.s32 %r2, %r2, %r3;\n"
	"\tadd.s32 %r2, %r2, %r4;\n\tadd.s32 %r2, %r2, %r5;\n"
	"\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
	"\tst.global.u32 [%rd6], %r2;\n"
	"\tret;\n}\n";

/*
 * Stores in pieces run under a lane mask (jit_emit_vmask_st.c). In
 * lanes_masked_st the lanes with tid % 4 != 0 load s[tid - 1] and store
 * to global and shared memory (the others, holding an address of their
 * own in out and data, must not); then the odd lanes store their tid at
 * out[64 + tid / 4], two lanes to a word (the later lane's stays). In
 * lanes_masked_st_fault out ends at thread 60's word: thread 60 is
 * masked out, 61 faults after 57 to 59 have stored.
 */
static const char masked_st_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_masked_st(.param .u64 out, .param .u64 in,\n"
	"\t.param .u32 k)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<12>;\n"
	"\t.shared .align 4 .b8 s[512];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [k];\n\tmov.u32 %r2, %tid.x;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r3, [%rd4];\n\tshl.b32 %r4, %r2, 2;\n"
	"\tmov.u32 %r5, s;\n\tadd.s32 %r6, %r5, %r4;\n"
	"\tst.shared.u32 [%r6], %r3;\n\tst.shared.u32 [%r6+256], %r3;\n"
	"\tbar.sync 0;\n"
	"\tand.b32 %r7, %r2, 3;\n\tsetp.eq.u32 %p1, %r7, 0;\n"
	"\tcvta.to.global.u64 %rd11, %rd1;\n\tadd.s64 %rd6, %rd11, %rd3;\n"
	"\tadd.s64 %rd6, %rd6, 576;\n\tmov.u32 %r8, 99;\n"
	"\t@%p1 bra $L1;\n"
	"\tld.shared.u32 %r8, [%r6+-4];\n\tadd.s32 %r8, %r8, %r1;\n"
	"\tcvta.to.global.u64 %rd5, %rd1;\n\tadd.s64 %rd6, %rd5, %rd3;\n"
	"\tst.global.u32 [%rd6], %r8;\n\tst.shared.u32 [%r6+256], %r8;\n"
	"$L1:\n\tbar.sync 0;\n"
	"\tcvta.to.global.u64 %rd7, %rd1;\n\tshr.u32 %r9, %r2, 2;\n"
	"\tmul.wide.u32 %rd8, %r9, 4;\n\tadd.s64 %rd9, %rd7, %rd8;\n"
	"\tand.b32 %r10, %r2, 1;\n\tsetp.eq.u32 %p2, %r10, 0;\n"
	"\t@%p2 bra $L2;\n"
	"\tst.global.u32 [%rd9+256], %r2;\n"
	"$L2:\n\tld.shared.u32 %r11, [%r6+256];\n"
	"\tadd.s64 %rd10, %rd7, %rd3;\n\tst.global.u32 [%rd10+320], %r11;\n"
	"\tret;\n}\n"
	".visible .entry lanes_masked_st_fault(.param .u64 out,\n"
	"\t.param .u64 in, .param .u32 k)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r2, %tid.x;\n"
	"\tand.b32 %r3, %r2, 3;\n\tsetp.eq.u32 %p1, %r3, 0;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n\tcvta.to.global.u64 %rd5, %rd1;\n"
	"\tadd.s64 %rd6, %rd5, %rd3;\n"
	"\t@%p1 bra $L1;\n"
	"\tst.global.u32 [%rd6], %r2;\n"
	"$L1:\n\tret;\n}\n";

/* A counter every write of which is the same in every lane, left by
 * the lanes after different trips round a loop: the scalar loop ends
 * the region, and after the barrier the vector form must not read an
 * address made of it as the same in every lane. */
static const char rejoin_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_rejoin(.param .u64 out, .param .u64 in)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 3;\n"
	"\tmov.u32 %r3, 0;\n"
	"$Lloop:\n\tsetp.ge.u32 %p1, %r3, %r2;\n\t@%p1 bra $Lout;\n"
	"\tadd.u32 %r3, %r3, 1;\n\tbra $Lloop;\n"
	"$Lout:\n\tbar.sync 0;\n"
	"\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r4, [%rd4];\n"
	"\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
	"\tst.global.u32 [%rd6], %r4;\n\tret;\n}\n";

/*
 * Contiguous shared accesses, thread t at word t + 4, whose group ends
 * exactly at the end of the shared window, 128 bytes (whole 128-byte
 * units, as an H200's: lanes_span, 28 threads; the vector form's one
 * check of the span must pass it) and past it (lanes_span_fault, 40
 * threads: the window ends at word 32, inside a group, whose check
 * fails, and its lanes find the fault in thread 28, as the interpreter
 * does).
 */
#define SPAN_KERNEL(name, words) \
	".visible .entry " name "(.param .u64 out, .param .u32 k)\n{\n" \
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n" \
	"\t.shared .align 4 .b32 s[" words "];\n" \
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [k];\n" \
	"\tmov.u32 %r2, %tid.x;\n\tshl.b32 %r3, %r2, 2;\n" \
	"\tmov.u32 %r4, s;\n\tadd.s32 %r4, %r4, 16;\n" \
	"\tadd.s32 %r5, %r4, %r3;\n" \
	"\tmad.lo.s32 %r6, %r2, %r1, 5;\n\tst.shared.u32 [%r5], %r6;\n" \
	"\tbar.sync 0;\n\tld.shared.u32 %r7, [%r5];\n" \
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n" \
	"\tst.global.u32 [%rd3], %r7;\n\tret;\n}\n"

static const char span_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	SPAN_KERNEL("lanes_span", "32")
	SPAN_KERNEL("lanes_span_fault", "12");

/*
 * Shared-memory atomics of every operation and width the JIT does
 * inline (and f32 add, which it calls out for; cas and exch keep a
 * kernel on the interpreter), lanes colliding on eight words per
 * operation: the old values each lane gets and the words left must be
 * the interpreter's, lane order and all (one warp: the order of warps
 * is not defined). Shared words start as
 * 3 * index (u32) and 3 * index * (2^32 + 1) (u64). In lanes_satom_fault
 * thread k's address lies 4 KiB past the window: the fault names it.
 */
#define SATOM(name) \
	".visible .entry " name "(.param .u64 out, .param .u64 in, " \
	".param .u32 k)\n{\n" \
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<40>;\n" \
	"\t.reg .f32 %f<4>;\n\t.shared .align 8 .b8 s[1024];\n" \
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n" \
	"\tld.param.u32 %r1, [k];\n\tcvta.to.global.u64 %rd1, %rd1;\n" \
	"\tcvta.to.global.u64 %rd2, %rd2;\n\tmov.u32 %r2, %tid.x;\n" \
	"\tmov.u32 %r3, s;\n\tshl.b32 %r4, %r2, 2;\n" \
	"\tadd.s32 %r5, %r3, %r4;\n\tmul.lo.s32 %r6, %r2, 3;\n" \
	"\tst.shared.u32 [%r5], %r6;\n\tadd.s32 %r7, %r6, 192;\n" \
	"\tst.shared.u32 [%r5+256], %r7;\n\tadd.s32 %r7, %r6, 96;\n" \
	"\tst.shared.u32 [%r5+128], %r7;\n\tadd.s32 %r7, %r6, 288;\n" \
	"\tst.shared.u32 [%r5+384], %r7;\n\tshl.b32 %r8, %r2, 3;\n" \
	"\tadd.s32 %r9, %r3, %r8;\n\tcvt.u64.u32 %rd3, %r6;\n" \
	"\tmul.lo.u64 %rd3, %rd3, 4294967297;\n" \
	"\tst.shared.u64 [%r9+512], %rd3;\n" \
	"\tadd.u64 %rd3, %rd3, 412316860512;\n" \
	"\tst.shared.u64 [%r9+768], %rd3;\n\tbar.sync 0;\n" \
	"\tmul.wide.u32 %rd4, %r2, 4;\n\tadd.s64 %rd5, %rd2, %rd4;\n" \
	"\tld.global.u32 %r10, [%rd5];\n\tand.b32 %r11, %r10, 7;\n" \
	"\tsetp.eq.u32 %p1, %r2, %r1;\n\tselp.u32 %r14, 4096, 0, %p1;\n" \
	"\tshl.b32 %r12, %r11, 2;\n\tadd.s32 %r13, %r3, %r12;\n" \
	"\tadd.s32 %r13, %r13, %r14;\n\tshl.b32 %r15, %r11, 3;\n" \
	"\tadd.s32 %r16, %r3, %r15;\n\tsub.s32 %r17, %r10, 500;\n" \
	"\tatom.shared.add.u32 %r20, [%r13], %r10;\n" \
	"\tatom.shared.min.s32 %r21, [%r13+32], %r17;\n" \
	"\tatom.shared.max.u32 %r22, [%r13+64], %r10;\n" \
	"\tatom.shared.and.b32 %r23, [%r13+96], %r10;\n" \
	"\tatom.shared.or.b32 %r24, [%r13+128], %r10;\n" \
	"\tatom.shared.xor.b32 %r25, [%r13+160], %r10;\n" \
	"\tatom.shared.add.u32 %r26, [%r13+192], %r17;\n" \
	"\tatom.shared.inc.u32 %r27, [%r13+224], 170;\n" \
	"\tatom.shared.inc.u32 %r28, [%r13+256], 200;\n" \
	"\tatom.shared.dec.u32 %r29, [%r13+288], 220;\n" \
	"\tatom.shared.max.s32 %r30, [%r13+320], %r17;\n" \
	"\tatom.shared.min.u32 %r31, [%r13+352], %r10;\n" \
	"\tred.shared.add.u32 [%r13+384], %r10;\n" \
	"\tcvt.rn.f32.u32 %f1, %r10;\n\tmul.f32 %f1, %f1, 0f3DCCCCCD;\n" \
	"\tatom.shared.add.f32 %f2, [%r13+416], %f1;\n" \
	"\tmov.b32 %r32, %f2;\n\tadd.s32 %r16, %r16, %r14;\n" \
	"\tcvt.u64.u32 %rd6, %r10;\n\tmul.lo.u64 %rd6, %rd6, 4294967311;\n" \
	"\tcvt.s64.s32 %rd7, %r17;\n" \
	"\tatom.shared.add.u64 %rd10, [%r16+512], %rd6;\n" \
	"\tatom.shared.min.s64 %rd11, [%r16+576], %rd7;\n" \
	"\tatom.shared.max.u64 %rd12, [%r16+640], %rd6;\n" \
	"\tatom.shared.and.b64 %rd13, [%r16+704], %rd6;\n" \
	"\tatom.shared.or.b64 %rd14, [%r16+768], %rd6;\n" \
	"\tatom.shared.add.u64 %rd15, [%r16+832], %rd7;\n" \
	"\tatom.shared.max.s64 %rd16, [%r16+896], %rd7;\n" \
	"\tatom.shared.xor.b64 %rd17, [%r16+960], %rd6;\n" \
	"\tmul.wide.u32 %rd20, %r2, 128;\n\tadd.s64 %rd21, %rd1, %rd20;\n" \
	"\tst.global.v4.u32 [%rd21], {%r20, %r21, %r22, %r23};\n" \
	"\tst.global.v4.u32 [%rd21+16], {%r24, %r25, %r26, %r27};\n" \
	"\tst.global.v4.u32 [%rd21+32], {%r28, %r29, %r30, %r31};\n" \
	"\tst.global.u32 [%rd21+48], %r32;\n" \
	"\tst.global.v2.u64 [%rd21+64], {%rd10, %rd11};\n" \
	"\tst.global.v2.u64 [%rd21+80], {%rd12, %rd13};\n" \
	"\tst.global.v2.u64 [%rd21+96], {%rd14, %rd15};\n" \
	"\tst.global.v2.u64 [%rd21+112], {%rd16, %rd17};\n" \
	"\tbar.sync 0;\n\tadd.s64 %rd22, %rd1, %rd4;\n" \
	"\tld.shared.u32 %r33, [%r5];\n\tst.global.u32 [%rd22+8192], %r33;\n" \
	"\tld.shared.u32 %r33, [%r5+128];\n" \
	"\tst.global.u32 [%rd22+8320], %r33;\n" \
	"\tld.shared.u32 %r33, [%r5+256];\n" \
	"\tst.global.u32 [%rd22+8448], %r33;\n" \
	"\tld.shared.u32 %r33, [%r5+384];\n" \
	"\tst.global.u32 [%rd22+8576], %r33;\n" \
	"\tmul.wide.u32 %rd23, %r2, 8;\n\tadd.s64 %rd24, %rd1, %rd23;\n" \
	"\tld.shared.u64 %rd18, [%r9+512];\n" \
	"\tst.global.u64 [%rd24+8704], %rd18;\n" \
	"\tld.shared.u64 %rd18, [%r9+768];\n" \
	"\tst.global.u64 [%rd24+8960], %rd18;\n\tret;\n}\n"

static const char satom_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	SATOM("lanes_satom") SATOM("lanes_satom_fault");

#define SATOM_CASE(name, k, fault) \
	{ satom_text, "satom.ptx", name, { .grid = { 1 }, .block = { 32 } }, \
	  3, { 8192 + 1024, 4 * 32, 0 }, { [2] = k }, { [0] = true }, \
	  fill_ints, fault }

/* A grid-stride loop summing in: its load steps by the grid's width,
 * which the vector form prefetches ahead (jit_emit_vprefetch.c); the
 * lanes leave the loop after different trips at the end. */
static const char gridstride_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_gridstride(.param .u64 out, .param .u64 in,\n"
	"\t.param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [n];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n\tmov.u32 %r2, %tid.x;\n"
	"\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n"
	"\tmad.lo.s32 %r5, %r3, %r4, %r2;\n\tmov.u32 %r6, %nctaid.x;\n"
	"\tmul.lo.s32 %r7, %r6, %r4;\n\tmov.u32 %r8, 0;\n"
	"\tmov.u32 %r9, %r5;\n\tsetp.ge.u32 %p1, %r9, %r1;\n"
	"\t@%p1 bra $Ldone;\n"
	"$Lloop:\n\tmul.wide.u32 %rd3, %r9, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r10, [%rd4];\n\tadd.s32 %r8, %r8, %r10;\n"
	"\tadd.s32 %r9, %r9, %r7;\n\tsetp.lt.u32 %p1, %r9, %r1;\n"
	"\t@%p1 bra $Lloop;\n"
	"$Ldone:\n\tmul.wide.u32 %rd5, %r5, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
	"\tst.global.u32 [%rd6], %r8;\n\tret;\n}\n";
/*
 * Grid-stride loops whose groups take turns (jit_emit_vyield.c), 16
 * trips a turn: lanes_turns sums floats (each thread's order of adds must
 * stay) and counts its trips; n leaves a partial last trip, where a
 * group parts ways. Element i == k is read 4 KiB further on: for k =
 * 6700 (CTA 2's thread 44, 35th trip) just past the input, where that
 * one thread faults, after two turns of every group.
 * lanes_turns_hist counts bytes with shared atomics whose old values
 * no one reads (atom and red, add and max), then merges with global
 * atomics. lanes_turns_outer runs its grid-stride loop three times,
 * a barrier after each: region 0 and region 1 (past that barrier) each
 * hold the loop and take turns in their own loops over the groups;
 * out and %r20 are live through region 1's loop but untouched there,
 * so its turns leave them in their save slots for region 2, past the
 * last barrier.
 */
static const char turns_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_turns(.param .u64 in, .param .u64 out,\n"
	"\t.param .u32 n, .param .u32 k)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<20>;\n"
	"\t.reg .b64 %rd<8>;\n\t.shared .align 4 .b8 s[256];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [n];\n\tld.param.u32 %r15, [k];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %nctaid.x;\n"
	"\tmad.lo.s32 %r6, %r4, %r3, %r2;\n\tmul.lo.s32 %r7, %r5, %r3;\n"
	"\tmov.f32 %f1, 0f00000000;\n\tmov.u32 %r8, 0;\n"
	"\tsetp.ge.s32 %p1, %r6, %r1;\n\t@%p1 bra $Lend;\n"
	"$Lloop:\n\tsetp.eq.u32 %p3, %r6, %r15;\n"
	"\tselp.u32 %r16, 4096, 0, %p3;\n\tcvt.u64.u32 %rd7, %r16;\n"
	"\tmul.wide.s32 %rd3, %r6, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tadd.s64 %rd4, %rd4, %rd7;\n\tld.global.f32 %f2, [%rd4];\n"
	"\tadd.f32 %f1, %f1, %f2;\n\tadd.s32 %r8, %r8, 1;\n"
	"\tadd.s32 %r6, %r6, %r7;\n\tsetp.lt.s32 %p2, %r6, %r1;\n"
	"\t@%p2 bra $Lloop;\n"
	"$Lend:\n\tshl.b32 %r9, %r2, 2;\n\tmov.u32 %r10, s;\n"
	"\tadd.s32 %r11, %r10, %r9;\n\tst.shared.f32 [%r11], %f1;\n"
	"\tbar.sync 0;\n\txor.b32 %r12, %r2, 1;\n\tshl.b32 %r13, %r12, 2;\n"
	"\tadd.s32 %r13, %r10, %r13;\n\tld.shared.f32 %f3, [%r13];\n"
	"\tmad.lo.s32 %r14, %r4, %r3, %r2;\n\tmul.wide.u32 %rd5, %r14, 8;\n"
	"\tadd.s64 %rd6, %rd1, %rd5;\n\tst.global.f32 [%rd6], %f3;\n"
	"\tst.global.u32 [%rd6+4], %r8;\n\tret;\n}\n"
	".visible .entry lanes_turns_hist(.param .u64 in, .param .u64 out,\n"
	"\t.param .u32 n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n"
	"\t.shared .align 4 .b8 h[512];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [n];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %nctaid.x;\n"
	"\tmov.u32 %r10, h;\n\tshl.b32 %r9, %r2, 2;\n"
	"\tadd.s32 %r11, %r10, %r9;\n\tmov.u32 %r12, 0;\n"
	"\tst.shared.u32 [%r11], %r12;\n\tst.shared.u32 [%r11+256], %r12;\n"
	"\tbar.sync 0;\n"
	"\tmad.lo.s32 %r6, %r4, %r3, %r2;\n\tmul.lo.s32 %r7, %r5, %r3;\n"
	"\tsetp.ge.s32 %p1, %r6, %r1;\n\t@%p1 bra $Lend;\n"
	"$Lloop:\n\tcvt.s64.s32 %rd3, %r6;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u8 %r13, [%rd4];\n\tand.b32 %r14, %r13, 63;\n"
	"\tshl.b32 %r15, %r14, 2;\n\tadd.s32 %r16, %r10, %r15;\n"
	"\tatom.shared.add.u32 %r17, [%r16], 1;\n"
	"\tred.shared.max.u32 [%r16+256], %r6;\n"
	"\tadd.s32 %r6, %r6, %r7;\n\tsetp.lt.s32 %p2, %r6, %r1;\n"
	"\t@%p2 bra $Lloop;\n"
	"$Lend:\n\tbar.sync 0;\n\tmul.wide.u32 %rd5, %r2, 4;\n"
	"\tadd.s64 %rd6, %rd1, %rd5;\n\tld.shared.u32 %r18, [%r11];\n"
	"\tatom.global.add.u32 %r19, [%rd6], %r18;\n"
	"\tld.shared.u32 %r20, [%r11+256];\n"
	"\tmad.lo.s32 %r21, %r4, %r3, %r2;\n\tmul.wide.u32 %rd7, %r21, 4;\n"
	"\tadd.s64 %rd7, %rd1, %rd7;\n\tst.global.u32 [%rd7+256], %r20;\n"
	"\tret;\n}\n"
	".visible .entry lanes_turns_outer(.param .u64 in, .param .u64 out,\n"
	"\t.param .u32 n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<24>;\n"
	"\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [n];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %nctaid.x;\n"
	"\tmad.lo.s32 %r9, %r4, %r3, %r2;\n\tmul.lo.s32 %r7, %r5, %r3;\n"
	"\tmul.lo.s32 %r20, %r2, 3;\n\tmov.f32 %f1, 0f00000000;\n"
	"\tmov.u32 %r10, 0;\n"
	"$Louter:\n\tmov.u32 %r6, %r9;\n\tsetp.ge.s32 %p1, %r6, %r1;\n"
	"\t@%p1 bra $Lnext;\n"
	"$Lloop:\n\tmul.wide.s32 %rd3, %r6, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.f32 %f2, [%rd4];\n\tadd.f32 %f1, %f1, %f2;\n"
	"\tadd.s32 %r6, %r6, %r7;\n\tsetp.lt.s32 %p2, %r6, %r1;\n"
	"\t@%p2 bra $Lloop;\n"
	"$Lnext:\n\tbar.sync 0;\n\tadd.s32 %r10, %r10, 1;\n"
	"\tsetp.lt.u32 %p3, %r10, 3;\n\t@%p3 bra $Louter;\n"
	"\tbar.sync 0;\n\tmul.wide.u32 %rd5, %r9, 8;\n"
	"\tadd.s64 %rd6, %rd1, %rd5;\n\tst.global.f32 [%rd6], %f1;\n"
	"\tst.global.u32 [%rd6+4], %r20;\n\tret;\n}\n";

/*
 * Shared accesses whose checks one test at a stretch's start stands for
 * (jit_emit_vproof.c). lanes_proof: a tiled product's loads off a base
 * the same in every lane (a row of ta) and one strided by 4 (a column
 * of tb), .v2 and a lower offset among them, a store, fma and mul then
 * add; after a barrier, a base whose low 32 bits wrap past 2^32 with
 * its offsets (the test fails, the checked copy reads ta[0..3]); after
 * another, loads out of range in the rows whose guard skips them.
 * lanes_proof_fault: rows 640 bytes apart in 2 KiB: the third load of
 * thread (0, 3) is the first out of range.
 */
static const char proof_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_proof(.param .u64 out, .param .u64 in,\n"
	"\t.param .u32 k)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<40>;\n\t.reg .f32 %f<12>;\n"
	"\t.reg .b64 %rd<12>;\n"
	"\t.shared .align 16 .b8 ta[1024];\n"
	"\t.shared .align 16 .b8 tb[1024];\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tld.param.u32 %r1, [k];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tcvta.to.global.u64 %rd2, %rd2;\n\tmov.u32 %r2, %tid.x;\n"
	"\tmov.u32 %r3, %tid.y;\n\tmov.u32 %r4, %ctaid.x;\n"
	"\tshl.b32 %r5, %r3, 4;\n\tadd.s32 %r6, %r5, %r2;\n"
	"\tshl.b32 %r7, %r4, 6;\n\tadd.s32 %r8, %r7, %r6;\n"
	"\tmul.wide.u32 %rd3, %r8, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r9, [%rd4];\n\tld.global.u32 %r10, [%rd4+512];\n"
	"\tcvt.rn.f32.s32 %f1, %r9;\n\tcvt.rn.f32.s32 %f2, %r10;\n"
	"\tmul.f32 %f1, %f1, 0f3DCCCCCD;\n"
	"\tshl.b32 %r11, %r6, 2;\n\tmov.u32 %r12, ta;\n"
	"\tadd.s32 %r13, %r12, %r11;\n\tst.shared.f32 [%r13], %f1;\n"
	"\tmov.u32 %r14, tb;\n\tadd.s32 %r15, %r14, %r11;\n"
	"\tst.shared.f32 [%r15], %f2;\n\tst.shared.u32 [%r13+256], %r9;\n"
	"\tst.shared.u32 [%r15+256], %r10;\n"
	"\tbar.sync 0;\n"
	"\tshl.b32 %r16, %r3, 6;\n\tadd.s32 %r17, %r12, %r16;\n"
	"\tshl.b32 %r18, %r2, 2;\n\tadd.s32 %r19, %r14, %r18;\n"
	"\tld.shared.f32 %f3, [%r17];\n\tld.shared.f32 %f4, [%r19];\n"
	"\tfma.rn.f32 %f5, %f3, %f4, %f1;\n"
	"\tld.shared.f32 %f6, [%r17+4];\n\tld.shared.f32 %f7, [%r19+64];\n"
	"\tmul.rn.f32 %f8, %f6, %f7;\n\tadd.rn.f32 %f5, %f5, %f8;\n"
	"\tld.shared.f32 %f6, [%r17+8];\n\tld.shared.f32 %f7, [%r19+128];\n"
	"\tfma.rn.f32 %f5, %f6, %f7, %f5;\n"
	"\tld.shared.f32 %f6, [%r17+12];\n\tld.shared.f32 %f7, [%r19+192];\n"
	"\tmul.rn.f32 %f8, %f6, %f7;\n\tadd.rn.f32 %f5, %f5, %f8;\n"
	"\tld.shared.v2.u32 {%r20, %r21}, [%r17+256];\n"
	"\tld.shared.u32 %r22, [%r19+252];\n"
	"\tadd.s32 %r23, %r20, %r21;\n\tadd.s32 %r23, %r23, %r22;\n"
	"\tst.shared.f32 [%r13+512], %f5;\n"
	"\tbar.sync 0;\n"
	"\tadd.s32 %r24, %r12, -4096;\n"
	"\tld.shared.u32 %r25, [%r24+4096];\n"
	"\tld.shared.u32 %r26, [%r24+4100];\n"
	"\tld.shared.u32 %r27, [%r24+4104];\n"
	"\tld.shared.f32 %f9, [%r13+512];\n"
	"\tld.shared.u32 %r28, [%r24+4108];\n"
	"\txor.b32 %r25, %r25, %r26;\n\tadd.s32 %r25, %r25, %r27;\n"
	"\txor.b32 %r25, %r25, %r28;\n"
	"\tbar.sync 0;\n"
	"\tsetp.ge.u32 %p1, %r3, %r1;\n"
	"\tshl.b32 %r29, %r3, 10;\n\tadd.s32 %r30, %r14, %r29;\n"
	"\tmov.u32 %r31, 7;\n\tmov.u32 %r32, 7;\n"
	"\t@!%p1 ld.shared.u32 %r31, [%r30];\n"
	"\t@!%p1 ld.shared.u32 %r32, [%r30+4];\n"
	"\t@!%p1 ld.shared.u32 %r33, [%r30+8];\n"
	"\t@!%p1 ld.shared.u32 %r34, [%r30+12];\n"
	"\tadd.s32 %r31, %r31, %r32;\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.f32 [%rd5], %f5;\n"
	"\tst.global.u32 [%rd5+512], %r23;\n"
	"\tst.global.u32 [%rd5+1024], %r25;\n"
	"\tst.global.u32 [%rd5+1536], %r31;\n"
	"\tst.global.f32 [%rd5+2048], %f9;\n"
	"\tret;\n}\n"
	".visible .entry lanes_proof_fault(.param .u64 out, .param .u64 in,\n"
	"\t.param .u32 k)\n{\n"
	"\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<8>;\n"
	"\t.shared .align 16 .b8 ta[2048];\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r2, %tid.x;\n"
	"\tmov.u32 %r3, %tid.y;\n\tmov.u32 %r12, ta;\n"
	"\tmul.lo.s32 %r16, %r3, 640;\n\tadd.s32 %r17, %r12, %r16;\n"
	"\tshl.b32 %r18, %r2, 2;\n\tadd.s32 %r19, %r17, %r18;\n"
	"\tld.shared.u32 %r20, [%r19];\n\tld.shared.u32 %r21, [%r19+64];\n"
	"\tld.shared.u32 %r22, [%r19+128];\n"
	"\tld.shared.u32 %r23, [%r19+192];\n"
	"\tadd.s32 %r20, %r20, %r21;\n\tadd.s32 %r20, %r20, %r22;\n"
	"\tadd.s32 %r20, %r20, %r23;\n"
	"\tshl.b32 %r5, %r3, 4;\n\tadd.s32 %r6, %r5, %r2;\n"
	"\tmul.wide.u32 %rd3, %r6, 4;\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r20;\n"
	"\tret;\n}\n";

#define PROOF_CASE(name, fault) \
	{ proof_text, "proof.ptx", name, \
	  { .grid = { 2 }, .block = { 16, 4, 1 } }, 3, { 2560, 1024, 0 }, \
	  { [2] = 1 }, { [0] = true }, fill_ints, fault }

/* A load at an address that is the same in a row of 16 threads and
 * outside memory from the second row on: the fault names (0, 1, 0). */
static const char fault_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_fault(.param .u64 out, .param .u64 in)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n"
	"\tmul.wide.u32 %rd3, %r2, 268435456;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r3, [%rd4];\n"
	"\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd1, %rd5;\n"
	"\tst.global.u32 [%rd6], %r3;\n\tret;\n}\n";

/*
 * The vector form's paths a kernel must have been compiled with: at
 * least this many sites of each kind (jit_stats). The comparisons above
 * cannot see them: each slow path gives the same results.
 */
struct fast_case {
	const char *text, *file, *kernel;
	struct jit_stats want;
};

static void print_stats(const char *kernel, const struct jit_stats *s)
{
	tap_diag("%s: vector %d, contiguous %u, uniform %u, span %u, "
		 "gather %u, by shape %u, lanes only %u, masked store %u, "
		 "shared atom %u, prefetch %u, store runs %u, load runs %u",
		 kernel, s->vector, s->contiguous, s->uniform, s->stride_span,
		 s->stride_gather, s->by_shape, s->lanes_only,
		 s->masked_store, s->shared_atom, s->prefetch, s->store_runs,
		 s->load_runs);
}

static bool at_least(const struct jit_stats *got, const struct jit_stats *w)
{
	return got->counted && got->vector == w->vector &&
	       got->contiguous >= w->contiguous &&
	       got->uniform >= w->uniform &&
	       got->stride_span >= w->stride_span &&
	       got->stride_gather >= w->stride_gather &&
	       got->by_shape >= w->by_shape &&
	       got->lanes_only >= w->lanes_only &&
	       got->masked_store >= w->masked_store &&
	       got->shared_atom >= w->shared_atom &&
	       got->prefetch >= w->prefetch &&
	       got->store_runs >= w->store_runs &&
	       got->load_runs >= w->load_runs;
}

/* Compiles @c's kernel for the vector JIT, no launch, and checks its
 * counts (the disk cache is off: code read from it has none). */
static void check_fast(const struct fast_case *c)
{
	set_exec_mode(2);
	struct ptx_program *p = c->text ? build_mode(c->text, c->file, 2) :
					  NULL;
	struct ptx_kernel *k =
		(struct ptx_kernel *)ptx_program_kernel(p, c->kernel);
	bool ok = k && jit_compile_wait(k) && k->jit;
	if (ok && !at_least(&k->jit->stats, &c->want)) {
		print_stats(c->kernel, &k->jit->stats);
		ok = false;
	}
	if (ok && getenv("TEST_PRINT_STATS"))
		print_stats(c->kernel, &k->jit->stats);
	tap_ok(ok, "%s: the vector form's fast paths were compiled",
	       c->kernel);
	if (p)
		ptx_program_destroy(p);
	unsetenv("VCUDA_EXECUTOR");
}

/* A kernel whose blocks must be 24 threads wide (.reqntid). */
static const char reqntid_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry lanes_req(.param .u64 out)\n.reqntid 24, 1, 1\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";

/* The width of @kernel's vector form, compiled after a launch of
 * blocks @block (NULL: before any) asked for it, under
 * VCUDA_JIT_LANES=@lanes (NULL: unset); 0 when not compiled. */
static unsigned width_for(const char *text, const char *file,
			  const char *kernel, const uint32_t *block,
			  const char *lanes)
{
	set_exec_mode(2);
	if (lanes)
		setenv("VCUDA_JIT_LANES", lanes, 1);
	struct ptx_program *p = text ? build_mode(text, file, 2) : NULL;
	const struct ptx_kernel *k = p ? ptx_program_kernel(p, kernel) : NULL;
	if (k && block)
		ptx_kernel_prepare_for(k, block);
	unsigned w = 0;
	if (k && ptx_kernel_compile(k) && k->jit->stats.counted &&
	    k->jit->stats.vector)
		w = k->jit->stats.width;
	if (p)
		ptx_program_destroy(p);
	unset_exec_mode();
	return w;
}

static void check_width(const char *text, const char *file,
			const char *kernel, const uint32_t *block,
			const char *lanes, unsigned want, const char *what)
{
	unsigned got = width_for(text, file, kernel, block, lanes);
	tap_ok(got == want, "%s: %u lanes (want %u)", what, got, want);
}

/* The width chosen per kernel, by its blocks' x extent and its loops. */
static void check_widths(const char *text)
{
	const char *f = "jit_lanes.sm75.ptx", *k = "lanes_memory";
	const uint32_t rows8[3] = { 8, 8, 1 }, rows48[3] = { 48, 1, 1 };
	const uint32_t rows40[3] = { 40, 1, 1 };
	check_width(text, f, k, NULL, NULL, 16, "compiled before a launch");
	check_width(text, f, k, rows8, NULL, 8, "blocks of 8x8");
	check_width(text, f, k, rows40, NULL, 8, "blocks of 40");
	check_width(text, f, k, rows48, NULL, 16, "blocks of 48");
	check_width(text, f, k, rows48, "8", 8, "VCUDA_JIT_LANES=8");
	check_width(reqntid_text, "reqntid.ptx", "lanes_req", NULL, NULL, 8,
		    ".reqntid 24");
	/* groups of a streaming loop take turns: 8 lanes stream faster */
	check_width(gridstride_text, "gridstride.ptx", "lanes_gridstride",
		    rows48, NULL, 8, "a grid-stride loop, blocks of 48");
}

/* The fault of lanes_fault on mode @m, its address made relative to
 * the input's; false if it ran through. */
static bool fault_mode(int m, struct ptx_fault *f)
{
	set_exec_mode(m);
	struct ptx_program *p = build_mode(fault_text, "fault.ptx", m);
	uint32_t *out = test_alloc(64 * 4), *in = test_alloc(64 * 4);
	const void *args[2] = { &out, &in };
	struct launch_cfg cfg = { .grid = { 1 }, .block = { 16, 4, 1 } };
	memset(f, 0, sizeof(*f));
	bool faulted = p && !run(p, "lanes_fault", &cfg, args, f);
	f->addr -= (uint64_t)(uintptr_t)in;
	if (p)
		ptx_program_destroy(p);
	unset_exec_mode();
	return faulted;
}

static void check_fault(void)
{
	struct ptx_fault f[NMODES];
	bool faulted[NMODES];
	for (int m = 0; m < NMODES; m++)
		faulted[m] = fault_mode(m, &f[m]);
	tap_ok(faulted[0] && f[0].thread[0] == 0 && f[0].thread[1] == 1 &&
		       f[0].thread[2] == 0 && f[0].addr == 268435456,
	       "lanes_fault faults in thread (0, 1, 0) on the interpreter");
	for (int m = 1; m < NMODES; m++) {
		bool same = faulted[0] && faulted[m] &&
			    f[m].kind == f[0].kind && f[m].addr == f[0].addr &&
			    !memcmp(f[m].cta, f[0].cta, sizeof(f[0].cta)) &&
			    !memcmp(f[m].thread, f[0].thread,
				    sizeof(f[0].thread));
		if (!same)
			tap_diag("%s: thread (%u, %u, %u) at in + %#llx",
				 exec_mode_name[m],
				 f[m].thread[0], f[m].thread[1], f[m].thread[2],
				 (unsigned long long)f[m].addr);
		tap_ok(same, "lanes_fault faults on the %s as on the "
		       "interpreter", exec_mode_name[m]);
	}
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
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	size_t len;
	char *text = (char *)corpus_file("jit_lanes.sm75.ptx", &len);
	if (!text)
		tap_diag("jit_lanes.sm75.ptx: not in the corpus");
	enum { N = 300, B = 100, TURNS_N = 192 * 40 + 37 };
	struct lanes_case cases[NCASES] = {
		{ text, "jit_lanes.sm75.ptx", "lanes_diverge",
		  { .grid = { 3 }, .block = { B } }, 5,
		  { 4 * N, 4 * N, 8 * N, 4, 0 }, { [4] = N - 7 },
		  { [2] = true, [3] = true }, fill_mixed, false },
		{ text, "jit_lanes.sm75.ptx", "lanes_barrier",
		  { .grid = { 2 }, .block = { 13, 4, 1 } }, 4,
		  { 4 * 104, 4 * 104, 4 * 16, 0 }, { [3] = 45 },
		  { [1] = true, [2] = true }, fill_ints, false },
		/* blocks of 40 threads: the vector form 8 lanes wide */
		{ text, "jit_lanes.sm75.ptx", "lanes_memory",
		  { .grid = { 3 }, .block = { 40 } }, 6,
		  { 4 * 120, 4 * 120, 16 * 3, 16 * 120, 16 * 120, 0 },
		  { [5] = 120 }, { [3] = true, [4] = true }, fill_bytes,
		  false },
		/* 48: a multiple of either width, 16 lanes */
		{ text, "jit_lanes.sm75.ptx", "lanes_memory",
		  { .grid = { 3 }, .block = { 48 } }, 6,
		  { 4 * 144, 4 * 144, 16 * 3, 16 * 144, 16 * 144, 0 },
		  { [5] = 144 }, { [3] = true, [4] = true }, fill_bytes,
		  false },
		{ guards_text, "guards.ptx", "lanes_guards",
		  { .grid = { 1 }, .block = { 37 } }, 2, { 4 * 37, 0 },
		  { [1] = 30 }, { [0] = true }, fill_ints, false },
		{ text, "jit_lanes.sm75.ptx", "lanes_counter",
		  { .grid = { 2 }, .block = { 64 } }, 2, { 4 * 64, 4 * 64 },
		  { 0 }, { [1] = true }, fill_ints, false },
		MASKED_CASE("lanes_masked", 3, false),
		MASKED_CASE("lanes_masked", 13, false),
		MASKED_CASE("lanes_masked", 64, false),
		MASKED_CASE("lanes_masked_fault", 3, true),
		MASKED_CASE("lanes_masked_store", 13, false),
		MASKED_CASE("lanes_masked_nested", 13, false),
		{ shapes_text, "shapes.ptx", "lanes_shapes",
		  { .grid = { 2 }, .block = { 32, 2, 1 } }, 4,
		  { 4 * 256, 4 * 1024, 4 * 128, 0 }, { [3] = 45 },
		  { [0] = true, [1] = true }, fill_ints, false },
		{ strided_text, "strided.ptx", "lanes_strided",
		  { .grid = { 2 }, .block = { 64 } }, 2, { 12288, 4096 },
		  { 0 }, { [0] = true }, fill_ints, false },
		{ strided_text, "strided.ptx", "lanes_stride_fault",
		  { .grid = { 1 }, .block = { 32 } }, 2, { 4 * 128, 240 },
		  { 0 }, { [0] = true }, fill_ints, true },
		{ strided_text, "strided.ptx", "lanes_stride_store_fault",
		  { .grid = { 1 }, .block = { 32 } }, 2, { 240, 4 },
		  { 0 }, { [0] = true }, fill_ints, true },
		{ masked_st_text, "masked_st.ptx", "lanes_masked_st",
		  { .grid = { 1 }, .block = { 64 } }, 3, { 832, 256, 0 },
		  { [2] = 7 }, { [0] = true }, fill_ints, false },
		{ masked_st_text, "masked_st.ptx", "lanes_masked_st_fault",
		  { .grid = { 1 }, .block = { 64 } }, 3, { 240, 256, 0 },
		  { [2] = 7 }, { [0] = true }, fill_ints, true },
		{ span_text, "span.ptx", "lanes_span",
		  { .grid = { 2 }, .block = { 28 } }, 2, { 4 * 28, 0 },
		  { [1] = 3 }, { [0] = true }, fill_ints, false },
		{ span_text, "span.ptx", "lanes_span_fault",
		  { .grid = { 2 }, .block = { 40 } }, 2, { 4 * 40, 0 },
		  { [1] = 3 }, { [0] = true }, fill_ints, true },
		{ rejoin_text, "rejoin.ptx", "lanes_rejoin",
		  { .grid = { 1 }, .block = { 32 } }, 2, { 4 * 32, 4 * 8 },
		  { 0 }, { [0] = true }, fill_ints, false },
		SATOM_CASE("lanes_satom", 32, false),
		SATOM_CASE("lanes_satom_fault", 13, true),
		{ gridstride_text, "gridstride.ptx", "lanes_gridstride",
		  { .grid = { 2 }, .block = { 64 } }, 3, { 4 * 128, 4 * 1000, 0 },
		  { [2] = 1000 }, { [0] = true }, fill_ints, false },
		{ turns_text, "turns.ptx", "lanes_turns",
		  { .grid = { 3 }, .block = { 64 } }, 4,
		  { 4 * TURNS_N, 8 * 192, 0, 0 }, { [2] = TURNS_N, [3] = ~0u },
		  { [1] = true }, fill_mixed, false },
		{ turns_text, "turns.ptx", "lanes_turns",
		  { .grid = { 3 }, .block = { 64 } }, 4,
		  { 4 * TURNS_N, 8 * 192, 0, 0 },
		  { [2] = TURNS_N, [3] = 6700 }, { [1] = true },
		  fill_mixed, true },
		{ turns_text, "turns.ptx", "lanes_turns_hist",
		  { .grid = { 3 }, .block = { 64 } }, 3,
		  { 4 * TURNS_N, 4 * (64 + 192), 0 }, { [2] = 4 * TURNS_N - 3 },
		  { [1] = true }, fill_bytes, false },
		{ turns_text, "turns.ptx", "lanes_turns_outer",
		  { .grid = { 3 }, .block = { 64 } }, 3,
		  { 4 * TURNS_N, 8 * 192, 0 }, { [2] = TURNS_N }, { [1] = true },
		  fill_mixed, false },
		PROOF_CASE("lanes_proof", false),
		PROOF_CASE("lanes_proof_fault", true),
		{ text, "jit_lanes.sm75.ptx", "lanes_regions",
		  { .grid = { 2 }, .block = { 64 } }, 3,
		  { 4 * 128, 4 * 128, 0 }, { [2] = 3 }, { [1] = true },
		  fill_ints, false },
		{ run_text, "run.ptx", "lanes_run",
		  { .grid = { 2 }, .block = { 64 } }, 2,
		  { 8192, 16 * 128 + 2064 },
		  { 0 }, { [0] = true }, fill_ints, false },
		{ run_text, "run.ptx", "lanes_run_fault",
		  { .grid = { 1 }, .block = { 32 } }, 2, { 16 * 32 - 8, 4 },
		  { 0 }, { [0] = true }, fill_ints, true },
		{ run_text, "run.ptx", "lanes_lrun_fault",
		  { .grid = { 1 }, .block = { 32 } }, 2,
		  { 4 * 32, 16 * 32 - 8 },
		  { 0 }, { [0] = true }, fill_ints, true },
	};
	for (int i = 0; i < NCASES; i++)
		if (cases[i].text)
			check_case(&cases[i]);
		else
			for (int m = 1; m < NMODES; m++)
				tap_ok(false, "%s: no PTX", cases[i].kernel);
	check_fault();
	const struct fast_case fast[NFAST] = {
		{ strided_text, "strided.ptx", "lanes_strided",
		  { .vector = true, .contiguous = 3, .stride_span = 8,
		    .stride_gather = 9 } },
		{ shapes_text, "shapes.ptx", "lanes_shapes",
		  { .vector = true, .contiguous = 7, .uniform = 6,
		    .stride_span = 1 } },
		{ masked_st_text, "masked_st.ptx", "lanes_masked_st",
		  { .vector = true, .masked_store = 3 } },
		{ satom_text, "satom.ptx", "lanes_satom",
		  { .vector = true, .shared_atom = 22 } },
		{ span_text, "span.ptx", "lanes_span",
		  { .vector = true, .contiguous = 3 } },
		{ text, "jit_lanes.sm75.ptx", "lanes_memory",
		  { .vector = true, .contiguous = 2, .uniform = 1,
		    .stride_span = 2 } },
		{ gridstride_text, "gridstride.ptx", "lanes_gridstride",
		  { .vector = true, .contiguous = 1, .prefetch = 1 } },
		{ run_text, "run.ptx", "lanes_run",
		  { .vector = true, .store_runs = 2, .load_runs = 2 } },
	};
	for (int i = 0; i < NFAST; i++)
		check_fast(&fast[i]);
	check_apart();
	check_widths(text);
	free(text);
	test_free_all();
	return tap_done();
}
