// SPDX-License-Identifier: MIT
/* The six problems of the executor benchmark and their checks. */
#include "six_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

float nbody_dt = 0.01f;

/* Page-aligned: OpenCL uses such host memory as its buffers. */
static void *zalloc(size_t n)
{
	void *p = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
	if (!p) {
		fputs("bench: out of memory\n", stderr);
		exit(1);
	}
	memset(p, 0, n);
	return p;
}

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* ---- checks against C ---- */

static bool close_floats(const float *a, const float *b, size_t n,
			 double tol)
{
	for (size_t i = 0; i < n; i++)
		if (!(fabs((double)a[i] - b[i]) <= tol * (1 + fabs(b[i]))))
			return false;
	return true;
}

bool bench_check(const struct bench *b)
{
	const char *k = b->name;
	if (!strcmp(k, "vectorAdd"))
		return !memcmp(b->out.p, b->c_out, b->out.size);
	if (!strncmp(k, "sgemm", 5))
		return close_floats(b->out.p, b->c_out, (size_t)b->n * b->n,
				    1e-3);
	if (!strcmp(k, "reduce")) {
		double s = 0;
		for (int i = 0; i < RBLOCKS; i++)
			s += ((const float *)b->out.p)[i];
		double c = *(const double *)b->c_out;
		return fabs(s - c) <= 1e-3 * (1 + fabs(c));
	}
	if (!strcmp(k, "nbody"))
		return close_floats(b->out.p, b->c_out, (size_t)b->n * 4, 1e-3);
	return !memcmp(b->out.p, b->c_out, b->out.size);
}

/* ---- set-up ---- */

static void fill_floats(float *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (float)(rnd(&seed) & 0xffff) * 0x1p-16f - 0.5f;
}

static struct bench *add(struct bench *all, int *n, const char *name,
			 int size, size_t out, double work)
{
	struct bench *b = &all[(*n)++];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->n = size;
	b->out = (struct buf){ zalloc(out), out };
	b->c_out = zalloc(out < 8 ? 8 : out);
	b->interp = true;
	b->work = work;
	return b;
}

static void in_buf(struct bench *b, int i, size_t size)
{
	b->in[i] = (struct buf){ zalloc(size), size };
}

int bench_setup(struct bench *all)
{
	/* BENCH_SHIFT=k divides the big sizes by 2^k (quick runs) */
	const char *sh = getenv("BENCH_SHIFT");
	int n = 0, big = 1 << (24 - (sh ? atoi(sh) % 8 : 0));
	struct bench *b = add(all, &n, "vectorAdd", big, (size_t)big * 4, big);
	in_buf(b, 0, (size_t)big * 4);
	in_buf(b, 1, (size_t)big * 4);
	fill_floats(b->in[0].p, (size_t)big, 1);
	fill_floats(b->in[1].p, (size_t)big, 2);
	for (int m = 512; m <= 1024; m *= 2) {
		b = add(all, &n, m == 512 ? "sgemm512" : "sgemm1024", m,
			(size_t)m * m * 4, 2.0 * m * m * m);
		in_buf(b, 0, (size_t)m * m * 4);
		in_buf(b, 1, (size_t)m * m * 4);
		fill_floats(b->in[0].p, (size_t)m * m, 3);
		fill_floats(b->in[1].p, (size_t)m * m, 4);
		b->interp = m == 512 || getenv("BENCH_INTERP_ALL");
	}
	b = add(all, &n, "reduce", big, RBLOCKS * 4, big);
	in_buf(b, 0, (size_t)big * 4);
	fill_floats(b->in[0].p, (size_t)big, 5);
	b = add(all, &n, "histogram", big, 1024, big);
	in_buf(b, 0, (size_t)big);
	uint32_t s = 6;
	for (int i = 0; i < big; i++)
		((uint8_t *)b->in[0].p)[i] = (uint8_t)rnd(&s);
	b = add(all, &n, "scan", big, (size_t)big * 4, big);
	in_buf(b, 0, (size_t)big * 4);
	in_buf(b, 1, (size_t)big / 1024 * 4);
	for (int i = 0; i < big; i++)
		((int *)b->in[0].p)[i] = (int)(rnd(&s) & 15);
	int nb = 4096;
	b = add(all, &n, "nbody", nb, (size_t)nb * 16, 20.0 * nb * nb);
	in_buf(b, 0, (size_t)nb * 16);
	fill_floats(b->in[0].p, (size_t)nb * 4, 7);
	return n;
}
