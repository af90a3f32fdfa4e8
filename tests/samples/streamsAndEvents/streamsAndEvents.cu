// SPDX-License-Identifier: MIT
//
// streamsAndEvents: a pipeline over several streams. Each stream fills its
// slice of pinned host memory into device memory asynchronously, runs a
// kernel, copies back, and reports through a host callback; a second pass
// depends on another stream's work through an event. Checks every
// element, event ordering and timing, and the callbacks' order; then that
// a host function runs after the events its stream waits for, and that a
// stream may go on after the event it waits for is destroyed.

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

// Busy for a while, then writes @value: a host function ordered after it
// must see the value.
__global__ void slow_write(volatile int *flag, int value, int spins) {
  int x = threadIdx.x;
  for (int i = 0; i < spins; i++) x = x * 1103515245 + 12345;
  __syncthreads();
  if (threadIdx.x == 0) *flag = value + (x == 0x7fffffff);
}

struct Seen {
  volatile int *flag;
  int value;
};

static void CUDART_CB read_flag(void *arg) {
  Seen *seen = static_cast<Seen *>(arg);
  seen->value = *seen->flag;
}

static int host_functions_after_waits() {
  int wrong = 0;
  int *flag;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  cudaStream_t worker, waiter, fresh;
  CHECK(cudaStreamCreateWithFlags(&worker, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&waiter, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&fresh, cudaStreamNonBlocking));

  // A host function as a new stream's first work.
  Seen first = {flag, -1};
  CHECK(cudaLaunchHostFunc(fresh, read_flag, &first));
  CHECK(cudaStreamSynchronize(fresh));
  if (first.value != 0) wrong++;

  // After a wait for another stream's event, and nothing else.
  cudaEvent_t written;
  CHECK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
  slow_write<<<1, 64, 0, worker>>>(flag, 42, 20000);
  CHECK(cudaEventRecord(written, worker));
  CHECK(cudaStreamWaitEvent(waiter, written, 0));
  Seen after = {flag, -1};
  CHECK(cudaLaunchHostFunc(waiter, read_flag, &after));
  CHECK(cudaStreamSynchronize(waiter));
  if (after.value != 42) {
    std::fprintf(stderr, "host function after a wait saw %d, not 42\n",
                 after.value);
    wrong++;
  }

  // The event goes before the waiting stream submits again.
  slow_write<<<1, 64, 0, worker>>>(flag, 43, 20000);
  CHECK(cudaEventRecord(written, worker));
  CHECK(cudaStreamWaitEvent(waiter, written, 0));
  CHECK(cudaEventDestroy(written));
  Seen later = {flag, -1};
  CHECK(cudaLaunchHostFunc(waiter, read_flag, &later));
  CHECK(cudaStreamSynchronize(waiter));
  if (later.value != 43) {
    std::fprintf(stderr, "after the event's destruction: saw %d, not 43\n",
                 later.value);
    wrong++;
  }
  for (cudaStream_t st : {worker, waiter, fresh}) CHECK(cudaStreamDestroy(st));
  CHECK(cudaFreeHost(flag));
  std::printf("  host functions after waits: %s\n", wrong ? "FAILED" : "ok");
  return wrong;
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
  wrong += host_functions_after_waits();
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
