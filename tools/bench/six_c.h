/* SPDX-License-Identifier: MIT */
/* The executor benchmark's algorithms in C (six_c.c). */
#ifndef VCUDA_BENCH_SIX_C_H
#define VCUDA_BENCH_SIX_C_H

void c_vector_add(const float *a, const float *b, float *c, int n);
void c_sgemm(const float *a, const float *b, float *c, int n);
double c_reduce(const float *in, int n);
void c_histogram(const unsigned char *in, unsigned *bins, int n);
void c_scan(const int *in, int *out, int n);
void c_nbody(const float *pos, float *vel, int n, float dt);

#endif
