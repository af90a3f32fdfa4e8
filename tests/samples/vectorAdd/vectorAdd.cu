// SPDX-License-Identifier: MIT
//
// vectorAdd: C = A + B on the device, checked against the host.
// The first program vcuda runs end to end: registration, allocation,
// copies both ways, one <<<>>> launch and synchronization.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

__global__ void add_vectors(const float *a, const float *b, float *c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  // Not a multiple of the block size, so the bounds check matters.
  const int n = argc > 1 ? std::atoi(argv[1]) : 50000;
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n);

  std::srand(2024);
  for (int i = 0; i < n; i++) {
    a[i] = std::rand() / (float)RAND_MAX;
    b[i] = std::rand() / (float)RAND_MAX;
  }

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  std::printf("[vectorAdd] %d elements, %d blocks of %d threads\n", n, blocks,
              threads);
  add_vectors<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < n; i++) {
    // Single additions are exact in IEEE arithmetic: compare bit for bit.
    if (c[i] != a[i] + b[i] && wrong++ < 5)
      std::fprintf(stderr, "c[%d] = %a, expected %a\n", i, c[i], a[i] + b[i]);
  }

  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
