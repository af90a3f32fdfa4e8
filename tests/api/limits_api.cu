// SPDX-License-Identifier: MIT
//
// limits_api: device limits and the occupancy calculator's handling of
// good and bad input. Values that depend on the register allocation of
// the real compiler (blocks per SM for a given kernel) are not printed,
// only codes and limits. Expected lines recorded on an NVIDIA H100
// (limits_api.expected).

#include <cstdio>

#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))

__global__ void small_kernel(float *p) { p[threadIdx.x] *= 2.0f; }

static void limits() {
  const char *names[] = {"StackSize", "PrintfFifoSize", "MallocHeapSize",
                         "DevRuntimeSyncDepth", "DevRuntimePendingLaunchCount",
                         "MaxL2FetchGranularity", "PersistingL2CacheSize"};
  for (int l = 0; l < 7; l++) {
    size_t v = 0;
    cudaError_t err = cudaDeviceGetLimit(&v, (cudaLimit)l);
    // The persisting L2 size is the device's (its L2 cache), not a default.
    if (l == cudaLimitPersistingL2CacheSize)
      std::printf("cudaDeviceGetLimit(%s) = %d\n", names[l], (int)err);
    else
      std::printf("cudaDeviceGetLimit(%s) = %d, value %zu\n", names[l], (int)err, v);
  }
  size_t v = 0;
  SHOW("cudaDeviceGetLimit(99)", cudaDeviceGetLimit(&v, (cudaLimit)99));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaDeviceSetLimit(99)", cudaDeviceSetLimit((cudaLimit)99, 1));
  SHOW("cudaDeviceSetLimit(PrintfFifoSize, 4 MiB)",
       cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
  SHOW("cudaDeviceGetLimit(PrintfFifoSize)", cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  std::printf("printf fifo = %zu\n", v);
  // Small and odd sizes: what the driver makes of them.
  const size_t fifo_sizes[] = {8 << 10, 600000, 600100};
  for (size_t size : fifo_sizes) {
    SHOW("cudaDeviceSetLimit(PrintfFifoSize, small)",
         cudaDeviceSetLimit(cudaLimitPrintfFifoSize, size));
    cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
    std::printf("asked %zu, printf fifo = %zu\n", size, v);
  }
  SHOW("cudaDeviceSetLimit(MallocHeapSize, 32 MiB)",
       cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
  SHOW("cudaDeviceGetLimit(MallocHeapSize)", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  std::printf("malloc heap = %zu\n", v);
  cudaGetLastError();
}

static void occupancy() {
  int blocks = -1;
  SHOW("occupancy(block 0)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small_kernel, 0, 0));
  cudaGetLastError();
  blocks = -1;
  SHOW("occupancy(block 2048)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small_kernel, 2048, 0));
  std::printf("blocks = %d\n", blocks);
  cudaGetLastError();
  blocks = -1;
  SHOW("occupancy(shared 1 MiB)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small_kernel, 128, 1 << 20));
  std::printf("blocks = %d\n", blocks);
  cudaGetLastError();
  SHOW("occupancy(NULL)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, small_kernel, 128, 0));
  cudaGetLastError();
  SHOW("occupancy(not a kernel)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)occupancy, 128, 0));
  cudaGetLastError();
  blocks = -1;
  SHOW("occupancy(block 128)",
       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small_kernel, 128, 0));
  std::printf("at least one block = %d\n", blocks > 0);
  int grid = 0, block = 0;
  SHOW("cudaOccupancyMaxPotentialBlockSize",
       cudaOccupancyMaxPotentialBlockSize(&grid, &block, small_kernel, 0, 0));
  std::printf("block size multiple of 32 = %d, grid > 0 = %d\n", block % 32 == 0 && block > 0,
              grid > 0);
  cudaGetLastError();
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  limits();
  occupancy();
  return 0;
}
