// SPDX-License-Identifier: MIT
//
// launchTimeout: a kernel that never ends, under vcuda's job time-out
// (the job_timeout_ms module parameter; the test VM loads it with 5000).
// The launch fails with cudaErrorLaunchTimeout, the kernel stops using
// the CPU once it has, cudaDeviceReset() works, and the device runs
// kernels again afterwards. A GPU without a display watchdog (an H100)
// has no such time-out: there this program would wait forever, so it
// only runs where the module says a time-out is set.

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../common/check.h"

__global__ void spin_until_set(volatile int *flag) {
  while (*flag == 0) {
  }
}

__global__ void store(int *out, int value) { *out = value; }

static long job_timeout_ms() {
  FILE *f = std::fopen("/sys/module/vcuda/parameters/job_timeout_ms", "r");
  long ms = 0;

  if (!f) return 0;
  if (std::fscanf(f, "%ld", &ms) != 1) ms = 0;
  std::fclose(f);
  return ms;
}

// CPU time this process has used, user and system, in seconds.
static double cpu_seconds() {
  struct rusage ru;

  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// CPU time this process uses over the next second, once its kernels
// have had a moment to stop.
static double cpu_seconds_over_a_second() {
  usleep(300000);
  double before = cpu_seconds();
  usleep(1000000);
  return cpu_seconds() - before;
}

// Endless kernels on two streams, so that every thread that takes
// launches is busy, and nobody waiting: they stop all the same.
static bool timeout_seen_by_nobody(long timeout) {
  int *flag;
  cudaStream_t s[2];
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));
  for (int i = 0; i < 2; i++) {
    CHECK(cudaStreamCreate(&s[i]));
    spin_until_set<<<1, 32, 0, s[i]>>>(flag);
    CHECK(cudaGetLastError());
  }
  // The jobs time out after @timeout; libcuda notices within 0.1 s.
  usleep((timeout + 2500) * 1000);

  double spent = cpu_seconds_over_a_second();
  std::printf("two streams, no wait: CPU time over a second after the "
              "time-out: %.3f s\n", spent);
  bool ok = spent < 0.25;

  cudaError_t err = cudaDeviceSynchronize();
  std::printf("then synchronize: %s\n", cudaGetErrorName(err));
  ok = ok && err == cudaErrorLaunchTimeout;
  for (int i = 0; i < 2; i++) cudaStreamDestroy(s[i]);
  err = cudaDeviceReset();
  std::printf("cudaDeviceReset: %s\n", cudaGetErrorName(err));
  return ok && err == cudaSuccess;
}

int main() {
  long timeout = job_timeout_ms();
  if (timeout <= 0 || timeout > 20000) {
    std::printf("launchTimeout: job_timeout_ms is %ld: waived\n", timeout);
    return 2;
  }

  bool ok = timeout_seen_by_nobody(timeout);

  // A new context that works.
  int *out, got = 0;
  CHECK(cudaMalloc(&out, sizeof(int)));
  store<<<1, 1>>>(out, 1234);
  CHECK(cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(out));
  std::printf("after the reset a kernel stored %d\n", got);
  ok = ok && got == 1234;

  std::printf("Result = %s\n", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
