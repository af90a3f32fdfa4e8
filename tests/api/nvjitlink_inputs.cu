// SPDX-License-Identifier: MIT
// Inputs of the nvJitLink tests (tests/api/api.mk builds each part):
// KERNEL, a kernel calling ext_add, which it does not define (LTO-IR);
// WHOLE, a kernel on its own (LTO-IR); EXT, ext_add (PTX, fatbin, cubin).
#if defined(KERNEL)
extern __device__ int ext_add(int a, int b);

extern "C" __global__ void scale(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = ext_add(out[i] * 3, i);
}
#elif defined(WHOLE)
extern "C" __global__ void twice(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = out[i] * 2 + 1;
}
#elif defined(EXT)
__device__ int ext_add(int a, int b)
{
	return a + b + 7;
}
#endif
