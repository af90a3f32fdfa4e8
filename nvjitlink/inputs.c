// SPDX-License-Identifier: MIT
/*
 * A link's inputs, sorted by what vcuda can run: PTX, and the PTX inside
 * fatbins, host objects and archives, go into the link set; LTO-IR is kept
 * for NVIDIA's nvJitLink to turn into PTX at Complete (lto.c). A cubin is
 * SASS, machine code vcuda cannot run, and is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jitlink.h"
#include "ptx/fatbin_walk.h"

#define LTOIR_MAGIC 0x7f4e43edu		/* NVVM's LTO-IR container */
#define EM_CUDA 190			/* an ELF for the GPU: a cubin */

void jitlink_log(char **log, const char *fmt, ...)
{
	size_t old = *log ? strlen(*log) : 0;
	char line[1024];
	char *grown;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grown = realloc(*log, old + strlen(line) + 2);
	if (!grown)
		return;
	sprintf(grown + old, "%s\n", line);
	*log = grown;
}

static uint32_t first_word(const void *data, size_t size)
{
	uint32_t w = 0;

	if (size >= sizeof(w))
		memcpy(&w, data, sizeof(w));
	return w;
}

/* NVJITLINK_INPUT_ANY: the type the data's first bytes say. */
static nvJitLinkInputType guess_type(const void *data, size_t size)
{
	uint32_t w = first_word(data, size);

	if (w == LTOIR_MAGIC)
		return NVJITLINK_INPUT_LTOIR;
	if (w == FATBIN_CONTAINER_MAGIC)
		return NVJITLINK_INPUT_FATBIN;
	if (size >= 8 && !memcmp(data, "!<arch>\n", 8))
		return NVJITLINK_INPUT_LIBRARY;
	if (w == ELF_MAGIC) {
		uint16_t machine = 0;

		if (size >= 20)
			memcpy(&machine, (const char *)data + 18,
			       sizeof(machine));
		return machine == EM_CUDA ? NVJITLINK_INPUT_CUBIN :
					    NVJITLINK_INPUT_OBJECT;
	}
	return NVJITLINK_INPUT_PTX;
}

static nvJitLinkResult ptx_result(enum ptx_status ps)
{
	switch (ps) {
	case PTX_OK:
		return NVJITLINK_SUCCESS;
	case PTX_ERR_NO_MEMORY:
		return NVJITLINK_ERROR_INTERNAL;
	default:
		return NVJITLINK_ERROR_PTX_COMPILE;
	}
}

/* Text without a .version directive is not PTX at all (NVIDIA's check). */
static bool looks_like_ptx(const char *text, size_t size)
{
	return memmem(text, strnlen(text, size), ".version", 8) != NULL;
}

static nvJitLinkResult add_ptx(struct nvJitLink *link, const char *text,
			       size_t size, const char *name)
{
	char log[1024] = "";
	enum ptx_status ps;

	if (!looks_like_ptx(text, size)) {
		jitlink_log(&link->error_log, "ERROR: %s is not PTX", name);
		return NVJITLINK_ERROR_INCORRECT_INPUT_TYPE;
	}
	ps = link_set_add_ptx(&link->set, text, size, name, log, sizeof(log));
	if (ps != PTX_OK)
		jitlink_log(&link->error_log, "ERROR: %s", log);
	return ptx_result(ps);
}

static nvJitLinkResult add_ltoir(struct nvJitLink *link, const void *data,
				 size_t size, const char *name)
{
	struct jitlink_blob *grown, *b;

	grown = realloc(link->ltoir, (link->ltoir_count + 1) * sizeof(*grown));
	if (!grown)
		return NVJITLINK_ERROR_INTERNAL;
	link->ltoir = grown;
	b = &link->ltoir[link->ltoir_count];
	b->data = malloc(size);
	b->name = strdup(name);
	if (!b->data || !b->name) {
		free(b->data);
		free(b->name);
		return NVJITLINK_ERROR_INTERNAL;
	}
	memcpy(b->data, data, size);
	b->size = size;
	link->ltoir_count++;
	return NVJITLINK_SUCCESS;
}

/*
 * The PTX a fatbin, object or archive carries for the link's -arch. One
 * that carries none (SASS alone) adds nothing, so what it would define is
 * unresolved at Complete, as the driver's cuLink* takes it; a bare ELF
 * cubin is SASS itself, refused as machine code for another GPU.
 */
static nvJitLinkResult add_binary(struct nvJitLink *link,
				  nvJitLinkInputType type, const void *data,
				  size_t size, const char *name)
{
	bool host = type == NVJITLINK_INPUT_OBJECT ||
		    type == NVJITLINK_INPUT_LIBRARY;
	struct fatbin_ptx_list list = { 0 };
	char reason[256] = "", log[1024] = "";
	enum fatbin_status got;
	enum ptx_status ps;

	got = link_binary_collect(host ? LINK_BINARY_HOSTOBJ :
				  LINK_BINARY_FATBIN, data, size,
				  link->options.arch, &list, reason,
				  sizeof(reason));
	if (got == FATBIN_NO_PTX && type != NVJITLINK_INPUT_CUBIN)
		return NVJITLINK_SUCCESS;
	if (got != FATBIN_OK) {
		jitlink_log(&link->error_log, "ERROR: %s: %s%s", name, reason,
			    got == FATBIN_NO_PTX ?
			    " (vcuda links PTX only)" : "");
		if (got == FATBIN_NO_MEMORY)
			return NVJITLINK_ERROR_INTERNAL;
		return got == FATBIN_NO_PTX ? NVJITLINK_ERROR_ARCH_MISMATCH :
					      NVJITLINK_ERROR_INVALID_INPUT;
	}
	ps = link_set_add_list(&link->set, &list, name, log, sizeof(log));
	fatbin_ptx_list_free(&list);
	if (ps != PTX_OK)
		jitlink_log(&link->error_log, "ERROR: %s", log);
	return ptx_result(ps);
}

nvJitLinkResult jitlink_add(struct nvJitLink *link, nvJitLinkInputType type,
			    const void *data, size_t size, const char *name)
{
	if (type == NVJITLINK_INPUT_ANY)
		type = guess_type(data, size);
	if (type != NVJITLINK_INPUT_LTOIR)
		link->non_lto_input = true;
	switch (type) {
	case NVJITLINK_INPUT_PTX:
		return add_ptx(link, data, size, name);
	case NVJITLINK_INPUT_LTOIR:
		/* After ANY is resolved: NVIDIA's refuses LTO-IR by its magic
		 * too (tests/api/nvjitlink_api.expected). */
		if (!link->options.lto) {
			jitlink_log(&link->error_log, "ERROR: LTO-IR input %s "
				    "needs -lto", name);
			return NVJITLINK_ERROR_LTO_NOT_ENABLED;
		}
		if (first_word(data, size) != LTOIR_MAGIC) {
			jitlink_log(&link->error_log, "ERROR: %s: not LTO-IR",
				    name);
			return NVJITLINK_ERROR_INVALID_INPUT;
		}
		return add_ltoir(link, data, size, name);
	case NVJITLINK_INPUT_CUBIN:
	case NVJITLINK_INPUT_FATBIN:
	case NVJITLINK_INPUT_OBJECT:
	case NVJITLINK_INPUT_LIBRARY:
		return add_binary(link, type, data, size, name);
	case NVJITLINK_INPUT_INDEX:
		jitlink_log(&link->error_log, "ERROR: %s: index files are not "
			    "supported by vcuda", name);
		return NVJITLINK_ERROR_UNRECOGNIZED_INPUT;
	default:
		jitlink_log(&link->error_log, "ERROR: %s: unknown input type %d",
			    name, (int)type);
		return NVJITLINK_ERROR_INCORRECT_INPUT_TYPE;
	}
}
