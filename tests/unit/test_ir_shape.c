// SPDX-License-Identifier: MIT
/*
 * The register-shape analysis (libcuda/ptx/ir_shape.c) against a golden
 * file: the shapes of every kernel of tests/ptx/hand/shapes.ptx, for
 * lanes in lockstep (the vector form today) and under masks, as
 * ir_shapes_print writes them, must be tests/ptx/hand/shapes.expected
 * line for line. SHAPES_WRITE=path writes the output there instead of
 * comparing (for reviewing a change by hand, never in the suite).
 * Then the shapes by region (ir_shapes_compute_regions) of a kernel
 * with a barrier, checked register by register.
 */
#include "harness.h"
#include "ir_shape.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NTESTS = 4 };

/* Every kernel's shapes, in module order, as one malloc'ed string. */
static char *print_shapes(struct ir_module *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	for (uint32_t i = 0; i < m->nsyms; i++) {
		const struct ir_sym *s = m->syms[i];
		if (s->kind != SYM_FUNC || !s->func || !s->func->is_entry ||
		    !s->func->has_body)
			continue;
		for (int lockstep = 1; lockstep >= 0; lockstep--) {
			struct ir_shapes *sh = ir_shapes_compute(s->func, 8,
								 lockstep);
			fprintf(out, "%s:\n", lockstep ? "lockstep" : "masked");
			if (!sh) {
				fprintf(out, "out of memory\n");
				continue;
			}
			ir_shapes_print(s->func, sh, out);
			ir_shapes_free(sh);
		}
	}
	fclose(out);
	return text;
}

/*
 * Before the barrier, a grid-stride loop's index %r3 (lanes in
 * lockstep: strided; under masks its loop's exit makes it varying) and
 * %r4, tid or, where lanes took different ways (tid >= 3), tid + 7:
 * strided in lockstep, else varying. After the barrier %r4 is read: a
 * register carried over a barrier, which the scalar loop may have
 * written thread by thread, takes the shape without lockstep.
 */
static const char regions_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry regions(.param .u64 out, .param .u32 n)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %r2;\n\tmov.u32 %r4, %r2;\n"
	"$Lloop:\n\tadd.u32 %r3, %r3, 64;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra $Lloop;\n"
	"\tsetp.lt.u32 %p2, %r2, 3;\n\t@%p2 bra $Lskip;\n"
	"\tadd.u32 %r4, %r2, 7;\n"
	"$Lskip:\n\tbar.sync 0;\n\tadd.u32 %r5, %r4, %r3;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r5;\n\tret;\n}\n";

static uint8_t shape_of(const struct ir_func *f, const struct ir_shapes *s,
			int32_t suffix)
{
	for (uint32_t i = 0; i < f->nregs; i++)
		if (!strcmp(f->regs[i].name, "%r") &&
		    f->regs[i].suffix == suffix)
			return s->reg[i].kind;
	return SHAPE_UNDEF;
}

static void check_regions(void)
{
	char log[512] = "";
	int st;
	struct msgbuf m = { log, sizeof(log), 0 };
	struct ir_module *mod = ir_parse(regions_text, strlen(regions_text),
					 "regions.ptx", &st, log,
					 sizeof(log));
	const struct ir_func *f = NULL;
	if (mod && ir_build_cfg(mod, &m))
		for (uint32_t i = 0; i < mod->nsyms && !f; i++)
			if (mod->syms[i]->kind == SYM_FUNC &&
			    mod->syms[i]->func &&
			    mod->syms[i]->func->is_entry)
				f = mod->syms[i]->func;
	uint64_t carried[4] = { 0 };
	bool masked[16] = { false };
	for (uint32_t i = 0; f && i < f->nregs; i++)
		if (!strcmp(f->regs[i].name, "%r") &&
		    (f->regs[i].suffix == 2 || f->regs[i].suffix == 3 ||
		     f->regs[i].suffix == 4))
			carried[i / 64] |= 1ull << (i % 64);
	struct ir_shapes *all = f && f->nregs < 256 && f->nblocks < 16 ?
		ir_shapes_compute(f, 8, false) : NULL;
	struct ir_shapes *reg = all ? ir_shapes_compute_regions(f, 8, carried,
								 masked) : NULL;
	tap_ok(reg && shape_of(f, all, 3) == SHAPE_VARYING &&
		       shape_of(f, all, 4) == SHAPE_VARYING &&
		       shape_of(f, reg, 4) == SHAPE_VARYING &&
		       shape_of(f, reg, 5) == SHAPE_VARYING,
	       "regions: a register carried over a barrier keeps the "
	       "shape without lockstep");
	/* nothing carried: the shapes in lockstep */
	memset(carried, 0, sizeof(carried));
	ir_shapes_free(reg);
	reg = all ? ir_shapes_compute_regions(f, 8, carried, masked) : NULL;
	tap_ok(reg && shape_of(f, reg, 3) == SHAPE_STRIDED &&
		       shape_of(f, reg, 4) == SHAPE_STRIDED,
	       "regions: a loop's index and a write where lanes parted "
	       "are strided in lockstep");
	ir_shapes_free(reg);
	ir_shapes_free(all);
	ir_module_free(mod);
}

/* The first line where @a and @b differ, for the log. */
static void first_difference(const char *a, const char *b)
{
	for (unsigned line = 1; *a || *b; line++) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || strncmp(a, b, la)) {
			tap_diag("line %u: got '%.*s', expected '%.*s'", line,
				 (int)la, a, (int)lb, b);
			return;
		}
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
}

int main(void)
{
	tap_plan(NTESTS);
	size_t len, glen;
	char *text = (char *)corpus_file("hand.shapes.ptx", &len);
	char *golden = (char *)read_file(HAND_DIR "/shapes.expected", &glen);
	char log[512] = "";
	int st;
	struct msgbuf m = { log, sizeof(log), 0 };
	struct ir_module *mod = text ? ir_parse(text, len, "shapes.ptx", &st,
						log, sizeof(log)) : NULL;
	bool built = mod && ir_build_cfg(mod, &m);
	if (!built)
		tap_diag("shapes.ptx: %s", log);
	tap_ok(built, "shapes.ptx parses");
	char *got = built ? print_shapes(mod) : NULL;
	const char *w = getenv("SHAPES_WRITE");
	if (got && w && *w) {
		FILE *f = fopen(w, "w");
		if (f) {
			fputs(got, f);
			fclose(f);
		}
	}
	if (!golden)
		tap_diag("no golden file %s/shapes.expected", HAND_DIR);
	bool same = got && golden && strlen(got) == glen &&
		    !memcmp(got, golden, glen);
	if (got && golden && !same)
		first_difference(got, golden);
	tap_ok(same, "shapes of vector_add, sgemm, varying_loop as expected");
	free(got);
	free(golden);
	free(text);
	ir_module_free(mod);
	check_regions();
	return tap_done();
}
