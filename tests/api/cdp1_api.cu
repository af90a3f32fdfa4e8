// SPDX-License-Identifier: MIT
//
// A CDP1 kernel (built with CUDA_FORCE_CDP1_IF_SUPPORTED) that calls
// cudaDeviceSynchronize: CUDA 13's driver refuses its module when the
// kernel is first launched, and the error is not sticky.
#include <cstdio>

__global__ void child(int *p) { *p = 5; }

__global__ void parent(int *q)
{
	child<<<1, 1>>>(q);
	q[1] = cudaDeviceSynchronize();
}

int main()
{
	int *q;
	cudaMalloc(&q, 8);
	parent<<<1, 1>>>(q);
	int launch = cudaGetLastError();
	int sync = cudaDeviceSynchronize();
	printf("cdp1 launch=%d sync=%d last=%d\n", launch, sync, cudaGetLastError());
	return 0;
}
