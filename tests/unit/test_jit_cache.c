// SPDX-License-Identifier: MIT
/*
 * The JIT's disk cache (libcuda/ptx/jit_cache.c): a second build of the
 * same PTX loads the code a first one stored, and runs it right with the
 * program's variables wherever this build placed them; a corrupt, short
 * or foreign entry is ignored and the kernel compiled again; kernels of
 * two live programs share one copy; CUDA_CACHE_DISABLE stores nothing;
 * CUDA_CACHE_MAXSIZE evicts the least recently used entries. Under
 * VCUDA_EXECUTOR=interp there is no JIT to test: every test skips.
 */
#include "harness.h"
#include "jit.h"
#include "jit_cache.h"
#include "tap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { N = 64, NTESTS = 10 };

/* One kernel reading a module variable; @tag makes a different text. */
static const char ptx_format[] =
	".version 7.0\n.target sm_75\n.address_size 64\n// %s\n"
	".visible .global .align 4 .u32 bias = %u;\n"
	".visible .entry add_bias(.param .u64 out, .param .u32 n)\n{\n"
	"\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<6>;\n\t.reg .b64 %%rd<4>;\n"
	"\tld.param.u64 %%rd1, [out];\n\tld.param.u32 %%r1, [n];\n"
	"\tmov.u32 %%r2, %%tid.x;\n\tsetp.ge.u32 %%p1, %%r2, %%r1;\n"
	"\t@%%p1 bra DONE;\n\tld.global.u32 %%r3, [bias];\n"
	"\tadd.u32 %%r4, %%r3, %%r2;\n\tmul.wide.u32 %%rd2, %%r2, 4;\n"
	"\tadd.u64 %%rd3, %%rd1, %%rd2;\n\tst.global.u32 [%%rd3], %%r4;\n"
	"DONE:\n\tret;\n}\n";

static char cache_root[64];
static char entries[128];	/* cache_root/vcuda-jit */

static struct ptx_program *build(const char *tag, unsigned bias)
{
	char text[2048], log[512];
	snprintf(text, sizeof(text), ptx_format, tag, bias);
	const char *texts[] = { text }, *names[] = { tag };
	struct ptx_program *p = NULL;
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("%s: %s", tag, log);
	return p;
}

/* Runs add_bias; true when every output is right. */
static bool runs_right(struct ptx_program *p, unsigned bias)
{
	uint32_t *out = test_alloc(N * 4), n = N;
	const void *args[] = { &out, &n };
	struct launch_cfg cfg = { .grid = { 1, 1, 1 }, .block = { N, 1, 1 } };
	if (!p || !run_ok(p, "add_bias", &cfg, args))
		return false;
	for (uint32_t i = 0; i < N; i++)
		if (out[i] != bias + i)
			return false;
	return true;
}

static const struct jit_kernel *code_of(struct ptx_program *p)
{
	const struct ptx_kernel *k = p ? ptx_program_kernel(p, "add_bias") :
				       NULL;
	/* a launch may have left it compiling, on a thread of its own */
	return k && ptx_kernel_compile(k) ? k->jit : NULL;
}

/* Builds and runs @tag: 1 when it ran loaded from disk, 0 when
 * compiled, -1 when it did not run right. */
static int build_and_run(const char *tag, unsigned bias)
{
	struct ptx_program *p = build(tag, bias);
	int r = runs_right(p, bias) && code_of(p) ? code_of(p)->from_disk :
						      -1;
	if (p)
		ptx_program_destroy(p);
	return r;
}

static unsigned count_entries(char *name, size_t len)
{
	DIR *d = opendir(entries);
	const struct dirent *de;
	unsigned n = 0;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			n++;
			if (name)
				snprintf(name, len, "%s/%s", entries,
					 de->d_name);
		}
	if (d)
		closedir(d);
	return n;
}

static void clear_entries(void)
{
	char path[512];
	while (count_entries(path, sizeof(path)))
		unlink(path);
}

/* Overwrites the byte at @off (from the end when negative). */
static bool poke(const char *path, long off, int byte)
{
	FILE *f = fopen(path, "r+b");
	bool ok = f && !fseek(f, off, off < 0 ? SEEK_END : SEEK_SET) &&
		  fputc(byte, f) != EOF;
	return f && !fclose(f) && ok;
}

static void test_store_and_load(void)
{
	char entry[512];
	int cold = build_and_run("a", 7);
	unsigned n = count_entries(entry, sizeof(entry));
	tap_ok(cold == 0 && n == 1, "a first build compiles and stores one "
	       "entry (%d, %u entries)", cold, n);
	/* another build places `bias` elsewhere: read from the table */
	tap_ok(build_and_run("a", 7) == 1, "a second build loads it, and "
	       "reads the variable where this build put it");
	tap_ok(build_and_run("a", 9) == 0, "other PTX compiles");
	clear_entries();
}

static void test_bad_entries(void)
{
	char entry[512], other[512];
	build_and_run("a", 7);
	count_entries(entry, sizeof(entry));
	bool poked = poke(entry, -1, 0x5a) && poke(entry, -2, 0xa5);
	tap_ok(poked && build_and_run("a", 7) == 0 &&
	       build_and_run("a", 7) == 1, "a corrupt entry is compiled "
	       "again and replaced");
	bool cut = !truncate(entry, 40);
	tap_ok(cut && build_and_run("a", 7) == 0, "a short entry is ignored");
	/* b's entry under a's name: a foreign entry */
	clear_entries();
	build_and_run("b", 7);
	count_entries(other, sizeof(other));
	bool moved = !rename(other, entry);
	tap_ok(moved && build_and_run("a", 7) == 0 &&
	       build_and_run("a", 7) == 1, "another kernel's entry under "
	       "this key is ignored");
	clear_entries();
}

static void test_shared_in_process(void)
{
	struct ptx_program *p1 = build("s", 3), *p2 = build("s", 3);
	bool ok = runs_right(p1, 3) && runs_right(p2, 3) && code_of(p1) &&
		  code_of(p2) && code_of(p1)->entry == code_of(p2)->entry;
	if (p1)
		ptx_program_destroy(p1);
	ok = ok && runs_right(p2, 3);
	if (p2)
		ptx_program_destroy(p2);
	tap_ok(ok, "two live programs of one text share code, which "
	       "outlives the first");
	clear_entries();
}

static void test_settings(void)
{
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	int r = build_and_run("d", 1);
	unsigned n = count_entries(NULL, 0);
	unsetenv("CUDA_CACHE_DISABLE");
	tap_ok(r == 0 && n == 0, "CUDA_CACHE_DISABLE=1 stores nothing");

	build_and_run("e1", 1);
	char entry[512];
	struct stat st;
	count_entries(entry, sizeof(entry));
	bool sized = !stat(entry, &st);
	char max[32];
	/* room for one entry: the second evicts the first */
	snprintf(max, sizeof(max), "%lld", (long long)st.st_size * 3 / 2);
	setenv("CUDA_CACHE_MAXSIZE", max, 1);
	build_and_run("e2", 1);
	n = count_entries(NULL, 0);
	int again = build_and_run("e2", 1);
	unsetenv("CUDA_CACHE_MAXSIZE");
	tap_ok(sized && n == 1 && again == 1, "CUDA_CACHE_MAXSIZE evicts the "
	       "least recently used (%u left)", n);
	clear_entries();

	bool parsed = true;
	setenv("CUDA_CACHE_MAXSIZE", "12x", 1);
	parsed &= jit_cache_maxsize() == 1ull << 30;
	setenv("CUDA_CACHE_MAXSIZE", "99999999999", 1);
	parsed &= jit_cache_maxsize() == 4ull << 30;
	setenv("CUDA_CACHE_MAXSIZE", "1000", 1);
	parsed &= jit_cache_maxsize() == 1000;
	unsetenv("CUDA_CACHE_MAXSIZE");
	parsed &= jit_cache_maxsize() == 1ull << 30;
	tap_ok(parsed, "CUDA_CACHE_MAXSIZE: bytes, default 1 GiB, at most "
	       "4 GiB");
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
	snprintf(cache_root, sizeof(cache_root), "/tmp/vcuda-jit-test.XXXXXX");
	if (!mkdtemp(cache_root)) {
		tap_diag("mkdtemp failed");
		return 1;
	}
	snprintf(entries, sizeof(entries), "%s/vcuda-jit", cache_root);
	setenv("CUDA_CACHE_PATH", cache_root, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	unsetenv("CUDA_CACHE_MAXSIZE");
	test_store_and_load();
	test_bad_entries();
	test_shared_in_process();
	test_settings();
	clear_entries();
	rmdir(entries);
	rmdir(cache_root);
	test_free_all();
	return tap_done();
}
