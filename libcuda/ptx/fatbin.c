// SPDX-License-Identifier: MIT
/*
 * Fatbin reader: registration wrappers, containers, entries, compressed
 * payloads, and the choice of one PTX text per translation unit.
 */
#include "fatbin_walk.h"
#include "le_read.h"
#include "util.h"

#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum {
	CONTAINER_HEADER = 16,
	ENTRY_MIN_HEADER = 64,
	/* Largest payload we agree to decompress: a sanity bound. */
	MAX_UNCOMPRESSED = 1u << 30,
};

enum fatbin_status fatbin_fail(enum fatbin_status st, char *err,
			       size_t err_len, const char *fmt, ...)
{
	if (err && err_len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return st;
}

const char *fatbin_compression_name(unsigned flags)
{
	if (flags & FATBIN_FLAG_ZSTD)
		return "zstd";
	if (flags & FATBIN_FLAG_LZ4)
		return "lz4";
	return "none";
}

/* Optional string field (offset, length) of an entry header. */
static void entry_string(const uint8_t *hdr, unsigned header_size,
			 uint32_t off, uint32_t len, const char **s,
			 size_t *slen)
{
	*s = NULL;
	*slen = 0;
	if (!off || !len || off >= header_size || len > header_size - off)
		return;
	const char *p = (const char *)hdr + off;
	*s = p;
	*slen = strnlen(p, len);
}

static enum fatbin_status decode_entry(const uint8_t *hdr, size_t avail,
				       struct fatbin_entry_info *e, char *err,
				       size_t err_len)
{
	if (avail < ENTRY_MIN_HEADER)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "truncated header (%zu bytes left)", avail);
	e->kind = rd16(hdr);
	e->version = rd16(hdr + 2);
	e->header_size = rd32(hdr + 4);
	e->payload_size = rd64(hdr + 8);
	e->compressed_size = rd32(hdr + 16);
	e->ptx_minor = rd16(hdr + 24);
	e->ptx_major = rd16(hdr + 26);
	e->arch = rd32(hdr + 28);
	e->flags = rd32(hdr + 40);
	e->uncompressed_size = rd64(hdr + 56);
	if (e->header_size < ENTRY_MIN_HEADER || e->header_size > avail ||
	    e->header_size % 8)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "bad header size %u", e->header_size);
	if (e->payload_size > avail - e->header_size)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "payload of %llu bytes overruns the container",
				   (unsigned long long)e->payload_size);
	entry_string(hdr, e->header_size, rd32(hdr + 32), rd32(hdr + 36),
		     &e->name, &e->name_len);
	uint32_t opt = rd32(hdr + 20);
	if (opt && opt <= e->header_size - 8)	/* no wrap: >= 64 */
		entry_string(hdr, e->header_size, rd32(hdr + opt),
			     rd32(hdr + opt + 4), &e->options,
			     &e->options_len);
	e->payload = hdr + e->header_size;
	return FATBIN_OK;
}

static enum fatbin_status walk_container(const uint8_t *c, size_t avail,
					 struct fatbin_entry_info *e,
					 fatbin_entry_fn fn, void *user,
					 char *err, size_t err_len)
{
	uint64_t body = rd64(c + 8);
	unsigned hsize = rd16(c + 6);
	if (rd16(c + 4) != 1 || hsize != CONTAINER_HEADER)
		return fatbin_fail(FATBIN_UNSUPPORTED, err, err_len,
				   "container %u: version %u header size %u",
				   e->container, rd16(c + 4), hsize);
	if (avail && body > avail - CONTAINER_HEADER)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "container %u: size %llu exceeds image",
				   e->container, (unsigned long long)body);
	const uint8_t *p = c + CONTAINER_HEADER;
	const uint8_t *end = p + body;
	for (e->index = 0; p < end; e->index++) {
		char why[160];
		enum fatbin_status st =
			decode_entry(p, (size_t)(end - p), e, why, sizeof(why));
		if (st != FATBIN_OK)
			return fatbin_fail(st, err, err_len,
					   "container %u entry %u: %s", e->container,
					   e->index, why);
		e->offset = (size_t)(p - (c - e->container_offset));
		st = fn(user, e, err, err_len);
		if (st != FATBIN_OK)
			return st;
		p += e->header_size + e->payload_size;
	}
	return FATBIN_OK;
}

enum fatbin_status fatbin_walk(const void *image, size_t size,
			       fatbin_entry_fn fn, void *user,
			       size_t *size_out, char *err, size_t err_len)
{
	const uint8_t *base = image;
	size_t off = 0;
	struct fatbin_entry_info e = { 0 };
	if (size && size < CONTAINER_HEADER)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "image of %zu bytes is too small", size);
	if (rd32(base) != FATBIN_CONTAINER_MAGIC)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "bad fatbin magic 0x%08x", rd32(base));
	for (;;) {
		e.container_offset = off;
		enum fatbin_status st = walk_container(
			base + off, size ? size - off : 0, &e, fn, user, err,
			err_len);
		if (st != FATBIN_OK)
			return st;
		off += CONTAINER_HEADER + rd64(base + off + 8);
		off = ALIGN_UP(off, 8);
		e.container++;
		/*
		 * Without a size the image is one container, as a
		 * registration wrapper's: the bytes after it belong to
		 * another unit (nvcc places each unit's container, and the
		 * -rdc ones, right after the device-linked one).
		 */
		if (!size)
			break;
		if (off >= size)
			break;
		if (size - off >= CONTAINER_HEADER &&
		    rd32(base + off) == FATBIN_CONTAINER_MAGIC)
			continue;
		/* Padding (NULs) may end a section; anything else is bad. */
		for (size_t i = off; i < size; i++)
			if (base[i])
				return fatbin_fail(FATBIN_INVALID, err, err_len,
						   "bad magic 0x%08x at offset %zu",
						   size - off >= 4 ? rd32(base + off) : 0,
						   off);
		break;
	}
	if (size_out)
		*size_out = off;
	return FATBIN_OK;
}

static enum fatbin_status decompress(const struct fatbin_entry_info *e,
				     uint8_t *dst, size_t dst_len, char *err,
				     size_t err_len)
{
	size_t src_len = e->compressed_size;
	if (!src_len || src_len > e->payload_size)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "compressed size %zu, payload %llu", src_len,
				   (unsigned long long)e->payload_size);
	if (e->flags & FATBIN_FLAG_ZSTD) {
		size_t n = ZSTD_decompress(dst, dst_len, e->payload, src_len);
		if (ZSTD_isError(n))
			return fatbin_fail(FATBIN_INVALID, err, err_len, "zstd: %s",
					   ZSTD_getErrorName(n));
		if (n != dst_len)
			return fatbin_fail(FATBIN_INVALID, err, err_len,
					   "zstd gave %zu bytes, header says %zu", n,
					   dst_len);
		return FATBIN_OK;
	}
	int n = LZ4_decompress_safe((const char *)e->payload, (char *)dst,
				    (int)src_len, (int)dst_len);
	if (n < 0 || (size_t)n != dst_len)
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "lz4 gave %d bytes, header says %zu", n, dst_len);
	return FATBIN_OK;
}

enum fatbin_status fatbin_entry_payload(const struct fatbin_entry_info *e,
					uint8_t **out, size_t *len, char *err,
					size_t err_len)
{
	bool compressed = e->flags & (FATBIN_FLAG_ZSTD | FATBIN_FLAG_LZ4);
	size_t n = compressed ? e->uncompressed_size : e->payload_size;
	if (compressed && (!n || n > MAX_UNCOMPRESSED))
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "uncompressed size %zu", n);
	uint8_t *buf = malloc(n + 1);
	if (!buf)
		return fatbin_fail(FATBIN_NO_MEMORY, err, err_len, "out of memory");
	if (compressed) {
		enum fatbin_status st = decompress(e, buf, n, err, err_len);
		if (st != FATBIN_OK) {
			free(buf);
			return st;
		}
	} else {
		memcpy(buf, e->payload, n);
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return FATBIN_OK;
}

/* ---- choosing one PTX per translation unit ---- */

/*
 * A translation unit is identified by the container holding it and the
 * entry's source name: relocatable fatbins carry one container per unit,
 * and entries of one unit share a name.
 */
struct tu_choice {
	const uint8_t *container;
	const char *name;
	size_t name_len;
	struct fatbin_entry_info best;	/* kind 0: none fits yet */
	unsigned lowest_arch;		/* of its PTX; ~0u: it has none */
	bool device_elf;		/* has SASS a real sm_N would run */
};

struct collect {
	unsigned device_arch;
	struct vec tus;			/* struct tu_choice */
	const uint8_t *image;
	unsigned elf_entries;
};

static struct tu_choice *find_tu(struct collect *c, const uint8_t *container,
				 const struct fatbin_entry_info *e)
{
	for (size_t i = 0; i < c->tus.len; i++) {
		struct tu_choice *t = &VEC_AT(c->tus, struct tu_choice, i);
		if (t->container == container && t->name_len == e->name_len &&
		    (!e->name_len || !memcmp(t->name, e->name, e->name_len)))
			return t;
	}
	struct tu_choice *t = vec_push(&c->tus, sizeof(*t));
	if (!t)
		return NULL;
	t->container = container;
	t->name = e->name;
	t->name_len = e->name_len;
	t->lowest_arch = ~0u;
	return t;
}

static enum fatbin_status collect_entry(void *user,
					const struct fatbin_entry_info *e,
					char *err, size_t err_len)
{
	struct collect *c = user;
	if (e->kind != FATBIN_KIND_PTX && e->kind != FATBIN_KIND_ELF)
		return FATBIN_OK;	/* other kinds carry nothing we run */
	struct tu_choice *t = find_tu(c, c->image + e->container_offset, e);
	if (!t)
		return fatbin_fail(FATBIN_NO_MEMORY, err, err_len, "out of memory");
	if (e->kind == FATBIN_KIND_ELF) {
		c->elf_entries++;
		/* SASS runs on its major arch, minor up (sm_80 on sm_86). */
		if (e->arch / 10 == c->device_arch / 10 &&
		    e->arch <= c->device_arch)
			t->device_elf = true;
		return FATBIN_OK;
	}
	if (e->arch < t->lowest_arch)
		t->lowest_arch = e->arch;
	if (e->arch <= c->device_arch &&
	    (!t->best.kind || e->arch > t->best.arch))
		t->best = *e;
	return FATBIN_OK;
}

static struct fatbin_ptx *list_add(struct fatbin_ptx_list *out)
{
	struct fatbin_ptx *items =
		realloc(out->items, (out->count + 1) * sizeof(*items));
	if (!items)
		return NULL;
	out->items = items;
	struct fatbin_ptx *p = &items[out->count++];
	memset(p, 0, sizeof(*p));
	return p;
}

static enum fatbin_status emit_tu(const struct tu_choice *t,
				  struct fatbin_ptx_list *out, char *err,
				  size_t err_len)
{
	uint8_t *text;
	size_t len;
	char why[200];
	enum fatbin_status st =
		fatbin_entry_payload(&t->best, &text, &len, why, sizeof(why));
	if (st != FATBIN_OK)
		return fatbin_fail(st, err, err_len,
				   "container %u entry %u (PTX compute_%u): %s",
				   t->best.container, t->best.index, t->best.arch,
				   why);
	struct fatbin_ptx *p = list_add(out);
	if (!p) {
		free(text);
		return fatbin_fail(FATBIN_NO_MEMORY, err, err_len, "out of memory");
	}
	p->text = (char *)text;
	p->len = strlen((char *)text);	/* drops the trailing NULs */
	p->arch = t->best.arch;
	if (t->name) {
		p->source_name = strndup(t->name, t->name_len);
		if (!p->source_name)
			return fatbin_fail(FATBIN_NO_MEMORY, err, err_len,
					   "out of memory");
	}
	return FATBIN_OK;
}

/* Adds the chosen PTX of every unit of one bare fatbin to @out. */
static enum fatbin_status collect_fatbin(const uint8_t *image, size_t size,
					 unsigned device_arch,
					 struct fatbin_ptx_list *out,
					 unsigned *units, unsigned *elves,
					 char *err, size_t err_len)
{
	struct collect c = { .device_arch = device_arch, .image = image };
	enum fatbin_status st = fatbin_walk(image, size, collect_entry, &c,
					    NULL, err, err_len);
	for (size_t i = 0; st == FATBIN_OK && i < c.tus.len; i++) {
		const struct tu_choice *t =
			&VEC_AT(c.tus, struct tu_choice, i);
		if (t->lowest_arch == ~0u)
			continue;	/* SASS only: nothing for us */
		/*
		 * A unit whose PTX is newer than the device but which a
		 * real GPU runs from SASS is left out: -rdc programs built
		 * for PTX alone carry libcudadevrt so, with compute_121 PTX
		 * and SASS for every arch. Only a link-time reference can
		 * reach its code, and the linker reports that one.
		 */
		if (!t->best.kind && t->device_elf)
			continue;
		if (!t->best.kind) {
			st = fatbin_fail(FATBIN_NO_PTX, err, err_len,
					 "%.*s%sPTX only for compute_%u and above, "
					 "device is sm_%u",
					 (int)t->name_len, t->name ? t->name : "",
					 t->name ? ": " : "", t->lowest_arch,
					 device_arch);
			break;
		}
		st = emit_tu(t, out, err, err_len);
	}
	for (size_t i = 0; i < c.tus.len; i++)
		if (VEC_AT(c.tus, struct tu_choice, i).lowest_arch != ~0u)
			(*units)++;
	*elves += c.elf_entries;
	vec_free(&c.tus);
	return st;
}

static bool looks_like_ptx(const uint8_t *p, size_t size)
{
	size_t n = size ? size : 64;
	for (size_t i = 0; i < n && i < 64; i++) {
		if (!p[i])
			return i > 0;
		if (p[i] < 0x09 || (p[i] > 0x0d && p[i] < 0x20) ||
		    p[i] > 0x7e)
			return false;
	}
	return true;
}

/*
 * A cubin: an ELF file of the CUDA machine (64-bit, little-endian,
 * e_machine EM_CUDA), checked a byte at a time so that a short image
 * that only starts like ELF is not read past its end.
 */
static bool is_cubin(const uint8_t *p, size_t size)
{
	const unsigned em_cuda = 190;

	if (size && size < 64)
		return false;
	return rd32(p) == ELF_MAGIC && p[4] == 2 && p[5] == 1 &&
	       (unsigned)(p[18] | p[19] << 8) == em_cuda;
}

static enum fatbin_status collect_raw_ptx(const uint8_t *p, size_t size,
					  struct fatbin_ptx_list *out,
					  char *err, size_t err_len)
{
	size_t len = size ? strnlen((const char *)p, size) :
			    strlen((const char *)p);
	struct fatbin_ptx *e = list_add(out);
	if (!e || !(e->text = strndup((const char *)p, len)))
		return fatbin_fail(FATBIN_NO_MEMORY, err, err_len, "out of memory");
	e->len = len;
	const char *t = strstr(e->text, ".target");
	if (t) {
		const char *sm = strstr(t, "sm_");
		if (sm)
			e->arch = (unsigned)strtoul(sm + 3, NULL, 10);
	}
	return FATBIN_OK;
}

static enum fatbin_status collect_wrapper(const uint8_t *w,
					  unsigned device_arch,
					  struct fatbin_ptx_list *out,
					  unsigned *units, unsigned *elves,
					  char *err, size_t err_len)
{
	unsigned version = rd32(w + 4);
	const uint8_t *fatbin = (const uint8_t *)(uintptr_t)rd64(w + 8);
	if (version != 1 && version != 2)
		return fatbin_fail(FATBIN_UNSUPPORTED, err, err_len,
				   "registration wrapper version %u", version);
	enum fatbin_status st = FATBIN_OK;
	if (fatbin)
		st = collect_fatbin(fatbin, 0, device_arch, out, units, elves,
				    err, err_len);
	if (st != FATBIN_OK || version < 2)
		return st;
	/* Version 2: NULL-terminated array of relocatable fatbins. */
	const uint8_t *const *rel =
		(const uint8_t *const *)(uintptr_t)rd64(w + 16);
	for (size_t i = 0; rel && rel[i] && st == FATBIN_OK; i++) {
		char why[200];
		st = collect_fatbin(rel[i], 0, device_arch, out, units, elves,
				    why, sizeof(why));
		if (st != FATBIN_OK)
			fatbin_fail(st, err, err_len, "relocatable fatbin %zu: %s", i,
				    why);
	}
	return st;
}

enum fatbin_status fatbin_collect_ptx(const void *image, size_t image_size,
				      unsigned device_arch,
				      struct fatbin_ptx_list *out, char *err,
				      size_t err_len)
{
	const uint8_t *p = image;
	unsigned units = 0, elves = 0;
	enum fatbin_status st;
	out->items = NULL;
	out->count = 0;
	if (err && err_len)
		err[0] = 0;
	if (!p || (image_size && image_size < 4))
		return fatbin_fail(FATBIN_INVALID, err, err_len, "empty image");
	if (rd32(p) == FATBIN_WRAPPER_MAGIC)
		st = collect_wrapper(p, device_arch, out, &units, &elves, err,
				     err_len);
	else if (rd32(p) == FATBIN_CONTAINER_MAGIC)
		st = collect_fatbin(p, image_size, device_arch, out, &units,
				    &elves, err, err_len);
	else if (looks_like_ptx(p, image_size))
		return collect_raw_ptx(p, image_size, out, err, err_len);
	else if (is_cubin(p, image_size))	/* SASS, no PTX */
		return fatbin_fail(FATBIN_NO_PTX, err, err_len,
				   "an ELF cubin holds SASS only, no PTX");
	else
		st = fatbin_fail(FATBIN_INVALID, err, err_len,
				 "unknown image magic 0x%08x", rd32(p));
	if (st == FATBIN_OK && !out->count) {
		if (units)
			st = fatbin_fail(FATBIN_NO_PTX, err, err_len,
					 "no PTX for sm_%u", device_arch);
		else
			st = fatbin_fail(FATBIN_NO_PTX, err, err_len,
					 "no PTX entries (%u ELF/SASS only)", elves);
	}
	if (st != FATBIN_OK)
		fatbin_ptx_list_free(out);
	return st;
}

void fatbin_ptx_list_free(struct fatbin_ptx_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		free(list->items[i].text);
		free(list->items[i].source_name);
	}
	free(list->items);
	list->items = NULL;
	list->count = 0;
}
