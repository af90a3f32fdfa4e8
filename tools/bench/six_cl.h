/* SPDX-License-Identifier: MIT */
/*
 * The six kernels on an OpenCL CPU device (PoCL, Debian's
 * pocl-opencl-icd), for pocl_bench.c. Buffers wrap the benchmark's own
 * host memory (CL_MEM_USE_HOST_PTR), so no run copies its data.
 */
#ifndef VCUDA_BENCH_SIX_CL_H
#define VCUDA_BENCH_SIX_CL_H

#include <stdbool.h>
#include <stddef.h>

struct six_cl;

/* The first OpenCL CPU device, with six.cl at @path built for it; NULL
 * with @why when there is none. */
struct six_cl *six_cl_open(const char *path, char *why, size_t len);
void six_cl_close(struct six_cl *c);

/* One argument of a launch: a buffer (host memory of @size bytes) or a
 * scalar of @size bytes at @p. */
struct six_cl_arg {
	void *p;
	size_t size;
	bool buffer;
};

/*
 * Runs @kernel over @global work-items (2-D when @global[1]) in groups
 * of @local, and waits until the buffers are the host's again. False on
 * an error.
 */
bool six_cl_run(struct six_cl *c, const char *kernel, const size_t global[2],
		const size_t local[2], const struct six_cl_arg *args,
		unsigned nargs);

#endif
