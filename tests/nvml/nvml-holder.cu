// SPDX-License-Identifier: MIT
/*
 * nvml-holder MIB SECONDS: a CUDA program for NVML's clients to watch. It
 * allocates MIB MiB of device memory, prints "ready PID" once the context
 * and the allocation exist, then keeps the GPU lightly busy (a short
 * kernel every 50 ms) for SECONDS seconds, or until its stdin is closed
 * when SECONDS is 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <poll.h>

#include <cuda_runtime.h>

__global__ void touch(unsigned int *p, unsigned int n)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

static bool stdin_closed(void)
{
	struct pollfd pfd = { 0, POLLIN, 0 };
	char c;

	return poll(&pfd, 1, 0) == 1 && read(0, &c, 1) <= 0;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	long seconds = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	unsigned int *p;
	cudaError_t err;
	long ticks;

	err = cudaMalloc((void **)&p, mib << 20);
	if (err == cudaSuccess)
		err = cudaMemset(p, 0, mib << 20);
	if (err != cudaSuccess) {
		fprintf(stderr, "nvml-holder: %s\n", cudaGetErrorString(err));
		return 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (ticks = 0; seconds == 0 || ticks < seconds * 20; ticks++) {
		touch<<<4, 64>>>(p, 256);
		if (cudaDeviceSynchronize() != cudaSuccess)
			return 1;
		if (seconds == 0 && stdin_closed())
			break;
		usleep(50000);
	}
	cudaFree(p);
	return 0;
}
