// SPDX-License-Identifier: MIT
//
// managedMemory: one allocation and one __managed__ variable used from
// host and device in turn, with no explicit copies; pointer attributes
// say what each pointer is.

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../common/check.h"

__managed__ int total;

__global__ void square_and_sum(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * v[i];
    atomicAdd(&total, v[i]);
  }
}

int main() {
  const int n = 1000;
  int *v = nullptr, wrong = 0;
  CHECK(cudaMallocManaged(&v, n * sizeof(int)));
  for (int i = 0; i < n; i++) v[i] = i;  // written by the CPU
  total = 0;
  square_and_sum<<<(n + 127) / 128, 128>>>(v, n);
  CHECK(cudaDeviceSynchronize());
  long long expect = 0;
  for (int i = 0; i < n; i++) {  // read by the CPU
    expect += (long long)i * i;
    if (v[i] != i * i && wrong++ < 5) std::fprintf(stderr, "v[%d] = %d\n", i, v[i]);
  }
  if (total != (int)expect) {
    std::fprintf(stderr, "total = %d, expected %lld\n", total, expect);
    wrong++;
  }

  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, v));
  if (attr.type != cudaMemoryTypeManaged || attr.devicePointer != v ||
      attr.hostPointer != v) {
    std::fprintf(stderr, "managed pointer attributes: type %d\n", (int)attr.type);
    wrong++;
  }
  int *d = nullptr;
  CHECK(cudaMalloc(&d, 16));
  CHECK(cudaPointerGetAttributes(&attr, d));
  if (attr.type != cudaMemoryTypeDevice || attr.devicePointer != d) {
    std::fprintf(stderr, "device pointer attributes: type %d\n", (int)attr.type);
    wrong++;
  }
  cudaMemLocation here = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPrefetchAsync(v, n * sizeof(int), here, 0, 0));
  CHECK(cudaFree(d));
  CHECK(cudaFree(v));
  std::printf("[managedMemory] sum of squares below %d = %d\n", n, total);
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
