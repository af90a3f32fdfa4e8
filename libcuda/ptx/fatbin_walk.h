/* SPDX-License-Identifier: MIT */
/*
 * Lower level of the fatbin reader: walks the entries of a bare fatbin and
 * decodes payloads. fatbin_collect_ptx is built on it; tools use it to dump
 * images.
 *
 * Layout (little endian), as measured on CUDA 13 binaries:
 *   container header, 16 bytes: u32 magic 0xBA55ED50, u16 version (1),
 *     u16 header size (16), u64 size of the entries that follow.
 *   entry header, header_size bytes (64..336):
 *     +0 u16 kind (1 PTX, 2 ELF)     +2 u16 version
 *     +4 u32 header size             +8 u64 payload size (padded)
 *     +16 u32 compressed size        +20 u32 offset of the options record
 *     +24 u16 PTX minor, +26 major   +28 u32 arch (75 for sm_75)
 *     +32 u32 offset of source name  +36 u32 its length
 *     +40 u32 flags (0x8000 zstd, 0x2000 LZ4 block)
 *     +56 u64 uncompressed size
 *     options record: u32 offset of the JIT options string, u32 length.
 *   The payload follows the header; the next entry follows the payload.
 */
#ifndef VCUDA_PTX_FATBIN_WALK_H
#define VCUDA_PTX_FATBIN_WALK_H

#include "fatbin.h"

#include <stdbool.h>
#include <stddef.h>

#define FATBIN_WRAPPER_MAGIC 0x466243B1u
#define FATBIN_CONTAINER_MAGIC 0xBA55ED50u
#define ELF_MAGIC 0x464C457Fu		/* "\x7fELF": a cubin on its own */

/* Writes the reason to @err (at most @err_len bytes) and returns @st:
 * how the readers of images (fatbin.c, hostobj.c) fail. */
enum fatbin_status fatbin_fail(enum fatbin_status st, char *err,
			       size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

enum {
	FATBIN_KIND_PTX = 1,
	FATBIN_KIND_ELF = 2,
	FATBIN_FLAG_LZ4 = 0x2000,
	FATBIN_FLAG_ZSTD = 0x8000,
};

struct fatbin_entry_info {
	unsigned container;		/* index of its container */
	unsigned index;			/* index within the container */
	size_t container_offset;	/* from the start of the image */
	size_t offset;			/* of the entry header */
	unsigned kind;
	unsigned version;
	unsigned header_size;
	unsigned flags;
	unsigned arch;
	unsigned ptx_major, ptx_minor;
	uint64_t payload_size;
	uint64_t compressed_size;
	uint64_t uncompressed_size;
	const char *name;		/* not NUL-terminated; NULL if none */
	size_t name_len;
	const char *options;		/* not NUL-terminated; NULL if none */
	size_t options_len;
	const uint8_t *payload;
};

/* Called per entry; returning other than FATBIN_OK stops the walk. */
typedef enum fatbin_status (*fatbin_entry_fn)(void *user,
					     const struct fatbin_entry_info *e,
					     char *err, size_t err_len);

/*
 * Walks every entry of every container of the fatbin at @image. With
 * @size 0 the image is one container, bounded by its header's size.
 * @size_out, when not NULL, receives the bytes the containers span.
 */
enum fatbin_status fatbin_walk(const void *image, size_t size,
			       fatbin_entry_fn fn, void *user,
			       size_t *size_out, char *err, size_t err_len);

/* Decompressed payload (malloc'ed, NUL-terminated, trailing NULs kept). */
enum fatbin_status fatbin_entry_payload(const struct fatbin_entry_info *e,
					uint8_t **out, size_t *len,
					char *err, size_t err_len);

const char *fatbin_compression_name(unsigned flags);

#endif
