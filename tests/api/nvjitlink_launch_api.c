// SPDX-License-Identifier: MIT
/*
 * What numba-cuda does with nvJitLink, on vcuda (exit 0 or 1): LTO-IR of
 * a kernel linked with PTX (or a fatbin) that defines the function it
 * calls, and PTX of the kernel linked with LTO-IR of the function (as
 * numba's NRT), the linked "cubin" loaded with cuModuleLoadData and
 * launched; the results checked. And what vcuda cannot do: a cubin input (SASS) is
 * refused with NVJITLINK_ERROR_ARCH_MISMATCH, its log saying why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#include "self_check.h"

#define N 1000


static void *load(const char *name, size_t *size)
{
	char path[4096];
	void *data;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", NVJITLINK_INPUTS, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(data = malloc((size_t)n))) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	*size = fread(data, 1, (size_t)n, f);
	fclose(f);
	return data;
}

static nvJitLinkResult add(nvJitLinkHandle h, nvJitLinkInputType type,
			   const char *name)
{
	size_t size;
	void *data = load(name, &size);
	nvJitLinkResult res = __nvJitLinkAddData_13_0(h, type, data, size,
						      name);

	free(data);
	return res;
}

/* Links the kernel @kernel with @ext (holding ext_add) into a cubin. */
static void *link_kernel(const char *kernel, const char *ext,
			 nvJitLinkInputType ext_type)
{
	const char *opts[] = { "-arch=sm_80", "-lto" };
	nvJitLinkHandle h;
	void *cubin = NULL;
	size_t size = 0;

	if (__nvJitLinkCreate_13_0(&h, 2, opts) ||
	    add(h, NVJITLINK_INPUT_ANY, kernel) ||
	    add(h, ext_type, ext) || __nvJitLinkComplete_13_0(h) ||
	    __nvJitLinkGetLinkedCubinSize_13_0(h, &size) ||
	    !(cubin = malloc(size)) ||
	    __nvJitLinkGetLinkedCubin_13_0(h, cubin)) {
		free(cubin);
		cubin = NULL;
	}
	__nvJitLinkDestroy_13_0(&h);
	return cubin;
}

/* Loads @cubin, runs scale over N ints and checks each. */
static int run_scale(const void *cubin)
{
	int host[N], bad = 0;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr d;
	int n = N;
	void *args[] = { &d, &n };

	for (int i = 0; i < N; i++)
		host[i] = i - 500;
	if (cuModuleLoadData(&mod, cubin) ||
	    cuModuleGetFunction(&fn, mod, "scale") ||
	    cuMemAlloc(&d, sizeof(host)) || cuMemcpyHtoD(d, host, sizeof(host)) ||
	    cuLaunchKernel(fn, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args,
			   NULL) ||
	    cuMemcpyDtoH(host, d, sizeof(host)))
		return 0;
	for (int i = 0; i < N; i++)
		bad += host[i] != (i - 500) * 3 + i + 7;
	cuMemFree(d);
	cuModuleUnload(mod);
	return !bad;
}

static void cubin_refused(void)
{
	const char *opts[] = { "-arch=sm_80" };
	nvJitLinkHandle h;
	size_t size = 0;
	char *log;

	__nvJitLinkCreate_13_0(&h, 1, opts);
	expect_true(add(h, NVJITLINK_INPUT_CUBIN, "ext.cubin") ==
	       NVJITLINK_ERROR_ARCH_MISMATCH, "a cubin (SASS) is refused");
	__nvJitLinkGetErrorLogSize_13_0(h, &size);
	log = calloc(1, size + 1);
	__nvJitLinkGetErrorLog_13_0(h, log);
	expect_true(strstr(log, "ext.cubin") && strstr(log, "SASS"),
	       "the error log names the cubin and says it is SASS");
	free(log);
	__nvJitLinkDestroy_13_0(&h);
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;
	void *cubin;

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuCtxCreate(&ctx, NULL, 0, dev)) {
		printf("FAIL: no CUDA device\n");
		return 1;
	}
	cubin = link_kernel("k.ltoir", "ext.ptx", NVJITLINK_INPUT_PTX);
	expect_true(cubin != NULL, "LTO-IR and PTX link");
	expect_true(cubin && run_scale(cubin), "the linked kernel runs");
	free(cubin);
	cubin = link_kernel("k.ltoir", "ext.fatbin", NVJITLINK_INPUT_ANY);
	expect_true(cubin != NULL, "LTO-IR and a fatbin link");
	expect_true(cubin && run_scale(cubin), "the linked kernel runs");
	free(cubin);
	/* The callee in LTO-IR, called only from PTX: kept by keep.c. */
	cubin = link_kernel("k.ptx", "ext.ltoir", NVJITLINK_INPUT_LTOIR);
	expect_true(cubin != NULL, "PTX calling LTO-IR links");
	expect_true(cubin && run_scale(cubin), "the linked kernel runs");
	free(cubin);
	cubin_refused();
	cuCtxDestroy(ctx);
	return self_check_status();
}
