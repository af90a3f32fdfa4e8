/* SPDX-License-Identifier: MIT */
/*
 * vcuda's nvJitLink: the state of one link (an nvJitLinkHandle) and the
 * parts that fill it. nvjitlink.c is the API; options.c reads the link's
 * options; inputs.c sorts inputs into PTX (the link set) and LTO-IR;
 * lto.c has NVIDIA's nvJitLink turn the LTO-IR into PTX; keep.c keeps
 * what the PTX calls through that step; toolkit.c finds NVIDIA's
 * libraries.
 */
#ifndef VCUDA_JITLINK_H
#define VCUDA_JITLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include "link_set.h"

struct jitlink_options {
	unsigned int arch;		/* -arch=sm_NN: NN */
	bool virtual_arch;		/* -arch=compute_NN */
	bool lto;			/* -lto */
	bool ptx;			/* -ptx: the caller wants linked PTX */
	bool verbose;			/* -verbose */
	uint32_t max_registers;		/* -maxrregcount=N, or 0 */
	const char **all;		/* every option, for NVIDIA's LTO step */
	uint32_t count;
};

struct jitlink_blob {
	void *data;
	size_t size;
	char *name;
};

struct nvJitLink {
	struct jitlink_options options;
	struct link_set set;		/* the PTX inputs */
	struct jitlink_blob *ltoir;	/* the LTO-IR inputs, linked at Complete */
	size_t ltoir_count;
	bool non_lto_input;		/* an input that was not LTO-IR */
	char *error_log, *info_log;	/* NUL-terminated, or NULL */
	void *image;			/* the link image, after Complete */
	size_t image_size;
	char *ptx;			/* linked PTX (-ptx), after Complete */
	bool complete;
};

nvJitLinkResult jitlink_options_read(struct jitlink_options *o, uint32_t n,
				     const char *const *options, char **error);
void jitlink_options_free(struct jitlink_options *o);

nvJitLinkResult jitlink_add(struct nvJitLink *link, nvJitLinkInputType type,
			    const void *data, size_t size, const char *name);

/* Links the LTO-IR inputs into PTX with NVIDIA's nvJitLink (*@ptx). */
nvJitLinkResult jitlink_lto_to_ptx(struct nvJitLink *link, char **ptx);

/*
 * LTO-IR that keeps the functions the PTX inputs call through NVIDIA's
 * LTO step (keep.c), or NULL when none is needed or libNVVM is missing.
 */
void *jitlink_keeper(const struct nvJitLink *link, size_t *size);

/*
 * The first library of the toolkit, one of @tails under a toolkit root
 * (toolkit.c), that dlopen(@flags) opens and @accept takes; its path in
 * @path. NULL when none.
 */
void *toolkit_open(const char *const *tails, size_t count, int flags,
		   bool (*accept)(void *dl), char *path, size_t path_size);

/* Appends a line to one of the link's logs. */
void jitlink_log(char **log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
