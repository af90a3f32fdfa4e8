/* SPDX-License-Identifier: MIT */
/*
 * The data of the executor benchmark's six kernels (six_data.c), shared
 * by exec_bench.c (the JIT, the interpreter, C) and pocl_bench.c (PoCL,
 * which runs in a process of its own: it loads another LLVM than
 * vcuda's): the problems, their inputs, and the checks of results
 * against C's.
 */
#ifndef VCUDA_BENCH_SIX_DATA_H
#define VCUDA_BENCH_SIX_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { NBUF = 4, RBLOCKS = 1024, MAX_BENCHES = 8 };

struct buf {
	void *p;
	size_t size;
};

struct bench {
	const char *name;
	int n;			/* problem size */
	struct buf in[NBUF], out;	/* the executors' buffers */
	void *c_out;		/* C's result */
	bool interp;		/* run on the interpreter too */
	double work;		/* for the rates: elements or flops */
};


extern float nbody_dt;

/* Fills @all (MAX_BENCHES) with the problems and their inputs;
 * BENCH_SHIFT=k divides the big sizes by 2^k. Returns how many. */
int bench_setup(struct bench *all);
/* @b's output agrees with C's (c_out). */
bool bench_check(const struct bench *b);

#endif
