/* SPDX-License-Identifier: MIT */
/* ptx-run: shared declarations of the host harness. */
#ifndef PTX_RUN_H
#define PTX_RUN_H

#include "ptx.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- load.c: PTX texts out of a file ---- */

struct loaded {
	struct ptx_source *sources;
	size_t count;
	char **texts;		/* owned */
	char **names;		/* owned */
};

/* Reads PTX text, a fatbin, or an ELF file's fatbin sections. */
bool load_ptx(const char *path, unsigned arch, struct loaded *out);
void loaded_free(struct loaded *l);
/* Prints every fatbin entry of @path (fatbin or ELF). */
bool describe_fatbin(const char *path);

/* ---- bufs.c: buffers, variables, parameters ---- */

struct buffer {
	char *name;
	uint8_t *data;
	size_t size;
	bool is_var;		/* a placed module variable */
};

struct buffers {
	struct buffer *items;
	size_t count;
};

/* NAME=SIZE[:INIT] */
bool buffer_parse(struct buffers *b, const char *spec);
struct buffer *buffer_find(struct buffers *b, const char *name);
void *buffer_alloc_var(void *user, size_t size, size_t align,
		       enum ptx_var_space space);
/* Packs "TYPE:VALUE" parameters as the kernel lays them out. */
bool params_pack(struct buffers *b, const struct ptx_kernel_info *info,
		 char **specs, size_t n, uint8_t **out);
/* NAME[:FMT[:COUNT]] to stdout; NAME=PATH to a file. */
bool buffer_dump(struct buffers *b, const char *spec);
bool buffer_save(struct buffers *b, const char *spec);
/* Sorted ranges covering every buffer, for checked launches. */
struct ptx_mem_range *buffers_ranges(struct buffers *b, size_t *n);
void buffers_free(struct buffers *b);

#endif
