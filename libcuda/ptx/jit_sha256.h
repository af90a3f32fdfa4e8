/* SPDX-License-Identifier: MIT */
/*
 * SHA-256 (FIPS 180-4), for the JIT's disk cache: entries are named and
 * checked by digests, so that a corrupt or foreign entry is never taken
 * for another kernel's code.
 */
#ifndef VCUDA_PTX_JIT_SHA256_H
#define VCUDA_PTX_JIT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32

struct sha256 {
	uint32_t h[8];
	uint8_t block[64];
	uint32_t used;		/* bytes in block */
	uint64_t total;		/* bytes hashed */
};

void sha256_init(struct sha256 *s);
void sha256_add(struct sha256 *s, const void *data, size_t len);
void sha256_finish(struct sha256 *s, uint8_t out[SHA256_BYTES]);

#endif
