// SPDX-License-Identifier: MIT
/*
 * Parser, printer and CFG: parse -> print -> parse round trips over the
 * whole corpus, parse speed, errors with their file:line:col, and the
 * blocks and post-dominators of a known function.
 */
#include "harness.h"
#include "ir.h"
#include "ir_live.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *print_to_string(const struct ir_module *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	ir_print_module(m, f);
	fclose(f);
	return buf;
}

static unsigned count_insns(const struct ir_module *m)
{
	unsigned n = 0;
	for (uint32_t i = 0; i < m->nsyms; i++)
		if (m->syms[i]->kind == SYM_FUNC && m->syms[i]->func->has_body)
			n += m->syms[i]->func->ninsns;
	return n;
}

/* print(parse(x)) parses back to the same shape and prints the same. */
static bool round_trip(const char *file)
{
	size_t len;
	char *text = (char *)corpus_file(file, &len);
	char log[512];
	int st;
	struct ir_module *a = text ? ir_parse(text, len, file, &st, log,
					      sizeof(log)) : NULL;
	char *p1 = a ? print_to_string(a) : NULL;
	struct ir_module *b = p1 ? ir_parse(p1, strlen(p1), "printed", &st,
					    log, sizeof(log)) : NULL;
	char *p2 = b ? print_to_string(b) : NULL;
	bool ok = p2 && !strcmp(p1, p2) && a->nsyms == b->nsyms &&
		  count_insns(a) == count_insns(b) && count_insns(a) > 0;
	if (!a || !b)
		tap_diag("%s", log);
	else if (!ok)
		tap_diag("%s: prints differ or shapes differ (%u/%u insns)",
			 file, count_insns(a), count_insns(b));
	ir_module_free(a);
	ir_module_free(b);
	free(p1);
	free(p2);
	free(text);
	return ok;
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole corpus, parsed repeatedly: reports the speed. */
static bool parse_speed(char **files, size_t n)
{
	size_t total = 0;
	unsigned insns = 0;
	double t0 = seconds();
	enum { ROUNDS = 20 };
	for (int r = 0; r < ROUNDS; r++) {
		for (size_t i = 0; i < n; i++) {
			size_t len;
			char *text = (char *)corpus_file(files[i], &len);
			char log[256];
			int st;
			struct ir_module *m = ir_parse(text, len, files[i], &st,
						       log, sizeof(log));
			if (!m) {
				free(text);
				return false;
			}
			if (!r) {
				total += len;
				insns += count_insns(m);
			}
			ir_module_free(m);
			free(text);
		}
	}
	double t = (seconds() - t0) / ROUNDS;
	tap_diag("corpus: %zu bytes, %u instructions parsed in %.3f ms "
		 "(%.0f MB/s, incl. reading the files)", total, insns,
		 t * 1e3, (double)total / t / 1e6);
	return true;
}

/* ---- errors ---- */

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
#define KERNEL_OPEN ".visible .entry k(.param .u32 n)\n{\n" \
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"

struct bad_case {
	const char *what;
	const char *text;
	int status;
	const char *message;	/* expected at the start of the log */
};

static const struct bad_case bad_cases[] = {
	{ "missing semicolon",
	  HEAD KERNEL_OPEN "\tadd.s32 %r1, %r1, 1\n\tret;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:9:2: expected ';' near 'ret'" },
	{ "unknown instruction",
	  HEAD KERNEL_OPEN "\tfrobnicate.u32 %r1;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:2: unknown instruction 'frobnicate'" },
	{ "unknown modifier",
	  HEAD KERNEL_OPEN "\tadd.s33 %r1, %r1, 1;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:2: unknown modifier '.s33' for 'add'" },
	{ "modifier of another instruction",
	  HEAD KERNEL_OPEN "\tadd.up.s32 %r1, %r1, 1;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:2: modifier '.up' is not valid for 'add'" },
	{ "undeclared register",
	  HEAD KERNEL_OPEN "\tadd.s32 %r1, %r7, 1;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:15: undefined label or symbol '%r7'" },
	{ "undefined label",
	  HEAD KERNEL_OPEN "\tbra $L_nowhere;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:6: undefined label or symbol '$L_nowhere'" },
	{ "guard is not a predicate",
	  HEAD KERNEL_OPEN "\t@%r1 ret;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:3: '%r1' is not a predicate" },
	{ "label defined twice",
	  HEAD KERNEL_OPEN "L1:\n\tret;\nL1:\n\tret;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:10:1: label 'L1' defined twice" },
	{ "register declared twice",
	  HEAD KERNEL_OPEN "\t.reg .b32 %x;\n\t.reg .f32 %x;\n}\n",
	  PTX_ERR_SYNTAX,
	  "bad.ptx:9:12: '%x' is already declared in this scope" },
	{ "unterminated body", HEAD KERNEL_OPEN "\tret;\n", PTX_ERR_SYNTAX,
	  "bad.ptx:9:1: missing '}' near end of input" },
	{ "unknown directive", HEAD ".frobnicate 1;\n", PTX_ERR_SYNTAX,
	  "bad.ptx:4:1: unexpected directive near '.frobnicate'" },
	{ "missing .version", ".target sm_75\n", PTX_ERR_SYNTAX,
	  "bad.ptx:2:1: missing .version" },
	{ "initialised shared variable",
	  HEAD ".shared .u32 s = 5;\n", PTX_ERR_SYNTAX,
	  "bad.ptx:4:14: only .global and .const variables can be "
	  "initialised" },
	{ "bad operand",
	  HEAD KERNEL_OPEN "\tadd.s32 %r1, %r1, 12abc;\n}\n", PTX_ERR_SYNTAX,
	  "bad.ptx:8:20: expected an operand near '12abc'" },
	{ "function defined twice",
	  HEAD ".func f()\n{\n\tret;\n}\n.func f()\n{\n\tret;\n}\n",
	  PTX_ERR_SYNTAX, "bad.ptx:8:7: function 'f' is defined twice" },
	{ "two rounding modes",
	  HEAD KERNEL_OPEN "\t.reg .f32 %f;\n\tadd.rn.rz.f32 %f, %f, %f;\n}\n",
	  PTX_ERR_SYNTAX, "bad.ptx:9:2: two rounding modifiers" },
	{ "unsupported instruction",
	  HEAD ".global .texref tr;\n" KERNEL_OPEN "\t.reg .f32 %f<8>;\n"
	  "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {%f5, %f6}];\n"
	  "\tret;\n}\n",
	  PTX_ERR_UNSUPPORTED,
	  "bad.ptx:10:2: unsupported instruction "
	  "'tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {%f5, %f6}];' "
	  "(texture references (only texture objects are supported))" },
	{ "unsupported modifier",
	  HEAD KERNEL_OPEN "\tmul.lo.cc.u32 %r1, %r1, 1;\n\tret;\n}\n",
	  PTX_ERR_UNSUPPORTED,
	  "bad.ptx:8:2: unsupported instruction 'mul.lo.cc.u32 %r1, %r1, 1;'" },
	{ "unsupported instruction family",
	  HEAD KERNEL_OPEN "\twgmma.fence.sync.aligned;\n\tret;\n}\n",
	  PTX_ERR_UNSUPPORTED,
	  "bad.ptx:8:2: unsupported instruction 'wgmma.fence.sync.aligned;'" },
	{ "newer form of an instruction",
	  HEAD KERNEL_OPEN "\t.reg .b64 %rd;\n"
	  "\tred.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx"
	  "::bytes.add.u32 [%rd], %r1, [%rd];\n\tret;\n}\n",
	  PTX_ERR_UNSUPPORTED,
	  "bad.ptx:9:2: unsupported instruction 'red.async." },
};

static bool test_bad(const struct bad_case *c)
{
	char log[512] = "";
	struct ptx_source src = { c->text, strlen(c->text), "bad.ptx" };
	struct ptx_program *p = NULL;
	enum ptx_status st = ptx_program_build(&src, 1, &p, log, sizeof(log));
	ptx_program_destroy(p);
	bool ok = (int)st == c->status &&
		  !strncmp(log, c->message, strlen(c->message));
	if (!ok)
		tap_diag("status %d, log: %s", st, log);
	return ok;
}

/* ---- control flow ---- */

static const char cfg_text[] =
	HEAD ".visible .entry cfg(.param .u32 n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n"
	"\tld.param.u32 %r1, [n];\n"		/* B0 */
	"\tsetp.eq.s32 %p1, %r1, 0;\n"
	"\t@%p1 bra ELSE;\n"
	"\tadd.s32 %r2, %r1, 1;\n"		/* B1 */
	"\tbra.uni JOIN;\n"
	"ELSE:\n\tadd.s32 %r2, %r1, 2;\n"	/* B2 */
	"JOIN:\n\tmov.u32 %r3, 0;\n"		/* B3 */
	"LOOP:\n\tadd.s32 %r3, %r3, 1;\n"	/* B4 */
	"\tsetp.lt.s32 %p2, %r3, %r2;\n"
	"\t@%p2 bra LOOP;\n"
	"\tsetp.gt.s32 %p3, %r3, 5;\n"		/* B5 */
	"\t@%p3 ret;\n"
	"\tadd.s32 %r4, %r3, 1;\n"		/* B6 */
	"\tret;\n}\n";

static bool test_cfg(void)
{
	char log[256];
	int st;
	struct msgbuf m = { log, sizeof(log), 0 };
	struct ir_module *mod = ir_parse(cfg_text, strlen(cfg_text), "cfg",
					 &st, log, sizeof(log));
	if (!mod || !ir_build_cfg(mod, &m)) {
		tap_diag("%s", log);
		ir_module_free(mod);
		return false;
	}
	const struct ir_func *f = mod->syms[0]->func;
	static const uint32_t ipdom[] = { 3, 3, 3, 4, 5, IR_EXIT, IR_EXIT };
	static const bool reconv[] = { 0, 0, 0, 1, 0, 1, 0 };
	bool ok = f->nblocks == 7;
	for (uint32_t b = 0; ok && b < 7; b++) {
		ok = f->blocks[b].ipdom == ipdom[b] &&
		     f->blocks[b].is_reconv == reconv[b];
		if (!ok)
			tap_diag("block %u: ipdom %u reconv %d", b,
				 f->blocks[b].ipdom, f->blocks[b].is_reconv);
	}
	ok = ok && f->blocks[4].nsucc == 2 && f->blocks[6].nsucc == 0;
	ir_module_free(mod);
	return ok;
}

/* ---- liveness ---- */

/* @set as register names, in declaration order: "%r1 %r2". */
static void set_names(const struct ir_func *f, const uint64_t *set,
		      char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t r = 0; r < f->nregs && len < size; r++) {
		if (!ir_live_has(set, r))
			continue;
		int n = f->regs[r].suffix < 0 ?
			snprintf(buf + len, size - len, "%s%s",
				 len ? " " : "", f->regs[r].name) :
			snprintf(buf + len, size - len, "%s%s%d",
				 len ? " " : "", f->regs[r].name,
				 f->regs[r].suffix);
		len += n > 0 ? (size_t)n : 0;
	}
}

static bool expect_set(const struct ir_func *f, const uint64_t *set,
		       const char *what, const char *want)
{
	char got[128];
	set_names(f, set, got, sizeof(got));
	if (!strcmp(got, want))
		return true;
	tap_diag("%s: live {%s}, expected {%s}", what, got, want);
	return false;
}

static struct ir_module *parse_cfg(const char *text)
{
	char log[256];
	int st;
	struct msgbuf m = { log, sizeof(log), 0 };
	struct ir_module *mod = ir_parse(text, strlen(text), "live", &st,
					 log, sizeof(log));
	if (!mod || !ir_build_cfg(mod, &m)) {
		tap_diag("%s", log);
		ir_module_free(mod);
		return NULL;
	}
	return mod;
}

/* Per block of cfg_text: live-in and live-out, and before one
 * instruction; a loop carries %r2 and %r3 round. */
static bool test_live_blocks(void)
{
	static const char *const in[] = {
		"", "%r1", "%r1", "%r2", "%r2 %r3", "%r3", "%r3" };
	static const char *const out[] = {
		"%r1", "%r2", "%r2", "%r2 %r3", "%r2 %r3", "%r3", "" };
	struct ir_module *mod = parse_cfg(cfg_text);
	const struct ir_func *f = mod ? mod->syms[0]->func : NULL;
	struct ir_live *l = f ? ir_live_solve(f, NULL) : NULL;
	uint64_t set[4] = { 0 };
	bool ok = l && ir_live_words(l) <= 4;
	for (uint32_t b = 0; ok && b < f->nblocks; b++)
		ok = expect_set(f, ir_live_in(l, b), "block in", in[b]) &&
		     expect_set(f, ir_live_out(l, b), "block out", out[b]);
	if (ok) {	/* before "setp.lt.s32 %p2, %r3, %r2" of B4 */
		ir_live_before(l, f->blocks[4].first + 1, set);
		ok = expect_set(f, set, "before setp", "%r2 %r3");
		ir_live_before(l, f->blocks[4].first + 2, set);
		ok = ok && expect_set(f, set, "before bra", "%p2 %r2 %r3");
	}
	ir_live_free(l);
	ir_module_free(mod);
	return ok;
}

/* A guarded write may not happen: %r2 is still read from the entry. */
static const char guarded_text[] =
	HEAD ".visible .entry g(.param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tsetp.eq.s32 %p1, %r1, 0;\n"
	"\t@%p1 mov.u32 %r2, 1;\n"
	"\tadd.s32 %r3, %r2, %r1;\n"
	"\tmov.u32 %r2, %r3;\n"
	"\tret;\n}\n";

static bool test_live_guarded(void)
{
	struct ir_module *mod = parse_cfg(guarded_text);
	const struct ir_func *f = mod ? mod->syms[0]->func : NULL;
	struct ir_live *l = f ? ir_live_solve(f, NULL) : NULL;
	bool ok = l && expect_set(f, ir_live_in(l, 0), "entry", "%r2");
	ir_live_free(l);
	ir_module_free(mod);
	return ok;
}

/* Kernel directives, variables with initialisers, vector registers. */
static const char decl_text[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".global .align 4 .u32 g[3] = {1, 0x10, -1};\n"
	".global .align 8 .u64 tbl[2] = {g, generic(g)+4};\n"
	".const .align 4 .f32 c[2] = {0f3F800000, 2.5};\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".visible .entry k(.param .u64 .ptr .global .align 16 p)\n"
	".maxntid 128, 1, 1\n.minnctapersm 2\n{\n"
	"\t.reg .v2 .f32 %v;\n\t.reg .b32 %r<4>;\n"
	"\tmov.f32 %v.x, 0f00000000;\n\tmov.b32 %r1, {%r2|%r3};\n"
	"\tret;\n}\n";

static bool test_decls(void)
{
	char log[256];
	int st;
	struct ir_module *m = ir_parse(decl_text, strlen(decl_text), "decl",
				       &st, log, sizeof(log));
	/* %r2|%r3 is not a vector: a syntax error on purpose */
	bool ok = !m && st == PTX_ERR_SYNTAX && strstr(log, "decl:15:");
	ir_module_free(m);
	char *fixed = strdup(decl_text);
	char *bar = strstr(fixed, "%r2|%r3");
	bar[3] = ',';
	m = ir_parse(fixed, strlen(fixed), "decl", &st, log, sizeof(log));
	ok = ok && m && m->nsyms == 5;
	if (ok) {
		const struct ir_sym *tbl = m->syms[1], *g = m->syms[0];
		const struct ir_func *k = m->syms[4]->func;
		uint32_t gv[3];
		memcpy(gv, g->init, 12);
		ok = tbl->nrelocs == 2 && tbl->relocs[1].generic &&
		     tbl->relocs[1].addend == 4 && tbl->relocs[0].target == g &&
		     gv[0] == 1 && gv[1] == 16 && gv[2] == 0xffffffffu &&
		     m->syms[3]->unsized && k->maxntid[0] == 128 &&
		     k->minnctapersm == 2 && k->params[0]->ptr.align == 16 &&
		     k->regs[0].vec == 2 && k->insns[0].opnd[0].comp == 1;
	}
	if (!ok)
		tap_diag("%s", m ? "declarations decoded wrongly" : log);
	ir_module_free(m);
	free(fixed);
	return ok;
}

int main(void)
{
	size_t n;
	char **files = corpus_list(".ptx", &n);
	size_t nbad = sizeof(bad_cases) / sizeof(bad_cases[0]);
	tap_plan((unsigned)(n + nbad + 6));
	tap_ok(n >= 40, "corpus has PTX files (%zu)", n);
	for (size_t i = 0; i < n; i++)
		tap_ok(round_trip(files[i]), "round trip %s", files[i]);
	tap_ok(parse_speed(files, n), "parse speed");
	for (size_t i = 0; i < nbad; i++)
		tap_ok(test_bad(&bad_cases[i]), "error: %s", bad_cases[i].what);
	tap_ok(test_cfg(), "blocks and post-dominators");
	tap_ok(test_live_blocks(), "liveness per block and before instructions");
	tap_ok(test_live_guarded(), "liveness: a guarded write kills nothing");
	tap_ok(test_decls(), "declarations, initialisers, directives");
	free_names(files, n);
	return tap_done();
}
