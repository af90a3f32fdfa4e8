// SPDX-License-Identifier: MIT
/*
 * The register-shape analysis (libcuda/ptx/ir_shape.c) against a golden
 * file: the shapes of every kernel of tests/ptx/hand/shapes.ptx, for
 * lanes in lockstep (the vector form today) and under masks, as
 * ir_shapes_print writes them, must be tests/ptx/hand/shapes.expected
 * line for line. SHAPES_WRITE=path writes the output there instead of
 * comparing (for reviewing a change by hand, never in the suite).
 */
#include "harness.h"
#include "ir_shape.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NTESTS = 2 };

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
	return tap_done();
}
