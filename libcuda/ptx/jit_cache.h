/* SPDX-License-Identifier: MIT */
/*
 * The JIT's disk cache of compiled kernels (jit_cache.c), keyed by
 * jit_cache_key (jit_engine.c): the program's PTX, the kernel, where the
 * program's variables live, the CPU and its features, and the build of
 * vcuda and LLVM that made the code.
 */
#ifndef VCUDA_PTX_JIT_CACHE_H
#define VCUDA_PTX_JIT_CACHE_H

#include "jit_sha256.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bumped whenever an entry's layout or what the key covers changes. */
#define JIT_CACHE_FORMAT 1u

/* False under CUDA_CACHE_DISABLE=1. */
bool jit_cache_enabled(void);
/* CUDA_CACHE_MAXSIZE in bytes, its default or limit where it says none. */
uint64_t jit_cache_maxsize(void);

/*
 * The object code stored under @key (malloc'd, @size bytes) and what the
 * code generator said of it; NULL when there is no sound entry.
 */
void *jit_cache_load(const uint8_t key[SHA256_BYTES], size_t *size,
		     uint32_t *nregs, uint32_t *nsites);
/* Stores @obj under @key, then evicts down to CUDA_CACHE_MAXSIZE. */
void jit_cache_store(const uint8_t key[SHA256_BYTES], const void *obj,
		     size_t size, uint32_t nregs, uint32_t nsites);

#endif
