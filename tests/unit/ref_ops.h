/* SPDX-License-Identifier: MIT */
/*
 * C references for the corpus kernels' instructions: what PTX says each
 * computes, written independently of the interpreter.
 */
#ifndef TESTS_UNIT_REF_OPS_H
#define TESTS_UNIT_REF_OPS_H

#include <stdbool.h>
#include <stdint.h>

enum { INT32_OPS = 48, INT64_OPS = 24, F32_OPS = 40, F64_OPS = 20,
       CONV_OPS = 24 };

uint32_t ref_int32(unsigned k, uint32_t x, uint32_t y, uint32_t z);
uint64_t ref_int64(unsigned k, uint64_t x, uint64_t y, uint64_t z);
void ref_small_ints(int16_t x, int16_t y, int8_t c, int32_t out[8]);
float ref_f32(unsigned k, float x, float y, float z);
double ref_f64(unsigned k, double x, double y, double z);
void ref_conversions(float x, double y, int64_t z, uint64_t out[CONV_OPS]);
void ref_intrinsics(uint32_t x, uint32_t y, uint32_t out[13]);

/* Bits of a canonical NaN result. */
#define NAN32 0x7fffffffu
#define NAN64 0x7fffffffffffffffull

float f32_bits(uint32_t b);
uint32_t bits32(float f);
double f64_bits(uint64_t b);
uint64_t bits64(double d);

#endif
