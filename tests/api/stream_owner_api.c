// SPDX-License-Identifier: MIT
/*
 * stream_owner_api: the context and device a stream belongs to
 * (cuStreamGetCtx, cuStreamGetCtx_v2, cuStreamGetDevice), as cuda.h
 * documents them: a created stream answers with the context it was
 * created in, whichever context is current; the special handles (0,
 * CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) with the current one, and
 * CUDA_ERROR_INVALID_CONTEXT when none is; a stream of a regular
 * context has no green context. The answers to NULL outputs are printed
 * and compared with an H100's (stream_owner_api.expected). Exits 0 on
 * success, 1 on failure.
 */
#include <stdio.h>

#include <cuda.h>

static int failures;

#define EXPECT(cond)                                                       \
	do {                                                               \
		if (!(cond)) {                                             \
			printf("FAIL: line %d: %s\n", __LINE__, #cond);    \
			failures++;                                        \
		}                                                          \
	} while (0)

static CUcontext ctx_of(CUstream s)
{
	CUcontext c = NULL;

	EXPECT(cuStreamGetCtx(s, &c) == CUDA_SUCCESS);
	return c;
}

static void check_created(CUcontext a, CUstream s, CUcontext b)
{
	CUcontext c = NULL;
	CUgreenCtx g = (CUgreenCtx)&c;
	CUdevice dev = -1;

	/* b current: the stream still answers with a, its own */
	EXPECT(cuCtxSetCurrent(b) == CUDA_SUCCESS);
	EXPECT(ctx_of(s) == a);
	EXPECT(cuStreamGetCtx_v2(s, &c, &g) == CUDA_SUCCESS);
	EXPECT(c == a && g == NULL);
	EXPECT(cuStreamGetDevice(s, &dev) == CUDA_SUCCESS && dev == 0);
}

/* Empties the thread's context stack (cuCtxSetCurrent(NULL) pops one). */
static void no_current(void)
{
	CUcontext c = NULL;

	while (cuCtxGetCurrent(&c) == CUDA_SUCCESS && c)
		EXPECT(cuCtxSetCurrent(NULL) == CUDA_SUCCESS);
}

static void check_special(CUcontext b)
{
	CUstream special[] = { NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD };
	CUcontext c;

	for (int i = 0; i < 3; i++) {
		EXPECT(cuCtxSetCurrent(b) == CUDA_SUCCESS);
		EXPECT(ctx_of(special[i]) == b);
		no_current();
		EXPECT(cuStreamGetCtx(special[i], &c) ==
		       CUDA_ERROR_INVALID_CONTEXT);
	}
}

static void answer(const char *call, CUresult res)
{
	printf("%s = %d\n", call, (int)res);
}

/* Each call with a NULL output, with a context current and without
 * (cuStreamGetCtx_v2 takes either output NULL, not both). */
static void check_null_outputs(CUcontext a, CUcontext b, CUstream s)
{
	CUcontext c = NULL;
	CUgreenCtx g = NULL;

	EXPECT(cuCtxSetCurrent(b) == CUDA_SUCCESS);
	answer("cuStreamGetCtx(stream, NULL)", cuStreamGetCtx(s, NULL));
	answer("cuStreamGetCtx(0, NULL)", cuStreamGetCtx(NULL, NULL));
	answer("cuStreamGetCtx_v2(stream, NULL, &green)",
	       cuStreamGetCtx_v2(s, NULL, &g));
	answer("cuStreamGetCtx_v2(stream, &ctx, NULL)",
	       cuStreamGetCtx_v2(s, &c, NULL));
	EXPECT(c == a);
	answer("cuStreamGetCtx_v2(0, NULL, NULL)",
	       cuStreamGetCtx_v2(NULL, NULL, NULL));
	answer("cuStreamGetDevice(stream, NULL)", cuStreamGetDevice(s, NULL));
	answer("cuStreamGetDevice(0, NULL)", cuStreamGetDevice(NULL, NULL));
	no_current();
	answer("no context: cuStreamGetCtx(stream, NULL)",
	       cuStreamGetCtx(s, NULL));
	answer("no context: cuStreamGetCtx(0, NULL)", cuStreamGetCtx(NULL, NULL));
	answer("no context: cuStreamGetDevice(0, NULL)",
	       cuStreamGetDevice(NULL, NULL));
}

int main(void)
{
	CUcontext a, b;
	CUstream s;
	CUdevice dev;

	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
	    cuCtxCreate(&a, NULL, 0, dev) != CUDA_SUCCESS ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS ||
	    cuCtxCreate(&b, NULL, 0, dev) != CUDA_SUCCESS) {
		printf("FAIL: set-up\n");
		return 1;
	}
	check_created(a, s, b);
	check_special(b);
	check_null_outputs(a, b, s);
	EXPECT(cuCtxSetCurrent(a) == CUDA_SUCCESS);
	EXPECT(cuStreamDestroy(s) == CUDA_SUCCESS);
	EXPECT(cuCtxDestroy(b) == CUDA_SUCCESS);
	EXPECT(cuCtxDestroy(a) == CUDA_SUCCESS);
	printf("%s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
