/* SPDX-License-Identifier: MIT */
/*
 * The image cuLinkComplete hands back, in place of NVIDIA's cubin: the
 * linked program's PTX sources, which cuModuleLoadData* builds (and links)
 * again. Layout: a header, @count entries, then the NUL-terminated texts
 * and names the entries point to (offsets from the header's start).
 */
#ifndef VCUDA_LINK_IMAGE_H
#define VCUDA_LINK_IMAGE_H

#include <stdint.h>

#define LINK_IMAGE_MAGIC 0x4b4e4c56u	/* "VLNK" */
#define LINK_IMAGE_VERSION 1u

struct link_image_header {
	uint32_t magic;
	uint32_t version;
	uint32_t count;
	uint32_t max_registers;		/* cuLinkCreate's CU_JIT_MAX_REGISTERS, or 0 */
	uint64_t size;			/* of the whole image */
};

struct link_image_entry {
	uint64_t text_offset;
	uint64_t text_len;
	uint64_t name_offset;
};

#endif
