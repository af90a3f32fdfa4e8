// SPDX-License-Identifier: MIT
/*
 * OpenCL host side of the executor benchmark (six_cl.h): one context,
 * program and queue, kernels looked up by name and buffers made once per
 * host allocation.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include "six_cl.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BUFS = 32, MAX_KERNELS = 16 };

struct cl_buf {
	void *p;
	size_t size;
	cl_mem mem;
};

struct cl_kern {
	const char *name;
	cl_kernel k;
};

struct cl_dev {
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue queue;
	cl_program prog;
	struct cl_kern kernels[MAX_KERNELS];
	unsigned nkernels;
	struct cl_buf bufs[MAX_BUFS];
	unsigned nbufs;
};

struct six_cl {
	struct cl_dev dev;
};

static char *read_source(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *t = NULL;
	long n;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (t = calloc(1, (size_t)n + 1)) &&
	    fread(t, 1, (size_t)n, f) != (size_t)n) {
		free(t);
		t = NULL;
	}
	fclose(f);
	return t;
}

static bool dev_open(struct cl_dev *d, cl_device_id id, const char *src,
		     char *why, size_t len)
{
	cl_int err;
	d->dev = id;
	d->ctx = clCreateContext(NULL, 1, &id, NULL, NULL, &err);
	if (!d->ctx)
		return snprintf(why, len, "clCreateContext: %d", err), false;
	d->queue = clCreateCommandQueue(d->ctx, id, 0, &err);
	d->prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &err);
	if (!d->queue || !d->prog)
		return snprintf(why, len, "OpenCL: %d", err), false;
	err = clBuildProgram(d->prog, 1, &id, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[512] = "";
		clGetProgramBuildInfo(d->prog, id, CL_PROGRAM_BUILD_LOG,
				      sizeof(log) - 1, log, NULL);
		snprintf(why, len, "six.cl: %s", log);
		return false;
	}
	return true;
}

static void dev_close(struct cl_dev *d)
{
	for (unsigned i = 0; i < d->nbufs; i++)
		clReleaseMemObject(d->bufs[i].mem);
	for (unsigned i = 0; i < d->nkernels; i++)
		clReleaseKernel(d->kernels[i].k);
	if (d->prog)
		clReleaseProgram(d->prog);
	if (d->queue)
		clReleaseCommandQueue(d->queue);
	if (d->ctx)
		clReleaseContext(d->ctx);
}

static bool cpu_device(cl_device_id *out, char *why, size_t len)
{
	cl_platform_id plats[8];
	cl_uint n = 0;
	if (clGetPlatformIDs(8, plats, &n) != CL_SUCCESS || !n)
		return snprintf(why, len, "no OpenCL platform"), false;
	for (cl_uint i = 0; i < n && i < 8; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, out,
				   NULL) == CL_SUCCESS)
			return true;
	snprintf(why, len, "no OpenCL CPU device");
	return false;
}

struct six_cl *six_cl_open(const char *path, char *why, size_t len)
{
	cl_device_id id;
	char *src = read_source(path);
	struct six_cl *c = calloc(1, sizeof(*c));
	bool ok = src && c && cpu_device(&id, why, len) &&
		  dev_open(&c->dev, id, src, why, len);
	if (!src)
		snprintf(why, len, "cannot read %s", path);
	free(src);
	if (!ok) {
		six_cl_close(c);
		return NULL;
	}
	return c;
}

void six_cl_close(struct six_cl *c)
{
	if (!c)
		return;
	dev_close(&c->dev);
	free(c);
}

static cl_kernel kernel_of(struct cl_dev *d, const char *name)
{
	for (unsigned i = 0; i < d->nkernels; i++)
		if (!strcmp(d->kernels[i].name, name))
			return d->kernels[i].k;
	cl_kernel k = clCreateKernel(d->prog, name, NULL);
	if (k && d->nkernels < MAX_KERNELS)
		d->kernels[d->nkernels++] = (struct cl_kern){ name, k };
	return k;
}

static cl_mem buffer_of(struct cl_dev *d, void *p, size_t size)
{
	for (unsigned i = 0; i < d->nbufs; i++)
		if (d->bufs[i].p == p && d->bufs[i].size == size)
			return d->bufs[i].mem;
	if (d->nbufs == MAX_BUFS)
		return NULL;
	cl_mem m = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE |
				  CL_MEM_USE_HOST_PTR, size, p, NULL);
	if (m)
		d->bufs[d->nbufs++] = (struct cl_buf){ p, size, m };
	return m;
}

/* Maps and unmaps the buffers: where OpenCL makes the results the
 * host's (with host memory as the buffers, nothing is copied). */
static bool sync_to_host(struct cl_dev *d, const struct six_cl_arg *args,
			 unsigned nargs)
{
	for (unsigned i = 0; i < nargs; i++) {
		if (!args[i].buffer)
			continue;
		cl_mem m = buffer_of(d, args[i].p, args[i].size);
		cl_int err;
		void *h = clEnqueueMapBuffer(d->queue, m, CL_TRUE, CL_MAP_READ,
					     0, args[i].size, 0, NULL, NULL,
					     &err);
		if (!h || clEnqueueUnmapMemObject(d->queue, m, h, 0, NULL,
						  NULL) != CL_SUCCESS)
			return false;
	}
	return clFinish(d->queue) == CL_SUCCESS;
}

bool six_cl_run(struct six_cl *c, const char *kernel, const size_t global[2],
		const size_t local[2], const struct six_cl_arg *args,
		unsigned nargs)
{
	struct cl_dev *d = &c->dev;
	cl_kernel k = kernel_of(d, kernel);
	cl_uint dims = global[1] ? 2 : 1;
	if (!k)
		return false;
	for (unsigned i = 0; i < nargs; i++) {
		cl_mem m = args[i].buffer ? buffer_of(d, args[i].p,
						      args[i].size) : NULL;
		if (args[i].buffer && !m)
			return false;
		cl_int err = m ? clSetKernelArg(k, i, sizeof(m), &m) :
				 clSetKernelArg(k, i, args[i].size, args[i].p);
		if (err != CL_SUCCESS)
			return false;
	}
	if (clEnqueueNDRangeKernel(d->queue, k, dims, NULL, global, local, 0,
				   NULL, NULL) != CL_SUCCESS)
		return false;
	return sync_to_host(d, args, nargs);
}
