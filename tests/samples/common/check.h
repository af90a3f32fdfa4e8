// SPDX-License-Identifier: MIT
//
// What every sample does with a runtime call's result: stop at the first
// failure, saying which call failed where, and why. Samples include it
// as "../common/check.h" so that nvcc needs no include path, here or on a
// machine with an NVIDIA GPU (tests/api/record.sh).
#ifndef VCUDA_SAMPLES_CHECK_H
#define VCUDA_SAMPLES_CHECK_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, \
                   #call, cudaGetErrorString(err_), cudaGetErrorName(err_)); \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

#endif
