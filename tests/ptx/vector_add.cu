// SPDX-License-Identifier: MIT
// vectorAdd, as in cuda-samples: C = A + B for n elements.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c,
				      int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

#ifdef WITH_MAIN
// Host side, so that executables register the fatbin (never run here).
#include <cstdio>
int main()
{
	float *d;
	if (cudaMalloc(&d, 4 * sizeof(float)) != cudaSuccess)
		return 1;
	vector_add<<<1, 4>>>(d, d, d, 4);
	printf("%d\n", (int)cudaDeviceSynchronize());
	return 0;
}
#endif
