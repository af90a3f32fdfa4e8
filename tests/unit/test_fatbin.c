// SPDX-License-Identifier: MIT
/*
 * Fatbin reader: every compression mode, PTX choice by device arch,
 * executables (plain, -rdc, two units), registration wrappers (v1, v2),
 * raw PTX, and malformed images.
 */
#include "fatbin.h"
#include "fatbin_walk.h"
#include "harness.h"
#include "tap.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const modes[] = { "none", "speed", "size", "default",
				     "balance" };
#define ARRAY_LEN_MODES (sizeof(modes) / sizeof(modes[0]))

static char *reference_ptx;	/* compute_75 text of the "none" fatbin */

static bool collect(const void *img, size_t size, unsigned arch,
		    struct fatbin_ptx_list *l, enum fatbin_status want,
		    const char *want_err)
{
	char err[256];
	enum fatbin_status st = fatbin_collect_ptx(img, size, arch, l, err,
						   sizeof(err));
	if (st != want) {
		tap_diag("status %d, expected %d (%s)", st, want, err);
		return false;
	}
	if (want_err && !strstr(err, want_err)) {
		tap_diag("message '%s' lacks '%s'", err, want_err);
		return false;
	}
	return true;
}

static bool is_ptx_for(const struct fatbin_ptx *p, unsigned arch)
{
	char target[32];
	snprintf(target, sizeof(target), ".target sm_%u", arch);
	return p->arch == arch && strstr(p->text, ".version") &&
	       strstr(p->text, target) && strlen(p->text) == p->len &&
	       strstr(p->text, ".entry vector_add");
}

/* One fatbin per compression mode: same PTX, right arch choice. */
static bool test_mode(const char *mode)
{
	char name[64];
	size_t len;
	snprintf(name, sizeof(name), "vector_add.%s.fatbin", mode);
	uint8_t *img = corpus_file(name, &len);
	struct fatbin_ptx_list l = { 0 };
	bool ok = img && collect(img, len, 75, &l, FATBIN_OK, NULL) &&
		  l.count == 1 && is_ptx_for(&l.items[0], 75);
	if (ok && !reference_ptx)
		reference_ptx = strdup(l.items[0].text);
	ok = ok && !strcmp(l.items[0].text, reference_ptx);
	fatbin_ptx_list_free(&l);
	ok = ok && collect(img, len, 86, &l, FATBIN_OK, NULL) &&
	     l.count == 1 && is_ptx_for(&l.items[0], 80);
	fatbin_ptx_list_free(&l);
	/* known only by pointer: sizes from the headers */
	ok = ok && collect(img, 0, 90, &l, FATBIN_OK, NULL) && l.count == 1 &&
	     l.items[0].arch == 80;
	fatbin_ptx_list_free(&l);
	ok = ok && collect(img, len, 70, &l, FATBIN_NO_PTX, "compute_75");
	free(img);
	return ok;
}

struct census {
	unsigned ptx, elf, zstd, lz4;
};

static enum fatbin_status count_entry(void *user,
				      const struct fatbin_entry_info *e,
				      char *err, size_t err_len)
{
	struct census *c = user;
	(void)err;
	(void)err_len;
	c->ptx += e->kind == FATBIN_KIND_PTX;
	c->elf += e->kind == FATBIN_KIND_ELF;
	c->zstd += !!(e->flags & FATBIN_FLAG_ZSTD);
	c->lz4 += !!(e->flags & FATBIN_FLAG_LZ4);
	return FATBIN_OK;
}

static bool test_walk(void)
{
	size_t len;
	uint8_t *a = corpus_file("vector_add.none.fatbin", &len);
	struct census c = { 0 }, s = { 0 };
	char err[128];
	bool ok = a && fatbin_walk(a, len, count_entry, &c, NULL, err,
				   sizeof(err)) == FATBIN_OK;
	ok = ok && c.ptx == 2 && c.elf == 1 && !c.zstd && !c.lz4;
	free(a);
	a = corpus_file("vector_add.speed.fatbin", &len);
	ok = ok && a && fatbin_walk(a, len, count_entry, &s, NULL, err,
				    sizeof(err)) == FATBIN_OK;
	ok = ok && s.ptx == 2 && s.lz4 >= 2;
	if (!ok)
		tap_diag("none: %u PTX %u ELF %u zstd; speed: %u PTX %u lz4",
			 c.ptx, c.elf, c.zstd, s.ptx, s.lz4);
	free(a);
	return ok;
}

/* The PTX of an executable's section, with its unit count. */
static bool exe_section(const char *exe, const char *section, unsigned arch,
			size_t units, struct fatbin_ptx_list *l)
{
	size_t len, size;
	uint8_t *img = corpus_file(exe, &len);
	const uint8_t *sec = img ? elf_section(img, len, section, &size) : NULL;
	bool ok = sec && collect(sec, size, arch, l, FATBIN_OK, NULL) &&
		  l->count == units;
	for (size_t i = 0; ok && i < l->count; i++)
		ok = l->items[i].arch == arch && strstr(l->items[i].text,
							".version");
	if (!ok)
		tap_diag("%s %s: %zu units", exe, section, l->count);
	free(img);
	return ok;
}

static bool test_exe(const char *exe, const char *section, size_t units)
{
	struct fatbin_ptx_list l = { 0 };
	bool ok = exe_section(exe, section, 75, units, &l);
	fatbin_ptx_list_free(&l);
	return ok;
}

/* Two separately compiled units: both texts, linked into one program. */
static bool test_rdc_exe(void)
{
	struct fatbin_ptx_list l = { 0 };
	bool ok = exe_section("rdc.exe", "__nv_relfatbin", 75, 2, &l);
	struct ptx_program *p = NULL;
	char log[512];
	if (ok) {
		const char *texts[2] = { l.items[0].text, l.items[1].text };
		const char *names[2] = { "a", "b" };
		ok = build_texts(texts, names, 2, &p, log, sizeof(log)) ==
			     PTX_OK &&
		     ptx_program_kernel(p, "rdc_kernel") &&
		     ptx_program_kernel(p, "rdc_kernel_b");
		if (!ok)
			tap_diag("%s", log);
	}
	ptx_program_destroy(p);
	fatbin_ptx_list_free(&l);
	/* the device-linked SASS alone carries no PTX */
	size_t len, size;
	uint8_t *img = corpus_file("rdc.exe", &len);
	const uint8_t *sec = img ? elf_section(img, len, ".nv_fatbin", &size) :
				   NULL;
	ok = ok && sec && collect(sec, size, 75, &l, FATBIN_NO_PTX, "ELF");
	free(img);
	return ok;
}

struct wrapper {
	uint32_t magic, version;
	const void *fatbin;
	const void *const *rel;
};

/* The container after @c: 16-byte header, entries, 8-byte alignment. */
static const uint8_t *next_container(const uint8_t *c)
{
	uint64_t size;

	memcpy(&size, c + 8, sizeof(size));
	return c + ((16 + size + 7) & ~(uint64_t)7);
}

/* The device-linked and the relocatable fatbin sections of @name. */
struct rdc_image {
	uint8_t *img;
	const uint8_t *linked, *rel;
	size_t linked_size, rel_size;
};

static bool load_rdc_image(const char *name, struct rdc_image *r)
{
	size_t len;

	*r = (struct rdc_image){ .img = corpus_file(name, &len) };
	if (!r->img)
		return false;
	r->linked = elf_section(r->img, len, ".nv_fatbin", &r->linked_size);
	r->rel = elf_section(r->img, len, "__nv_relfatbin", &r->rel_size);
	return r->linked && r->rel && r->rel_size > 16;
}

static bool test_wrappers(void)
{
	struct rdc_image r;
	bool ok = load_rdc_image("rdc.exe", &r);
	const uint8_t *linked = r.linked, *rel = r.rel;
	struct fatbin_ptx_list l = { 0 };
	const void *rel_list[3] = { rel, NULL, NULL };
	struct wrapper v1 = { FATBIN_WRAPPER_MAGIC, 1, rel, NULL };
	struct wrapper v2 = { FATBIN_WRAPPER_MAGIC, 2, linked, rel_list };
	struct wrapper v3 = { FATBIN_WRAPPER_MAGIC, 3, rel, NULL };
	/* a wrapper's fatbin is one unit's container, not what follows */
	ok = ok && collect(&v1, 0, 75, &l, FATBIN_OK, NULL) && l.count == 1;
	fatbin_ptx_list_free(&l);
	ok = ok && (rel_list[1] = next_container(rel));
	ok = ok && collect(&v2, 0, 80, &l, FATBIN_OK, NULL) && l.count == 2 &&
	     l.items[0].arch == 80;
	fatbin_ptx_list_free(&l);
	ok = ok && collect(&v3, 0, 75, &l, FATBIN_UNSUPPORTED, "version 3");
	free(r.img);
	return ok;
}

/*
 * -rdc with PTX alone, as nvcc lays it out: the device-linked fatbin is an
 * empty container right before __nv_relfatbin, whose units the wrapper
 * lists: ours (compute_75), then libcudadevrt's (SASS and compute_121).
 */
static bool test_rdc_ptx_only(void)
{
	struct rdc_image r;
	bool ok = load_rdc_image("vector_add.rdcptx.exe", &r);
	struct fatbin_ptx_list l = { 0 };
	const void *rel_list[3] = { r.rel, NULL, NULL };
	struct wrapper v2 = { FATBIN_WRAPPER_MAGIC, 2, r.linked, rel_list };

	ok = ok && (rel_list[1] = next_container(r.rel));
	ok = ok && collect(&v2, 0, 80, &l, FATBIN_OK, NULL) && l.count == 1 &&
	     l.items[0].arch == 75;
	fatbin_ptx_list_free(&l);
	free(r.img);
	return ok;
}

static bool test_raw_ptx(void)
{
	size_t len;
	char *text = (char *)corpus_file("vector_add.sm80.ptx", &len);
	struct fatbin_ptx_list l = { 0 };
	bool ok = text && collect(text, 0, 75, &l, FATBIN_OK, NULL) &&
		  l.count == 1 && l.items[0].arch == 80 &&
		  l.items[0].len == len && !strcmp(l.items[0].text, text);
	fatbin_ptx_list_free(&l);
	free(text);
	return ok;
}

/*
 * A bare cubin (nvJitLink's output, or nvcc -cubin) is a valid image with
 * SASS alone: no binary for the GPU (CUDA_ERROR_NO_BINARY_FOR_GPU), as
 * NVIDIA's driver answers for a cubin of another architecture.
 */
static bool test_cubin(void)
{
	size_t len;
	uint8_t *img = corpus_file("vector_add.sm75.cubin", &len);
	struct fatbin_ptx_list l = { 0 };
	bool ok = img && collect(img, len, 75, &l, FATBIN_NO_PTX, "ELF") &&
		  collect(img, 0, 80, &l, FATBIN_NO_PTX, "ELF");

	free(img);
	return ok;
}

/* Damaged copies of a fatbin fail cleanly, saying where and why. */
static bool test_malformed(void)
{
	size_t len;
	uint8_t *img = corpus_file("vector_add.default.fatbin", &len);
	if (!img)
		return false;
	uint8_t *bad = malloc(len);
	struct fatbin_ptx_list l = { 0 };
	bool ok = true;
	memcpy(bad, img, len);
	bad[0] ^= 0xff;
	ok &= collect(bad, len, 75, &l, FATBIN_INVALID, "magic");
	ok &= collect(img, 40, 75, &l, FATBIN_INVALID, "exceeds");
	memcpy(bad, img, len);
	bad[16 + 4] = 12;	/* first entry's header size */
	ok &= collect(bad, len, 75, &l, FATBIN_INVALID, "entry 0");
	memcpy(bad, img, len);
	uint32_t hs;
	memcpy(&hs, img + 16 + 4, 4);
	memset(bad + 16 + hs, 0x5a, 16);	/* the payload's start */
	ok &= collect(bad, len, 75, &l, FATBIN_INVALID, "zstd");
	ok &= collect("\x01\x02\x03\x04garbage", 12, 75, &l, FATBIN_INVALID,
		      "magic");
	free(bad);
	free(img);
	return ok;
}

int main(void)
{
	tap_plan(ARRAY_LEN_MODES + 10);
	for (size_t i = 0; i < ARRAY_LEN_MODES; i++)
		tap_ok(test_mode(modes[i]), "fatbin --compress-mode=%s",
		       modes[i]);
	tap_ok(test_walk(), "entries: kinds and compression flags");
	tap_ok(test_exe("vector_add.exe", ".nv_fatbin", 1),
	       "executable: .nv_fatbin");
	tap_ok(test_exe("vector_add.speed.exe", ".nv_fatbin", 1),
	       "executable with LZ4 compression");
	tap_ok(test_exe("vector_add.rdc.exe", "__nv_relfatbin", 1),
	       "-rdc executable: __nv_relfatbin");
	tap_ok(test_rdc_exe(), "two -rdc units: collected and linked");
	tap_ok(test_wrappers(), "registration wrappers v1, v2, bad version");
	tap_ok(test_rdc_ptx_only(), "-rdc PTX only: libcudadevrt's SASS unit left out");
	tap_ok(test_raw_ptx(), "raw PTX text");
	tap_ok(test_cubin(), "a bare ELF cubin: no PTX, as SASS only");
	tap_ok(test_malformed(), "malformed images fail with a reason");
	free(reference_ptx);
	return tap_done();
}
