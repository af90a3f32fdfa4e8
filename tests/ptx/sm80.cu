// SPDX-License-Identifier: MIT
// sm_80 features: warp reductions and asynchronous copies to shared.
#include <cuda_pipeline.h>

extern "C" __global__ void sm80_ops(const int *in, int *out)
{
	__shared__ int stage[128];
	int t = threadIdx.x;
#if __CUDA_ARCH__ >= 800
	int v = in[blockIdx.x * blockDim.x + t];
	out[t * 4 + 0] = __reduce_add_sync(0xffffffff, v);
	out[t * 4 + 1] = (int)__reduce_max_sync(0xffffffff, (unsigned)v);
	out[t * 4 + 2] = __reduce_min_sync(0xffffffff, v);
#endif
	__pipeline_memcpy_async(&stage[t], &in[blockIdx.x * blockDim.x + t],
				sizeof(int));
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[t * 4 + 3] = stage[(t + 1) % blockDim.x];
}

#include <cuda_awbarrier_primitives.h>

// Split arrive/wait barrier over asynchronous copies (mbarrier).
extern "C" __global__ void mbarrier_ops(const int *in, int *out)
{
	__shared__ __mbarrier_t bar;
	__shared__ int stage[128];
	int t = threadIdx.x;
	if (t == 0)
		__mbarrier_init(&bar, blockDim.x);
	__syncthreads();
	__pipeline_memcpy_async(&stage[t], &in[t], sizeof(int));
	__pipeline_arrive_on(&bar);
	__mbarrier_token_t token = __mbarrier_arrive(&bar);
	while (!__mbarrier_test_wait(&bar, token))
		;
	out[t] = stage[(t + 5) % blockDim.x] + 1;
}
