// SPDX-License-Identifier: MIT
// Module variables: initialised globals and constants, arrays, pointers
// to other variables and to functions in initialisers.
__device__ int counts[4] = { 1, 2, 3, 4 };
__device__ int *second = &counts[1];
__constant__ float scale[3] = { 0.5f, 2.0f, -1.25f };
__constant__ double dscale = 3.0;
__device__ unsigned long long big = 0x123456789abcdefULL;
__device__ char message[] = "hello";
__device__ float accum;

extern "C" __global__ void read_globals(float *out)
{
	int t = threadIdx.x;
	out[t * 6 + 0] = counts[t & 3] * scale[t % 3];
	out[t * 6 + 1] = (float)*second;
	out[t * 6 + 2] = (float)(dscale * t);
	out[t * 6 + 3] = (float)(big >> (t & 31) & 0xff);
	out[t * 6 + 4] = message[t % 6];
	out[t * 6 + 5] = accum;
	if (t == 0)
		counts[0] += 10;
}
