/* SPDX-License-Identifier: MIT */
/*
 * Fatbin reader: finds the PTX a CUDA binary carries for a device.
 *
 * Input is whatever a program hands the driver: the registration wrapper
 * that nvcc emits (magic 0x466243B1, versions 1 and 2), a bare fatbin
 * (containers of magic 0xBA55ED50), or NUL-terminated PTX text. Output is
 * one decompressed PTX text per translation unit, the best one for the
 * device's compute capability.
 */
#ifndef VCUDA_PTX_FATBIN_H
#define VCUDA_PTX_FATBIN_H

#include <stddef.h>
#include <stdint.h>

enum fatbin_status {
	FATBIN_OK = 0,
	FATBIN_INVALID,		/* malformed image: bad magic, sizes, ... */
	FATBIN_NO_PTX,		/* well formed, but no usable PTX (SASS only) */
	FATBIN_UNSUPPORTED,	/* a feature this reader lacks */
	FATBIN_NO_MEMORY,
};

/* One translation unit's PTX, decompressed, NUL-terminated. */
struct fatbin_ptx {
	char *text;
	size_t len;		/* strlen(text) */
	unsigned arch;		/* PTX target, e.g. 75 for compute_75 */
	char *source_name;	/* the entry's source file name, or NULL */
};

struct fatbin_ptx_list {
	struct fatbin_ptx *items;
	size_t count;
};

/*
 * Collects the PTX of every translation unit in @image for a device of
 * compute capability @device_arch (major * 10 + minor): for each unit, the
 * PTX entry of highest arch <= @device_arch. @image_size bounds reads when
 * known; pass 0 when the image is only known by its pointer (registration
 * wrappers): it is then one container, sized by its header.
 * On failure, @err receives a one-line reason.
 */
enum fatbin_status fatbin_collect_ptx(const void *image, size_t image_size,
				      unsigned device_arch,
				      struct fatbin_ptx_list *out,
				      char *err, size_t err_len);

void fatbin_ptx_list_free(struct fatbin_ptx_list *list);

#endif
