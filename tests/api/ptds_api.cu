// SPDX-License-Identifier: MIT
//
// Per-thread default streams: each host thread has its own, so one
// thread's blocked stream never holds up another's, and each synchronizes
// with the legacy default stream but not with other blocking streams.
// Built twice: as is (cudaStreamPerThread named), and with
// --default-stream per-thread (stream 0 is then the per-thread stream, and
// the calls are the _ptsz/_ptds forms). A stream blocked by a host function
// waits for a flag at most GIVE_UP_MS: a stream shared where it must not be
// shows as "saw flag = 0" rather than a deadlock.
#include <atomic>
#include <chrono>
#include <thread>

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define PT ((cudaStream_t)0)
#else
#define PT cudaStreamPerThread
#endif

#define GIVE_UP_MS 30000

__global__ void bump(int *p) { atomicAdd(p, 1); }

struct gate {
  std::atomic<int> open{0};
  std::atomic<int> saw{-1};
};

// A host function that holds its stream until the gate opens (or gives up).
static void CUDART_CB hold(void *arg) {
  gate *g = (gate *)arg;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(GIVE_UP_MS);
  while (!g->open.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  g->saw = g->open.load();
}

static int *counter(void) {
  int *p;
  cudaMalloc(&p, sizeof(int));
  cudaMemset(p, 0, sizeof(int));
  cudaDeviceSynchronize();
  return p;
}

static int read_counter(int *p) {
  int v = -1;
  cudaMemcpy(&v, p, sizeof(int), cudaMemcpyDeviceToHost);
  return v;
}

// Thread A blocks its per-thread stream on a gate that thread B opens once
// its own per-thread stream's work has completed.
static void two_threads(bool driver) {
  gate g;
  std::atomic<int> a_queued{0};
  int *pa = counter(), *pb = counter();
  int a_sync = -1, b_launch = -1, b_sync = -1, b_count = -1;
  std::thread a([&] {
    cudaSetDevice(0);
    bump<<<1, 32, 0, PT>>>(pa);
    if (driver)
      cuLaunchHostFunc(CU_STREAM_PER_THREAD, hold, &g);
    else
      cudaLaunchHostFunc(PT, hold, &g);
    bump<<<1, 32, 0, PT>>>(pa);
    a_queued = 1;
    a_sync = driver ? (int)cuStreamSynchronize(CU_STREAM_PER_THREAD) : (int)cudaStreamSynchronize(PT);
  });
  std::thread b([&] {
    cudaSetDevice(0);
    while (!a_queued.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (driver) {
      CUfunction f;
      cudaGetFuncBySymbol(&f, (const void *)bump);
      void *args[] = {&pb};
      b_launch = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, CU_STREAM_PER_THREAD, args, NULL);
      b_sync = cuStreamSynchronize(CU_STREAM_PER_THREAD);
    } else {
      bump<<<1, 32, 0, PT>>>(pb);
      b_launch = cudaGetLastError();
      b_sync = cudaStreamSynchronize(PT);
    }
    int v = -1;
    cudaMemcpyAsync(&v, pb, sizeof(int), cudaMemcpyDeviceToHost, PT);
    cudaStreamSynchronize(PT);
    b_count = v;
    g.open = 1;
  });
  a.join();
  b.join();
  const char *api = driver ? "driver" : "runtime";
  std::printf("%s two threads: B launch = %d, B sync = %d, B count = %d\n", api, b_launch,
              b_sync, b_count);
  std::printf("%s two threads: A saw flag = %d, A sync = %d, A count = %d\n", api,
              g.saw.load(), a_sync, read_counter(pa));
  cudaFree(pa);
  cudaFree(pb);
}

// Work of @first blocked by a gate; then an event recorded on @second:
// NOT_READY while the gate is shut if @second waits for @first.
static void ordering(const char *what, cudaStream_t first, cudaStream_t second) {
  gate g;
  cudaEvent_t ev;
  int *p = counter();
  cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  cudaLaunchHostFunc(first, hold, &g);
  bump<<<1, 32, 0, second>>>(p);
  cudaEventRecord(ev, second);
  // Let the second stream run if it is free to, for a second: long for a
  // small kernel, short of the test VM's 5 s job time-out, which the
  // job waiting for the gate counts against.
  cudaError_t q = cudaEventQuery(ev);
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1000);
  while (q == cudaErrorNotReady && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    q = cudaEventQuery(ev);
  }
  std::printf("%s: second stream's event while first blocked = %d\n", what, (int)q);
  std::printf("%s: first stream query while blocked = %d\n", what, (int)cudaStreamQuery(first));
  g.open = 1;
  std::printf("%s: event sync = %d\n", what, (int)cudaEventSynchronize(ev));
  // In this order: the count's copy need not wait for the first stream
  // (a _ptds copy waits for the per-thread stream only).
  int first_sync = (int)cudaStreamSynchronize(first);
  int saw = g.saw.load();
  std::printf("%s: first sync = %d, saw flag = %d, count = %d\n", what, first_sync, saw,
              read_counter(p));
  cudaEventDestroy(ev);
  cudaFree(p);
}

// A synchronous copy to the host (the _ptds form in the per-thread build)
// while a blocking stream is held by a host function: on the legacy
// stream it waits for the blocking stream, on the per-thread stream it
// does not. The gate opens once the copy has returned or after
// RELEASE_MS, so "returned before release" tells which.
#define RELEASE_MS 2000

static void sync_copy_while_held(const char *what, bool driver, cudaStream_t blocking) {
  gate g;
  std::atomic<int> returned{0};
  int *p = counter();
  int v = -1;
  cudaLaunchHostFunc(blocking, hold, &g);
  std::thread opener([&] {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(RELEASE_MS);
    while (!returned.load() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    g.open = 1;
  });
  int r = driver ? (int)cuMemcpyDtoH(&v, (CUdeviceptr)p, sizeof(int))
                 : (int)cudaMemcpy(&v, p, sizeof(int), cudaMemcpyDeviceToHost);
  int before = !g.open.load();
  returned = 1;
  opener.join();
  std::printf("%s sync copy while a blocking stream is held: copy = %d, "
              "returned before release = %d, value = %d, stream sync = %d\n",
              what, r, before, v, (int)cudaStreamSynchronize(blocking));
  cudaFree(p);
}

static void many_threads(void) {
  std::atomic<int> bad{0};
  int *p = counter();
  for (int round = 0; round < 4; round++) {
    std::thread t[8];
    for (auto &th : t)
      th = std::thread([&] {
        cudaSetDevice(0);
        bump<<<1, 1, 0, PT>>>(p);
        if (cudaStreamSynchronize(PT) != cudaSuccess)
          bad++;
      });
    for (auto &th : t)
      th.join();
  }
  std::printf("many threads: failures = %d, count = %d\n", bad.load(), read_counter(p));
  cudaFree(p);
}

int main() {
  cudaFree(0);
  unsigned int flags = 7;
  int prio = 7;
  SHOW("per-thread flags", cudaStreamGetFlags(cudaStreamPerThread, &flags));
  SAY("per-thread flags", flags);
  SHOW("per-thread priority", cudaStreamGetPriority(cudaStreamPerThread, &prio));
  SAY("per-thread priority", prio);
  SHOW("per-thread query idle", cudaStreamQuery(cudaStreamPerThread));
  SHOW("destroy per-thread", cudaStreamDestroy(cudaStreamPerThread));
  cudaGetLastError();
  two_threads(false);
  two_threads(true);
  cudaStream_t blocking, nonblocking;
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);
  ordering("per-thread then legacy", PT, cudaStreamLegacy);
  ordering("legacy then per-thread", cudaStreamLegacy, PT);
  ordering("blocking then per-thread", blocking, PT);
  ordering("per-thread then blocking", PT, blocking);
  ordering("per-thread then non-blocking", PT, nonblocking);
  ordering("blocking then legacy", blocking, cudaStreamLegacy);
  many_threads();
  sync_copy_while_held("runtime", false, blocking);
  sync_copy_while_held("driver", true, blocking);
  sync_copy_while_held("runtime, legacy held:", false, cudaStreamLegacy);
  cudaStreamDestroy(blocking);
  cudaStreamDestroy(nonblocking);
  SHOW("final sync", cudaDeviceSynchronize());
  return 0;
}
