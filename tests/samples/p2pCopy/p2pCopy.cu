// SPDX-License-Identifier: MIT
//
// p2pCopy: two devices share memory. With peer access enabled both ways,
// a kernel on device 1 reads device 0's buffer and writes the result into
// device 0's memory, device 0 reads it back, and the buffers also travel
// with cudaMemcpyPeer, cudaMemcpyPeerAsync (timed with events) and a
// plain cudaMemcpy across devices. Needs two devices: with fewer, it says
// so and exits with the waived status, 2.

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int kWaived = 2;
constexpr int N = 1 << 14;

// out[i] = 2 * in[i] + 1, whichever device's memory in and out are.
__global__ void twice_plus_one(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i] + 1;
}

static int check(const char *what, const std::vector<int> &got, int mul, int add) {
  int wrong = 0;
  for (int i = 0; i < N; i++)
    if (got[i] != i * mul + add && wrong++ < 3)
      std::fprintf(stderr, "%s: [%d] = %d, expected %d\n", what, i, got[i], i * mul + add);
  if (!wrong) std::printf("  %-34s ok\n", what);
  return wrong;
}

int main() {
  int count = 0, can01 = 0, can10 = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count < 2) {
    std::printf("[p2pCopy] needs two devices, found %d: waived\n", count);
    return kWaived;
  }
  CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
  CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
  std::printf("[p2pCopy] %d devices; peer access 0->1 %d, 1->0 %d\n", count, can01,
              can10);
  if (!can01 || !can10) {
    std::printf("[p2pCopy] devices 0 and 1 cannot reach each other: waived\n");
    return kWaived;
  }

  const size_t bytes = N * sizeof(int);
  std::vector<int> host(N), back(N);
  for (int i = 0; i < N; i++) host[i] = i;
  int *d0, *d0_out, *d1;
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaMalloc(&d0, bytes));
  CHECK(cudaMalloc(&d0_out, bytes));
  CHECK(cudaMemcpy(d0, host.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaSetDevice(1));
  CHECK(cudaDeviceEnablePeerAccess(0, 0));
  CHECK(cudaMalloc(&d1, bytes));

  int wrong = 0;
  // Device 1's kernel reads device 0's memory and writes device 0's memory.
  twice_plus_one<<<N / 256, 256>>>(d0, d0_out, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(0));
  CHECK(cudaMemcpy(back.data(), d0_out, bytes, cudaMemcpyDeviceToHost));
  wrong += check("kernel on 1, memory of 0", back, 2, 1);

  // Device 0's kernel writes into device 1's memory.
  twice_plus_one<<<N / 256, 256>>>(d0_out, d1, N);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(back.data(), d1, bytes, cudaMemcpyDefault));
  wrong += check("kernel on 0, memory of 1", back, 4, 3);

  // Copies: synchronous peer copy, then an asynchronous one timed on 0.
  CHECK(cudaMemcpyPeer(d1, 1, d0, 0, bytes));
  CHECK(cudaMemcpy(back.data(), d1, bytes, cudaMemcpyDefault));
  wrong += check("cudaMemcpyPeer 0 -> 1", back, 1, 0);
  cudaStream_t s;
  cudaEvent_t start, stop;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, s));
  CHECK(cudaMemcpyPeerAsync(d0, 0, d0_out, 0, bytes, s));
  CHECK(cudaMemcpyPeerAsync(d1, 1, d0, 0, bytes, s));
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(back.data(), d1, bytes, cudaMemcpyDefault));
  wrong += check("cudaMemcpyPeerAsync 0 -> 0 -> 1", back, 2, 1);

  // Unified addressing: a plain copy between the devices' buffers.
  CHECK(cudaMemcpy(d0, d1, bytes, cudaMemcpyDefault));
  CHECK(cudaMemcpy(back.data(), d0, bytes, cudaMemcpyDeviceToHost));
  wrong += check("cudaMemcpy(Default) 1 -> 0", back, 2, 1);

  // Memory allocated after access was enabled is reachable too.
  int *late;
  CHECK(cudaMalloc(&late, bytes));
  CHECK(cudaSetDevice(1));
  twice_plus_one<<<N / 256, 256>>>(d0, late, N);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(back.data(), late, bytes, cudaMemcpyDefault));
  wrong += check("kernel on 1, later memory of 0", back, 4, 3);

  std::printf("[p2pCopy] %zu bytes each way, async copies took %.3f ms\n", bytes, ms);
  CHECK(cudaDeviceDisablePeerAccess(0));
  CHECK(cudaFree(d1));
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceDisablePeerAccess(1));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(late));
  CHECK(cudaFree(d0));
  CHECK(cudaFree(d0_out));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
