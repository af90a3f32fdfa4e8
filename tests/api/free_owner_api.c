// SPDX-License-Identifier: MIT
/*
 * free_owner_api: cuMemFree and cuMemFreeHost need not run in the
 * allocating context. The allocation names its context, so a free with
 * no context current, with another context current or on a thread that
 * never had one succeeds, as numba-cuda's finalizers count on; memory
 * of a destroyed context is gone (CUDA_ERROR_INVALID_VALUE). Each answer
 * is printed and compared with an H200's (free_owner_api.expected).
 * Exits 0 unless a setup call failed.
 */
#include <pthread.h>
#include <stdio.h>

#include <cuda.h>

static int failures;

#define SETUP(call)                                                        \
	do {                                                               \
		if ((call) != CUDA_SUCCESS) {                              \
			printf("FAIL: line %d: %s\n", __LINE__, #call);    \
			failures++;                                        \
		}                                                          \
	} while (0)

static CUdeviceptr thread_ptr;
static void *thread_host;
static CUresult thread_free, thread_free_host;

static void *free_on_fresh_thread(void *arg)
{
	(void)arg;
	thread_free = cuMemFree(thread_ptr);
	thread_free_host = cuMemFreeHost(thread_host);
	return NULL;
}

int main(void)
{
	CUdevice dev;
	CUcontext a, b, popped;
	CUdeviceptr p;
	void *h;
	pthread_t t;

	SETUP(cuInit(0));
	SETUP(cuDeviceGet(&dev, 0));
	SETUP(cuCtxCreate(&a, NULL, 0, dev));

	SETUP(cuMemAlloc(&p, 4096));
	SETUP(cuMemAllocHost(&h, 4096));
	SETUP(cuCtxPopCurrent(&popped));
	printf("no context: cuMemFree(a's) = %d\n", cuMemFree(p));
	printf("no context: cuMemFreeHost(a's) = %d\n", cuMemFreeHost(h));
	printf("no context: cuMemFree(0) = %d\n", cuMemFree(0));
	printf("no context: cuMemFree(freed) = %d\n", cuMemFree(p));

	SETUP(cuCtxPushCurrent(a));
	SETUP(cuMemAlloc(&p, 4096));
	SETUP(cuMemAllocHost(&h, 4096));
	SETUP(cuCtxCreate(&b, NULL, 0, dev));	/* b current */
	printf("b current: cuMemFree(a's) = %d\n", cuMemFree(p));
	printf("b current: cuMemFreeHost(a's) = %d\n", cuMemFreeHost(h));
	SETUP(cuCtxPopCurrent(&popped));	/* a current */

	SETUP(cuMemAlloc(&thread_ptr, 4096));
	SETUP(cuMemAllocHost(&thread_host, 4096));
	pthread_create(&t, NULL, free_on_fresh_thread, NULL);
	pthread_join(t, NULL);
	printf("fresh thread: cuMemFree(a's) = %d\n", thread_free);
	printf("fresh thread: cuMemFreeHost(a's) = %d\n", thread_free_host);

	SETUP(cuMemAlloc(&p, 4096));
	SETUP(cuCtxDestroy(b));
	SETUP(cuCtxDestroy(a));
	printf("a destroyed: cuMemFree(a's) = %d\n", cuMemFree(p));
	return failures ? 1 : 0;
}
