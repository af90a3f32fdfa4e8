/* SPDX-License-Identifier: MIT */
/*
 * Narrow floating-point formats (f16, bf16, tf32): exact widening and
 * correctly rounded narrowing from double, in any rounding mode.
 */
#ifndef VCUDA_PTX_F16_H
#define VCUDA_PTX_F16_H

#include <stdint.h>

enum rnd_mode {
	RND_NEAREST,		/* ties to even */
	RND_ZERO,
	RND_DOWN,
	RND_UP,
	RND_NEAREST_AWAY,	/* ties away from zero (.rna) */
};

float f16_to_f32(uint16_t h);
float bf16_to_f32(uint16_t h);

/*
 * Rounds @x to a binary format with @exp_bits exponent and @man_bits
 * fraction bits, returning sign|exponent|fraction in the low bits.
 */
uint64_t round_to_format(double x, unsigned exp_bits, unsigned man_bits,
			 enum rnd_mode rnd);

static inline uint16_t f64_to_f16(double x, enum rnd_mode rnd)
{
	return (uint16_t)round_to_format(x, 5, 10, rnd);
}

static inline uint16_t f64_to_bf16(double x, enum rnd_mode rnd)
{
	return (uint16_t)round_to_format(x, 8, 7, rnd);
}

/* tf32 keeps f32's layout with the low 13 fraction bits zero. */
static inline uint32_t f32_to_tf32(double x, enum rnd_mode rnd)
{
	return (uint32_t)round_to_format(x, 8, 10, rnd) << 13;
}

#endif
