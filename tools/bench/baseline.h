/* SPDX-License-Identifier: MIT */
/*
 * The benchmark kernels' algorithms in C (baseline.c, built with -O3):
 * each computes what the whole grid computes, one thread after another.
 */
#ifndef VCUDA_BENCH_BASELINE_H
#define VCUDA_BENCH_BASELINE_H

void c_int_hash(unsigned *out, int threads, int iters);
void c_fma_poly(float *out, int threads, int iters);
void c_mandel(unsigned *out, int w, int h, int max_iter);
void c_matmul(const float *a, const float *b, float *c, int n);
void c_reduce(const float *in, float *partial, int n, int blocks,
	      int block);
void c_saxpy(float a, const float *x, const float *y, float *out, int n);

#endif
