// SPDX-License-Identifier: MIT
/* Helpers shared by the unit tests. */
#include "harness.h"
#include "record.h"
#include "tap.h"

#include <dirent.h>
#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
static struct rec_buffer *bufs;		/* the same, for recording */
static size_t nallocs;
static struct ptx_heap **heaps;
static size_t *heap_sizes, nheaps;
static struct ptx_printf_fifo *fifos[16];
static size_t fifo_sizes[16], nfifos;

static void *tracked_alloc(size_t size, bool module_var)
{
	size_t n = (size + 255) / 256 * 256;
	void *p = aligned_alloc(256, n ? n : 256);
	struct ptx_mem_range *r = realloc(allocs, (nallocs + 1) * sizeof(*r));
	struct rec_buffer *q = r ? realloc(bufs, (nallocs + 1) * sizeof(*q)) :
				   NULL;
	if (r)
		allocs = r;
	if (q)
		bufs = q;
	if (!p || !q) {
		free(p);
		return NULL;
	}
	memset(p, 0, n ? n : 256);
	allocs[nallocs] = (struct ptx_mem_range){ (uintptr_t)p,
						  (uintptr_t)p + size, true };
	bufs[nallocs++] = (struct rec_buffer){ p, size, module_var };
	return p;
}

void *test_alloc(size_t size)
{
	return tracked_alloc(size, false);
}

void test_free_all(void)
{
	for (size_t i = 0; i < nheaps; i++)
		ptx_heap_destroy(heaps[i]);
	for (size_t i = 0; i < nallocs; i++)
		free((void *)bufs[i].p);
	free(allocs);
	free(bufs);
	free(heaps);
	free(heap_sizes);
	allocs = NULL;
	bufs = NULL;
	heaps = NULL;
	heap_sizes = NULL;
	nallocs = nheaps = 0;
}

struct ptx_heap *test_heap(size_t size)
{
	void *mem = test_alloc(size);
	struct ptx_heap *h = mem ? ptx_heap_create(mem, size) : NULL;
	struct ptx_heap **v = h ? realloc(heaps, (nheaps + 1) * sizeof(*v)) :
				  NULL;
	size_t *sz = v ? realloc(heap_sizes, (nheaps + 1) * sizeof(*sz)) :
			 NULL;
	if (v)
		heaps = v;
	if (!sz) {
		ptx_heap_destroy(h);
		return NULL;
	}
	heap_sizes = sz;
	heap_sizes[nheaps] = size;
	heaps[nheaps++] = h;
	return h;
}

static size_t heap_size_of(const struct ptx_heap *h)
{
	for (size_t i = 0; h && i < nheaps; i++)
		if (heaps[i] == h)
			return heap_sizes[i];
	return 0;
}

struct ptx_printf_fifo *test_printf_fifo(size_t size)
{
	struct ptx_printf_fifo *f = ptx_printf_fifo_create(size);
	if (f && nfifos == 16)
		nfifos = 0;
	if (f) {
		fifos[nfifos] = f;
		fifo_sizes[nfifos++] = size;
	}
	return f;
}

static size_t fifo_size_of(const struct ptx_printf_fifo *f)
{
	for (size_t i = nfifos; f && i-- > 0;)	/* newest: addresses recur */
		if (fifos[i] == f)
			return fifo_sizes[i];
	return 0;
}

uint64_t test_texture(const struct ptx_texture_desc *d)
{
	uint64_t h = ptx_texture_create(d);
	if (h)
		record_texobj(h, false, d, bufs, nallocs);
	return h;
}

uint64_t test_surface(const struct ptx_texture_desc *d)
{
	uint64_t h = ptx_surface_create(d);
	if (h)
		record_texobj(h, true, d, bufs, nallocs);
	return h;
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
	return tracked_alloc(size, true);
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
	if (st == PTX_OK)
		record_program(*out, texts, n);
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
	uint64_t chunk;		/* CTAs per claim */
	unsigned smid;
	bool failed;
	struct ptx_fault fault;
	pthread_mutex_t lock;
};

static void *run_thread(void *arg)
{
	struct run_job *j = arg;
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f;
	pthread_mutex_lock(&j->lock);
	ptx_worker_set_smid(w, j->smid++);
	pthread_mutex_unlock(&j->lock);
	for (;;) {
		pthread_mutex_lock(&j->lock);
		uint64_t cta = j->next;
		j->next += j->chunk;
		bool stop = j->failed || cta >= j->total;
		pthread_mutex_unlock(&j->lock);
		if (stop || !w)
			break;
		uint64_t n = j->total - cta < j->chunk ? j->total - cta :
							   j->chunk;
		if (!ptx_run_ctas(w, j->launch, cta, n, &f)) {
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

/* Cooperative launches: the grid workspace, its address in envregs. */
static void cooperative_setup(struct ptx_launch *l)
{
	struct ptx_grid_workspace *ws = test_alloc(sizeof(*ws));
	uint64_t a = (uintptr_t)ws;
	ws->size = sizeof(*ws);
	l->envreg[1] = (uint32_t)(a >> 32);
	l->envreg[2] = (uint32_t)a;
}

static bool run_launch(struct ptx_program *p, const char *kernel,
		       const struct launch_cfg *cfg, const void *const *args,
		       struct ptx_fault *fault, bool record)
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
				.dynamic_shared_size = cfg->shared,
				.flags = cfg->flags, .heap = cfg->heap,
				.printf_fifo = cfg->printf_fifo,
				.kill = cfg->kill };
	for (int i = 0; i < 3; i++) {
		l.grid[i] = cfg->grid[i] ? cfg->grid[i] : 1;
		l.block[i] = cfg->block[i] ? cfg->block[i] : 1;
	}
	l.params = pack_params(&info, args);
	if (cfg->flags & PTX_LAUNCH_COOPERATIVE)
		cooperative_setup(&l);
	struct ptx_mem_range *ranges = NULL;
	if (!cfg->unchecked) {
		ranges = malloc((nallocs + 1) * sizeof(*ranges));
		memcpy(ranges, allocs, nallocs * sizeof(*ranges));
		qsort(ranges, nallocs, sizeof(*ranges), range_cmp);
		l.ranges = ranges;
		l.range_count = nallocs;
	}
	struct run_job job = { .launch = &l, .chunk = 1 };
	job.total = (uint64_t)l.grid[0] * l.grid[1] * l.grid[2];
	unsigned threads = cfg->threads > 1 ? cfg->threads : 1;
	if (threads > 16)
		threads = 16;
	l.sm_count = threads;
	if (cfg->flags & PTX_LAUNCH_COOPERATIVE)
		job.chunk = (job.total + threads - 1) / threads;
	if (record)
		record_launch(p, kernel, &l, &info, bufs, nallocs,
			      heap_size_of(cfg->heap),
			      fifo_size_of(cfg->printf_fifo));
	pthread_mutex_init(&job.lock, NULL);
	pthread_t t[16];
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, run_thread, &job);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&job.lock);
	free(ranges);
	*fault = job.fault;
	if (record)
		record_commit(!job.failed);
	return !job.failed;
}

bool run(struct ptx_program *p, const char *kernel,
	 const struct launch_cfg *cfg, const void *const *args,
	 struct ptx_fault *fault)
{
	return run_launch(p, kernel, cfg, args, fault, false);
}

bool run_ok(struct ptx_program *p, const char *kernel,
	    const struct launch_cfg *cfg, const void *const *args)
{
	struct ptx_fault f;
	if (run_launch(p, kernel, cfg, args, &f, true))
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

uint8_t *expected_file(const char *name, const char *ext, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.%s", EXPECTED_DIR, name, ext);
	return read_file(path, len);
}

bool expected_exists(const char *name, const char *ext)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.%s", EXPECTED_DIR, name, ext);
	return access(path, R_OK) == 0;
}

bool expect_bytes_mask(const char *name, const void *got, const void *ref,
		       const uint8_t *care, size_t bytes, unsigned elem)
{
	size_t len = 0;
	write_result(name, got, bytes);
	record_expect(name, got, bytes, bufs, nallocs);
	uint8_t *file = expected_file(name, "bin", &len);
	if (file && len != bytes) {
		tap_diag("%s: %zu bytes, expected file has %zu", name, bytes,
			 len);
		free(file);
		return false;
	}
	const uint8_t *want = file ? file : ref, *have = got;
	unsigned shown = 0;
	for (size_t i = 0; i + elem <= bytes; i += elem) {
		bool differ = false;
		for (size_t b = i; b < i + elem; b++)
			differ |= (!care || care[b]) && want[b] != have[b];
		if (!differ)
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

void expect_record(const char *name, const void *got, size_t bytes)
{
	write_result(name, got, bytes);
	record_expect(name, got, bytes, bufs, nallocs);
}

bool expect_bytes(const char *name, const void *got, const void *ref,
		  size_t bytes, unsigned elem)
{
	return expect_bytes_mask(name, got, ref, NULL, bytes, elem);
}

bool expect_text(const char *name, const char *got, const char *ref)
{
	size_t len = 0;
	record_expect_text(name);
	char *file = (char *)expected_file(name, "txt", &len);
	const char *want = file ? file : ref;
	bool ok = !strcmp(got, want);
	if (!ok)
		tap_diag("%s: printed \"%.200s\", expected \"%.200s\"%s",
			 name, got, want, file ? " (from file)" : "");
	free(file);
	return ok;
}

const char *const exec_mode_name[3] = { "interpreter", "scalar JIT",
					"vector JIT" };

void set_exec_mode(int mode)
{
	setenv("VCUDA_EXECUTOR", mode ? "jit" : "interp", 1);
	if (mode == 1)
		setenv("VCUDA_JIT_LANES", "0", 1);
	else
		unsetenv("VCUDA_JIT_LANES");
}

void unset_exec_mode(void)
{
	unsetenv("VCUDA_EXECUTOR");
	unsetenv("VCUDA_JIT_LANES");
}
