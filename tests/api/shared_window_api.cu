// SPDX-License-Identifier: MIT
//
// How far past a block's shared memory a load or store may reach, and the
// shared-size special registers. An NVIDIA GPU allocates a block's shared
// memory in 128-byte units: an access past the kernel's static and dynamic
// bytes but inside the last unit succeeds, one past it is an illegal
// address. NVVM relies on it: it reads a whole vector where only the first
// elements are used (numba's dynamic shared slices). Each access probe runs
// in its own process, since a fault is sticky. Recorded on an H200
// (shared_window_api.md).
#include <cuda_runtime.h>

#include "api_test.h"

extern __shared__ char dynamic_bytes[];

__global__ void read_dynamic(int offset, int *out)
{
	out[0] = *(volatile int *)(dynamic_bytes + offset);
}

__global__ void store_dynamic(int offset, int *out)
{
	*(volatile int *)(dynamic_bytes + offset) = 5;
	out[0] = 1;
}

// 28 static bytes; the probe reads from the start of the array.
__global__ void read_static(int offset, int *out)
{
	__shared__ int words[7];

	words[offset & 1] = offset;
	__syncthreads();
	out[0] = *(volatile int *)((char *)words + offset);
}

__device__ void shared_sregs(unsigned *out)
{
	asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(out[0]));
	asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(out[1]));
}

__global__ void sregs_dynamic_only(unsigned *out, int dynamic)
{
	if (dynamic)
		dynamic_bytes[0] = 1;
	shared_sregs(out);
}

__global__ void sregs_static28(unsigned *out)
{
	__shared__ int words[7];

	words[threadIdx.x % 7] = 1;
	dynamic_bytes[0] = (char)words[0];
	shared_sregs(out);
}

enum probe_kind { READ_DYNAMIC, STORE_DYNAMIC, READ_STATIC };

static void probe(enum probe_kind kind, int dynamic, int offset)
{
	static const char *const names[] = { "read dynamic", "store dynamic",
					     "read static" };
	int *out;

	cudaMalloc(&out, sizeof(*out));
	if (kind == READ_DYNAMIC)
		read_dynamic<<<1, 1, dynamic>>>(offset, out);
	else if (kind == STORE_DYNAMIC)
		store_dynamic<<<1, 1, dynamic>>>(offset, out);
	else
		read_static<<<1, 1, dynamic>>>(offset, out);
	cudaError_t launch = cudaGetLastError();
	cudaError_t sync = cudaDeviceSynchronize();

	std::printf("%s, %d dynamic bytes, offset %d: launch %s, sync %s\n",
		    names[kind], dynamic, offset, cudaGetErrorName(launch),
		    cudaGetErrorName(sync));
}

// One probe in a child process, so that a fault does not reach the next.
static void probe_alone(enum probe_kind kind, int dynamic, int offset)
{
	std::fflush(stdout);
	pid_t pid = fork();

	if (pid == 0) {
		probe(kind, dynamic, offset);
		std::fflush(stdout);
		_exit(0);
	}
	int status = 0;

	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		std::printf("probe %d/%d/%d: child failed\n", kind, dynamic,
			    offset);
}

static void sregs(void)
{
	static const int dynamics[] = { 0, 28, 100, 128, 1100 };
	unsigned *out, host[2];

	cudaMalloc(&out, sizeof(host));
	for (int dynamic : dynamics) {
		sregs_dynamic_only<<<1, 1, dynamic>>>(out, dynamic);
		cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
		std::printf("static 0, dynamic %d: total_smem_size %u, "
			    "dynamic_smem_size %u (%s)\n", dynamic, host[0],
			    host[1], cudaGetErrorName(cudaGetLastError()));
		sregs_static28<<<1, 1, dynamic>>>(out);
		cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
		std::printf("static 28, dynamic %d: total_smem_size %u, "
			    "dynamic_smem_size %u (%s)\n", dynamic, host[0],
			    host[1], cudaGetErrorName(cudaGetLastError()));
	}
}

int main(void)
{
	static const int past_28[] = { 0, 24, 28, 60, 124, 128, 256, 1024,
				       4096 };

	for (int offset : past_28)
		probe_alone(READ_DYNAMIC, 28, offset);
	for (int offset : { 28, 124, 128 })
		probe_alone(STORE_DYNAMIC, 28, offset);
	for (int offset : { 28, 124, 128 })
		probe_alone(READ_STATIC, 0, offset);
	for (int offset : { 1020, 1024 })
		probe_alone(READ_DYNAMIC, 1024, offset);
	for (int offset : { 1100, 1148, 1152 })
		probe_alone(READ_DYNAMIC, 1100, offset);
	std::fflush(stdout);
	pid_t pid = fork();

	if (pid == 0) {
		sregs();
		std::fflush(stdout);
		_exit(0);
	}
	waitpid(pid, nullptr, 0);
	return 0;
}
