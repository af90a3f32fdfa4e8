// SPDX-License-Identifier: MIT
//
// streamsAndEvents: a pipeline over several streams. Each stream fills its
// slice of pinned host memory into device memory asynchronously, runs a
// kernel, copies back, and reports through a host callback; a second pass
// depends on another stream's work through an event. Checks every
// element, event ordering and timing, and the callbacks' order.

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int kStreams = 4;
constexpr int kSlice = 4096;

__global__ void scale_add(int *data, int n, int factor, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + offset;
}

static std::atomic<int> callbacks_seen{0};
static int callback_order[kStreams];

static void CUDART_CB on_slice_done(void *arg) {
  int stream = (int)(intptr_t)arg;
  callback_order[stream] = callbacks_seen.fetch_add(1) + 1;
}

int main() {
  const int n = kStreams * kSlice;
  int *host = nullptr, *dev = nullptr, *dev2 = nullptr;
  CHECK(cudaMallocHost(&host, n * sizeof(int)));
  CHECK(cudaMalloc(&dev, n * sizeof(int)));
  CHECK(cudaMalloc(&dev2, n * sizeof(int)));
  for (int i = 0; i < n; i++) host[i] = i;

  cudaStream_t streams[kStreams];
  cudaEvent_t start, stop, first_done;
  for (auto &s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));

  CHECK(cudaEventRecord(start, streams[0]));
  for (int k = 0; k < kStreams; k++) {
    int *h = host + k * kSlice, *d = dev + k * kSlice;
    CHECK(cudaMemcpyAsync(d, h, kSlice * sizeof(int), cudaMemcpyHostToDevice, streams[k]));
    scale_add<<<kSlice / 256, 256, 0, streams[k]>>>(d, kSlice, 3, k);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, d, kSlice * sizeof(int), cudaMemcpyDeviceToHost, streams[k]));
    CHECK(cudaLaunchHostFunc(streams[k], on_slice_done, (void *)(intptr_t)k));
  }
  // Stream 1 copies stream 0's finished slice once stream 0 says so.
  CHECK(cudaEventRecord(first_done, streams[0]));
  CHECK(cudaStreamWaitEvent(streams[1], first_done, 0));
  CHECK(cudaMemsetAsync(dev2, 0, n * sizeof(int), streams[1]));
  CHECK(cudaMemcpyAsync(dev2, dev, kSlice * sizeof(int), cudaMemcpyDeviceToDevice, streams[1]));
  CHECK(cudaEventRecord(stop, streams[1]));
  CHECK(cudaEventSynchronize(stop));
  for (auto &s : streams) CHECK(cudaStreamSynchronize(s));

  int wrong = 0;
  for (int i = 0; i < n; i++) {
    int k = i / kSlice;
    if (host[i] != i * 3 + k && wrong++ < 5)
      std::fprintf(stderr, "host[%d] = %d, expected %d\n", i, host[i], i * 3 + k);
  }
  static int copied[kStreams * kSlice];
  CHECK(cudaMemcpy(copied, dev2, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int want = i < kSlice ? i * 3 : 0;
    if (copied[i] != want && wrong++ < 10)
      std::fprintf(stderr, "dev2[%d] = %d, expected %d\n", i, copied[i], want);
  }
  for (int k = 0; k < kStreams; k++)
    if (callback_order[k] == 0) {
      std::fprintf(stderr, "callback of stream %d never ran\n", k);
      wrong++;
    }

  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (!(ms >= 0)) {
    std::fprintf(stderr, "elapsed time %f\n", ms);
    wrong++;
  }
  if (cudaEventElapsedTime(&ms, start, first_done) != cudaErrorInvalidResourceHandle) {
    std::fprintf(stderr, "timing an event created without timing did not fail\n");
    wrong++;
  }
  cudaGetLastError();
  std::printf("[streamsAndEvents] %d streams, %d callbacks, %.3f ms\n", kStreams,
              callbacks_seen.load(), ms);

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(first_done));
  for (auto &s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(dev));
  CHECK(cudaFree(dev2));
  CHECK(cudaFreeHost(host));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
