// SPDX-License-Identifier: MIT
/*
 * The executor benchmark's algorithms in C, as a competent C programmer
 * writes them for the machine (-O3 -march=native -fopenmp): loops the
 * compiler vectorises, a cache-blocked SGEMM, per-thread histograms and
 * a two-pass parallel scan. OpenMP uses as many threads as
 * omp_set_num_threads says.
 */
#include "six_c.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

void c_vector_add(const float *a, const float *b, float *c, int n)
{
#pragma omp parallel for simd schedule(static)
	for (int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

/* Blocks of 64 rows x 256 k x all columns: a row of C stays in cache
 * while 256 rows of B stream through, and j is the vectorised loop. */
void c_sgemm(const float *a, const float *b, float *c, int n)
{
	memset(c, 0, sizeof(float) * (size_t)n * n);
#pragma omp parallel for schedule(static)
	for (int ii = 0; ii < n; ii += 64)
		for (int kk = 0; kk < n; kk += 256)
			for (int i = ii; i < ii + 64 && i < n; i++) {
				float *ci = c + (size_t)i * n;
				for (int k = kk; k < kk + 256 && k < n; k++) {
					float aik = a[(size_t)i * n + k];
					const float *bk = b + (size_t)k * n;
#pragma omp simd
					for (int j = 0; j < n; j++)
						ci[j] += aik * bk[j];
				}
			}
}

double c_reduce(const float *in, int n)
{
	double sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
	for (int i = 0; i < n; i++)
		sum += in[i];
	return sum;
}

void c_histogram(const unsigned char *in, unsigned *bins, int n)
{
	memset(bins, 0, 256 * sizeof(unsigned));
#pragma omp parallel
	{
		unsigned local[256] = { 0 };
#pragma omp for schedule(static) nowait
		for (int i = 0; i < n; i++)
			local[in[i]]++;
#pragma omp critical
		for (int b = 0; b < 256; b++)
			bins[b] += local[b];
	}
}

/* Each thread scans its chunk, then adds the totals of the chunks
 * before it. */
void c_scan(const int *in, int *out, int n)
{
	int nt = omp_get_max_threads();
	int *tot = calloc((size_t)nt + 1, sizeof(int));
	if (!tot)
		return;
#pragma omp parallel num_threads(nt)
	{
		int t = omp_get_thread_num(), k = omp_get_num_threads();
		long lo = (long)n * t / k, hi = (long)n * (t + 1) / k;
		int run = 0;
		for (long i = lo; i < hi; i++) {
			out[i] = run;
			run += in[i];
		}
		tot[t + 1] = run;
#pragma omp barrier
		int off = 0;
		for (int j = 1; j <= t; j++)
			off += tot[j];
		for (long i = lo; i < hi; i++)
			out[i] += off;
	}
	free(tot);
}

void c_nbody(const float *pos, float *vel, int n, float dt)
{
#pragma omp parallel for schedule(static)
	for (int i = 0; i < n; i++) {
		float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
		float ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
		for (int j = 0; j < n; j++) {
			float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py;
			float dz = pos[4 * j + 2] - pz;
			float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
			float inv = 1.0f / sqrtf(d2);
			float s = pos[4 * j + 3] * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		vel[4 * i] += ax * dt;
		vel[4 * i + 1] += ay * dt;
		vel[4 * i + 2] += az * dt;
	}
}
