/* SPDX-License-Identifier: MIT */
/*
 * A vector access of 8 or 16 bytes as one host access. On NVIDIA GPUs an
 * aligned vector access (.v2.u64, .v4.u32, .v2.u32, ...) is single-copy
 * atomic, and code relies on it: cub's decoupled look-back publishes a
 * tile's (status, value) as one .v2.u64 pair that CTAs on other worker
 * threads spin reading. Read element by element, a reader could see the
 * new status with the old value. So the interpreter and the JIT's
 * out-of-line lanes read or write the whole vector with one instruction
 * into or from a buffer, and split or build the elements there.
 *
 * 8 bytes: a relaxed atomic, which the compiler may not split. 16 bytes:
 * an aligned SSE move, single-copy atomic on x86-64 CPUs with AVX (Intel
 * SDM vol. 3 8.1.1, AMD APM vol. 2 7.3.2); inline assembly, because the
 * compiler may split an intrinsic's plain vector load into two 8-byte
 * loads once it sees the halves used apart. Elsewhere a plain copy.
 * Callers have checked the alignment (the ISA requires a vector aligned
 * to its whole size). Other sizes are copied as they come.
 */
#ifndef VCUDA_PTX_WHOLE_ACCESS_H
#define VCUDA_PTX_WHOLE_ACCESS_H

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__AVX__)
#define WHOLE_MOV16 "vmovdqa"
#elif defined(__x86_64__)
#define WHOLE_MOV16 "movdqa"
#endif

/* The most bytes a vector access has: .v8 of 4 bytes, .v4 of 8. */
#define WHOLE_MAX 64

static inline void whole_read(const uint8_t *p, unsigned bytes, uint8_t *buf)
{
	if (bytes == 8) {
		uint64_t v = __atomic_load_n((const uint64_t *)(const void *)p,
					     __ATOMIC_RELAXED);
		memcpy(buf, &v, 8);
		return;
	}
#ifdef WHOLE_MOV16
	if (bytes == 16) {
		typedef long long v2i64 __attribute__((vector_size(16)));
		v2i64 v;
		__asm__ volatile(WHOLE_MOV16 " %1, %0"
				 : "=x"(v)
				 : "m"(*(const v2i64 *)(const void *)p));
		memcpy(buf, &v, 16);
		return;
	}
#endif
	memcpy(buf, p, bytes);
}

static inline void whole_write(uint8_t *p, unsigned bytes, const uint8_t *buf)
{
	if (bytes == 8) {
		uint64_t v;
		memcpy(&v, buf, 8);
		__atomic_store_n((uint64_t *)(void *)p, v, __ATOMIC_RELAXED);
		return;
	}
#ifdef WHOLE_MOV16
	if (bytes == 16) {
		typedef long long v2i64 __attribute__((vector_size(16)));
		v2i64 v;
		memcpy(&v, buf, 16);
		__asm__ volatile(WHOLE_MOV16 " %1, %0"
				 : "=m"(*(v2i64 *)(void *)p)
				 : "x"(v));
		return;
	}
#endif
	memcpy(p, buf, bytes);
}

#endif
