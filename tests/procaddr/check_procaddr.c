// SPDX-License-Identifier: MIT
/*
 * Asks vcuda's cuGetProcAddress the questions whose answers NVIDIA's
 * driver gave on an H100 (h100.txt, from record_procaddr.c) and compares:
 * for every name, flag and recorded change point, the answer at that
 * version and just below it, by result, status and the name of the
 * function returned; then the argument errors. Needs no device: CUDA
 * answers these before cuInit. Prints TAP.
 *
 *   check_procaddr [LIBCUDA H100.TXT]   (default: the build's, from the top)
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*proc_v2_fn)(const char *, void **, int, uint64_t, int *);
typedef int (*proc_v1_fn)(const char *, void **, int, uint64_t);

struct answer {
	char kind[4], name[96], symbol[96];
	unsigned long flags;
	int version, result, status;
};

static proc_v2_fn v2;
static proc_v1_fn v1;
static int shown;

static const char *symbol_name(void *p)
{
	Dl_info info;

	if (!p)
		return "-";
	if (dladdr(p, &info) && info.dli_sname && info.dli_saddr == p)
		return info.dli_sname;
	return "(unnamed)";
}

/* Compares our answer at @version with @want; returns 1 on a match. */
static int check(const struct answer *want, int version)
{
	void *p = NULL;
	int status = -1, r;

	if (!strcmp(want->kind, "v2"))
		r = v2(want->name, &p, version, want->flags, &status);
	else
		r = v1(want->name, &p, version, want->flags);
	if (r == want->result && !strcmp(symbol_name(p), want->symbol) &&
	    (strcmp(want->kind, "v2") || status == want->status))
		return 1;
	if (shown++ < 20)
		printf("# %s %s flags %lu version %d: H100 %d/%d/%s, vcuda %d/%d/%s\n",
		       want->kind, want->name, want->flags, version, want->result,
		       want->status, want->symbol, r, status, symbol_name(p));
	return 0;
}

static int parse(const char *line, struct answer *a)
{
	if (!strncmp(line, "v2 ", 3))
		return sscanf(line, "%3s %95s %lu %d %d %d %95s", a->kind, a->name, &a->flags,
			      &a->version, &a->result, &a->status, a->symbol) == 7;
	a->status = 0;
	return !strncmp(line, "v1 ", 3) &&
	       sscanf(line, "%3s %95s %lu %d %d %95s", a->kind, a->name, &a->flags,
		      &a->version, &a->result, a->symbol) == 6;
}

/* Argument errors: "err CASE RESULT [STATUS] set|null". */
static int check_error(const char *line)
{
	char what[32], ptr[8];
	int want_r, want_s, r, status = 77;
	void *p = (void *)1;

	if (strstr(line, "crashed") || strstr(line, "null-symbol") || strstr(line, "null-pfn"))
		return -1;	/* NVIDIA's crashes; vcuda says INVALID_VALUE */
	if (sscanf(line, "err %31s %d %d %7s", what, &want_r, &want_s, ptr) == 4) {
		const char *sym = !strcmp(what, "empty-symbol") ? "" : "cuInit";
		int version = 13000;
		unsigned long flags = 0;

		sscanf(what, "flags=%lu", &flags);
		sscanf(what, "version=%d", &version);
		r = v2(sym, &p, version, flags, &status);
		if (r == want_r && status == want_s && !strcmp(p ? "set" : "null", ptr))
			return 1;
	} else if (sscanf(line, "err %31s %d %7s", what, &want_r, ptr) == 3) {
		r = v2("cuInit", &p, 13000, 0, NULL);
		if (r == want_r && !strcmp(p ? "set" : "null", ptr))
			return 1;
	} else {
		return -1;
	}
	printf("# %s", line);
	return 0;
}

int main(int argc, char **argv)
{
	const char *lib_path = argc == 3 ? argv[1] : "build/lib/libcuda.so.1";
	const char *recording = argc == 3 ? argv[2] : "tests/procaddr/h100.txt";
	void *lib = dlopen(lib_path, RTLD_NOW);
	FILE *f = fopen(recording, "r");
	struct answer prev = { 0 }, a;
	long checked[2] = { 0 }, bad[2] = { 0 }, errs = 0, errs_bad = 0;
	char line[512];

	if (!lib || !f) {
		fprintf(stderr, "usage: check_procaddr LIBCUDA H100.TXT\n");
		return 2;
	}
	v2 = (proc_v2_fn)dlsym(lib, "cuGetProcAddress_v2");
	v1 = (proc_v1_fn)dlsym(lib, "cuGetProcAddress");
	printf("1..3\n");
	if (!v2 || !v1) {
		printf("not ok 1 - cuGetProcAddress_v2 and cuGetProcAddress exported\n");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "err ", 4)) {
			int ok = check_error(line);

			errs += ok >= 0;
			errs_bad += ok == 0;
			continue;
		}
		if (!parse(line, &a))
			continue;
		int k = a.kind[1] == '1';
		int same = !strcmp(a.kind, prev.kind) && !strcmp(a.name, prev.name) &&
			   a.flags == prev.flags;

		checked[k]++;
		bad[k] += !check(&a, a.version);
		/* Just below a change, the answer before it still holds. */
		if (same && a.version - 1 > prev.version) {
			checked[k]++;
			bad[k] += !check(&prev, a.version - 1);
		}
		prev = a;
	}
	printf("%s 1 - cuGetProcAddress_v2 answers as the H100's driver (%ld of %ld)\n",
	       bad[0] ? "not ok" : "ok", checked[0] - bad[0], checked[0]);
	printf("%s 2 - cuGetProcAddress (v1) answers as the H100's driver (%ld of %ld)\n",
	       bad[1] ? "not ok" : "ok", checked[1] - bad[1], checked[1]);
	printf("%s 3 - argument errors as the H100's driver (%ld of %ld)\n",
	       errs_bad || !errs ? "not ok" : "ok", errs - errs_bad, errs);
	return bad[0] || bad[1] || errs_bad || !errs;
}
