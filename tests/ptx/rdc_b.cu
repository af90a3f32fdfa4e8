// SPDX-License-Identifier: MIT
// Separate compilation, unit B.
extern __device__ int rdc_shared_value;

__device__ int rdc_b_offset(int x)
{
	return x + 2 * rdc_shared_value;
}

extern "C" __global__ void rdc_kernel_b(int *out)
{
	out[threadIdx.x] = rdc_b_offset(threadIdx.x);
}
