// SPDX-License-Identifier: MIT
/*
 * The PoCL columns of the executor benchmark: six.cl on PoCL's CPU
 * device, on one compute unit and on all, with the data and checks of
 * six_data.c. A process of its own, which exec_bench.c runs: PoCL loads
 * its own LLVM (15 on Debian 12), which cannot share a process with
 * vcuda's LLVM 14. It runs on as many threads as PoCL's
 * POCL_MAX_PTHREAD_COUNT allows (default: one per CPU). Prints
 * "name<TAB>seconds" per kernel: the best of 3 after one checked run,
 * -1 when a run fails or its result is wrong.
 */
#include "six_c.h"
#include "six_cl.h"
#include "six_data.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct six_cl_arg buffer(const struct buf *b)
{
	return (struct six_cl_arg){ b->p, b->size, true };
}

static struct six_cl_arg value(void *p, size_t size)
{
	return (struct six_cl_arg){ p, size, false };
}

/* C's result, to check against. */
static void run_c(struct bench *b)
{
	const char *k = b->name;
	if (!strcmp(k, "vectorAdd"))
		c_vector_add(b->in[0].p, b->in[1].p, b->c_out, b->n);
	else if (!strncmp(k, "sgemm", 5))
		c_sgemm(b->in[0].p, b->in[1].p, b->c_out, b->n);
	else if (!strcmp(k, "reduce"))
		*(double *)b->c_out = c_reduce(b->in[0].p, b->n);
	else if (!strcmp(k, "histogram"))
		c_histogram(b->in[0].p, b->c_out, b->n);
	else if (!strcmp(k, "scan"))
		c_scan(b->in[0].p, b->c_out, b->n);
	else
		c_nbody(b->in[0].p, b->c_out, b->n, nbody_dt);
}

static bool run_scan(struct six_cl *c, struct bench *b)
{
	int blocks = b->n / 1024;
	struct six_cl_arg a1[] = { buffer(&b->in[0]), buffer(&b->out),
				   buffer(&b->in[1]) };
	struct six_cl_arg a2[] = { buffer(&b->in[1]),
				   value(&blocks, sizeof(blocks)) };
	struct six_cl_arg a3[] = { buffer(&b->out), buffer(&b->in[1]) };
	return six_cl_run(c, "scan_blocks", (size_t[2]){ (size_t)blocks * 256 },
			  (size_t[2]){ 256 }, a1, 3) &&
	       six_cl_run(c, "scan_sums", (size_t[2]){ 1024 },
			  (size_t[2]){ 1024 }, a2, 2) &&
	       six_cl_run(c, "add_offsets", (size_t[2]){ (size_t)b->n },
			  (size_t[2]){ 256 }, a3, 2);
}

/* The launches of six.cu's, as exec_bench.c makes them. */
static bool run_cl(struct six_cl *c, struct bench *b)
{
	const char *k = b->name;
	size_t n = (size_t)b->n;
	struct six_cl_arg a[4] = { buffer(&b->in[0]), buffer(&b->in[1]),
				   buffer(&b->out), value(&b->n, 4) };
	if (!strcmp(k, "vectorAdd"))
		return six_cl_run(c, "vector_add", (size_t[2]){ n },
				  (size_t[2]){ 256 }, a, 4);
	if (!strncmp(k, "sgemm", 5))
		return six_cl_run(c, "sgemm", (size_t[2]){ n, n },
				  (size_t[2]){ 16, 16 }, a, 4);
	a[1] = buffer(&b->out);
	a[2] = value(&b->n, 4);
	if (!strcmp(k, "reduce"))
		return six_cl_run(c, "reduce", (size_t[2]){ RBLOCKS * 256 },
				  (size_t[2]){ 256 }, a, 3);
	memset(b->out.p, 0, b->out.size);
	if (!strcmp(k, "histogram"))
		return six_cl_run(c, "histogram256", (size_t[2]){ 256 * 256 },
				  (size_t[2]){ 256 }, a, 3);
	if (!strcmp(k, "scan"))
		return run_scan(c, b);
	a[3] = value(&nbody_dt, 4);
	return six_cl_run(c, "nbody", (size_t[2]){ n }, (size_t[2]){ 256 },
			  a, 4);
}

static double best(struct six_cl *c, struct bench *b)
{
	double t = 1e30;
	if (!run_cl(c, b) || !bench_check(b))
		return -1;
	for (int r = 0; r < 3; r++) {
		double t0 = now();
		if (!run_cl(c, b))
			return -1;
		double dt = now() - t0;
		t = dt < t ? dt : t;
	}
	return t;
}

int main(int argc, char **argv)
{
	char why[512];
	struct bench all[MAX_BENCHES];
	const char *path = argc > 1 ? argv[1] : "six.cl";
	struct six_cl *c = six_cl_open(path, why, sizeof(why));
	if (!c) {
		fprintf(stderr, "pocl-bench: %s\n", why);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	int n = bench_setup(all);
	for (int i = 0; i < n; i++) {
		run_c(&all[i]);
		printf("%s\t%.6f\n", all[i].name, best(c, &all[i]));
	}
	six_cl_close(c);
	return 0;
}
