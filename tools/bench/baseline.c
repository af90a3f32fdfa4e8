// SPDX-License-Identifier: MIT
/*
 * The benchmark kernels (kernels.cu) as plain C, compiled with -O3: the
 * yardstick the interpreter's time per kernel is compared with.
 * Results are the kernels' own (same order of floating-point
 * operations), so that the benchmark can check the interpreter's.
 */
#include "baseline.h"

#include <math.h>

void c_int_hash(unsigned *out, int threads, int iters)
{
	for (int t = 0; t < threads; t++) {
		unsigned x = (unsigned)t;
		for (int i = 0; i < iters; i++) {
			x = x * 1664525u + 1013904223u;
			x ^= x >> 13;
			x += x << 5;
		}
		out[t] = x;
	}
}

void c_fma_poly(float *out, int threads, int iters)
{
	for (int t = 0; t < threads; t++) {
		float x = (float)t * 1e-4f, y = 0.0f;
		for (int i = 0; i < iters; i++) {
			y = fmaf(y, x, 0.5f);
			y = fmaf(y, x, -0.25f);
			y = fmaf(y, x, 0.125f);
			y = fmaf(y, x, 1.0f);
		}
		out[t] = y;
	}
}

void c_mandel(unsigned *out, int w, int h, int max_iter)
{
	for (int py = 0; py < h; py++)
		for (int px = 0; px < w; px++) {
			float cx = -2.0f + 3.0f * (float)px / (float)w;
			float cy = -1.5f + 3.0f * (float)py / (float)h;
			float x = 0.0f, y = 0.0f;
			int i = 0;
			while (i < max_iter && x * x + y * y <= 4.0f) {
				float t = x * x - y * y + cx;
				y = 2.0f * x * y + cy;
				x = t;
				i++;
			}
			out[py * w + px] = (unsigned)i;
		}
}

void c_matmul(const float *a, const float *b, float *c, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float sum = 0.0f;
			for (int k = 0; k < n; k++)
				sum = fmaf(a[i * n + k], b[k * n + j], sum);
			c[i * n + j] = sum;
		}
}

/* The kernel's tree, step for step, so that the sums are the same. */
void c_reduce(const float *in, float *partial, int n, int blocks, int block)
{
	float v[1024], t[32];
	int stride = blocks * block;
	for (int b = 0; b < blocks; b++) {
		for (int k = 0; k < block; k++) {
			v[k] = 0.0f;
			for (int i = b * block + k; i < n; i += stride)
				v[k] += in[i];
		}
		for (int s = block / 2; s >= 32; s /= 2)
			for (int k = 0; k < s; k++)
				v[k] += v[k + s];
		for (int off = 16; off > 0; off /= 2) {	/* shfl.down */
			for (int k = 0; k < 32; k++)
				t[k] = k + off < 32 ? v[k] + v[k + off] : v[k];
			for (int k = 0; k < 32; k++)
				v[k] = t[k];
		}
		partial[b] = v[0];
	}
}

void c_saxpy(float a, const float *x, const float *y, float *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = fmaf(a, x[i], y[i]);
}
