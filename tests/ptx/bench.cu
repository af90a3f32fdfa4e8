// SPDX-License-Identifier: MIT
// Arithmetic loops for interpreter throughput: integer and float.
extern "C" __global__ void int_loop(unsigned *out, int iters)
{
	unsigned x = threadIdx.x + blockIdx.x * blockDim.x, y = 12345;
	for (int k = 0; k < iters; k++) {
		x = x * 1664525u + 1013904223u;
		y ^= x >> 7;
		y += x & 0xff;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x ^ y;
}

extern "C" __global__ void float_loop(float *out, int iters)
{
	float x = (float)threadIdx.x * 0.001f, y = 1.0f;
	for (int k = 0; k < iters; k++) {
		x = x * 0.999f + 0.5f;
		y = fmaf(y, 0.9999f, x);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
