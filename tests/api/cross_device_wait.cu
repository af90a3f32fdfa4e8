// SPDX-License-Identifier: MIT
//
// cross_device_wait: a stream of device 1 waits for an event recorded on
// device 0, as CUDA allows ("the event may be from a different device
// than the stream", cudaStreamWaitEvent), and the wait orders the work:
// device 1 copies from device 0 (a peer copy on its stream) what device
// 0 wrote before the event. Its own check (needs two devices; the H100
// machine has one): exits 0 on success, 77 to skip, 1 on failure.

#include <cstdio>

#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      std::printf("FAIL: %s = %d (%s)\n", #call, (int)e_, cudaGetErrorName(e_)); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

constexpr int kN = 256;

// Slow on purpose, so that an unordered reader would see the old values.
__global__ void slow_fill(int *p, int v) {
  for (int k = 0; k < 2000; k++)
    if (k == 1999) p[threadIdx.x] = v + (int)threadIdx.x;
}

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    std::printf("SKIP: %d device(s)\n", n);
    return 77;
  }
  int *on0, *on1;
  cudaStream_t s0, s1;
  cudaEvent_t done0, done0_timed;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc(&on0, kN * sizeof(int)));
  CHECK(cudaMemset(on0, 0xff, kN * sizeof(int)));
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&done0, cudaEventDisableTiming));
  CHECK(cudaEventCreate(&done0_timed));
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&on1, kN * sizeof(int)));
  for (int round = 0; round < 3; round++) {
    CHECK(cudaSetDevice(0));
    slow_fill<<<1, kN, 0, s0>>>(on0, round * 1000);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done0, s0));
    CHECK(cudaEventRecord(done0_timed, s0));
    CHECK(cudaSetDevice(1));
    // Current device 1, stream of device 1, event of device 0.
    CHECK(cudaStreamWaitEvent(s1, round == 1 ? done0_timed : done0, 0));
    CHECK(cudaMemcpyPeerAsync(on1, 1, on0, 0, kN * sizeof(int), s1));
    static int back[kN];
    CHECK(cudaMemcpyAsync(back, on1, sizeof(back), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaStreamSynchronize(s1));
    for (int i = 0; i < kN; i++)
      if (back[i] != round * 1000 + i) {
        std::printf("FAIL: round %d: element %d is %d, not %d\n", round, i, back[i],
                    round * 1000 + i);
        return 1;
      }
  }
  // With device 0 current, the same wait on device 1's stream.
  CHECK(cudaSetDevice(0));
  CHECK(cudaEventRecord(done0, s0));
  CHECK(cudaStreamWaitEvent(s1, done0, 0));
  CHECK(cudaStreamSynchronize(s1));
  // The legacy stream of device 1 waiting for device 0's event.
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamWaitEvent(0, done0, 0));
  CHECK(cudaDeviceSynchronize());
  std::printf("ok: cross-device waits order the work\n");
  return 0;
}
