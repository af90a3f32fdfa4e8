// SPDX-License-Identifier: MIT
/* Helpers shared by the unit tests. */
#include "harness.h"
#include "tap.h"

#include <dirent.h>
#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CORPUS_DIR
#define CORPUS_DIR "build/tests/ptx"
#endif
#ifndef EXPECTED_DIR
#define EXPECTED_DIR "tests/ptx/expected"
#endif

uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = (size_t)n;
	}
	return buf;
}

static const char *corpus_dir(void)
{
	const char *d = getenv("PTX_CORPUS");
	return d ? d : CORPUS_DIR;
}

uint8_t *corpus_file(const char *name, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", corpus_dir(), name);
	uint8_t *b = read_file(path, len);
	if (!b)
		tap_diag("cannot read %s", path);
	return b;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **corpus_list(const char *suffix, size_t *n)
{
	DIR *d = opendir(corpus_dir());
	char **names = NULL;
	size_t count = 0, sl = strlen(suffix);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < sl || strcmp(e->d_name + l - sl, suffix))
			continue;
		char **nn = realloc(names, (count + 1) * sizeof(*nn));
		if (!nn)
			break;
		names = nn;
		names[count++] = strdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (count)
		qsort(names, count, sizeof(*names), name_cmp);
	*n = count;
	return names;
}

void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

const uint8_t *elf_section(const uint8_t *img, size_t len, const char *name,
			   size_t *size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	if (len < sizeof(*eh) || memcmp(img, ELFMAG, SELFMAG) ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
		return NULL;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	const char *names = (const char *)img + sh[eh->e_shstrndx].sh_offset;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (strcmp(names + sh[i].sh_name, name) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		*size = sh[i].sh_size;
		return img + sh[i].sh_offset;
	}
	return NULL;
}

/* ---- tracked memory ---- */

static struct ptx_mem_range *allocs;
static void **alloc_ptrs;
static size_t nallocs;

void *test_alloc(size_t size)
{
	size_t n = (size + 255) / 256 * 256;
	void *p = aligned_alloc(256, n ? n : 256);
	struct ptx_mem_range *r = realloc(allocs, (nallocs + 1) * sizeof(*r));
	void **q = r ? realloc(alloc_ptrs, (nallocs + 1) * sizeof(*q)) : NULL;
	if (r)
		allocs = r;
	if (!p || !q) {
		free(p);
		return NULL;
	}
	alloc_ptrs = q;
	memset(p, 0, n ? n : 256);
	allocs[nallocs] = (struct ptx_mem_range){ (uintptr_t)p,
						  (uintptr_t)p + size, true };
	alloc_ptrs[nallocs++] = p;
	return p;
}

void test_free_all(void)
{
	for (size_t i = 0; i < nallocs; i++)
		free(alloc_ptrs[i]);
	free(allocs);
	free(alloc_ptrs);
	allocs = NULL;
	alloc_ptrs = NULL;
	nallocs = 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct ptx_mem_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void *alloc_var(void *user, size_t size, size_t align,
		       enum ptx_var_space space)
{
	(void)user;
	(void)align;
	(void)space;
	return test_alloc(size);
}

/* ---- building ---- */

enum ptx_status build_texts(const char *const *texts, const char *const *names,
			    size_t n, struct ptx_program **out, char *log,
			    size_t log_len)
{
	struct ptx_source *src = calloc(n, sizeof(*src));
	if (!src)
		return PTX_ERR_NO_MEMORY;
	for (size_t i = 0; i < n; i++)
		src[i] = (struct ptx_source){ texts[i], strlen(texts[i]),
					      names[i] };
	enum ptx_status st = ptx_program_build(src, n, out, log, log_len);
	free(src);
	if (st == PTX_OK)
		st = ptx_program_place_variables(*out, alloc_var, NULL, log,
						 log_len);
	if (st != PTX_OK && *out) {
		ptx_program_destroy(*out);
		*out = NULL;
	}
	return st;
}

enum ptx_status build_corpus(const char *const *files, size_t n,
			     struct ptx_program **out, char *log,
			     size_t log_len)
{
	char **texts = calloc(n, sizeof(*texts));
	enum ptx_status st = texts ? PTX_OK : PTX_ERR_NO_MEMORY;
	for (size_t i = 0; st == PTX_OK && i < n; i++) {
		size_t len;
		texts[i] = (char *)corpus_file(files[i], &len);
		if (!texts[i])
			st = PTX_ERR_INVALID;
	}
	if (st == PTX_OK)
		st = build_texts((const char *const *)texts, files, n, out, log,
				 log_len);
	for (size_t i = 0; texts && i < n; i++)
		free(texts[i]);
	free(texts);
	return st;
}

/* ---- launching ---- */

struct run_job {
	const struct ptx_launch *launch;
	uint64_t total;
	uint64_t next;
	bool failed;
	struct ptx_fault fault;
	pthread_mutex_t lock;
};

static void *run_thread(void *arg)
{
	struct run_job *j = arg;
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f;
	for (;;) {
		pthread_mutex_lock(&j->lock);
		uint64_t cta = j->next++;
		bool stop = j->failed || cta >= j->total;
		pthread_mutex_unlock(&j->lock);
		if (stop || !w)
			break;
		if (!ptx_run_ctas(w, j->launch, cta, 1, &f)) {
			pthread_mutex_lock(&j->lock);
			if (!j->failed)
				j->fault = f;
			j->failed = true;
			pthread_mutex_unlock(&j->lock);
		}
	}
	ptx_worker_destroy(w);
	return NULL;
}

static uint8_t *pack_params(const struct ptx_kernel_info *info,
			    const void *const *args)
{
	uint8_t *buf = test_alloc(info->param_size + 8);
	for (uint32_t i = 0; buf && i < info->param_count; i++)
		memcpy(buf + info->params[i].offset, args[i],
		       info->params[i].size);
	return buf;
}

bool run(struct ptx_program *p, const char *kernel,
	 const struct launch_cfg *cfg, const void *const *args,
	 struct ptx_fault *fault)
{
	const struct ptx_kernel *k = ptx_program_kernel(p, kernel);
	memset(fault, 0, sizeof(*fault));
	if (!k) {
		snprintf(fault->message, sizeof(fault->message),
			 "no kernel %s", kernel);
		return false;
	}
	struct ptx_kernel_info info;
	ptx_kernel_get_info(k, &info);
	struct ptx_launch l = { .kernel = k,
				.dynamic_shared_size = cfg->shared };
	for (int i = 0; i < 3; i++) {
		l.grid[i] = cfg->grid[i] ? cfg->grid[i] : 1;
		l.block[i] = cfg->block[i] ? cfg->block[i] : 1;
	}
	l.params = pack_params(&info, args);
	struct ptx_mem_range *ranges = NULL;
	if (!cfg->unchecked) {
		ranges = malloc((nallocs + 1) * sizeof(*ranges));
		memcpy(ranges, allocs, nallocs * sizeof(*ranges));
		qsort(ranges, nallocs, sizeof(*ranges), range_cmp);
		l.ranges = ranges;
		l.range_count = nallocs;
	}
	struct run_job job = { .launch = &l };
	job.total = (uint64_t)l.grid[0] * l.grid[1] * l.grid[2];
	pthread_mutex_init(&job.lock, NULL);
	unsigned threads = cfg->threads > 1 ? cfg->threads : 1;
	pthread_t t[16];
	for (unsigned i = 0; i < threads && i < 16; i++)
		pthread_create(&t[i], NULL, run_thread, &job);
	for (unsigned i = 0; i < threads && i < 16; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&job.lock);
	free(ranges);
	*fault = job.fault;
	return !job.failed;
}

bool run_ok(struct ptx_program *p, const char *kernel,
	    const struct launch_cfg *cfg, const void *const *args)
{
	struct ptx_fault f;
	if (run(p, kernel, cfg, args, &f))
		return true;
	tap_diag("%s faulted (kind %d) at 0x%" PRIx64 " cta (%u,%u,%u) "
		 "thread (%u,%u,%u): %s", kernel, f.kind, f.addr, f.cta[0],
		 f.cta[1], f.cta[2], f.thread[0], f.thread[1], f.thread[2],
		 f.message);
	return false;
}

/* ---- expectations ---- */

static void write_result(const char *name, const void *got, size_t bytes)
{
	const char *dir = getenv("PTX_WRITE_RESULTS");
	if (!dir)
		return;
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(got, 1, bytes, f);
		fclose(f);
	}
}

bool expect_bytes(const char *name, const void *got, const void *ref,
		  size_t bytes, unsigned elem)
{
	char path[1024];
	size_t len = 0;
	write_result(name, got, bytes);
	snprintf(path, sizeof(path), "%s/%s.bin", EXPECTED_DIR, name);
	uint8_t *file = read_file(path, &len);
	if (file && len != bytes) {
		tap_diag("%s: %zu bytes, expected file has %zu", name, bytes,
			 len);
		free(file);
		return false;
	}
	const uint8_t *want = file ? file : ref, *have = got;
	unsigned shown = 0;
	for (size_t i = 0; i + elem <= bytes; i += elem) {
		if (!memcmp(want + i, have + i, elem))
			continue;
		if (shown++ < 8) {
			uint64_t w = 0, h = 0;
			memcpy(&w, want + i, elem);
			memcpy(&h, have + i, elem);
			tap_diag("%s[%zu]: got 0x%0*" PRIx64 ", expected "
				 "0x%0*" PRIx64 "%s", name, i / elem,
				 elem * 2, h, elem * 2, w,
				 file ? " (from file)" : "");
		}
	}
	if (shown > 8)
		tap_diag("%s: %u differences", name, shown);
	free(file);
	return shown == 0;
}
