// SPDX-License-Identifier: MIT
/*
 * Host object and archive reader (hostobj.h): the PTX of nvcc -dc objects
 * and nvcc -lib archives, as cuLinkAddData gets them from numba-cuda
 * (CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY); SASS-only inputs, which
 * the linker refuses with CUDA_ERROR_NO_BINARY_FOR_GPU; malformed ones.
 */
#include "hostobj.h"
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool collect(const void *img, size_t size, unsigned arch,
		    struct fatbin_ptx_list *l, enum fatbin_status want,
		    const char *want_err)
{
	char err[256];
	enum fatbin_status st = hostobj_collect_ptx(img, size, arch, l, err,
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

static bool collect_file(const char *name, unsigned arch,
			 struct fatbin_ptx_list *l, enum fatbin_status want,
			 const char *want_err)
{
	size_t len;
	uint8_t *img = corpus_file(name, &len);
	bool ok = img && collect(img, len, arch, l, want, want_err);

	free(img);
	return ok;
}

/* One -dc unit: its PTX, the best arch not above the device's. */
static bool test_object(void)
{
	struct fatbin_ptx_list l = { 0 };
	bool ok = collect_file("rdc_a.dc.o", 75, &l, FATBIN_OK, NULL) &&
		  l.count == 1 && l.items[0].arch == 75 &&
		  strstr(l.items[0].text, ".entry rdc_kernel");

	fatbin_ptx_list_free(&l);
	ok = ok && collect_file("rdc_a.dc.o", 90, &l, FATBIN_OK, NULL) &&
	     l.count == 1 && l.items[0].arch == 80;
	fatbin_ptx_list_free(&l);
	return ok;
}

/* An archive of two units: both texts, which link into one program. */
static bool test_archive(void)
{
	struct fatbin_ptx_list l = { 0 };
	struct ptx_program *p = NULL;
	char log[512];
	bool ok = collect_file("rdc.lib.a", 75, &l, FATBIN_OK, NULL) &&
		  l.count == 2;

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
	return ok;
}

/* SASS alone, in an object or in every member of an archive. */
static bool test_sass_only(void)
{
	struct fatbin_ptx_list l = { 0 };

	return collect_file("rdc_a.sass.o", 75, &l, FATBIN_NO_PTX, "ELF") &&
	       collect_file("rdc.sass.a", 75, &l, FATBIN_NO_PTX,
			    "none of its 2 objects") && !l.count;
}

/* Replaces the first @from in @img (length @len) by @to, same length. */
static bool patch(uint8_t *img, size_t len, const char *from, const char *to)
{
	size_t n = strlen(from);

	for (size_t i = 0; i + n <= len; i++) {
		if (!memcmp(img + i, from, n)) {
			memcpy(img + i, to, n);
			return true;
		}
	}
	return false;
}

static bool test_malformed(void)
{
	size_t len, cubin_len, lib_len;
	uint8_t *obj = corpus_file("rdc_a.dc.o", &len);
	uint8_t *cubin = corpus_file("vector_add.sm75.cubin", &cubin_len);
	uint8_t *lib = corpus_file("rdc.lib.a", &lib_len);
	struct fatbin_ptx_list l = { 0 };
	bool ok = obj && cubin && lib;

	/* a cubin is device code, not a host object */
	ok = ok && collect(cubin, cubin_len, 75, &l, FATBIN_INVALID,
			   "neither");
	ok = ok && collect(obj, 40, 75, &l, FATBIN_INVALID, "neither");
	ok = ok && collect(obj, len - 64, 75, &l, FATBIN_INVALID,
			   "section table");
	ok = ok && collect("!<arch>\nshort", 13, 75, &l, FATBIN_NO_PTX,
			   "none of its 0");
	ok = ok && lib_len > 200 && patch(lib, 68, "`\n", "x\n") &&
	     collect(lib, 200, 75, &l, FATBIN_INVALID, "member header");
	/* an object without device code: its section renamed */
	ok = ok && patch(obj, len, "__nv_relfatbin", "__nv_relfatbiX") &&
	     collect(obj, len, 75, &l, FATBIN_NO_PTX, "no device code");
	free(obj);
	free(cubin);
	free(lib);
	return ok && !l.count;
}

int main(void)
{
	tap_plan(4);
	tap_ok(test_object(), "nvcc -dc object: its unit's PTX");
	tap_ok(test_archive(), "nvcc -lib archive: two units, linked");
	tap_ok(test_sass_only(), "SASS-only object and archive: no PTX");
	tap_ok(test_malformed(), "malformed inputs fail with a reason");
	return tap_done();
}
