// SPDX-License-Identifier: MIT
//
// stream_api: what the runtime returns for streams, events, asynchronous
// copies and host functions, with good and bad input. One line per call,
// "what = code"; expected lines recorded on an NVIDIA H100
// (stream_api.expected).

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))

__global__ void bump(int *p, int times) {
  for (int i = 0; i < times; i++) atomicAdd(p, 1);
}

static int order[4], calls;

static void CUDART_CB host_fn(void *arg) { order[calls++] = (int)(intptr_t)arg; }

static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *arg) {
  order[calls++] = (int)(intptr_t)arg + 10 * (int)status;
}

static void events() {
  cudaEvent_t a, b, notiming;
  float ms = -1;
  SHOW("cudaEventCreate(NULL)", cudaEventCreate(nullptr));
  SHOW("cudaEventCreateWithFlags(bad flags)", cudaEventCreateWithFlags(&a, 0x100));
  SHOW("cudaEventCreate(a)", cudaEventCreate(&a));
  SHOW("cudaEventCreate(b)", cudaEventCreate(&b));
  SHOW("cudaEventCreateWithFlags(DisableTiming)",
       cudaEventCreateWithFlags(&notiming, cudaEventDisableTiming));
  SHOW("cudaEventQuery(never recorded)", cudaEventQuery(a));
  SHOW("cudaEventSynchronize(never recorded)", cudaEventSynchronize(a));
  SHOW("cudaEventElapsedTime(never recorded)", cudaEventElapsedTime(&ms, a, b));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaEventRecord(a)", cudaEventRecord(a, 0));
  SHOW("cudaEventRecord(notiming)", cudaEventRecord(notiming, 0));
  SHOW("cudaEventRecord(b)", cudaEventRecord(b, 0));
  SHOW("cudaEventSynchronize(b)", cudaEventSynchronize(b));
  SHOW("cudaEventQuery(b)", cudaEventQuery(b));
  SHOW("cudaEventElapsedTime(a, b)", cudaEventElapsedTime(&ms, a, b));
  std::printf("elapsed >= 0 = %d\n", ms >= 0);
  SHOW("cudaEventElapsedTime(NULL ms)", cudaEventElapsedTime(nullptr, a, b));
  SHOW("cudaEventElapsedTime(no timing)", cudaEventElapsedTime(&ms, a, notiming));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaStreamWaitEvent(bad flags)", cudaStreamWaitEvent(0, a, 0x10));
  SHOW("cudaStreamWaitEvent", cudaStreamWaitEvent(0, a, 0));
  SHOW("cudaEventDestroy(a)", cudaEventDestroy(a));
  SHOW("cudaEventDestroy(b)", cudaEventDestroy(b));
  SHOW("cudaEventDestroy(notiming)", cudaEventDestroy(notiming));
  cudaGetLastError();
}

static void copies() {
  int *d = nullptr, *pinned = nullptr;
  static int pageable[256], back[256];
  cudaStream_t s;
  SHOW("cudaStreamCreate", cudaStreamCreate(&s));
  SHOW("cudaMalloc", cudaMalloc(&d, sizeof(pageable)));
  SHOW("cudaMallocHost", cudaMallocHost(&pinned, sizeof(pageable)));
  for (int i = 0; i < 256; i++) pageable[i] = pinned[i] = i;
  SHOW("cudaMemcpyAsync(bad kind)",
       cudaMemcpyAsync(d, pageable, sizeof(pageable), (cudaMemcpyKind)9, s));
  SHOW("cudaMemcpyAsync(pageable H2D)",
       cudaMemcpyAsync(d, pageable, sizeof(pageable), cudaMemcpyHostToDevice, s));
  SHOW("cudaMemsetAsync", cudaMemsetAsync(d, 0x7f, 16, s));
  SHOW("cudaMemcpyAsync(D2H pinned)",
       cudaMemcpyAsync(pinned, d, sizeof(pageable), cudaMemcpyDeviceToHost, s));
  SHOW("cudaMemcpyAsync(zero bytes)", cudaMemcpyAsync(d, pageable, 0, cudaMemcpyHostToDevice, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  std::printf("pinned[0] = %d, pinned[4] = %d\n", pinned[0], pinned[4]);
  SHOW("cudaMemcpyAsync(Default D2H pageable)",
       cudaMemcpyAsync(back, d, sizeof(back), cudaMemcpyDefault, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  std::printf("back[4] = %d, back[255] = %d\n", back[4], back[255]);
  SHOW("cudaMemcpyAsync(past the end)",
       cudaMemcpyAsync(d + 200, pageable, sizeof(pageable), cudaMemcpyHostToDevice, s));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaStreamQuery(idle)", cudaStreamQuery(s));
  SHOW("cudaStreamDestroy", cudaStreamDestroy(s));
  cudaFree(d);
  cudaFreeHost(pinned);
  cudaGetLastError();
}

static void host_functions() {
  cudaStream_t s;
  int *counter = nullptr, value = 0;
  cudaStreamCreate(&s);
  cudaMalloc(&counter, sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  SHOW("cudaLaunchHostFunc(NULL)", cudaLaunchHostFunc(s, nullptr, nullptr));
  SHOW("cudaStreamAddCallback(flags 1)", cudaStreamAddCallback(s, stream_cb, nullptr, 1));
  SHOW("cudaGetLastError", cudaGetLastError());
  bump<<<1, 32, 0, s>>>(counter, 10);
  SHOW("cudaLaunchHostFunc(1)", cudaLaunchHostFunc(s, host_fn, (void *)1));
  bump<<<1, 32, 0, s>>>(counter, 10);
  SHOW("cudaStreamAddCallback(2)", cudaStreamAddCallback(s, stream_cb, (void *)2, 0));
  SHOW("cudaLaunchHostFunc(3)", cudaLaunchHostFunc(s, host_fn, (void *)3));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  cudaMemcpy(&value, counter, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("calls = %d, order = %d %d %d, counter = %d\n", calls, order[0],
              order[1], order[2], value);
  cudaStreamDestroy(s);
  cudaFree(counter);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  events();
  copies();
  host_functions();
  return 0;
}
