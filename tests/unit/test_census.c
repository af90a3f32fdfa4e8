// SPDX-License-Identifier: MIT
/*
 * The corpus covers the census: every opcode, special register, state
 * space, directive and version that NVIDIA's samples use
 * (tests/ptx/census/NAME.items, the level and item columns of
 * ../shared/reference/ptx_census_sm75.tsv and _sm80.tsv) appears in at
 * least one PTX file of the test corpus (build/tests/ptx). Text is
 * scanned, so the check does not depend on the parser it tests.
 */
#include "tap.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CENSUS_DIR
#define CENSUS_DIR "tests/ptx/census"
#endif

/* The corpus: every line of every PTX file, in one buffer. */
static char *corpus;
static size_t corpus_len;

static bool append_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *c = n >= 0 ? realloc(corpus, corpus_len + (size_t)n + 2) : NULL;
	bool ok = c && fread(c + corpus_len, 1, (size_t)n, f) == (size_t)n;
	if (c) {
		corpus = c;
		corpus_len += ok ? (size_t)n : 0;
		corpus[corpus_len++] = '\n';
		corpus[corpus_len] = 0;
	}
	fclose(f);
	return ok;
}

static unsigned load_corpus(void)
{
	DIR *d = opendir(CORPUS_DIR);
	unsigned n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		char path[1024];
		if (len < 5 || strcmp(e->d_name + len - 4, ".ptx"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, e->d_name);
		n += append_file(path);
	}
	if (d)
		closedir(d);
	return n;
}

/* Whether one corpus line holds all of @need (NULL-terminated). */
static bool line_with(const char *const *need)
{
	for (const char *at = corpus; (at = strstr(at, need[0]));) {
		const char *start = at, *end = strchr(at, '\n');
		while (start > corpus && start[-1] != '\n')
			start--;
		bool all = true;
		for (unsigned i = 1; need[i] && all; i++) {
			const char *hit = strstr(start, need[i]);
			all = hit && hit < end;
		}
		if (all)
			return true;
		at = end ? end : at + 1;
	}
	return false;
}

/* An instruction's opcode with its modifiers: the first word of a
 * statement, after an optional guard. @base: the item is a prefix. */
static bool has_opcode(const char *item, bool base)
{
	size_t n = strlen(item);
	for (const char *at = corpus; (at = strstr(at, item)); at += n) {
		char before = at > corpus ? at[-1] : '\n';
		char after = at[n];
		bool starts = before == '\t' || before == ' ' || before == '\n' ||
			      before == '{' || before == ';';
		bool ends = after == ' ' || after == '\t' || after == ';' ||
			    (base && after == '.');
		if (!starts || !ends)
			continue;
		const char *s = at;	/* a statement's first word? */
		while (s > corpus && (s[-1] == ' ' || s[-1] == '\t'))
			s--;
		if (s > corpus && s[-1] != '\n' && s[-1] != '{' &&
		    s[-1] != ';') {	/* or after a guard: @%p1 / @!%p1 */
			const char *g = s - 1;
			while (g > corpus && g[-1] != ' ' && g[-1] != '\t' &&
			       g[-1] != '\n')
				g--;
			if (*g != '@')
				continue;
		}
		return true;
	}
	return false;
}

/* Directive, state-space, version and misc items: the substrings a
 * line showing them holds. */
struct form {
	const char *item;
	const char *need[4];
};

static const struct form forms[] = {
	{ ".attribute(.managed)", { ".attribute(.managed)" } },
	{ ".entry[.extern]", { ".extern .entry" } },
	{ ".entry[.visible]", { ".visible .entry" } },
	{ ".entry[.weak]", { ".weak .entry" } },
	{ ".entry[]", { "\t.entry " } },
	{ ".extern .shared (dynamic smem [])", { ".extern .shared", "[]" } },
	{ ".func (params)", { ".func", "(\n" } },
	{ ".func (retval)", { ".func (" } },
	{ ".func[.extern]", { ".extern .func" } },
	{ ".func[.visible]", { ".visible .func" } },
	{ ".func[.weak]", { ".weak .func" } },
	{ ".loc(function_name)", { ".loc", "function_name" } },
	{ ".loc(inlined_at)", { ".loc", "inlined_at" } },
	{ ".param (call-site/local decl)", { "\t.param .", "param0;" } },
	{ ".param .align .b8 x[] (byval aggregate)",
	  { ".param .align", ".b8", "[" } },
	{ ".section .debug_str", { ".section", ".debug_str" } },
	{ ".section", { ".section" } },
	{ "var initializer", { ".global", " = {" } },
	{ "var[.const]", { "\n.const ." } },
	{ "var[.extern .shared]", { ".extern .shared ." } },
	{ "var[.global]", { "\n.global ." } },
	{ "var[.local]", { ".local ." } },
	{ "var[.shared]", { ".shared ." } },
	{ "var[.visible .const]", { ".visible .const ." } },
	{ "var[.visible .global]", { ".visible .global ." } },
	{ "var[.visible .shared]", { ".visible .shared ." } },
	{ "var[.weak .const]", { ".weak .const ." } },
	{ "var[.weak .global]", { ".weak .global ." } },
	{ "var[.weak .shared]", { ".weak .shared ." } },
	{ "decl .const", { ".const ." } },
	{ "decl .global", { ".global ." } },
	{ "decl .local", { ".local ." } },
	{ "decl .shared", { ".shared ." } },
	{ "insn .const", { "ld.const." } },
	{ "insn .global", { "ld.global." } },
	{ "insn .local", { "st.local." } },
	{ "insn .param", { "ld.param." } },
	{ "insn .shared", { "st.shared." } },
	{ "indirect call (prototype)", { "call", "prototype" } },
	{ "predicated instructions", { "@%p" } },
};

static bool has_item(const char *level, const char *item)
{
	if (!strcmp(level, "full_opcode"))
		return has_opcode(item, false);
	if (!strcmp(level, "base_opcode"))
		return has_opcode(item, true);
	if (!strcmp(level, "special_register")) {
		const char *need[] = { item, NULL };
		return line_with(need);
	}
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (!strcmp(forms[i].item, item))
			return line_with(forms[i].need);
	const char *need[] = { item, NULL };	/* .target sm_75, .pragma .. */
	return line_with(need);
}

/* Checks every item of one census file; @total and @missing count. */
static bool check_census(const char *file, unsigned *total)
{
	char path[1024], line[512];
	snprintf(path, sizeof(path), "%s/%s", CENSUS_DIR, file);
	FILE *f = fopen(path, "r");
	if (!f) {
		tap_diag("%s: %s not found", file, path);
		return false;
	}
	unsigned missing = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		char *tab = strchr(line, '\t');
		if (line[0] == '#' || !tab || !strncmp(line, "level\t", 6))
			continue;
		*tab = 0;
		++*total;
		if (!has_item(line, tab + 1)) {
			tap_diag("%s: %s '%s' is in no corpus PTX", file, line,
				 tab + 1);
			missing++;
		}
	}
	fclose(f);
	return !missing;
}

int main(void)
{
	tap_plan(3);
	unsigned files = load_corpus(), n75 = 0, n80 = 0;
	tap_ok(files > 0, "corpus: %u PTX files, %zu bytes", files,
	       corpus_len);
	bool ok75 = files && check_census("ptx_census_sm75.items", &n75);
	tap_ok(ok75, "every sm_75 census item (%u) in the corpus", n75);
	bool ok80 = files && check_census("ptx_census_sm80.items", &n80);
	tap_ok(ok80, "every sm_80 census item (%u) in the corpus", n80);
	free(corpus);
	return tap_done();
}
