// SPDX-License-Identifier: MIT
/* Recording launches for replay on a real GPU; see record.h. */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static FILE *manifest;
static const char *dir;
static bool checked;

/* Programs and texture objects get small ids in recording order. */
static const struct ptx_program **programs;
static size_t nprograms;
static uint64_t *texobjs;
static size_t ntexobjs;
static unsigned launches;

/* The launch being captured, until committed. */
static char *pending;
static size_t pending_len;
static FILE *pending_f;

/* Buffer contents (hashes) as the last launch left them: a buffer the
 * host has not touched since is the GPU's own, not uploaded again. */
static uint64_t *after;
static size_t nafter;
static const struct rec_buffer *last_bufs;
static size_t last_nbufs;

bool record_on(void)
{
	if (!checked) {
		checked = true;
		dir = getenv("PTX_RECORD");
		if (dir && *dir) {
			char path[1024];
			mkdir(dir, 0777);
			snprintf(path, sizeof(path), "%s/blobs", dir);
			mkdir(path, 0777);
			snprintf(path, sizeof(path), "%s/%s.manifest", dir,
				 program_invocation_short_name);
			manifest = fopen(path, "w");
		}
	}
	return manifest != NULL;
}

static uint64_t fnv1a(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h ^ n;
}

/* Writes @n bytes as a blob (once) and returns its name. */
static const char *blob(const void *p, size_t n, char name[24])
{
	char path[1100];
	struct stat st;
	snprintf(name, 24, "%016" PRIx64, fnv1a(p, n));
	snprintf(path, sizeof(path), "%s/blobs/%s.bin", dir, name);
	if (stat(path, &st) == 0)
		return name;
	FILE *f = fopen(path, "wb");
	if (f) {
		if (n)
			fwrite(p, 1, n, f);
		fclose(f);
	}
	return name;
}

static size_t program_id(const struct ptx_program *p)
{
	for (size_t i = nprograms; i-- > 0;)
		if (programs[i] == p)
			return i;
	return SIZE_MAX;
}

void record_program(const struct ptx_program *prog, const char *const *texts,
		    size_t n)
{
	if (!record_on())
		return;
	const struct ptx_program **v = realloc(programs, (nprograms + 1) *
							 sizeof(*v));
	if (!v)
		return;
	programs = v;
	programs[nprograms] = prog;
	fprintf(manifest, "program %zu %zu", nprograms++, n);
	for (size_t i = 0; i < n; i++) {
		char name[24];
		fprintf(manifest, " %s", blob(texts[i], strlen(texts[i]), name));
	}
	fputc('\n', manifest);
	fflush(manifest);
}

/* The test buffer holding [p, p + n), or -1. */
static long buffer_of(const void *p, size_t n, const struct rec_buffer *b,
		      size_t nb, size_t *off)
{
	uintptr_t a = (uintptr_t)p;
	for (size_t i = 0; i < nb; i++) {
		uintptr_t s = (uintptr_t)b[i].p;
		if (a >= s && a + n <= s + b[i].size) {
			*off = a - s;
			return (long)i;
		}
	}
	return -1;
}

static long texobj_id(uint64_t h)
{
	for (size_t i = 0; i < ntexobjs; i++)
		if (texobjs[i] == h)
			return (long)i;
	return -1;
}

/* Parameter words that are pointers into buffers or object handles. */
static void param_refs(FILE *f, const uint8_t *params, size_t size,
		       const struct rec_buffer *b, size_t nb)
{
	for (size_t off = 0; off + 8 <= size; off += 8) {
		uint64_t v;
		size_t at;
		memcpy(&v, params + off, 8);
		if (!v)
			continue;
		long id = texobj_id(v);
		if (id >= 0) {
			fprintf(f, "  texobj %zu %ld\n", off, id);
			continue;
		}
		id = buffer_of((const void *)(uintptr_t)v, 0, b, nb, &at);
		if (id >= 0 && !b[id].module_var)
			fprintf(f, "  reloc %zu %ld %zu\n", off, id, at);
	}
}

void record_launch(const struct ptx_program *prog, const char *kernel,
		   const struct ptx_launch *l,
		   const struct ptx_kernel_info *info,
		   const struct rec_buffer *bufs, size_t nbufs,
		   uint64_t heap_size, uint64_t printf_size)
{
	size_t pid = record_on() ? program_id(prog) : SIZE_MAX;
	if (pid == SIZE_MAX)
		return;
	free(pending);
	pending = NULL;
	pending_f = open_memstream(&pending, &pending_len);
	if (!pending_f)
		return;
	FILE *f = pending_f;
	char name[24];
	if (heap_size)
		fprintf(f, "limit heap %" PRIu64 "\n", heap_size);
	if (printf_size)
		fprintf(f, "limit printf %" PRIu64 "\n", printf_size);
	fprintf(f, "launch %u %zu %s %u %u %u %u %u %u %u %u %s %u %u",
		launches, pid, kernel, l->grid[0], l->grid[1], l->grid[2],
		l->block[0], l->block[1], l->block[2], l->dynamic_shared_size,
		l->flags, blob(l->params, info->param_size, name),
		info->param_size, info->param_count);
	for (uint32_t i = 0; i < info->param_count; i++)
		fprintf(f, " %u:%u", info->params[i].offset,
			info->params[i].size);
	fputc('\n', f);
	for (size_t i = 0; i < nbufs; i++) {
		if (bufs[i].module_var)
			continue;
		uint64_t h = fnv1a(bufs[i].p, bufs[i].size);
		bool changed = i >= nafter || after[i] != h;
		fprintf(f, "  state %zu %zu %s %d\n", i, bufs[i].size,
			blob(bufs[i].p, bufs[i].size, name), changed);
	}
	param_refs(f, l->params, info->param_size, bufs, nbufs);
	fprintf(f, "  go\n");
	last_bufs = bufs;
	last_nbufs = nbufs;
}

/* Hashes of every buffer after a launch. */
static void note_after(void)
{
	uint64_t *v = realloc(after, (last_nbufs + 1) * sizeof(*v));
	if (!v)
		return;
	after = v;
	nafter = last_nbufs;
	for (size_t i = 0; i < last_nbufs; i++)
		after[i] = fnv1a(last_bufs[i].p, last_bufs[i].size);
}

void record_commit(bool ok)
{
	if (!pending_f)
		return;
	fclose(pending_f);
	pending_f = NULL;
	if (ok) {
		fwrite(pending, 1, pending_len, manifest);
		fflush(manifest);
		launches++;
		note_after();
	}
	free(pending);
	pending = NULL;
}

void record_texobj(uint64_t handle, bool surface,
		   const struct ptx_texture_desc *d,
		   const struct rec_buffer *bufs, size_t nbufs)
{
	if (!record_on())
		return;
	uint64_t *v = realloc(texobjs, (ntexobjs + 1) * sizeof(*v));
	if (!v)
		return;
	texobjs = v;
	texobjs[ntexobjs] = handle;
	fprintf(manifest,
		"texture %zu %d %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u "
		"%u %d %a %a %a %a %a %a %a %u",
		ntexobjs++, surface, d->format, d->channels, d->shape, d->width,
		d->height, d->depth, d->layers, d->num_levels,
		d->address_mode[0], d->address_mode[1], d->address_mode[2],
		d->filter_mode, d->mipmap_filter_mode, d->read_normalized_float,
		d->normalized_coords, d->srgb, d->linear_memory,
		d->border_color[0], d->border_color[1], d->border_color[2],
		d->border_color[3], d->mipmap_level_bias,
		d->min_mipmap_level_clamp, d->max_mipmap_level_clamp,
		d->max_anisotropy);
	for (uint32_t i = 0; i < (d->num_levels ? d->num_levels : 1); i++) {
		size_t off = 0;
		long id = buffer_of(d->levels[i].data, 1, bufs, nbufs, &off);
		fprintf(manifest, " %ld %zu %" PRIu64 " %" PRIu64, id, off,
			d->levels[i].pitch, d->levels[i].slice_pitch);
	}
	fputc('\n', manifest);
	fflush(manifest);
}

void record_expect(const char *name, const void *got, size_t bytes,
		   const struct rec_buffer *bufs, size_t nbufs)
{
	size_t off;
	if (!record_on() || !launches)
		return;
	long id = buffer_of(got, bytes, bufs, nbufs, &off);
	if (id < 0 || bufs[id].module_var) {
		fprintf(manifest, "# %s: not a test buffer\n", name);
		return;
	}
	fprintf(manifest, "expect %s %ld %zu %zu\n", name, id, off, bytes);
	fflush(manifest);
}

void record_expect_text(const char *name)
{
	if (record_on() && launches)
		fprintf(manifest, "expect_text %s\n", name);
}
