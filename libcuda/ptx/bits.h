/* SPDX-License-Identifier: MIT */
/* Floating-point values and their bits, as registers hold them. */
#ifndef VCUDA_PTX_BITS_H
#define VCUDA_PTX_BITS_H

#include <stdint.h>
#include <string.h>

static inline float f32_of(uint64_t v)
{
	float f;
	uint32_t b = (uint32_t)v;
	memcpy(&f, &b, 4);
	return f;
}

static inline uint64_t bits_f32(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static inline double f64_of(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t bits_f64(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

#endif
