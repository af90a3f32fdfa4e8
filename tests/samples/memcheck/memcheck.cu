// SPDX-License-Identifier: MIT
//
// memcheck: VCUDA_MEMCHECK=1 checks kernels' accesses against the exact
// bytes of each allocation, as compute-sanitizer's memcheck does; by
// default a kernel may touch the whole pages behind an allocation, as on
// a GPU. A fault is sticky for its context, so each case runs in a
// process of its own (this program, re-run with a case name).

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include <cuda_runtime.h>

#include "../common/check.h"

__global__ void store_at(float *p, long index) { p[index] = 1.0f; }

// One case: a 4000-byte allocation and a store at @index (floats).
static int run_case(long index) {
  float *a, *neighbour;
  CHECK(cudaMalloc(&a, 4000));
  CHECK(cudaMalloc(&neighbour, 4000));
  store_at<<<1, 1>>>(a, index);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorName(err));
  return 0;
}

// The error name a case prints, run with VCUDA_MEMCHECK=@mode.
static bool outcome(const char *self, const char *mode, long index,
                    char *out, size_t len) {
  char cmd[512];
  std::snprintf(cmd, sizeof(cmd), "VCUDA_MEMCHECK=%s %s case %ld", mode, self,
                index);
  FILE *p = popen(cmd, "r");
  if (!p) return false;
  out[0] = 0;
  bool got = std::fgets(out, (int)len, p) != nullptr;
  pclose(p);
  out[strcspn(out, "\n")] = 0;
  return got;
}

int main(int argc, char **argv) {
  if (argc == 3 && !std::strcmp(argv[1], "case"))
    return run_case(std::atol(argv[2]));
  struct {
    const char *what, *mode;
    long index;
    const char *expect;
  } cases[] = {
      {"last element, memcheck", "1", 999, "cudaSuccess"},
      {"one past the end, default", "0", 1000, "cudaSuccess"},
      {"one past the end, memcheck", "1", 1000, "cudaErrorIllegalAddress"},
      {"end of the page, memcheck", "1", 1023, "cudaErrorIllegalAddress"},
      {"before the start, memcheck", "1", -1, "cudaErrorIllegalAddress"},
  };
  char self[256];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return EXIT_FAILURE;
  self[n] = 0;
  int failed = 0;
  for (const auto &c : cases) {
    char got[128];
    if (!outcome(self, c.mode, c.index, got, sizeof(got)))
      std::strcpy(got, "(no output)");
    bool ok = !std::strcmp(got, c.expect);
    std::printf("[memcheck] %-28s %-26s %s\n", c.what, got,
                ok ? "ok" : "WRONG");
    failed += !ok;
  }
  std::printf("Result = %s\n", failed ? "FAIL" : "PASS");
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
