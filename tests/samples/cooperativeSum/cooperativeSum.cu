// SPDX-License-Identifier: MIT
//
// cooperativeSum: a cooperative launch whose blocks each sum a slice into
// a partial result, wait for the whole grid (grid.sync()), then let block
// 0 add the partials. Also uses device printf and device malloc/free.

#include <cooperative_groups.h>

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#include "../common/check.h"

__global__ void grid_sum(const int *in, int n, long long *partial, long long *total) {
  cg::grid_group grid = cg::this_grid();
  __shared__ long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  long long mine = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) mine += in[i];
  atomicAdd((unsigned long long *)&block_sum, (unsigned long long)mine);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long *scratch = (long long *)malloc(gridDim.x * sizeof(long long));
    long long t = 0;
    for (unsigned b = 0; b < gridDim.x; b++) scratch[b] = partial[b];
    for (unsigned b = 0; b < gridDim.x; b++) t += scratch[b];
    free(scratch);
    *total = t;
    printf("device: %u blocks summed %lld\n", gridDim.x, t);
  }
}

int main() {
  int dev = 0, supported = 0, per_sm = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (!supported) {
    std::printf("cooperative launch not supported\nResult = FAIL\n");
    return EXIT_FAILURE;
  }
  const int threads = 64;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, 0));
  int blocks = per_sm * sms;
  if (blocks > 8) blocks = 8;

  const int n = 10000;
  int *in;
  long long *partial, *total, expect = 0;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&partial, blocks * sizeof(long long)));
  CHECK(cudaMallocManaged(&total, sizeof(long long)));
  for (int i = 0; i < n; i++) expect += in[i] = i % 97;

  void *args[] = {&in, (void *)&n, &partial, &total};
  CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, blocks, threads, args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  bool ok = *total == expect;
  std::printf("[cooperativeSum] %d blocks: %lld (expected %lld)\n", blocks, *total, expect);

  // More blocks than can be resident is refused.
  cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_sum, per_sm * sms * 4 + 1,
                                                threads, args, 0, 0);
  if (err != cudaErrorCooperativeLaunchTooLarge) {
    std::printf("oversized cooperative launch returned %s\n", cudaGetErrorName(err));
    ok = false;
  }
  cudaGetLastError();
  CHECK(cudaFree(in));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(total));
  std::printf("Result = %s\n", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
