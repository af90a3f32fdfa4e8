/* SPDX-License-Identifier: MIT */
/*
 * A link set: the PTX texts a link collects, from PTX inputs and from the
 * PTX that binaries carry, checked as they come and as one program at the
 * end, and laid out as a link image (link_image.h). The driver's cuLink*
 * (link.c) and vcuda's nvJitLink (nvjitlink/) both link through it, each
 * turning its statuses into its own API's results.
 */
#ifndef VCUDA_LINK_SET_H
#define VCUDA_LINK_SET_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/fatbin.h"
#include "ptx/ptx.h"

struct link_set_input {
	char *text;
	size_t len;
	char *name;
};

struct link_set {
	struct link_set_input *inputs;
	size_t count;
};

/* Kinds of binary input, by how their PTX is found. */
enum link_binary {
	LINK_BINARY_FATBIN,	/* a fatbin, or an ELF cubin (SASS: none) */
	LINK_BINARY_HOSTOBJ,	/* a host object or archive (nvcc -dc, -lib) */
};

/* Checks one PTX text (@len may count a NUL) and adds it. */
enum ptx_status link_set_add_ptx(struct link_set *set, const char *text,
				 size_t len, const char *name, char *log,
				 size_t log_len);

/*
 * Collects the PTX a binary carries for a device of compute capability
 * @arch (major * 10 + minor) into @out. FATBIN_NO_PTX: it carries SASS
 * alone; @reason says what it holds.
 */
enum fatbin_status link_binary_collect(enum link_binary kind,
				       const void *data, size_t size,
				       unsigned int arch,
				       struct fatbin_ptx_list *out,
				       char *reason, size_t reason_len);

/* Adds each text of @list as link_set_add_ptx does; stops at the first bad one. */
enum ptx_status link_set_add_list(struct link_set *set,
				  const struct fatbin_ptx_list *list,
				  const char *name, char *log, size_t log_len);

/* Links the set's texts as one program: unresolved symbols fail here. */
enum ptx_status link_set_check(const struct link_set *set, char *log,
			       size_t log_len);

/* The set as a link image (malloc'd; *@size its length), or NULL. */
void *link_set_image(const struct link_set *set, uint32_t max_registers,
		     size_t *size);

void link_set_clear(struct link_set *set);

#endif
