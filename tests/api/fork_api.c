// SPDX-License-Identifier: MIT
/*
 * fork_api: a child forked after cuInit cannot use the driver: its calls,
 * cuInit included, return CUDA_ERROR_NOT_INITIALIZED (numba-cuda tells a
 * fork by it), and nothing it does reaches the parent's context, which
 * goes on working. A child forked before any cuInit initialises as usual.
 * Its own check (NVIDIA documents use after fork as undefined, so there
 * is no recording): exits 0 on success, 1 on failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#include "self_check.h"


/* Runs @child in a forked process; its exit status says if it failed. */
static void in_child(const char *what, void (*child)(CUdeviceptr),
		     CUdeviceptr arg)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		child(arg);
		fflush(stdout);
		_exit(self_check_failures ? 1 : 0);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("FAIL: %s (child status 0x%x)\n", what, status);
		self_check_failures++;
	}
}

static void child_before_init(CUdeviceptr unused)
{
	int n = 0;
	(void)unused;
	expect_result("child of an uninitialised parent: cuInit", cuInit(0),
	       CUDA_SUCCESS);
	expect_result("cuDeviceGetCount", cuDeviceGetCount(&n), CUDA_SUCCESS);
	if (n < 1) {
		printf("FAIL: %d devices in the child\n", n);
		self_check_failures++;
	}
}

static void child_after_init(CUdeviceptr parents)
{
	CUdeviceptr p = 0;
	CUcontext ctx = NULL;
	CUdevice dev = 0;
	int n = 0, version = 0;
	expect_result("cuMemAlloc", cuMemAlloc(&p, 4096), CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuMemFree of the parent's", cuMemFree(parents),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuMemsetD32 of the parent's", cuMemsetD32(parents, 0, 64),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuCtxGetCurrent", cuCtxGetCurrent(&ctx),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuCtxSynchronize", cuCtxSynchronize(),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuDeviceGetCount", cuDeviceGetCount(&n),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuInit in the child", cuInit(0), CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuDeviceGet after cuInit", cuDeviceGet(&dev, 0),
	       CUDA_ERROR_NOT_INITIALIZED);
	expect_result("cuDriverGetVersion", cuDriverGetVersion(&version),
	       CUDA_SUCCESS);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr p;
	unsigned back[64];

	in_child("a child forked before cuInit", child_before_init, 0);
	expect_result("cuInit", cuInit(0), CUDA_SUCCESS);
	expect_result("cuDeviceGet", cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	expect_result("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev),
	       CUDA_SUCCESS);
	expect_result("cuCtxSetCurrent", cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	expect_result("cuMemAlloc", cuMemAlloc(&p, sizeof(back)), CUDA_SUCCESS);
	if (self_check_failures)
		return 1;
	in_child("a child forked after cuInit", child_after_init, p);
	/* The parent's context and memory are untouched. */
	expect_result("cuMemsetD32", cuMemsetD32(p, 0x5a5a5a5a, 64), CUDA_SUCCESS);
	expect_result("cuMemcpyDtoH", cuMemcpyDtoH(back, p, sizeof(back)),
	       CUDA_SUCCESS);
	for (int i = 0; i < 64; i++)
		if (back[i] != 0x5a5a5a5au) {
			printf("FAIL: word %d = 0x%x after the fork\n", i,
			       back[i]);
			self_check_failures++;
			break;
		}
	expect_result("cuMemFree", cuMemFree(p), CUDA_SUCCESS);
	expect_result("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev),
	       CUDA_SUCCESS);
	printf("%s\n", self_check_failures ? "FAIL" : "ok");
	return self_check_status();
}
