// SPDX-License-Identifier: MIT
//
// deviceInfo: prints what the runtime reports about each device and checks
// that it is self-consistent (the driver API and the runtime agree, limits
// are sane). Passes when every device answers.

#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <cuda_runtime.h>

static int failures;

static void expect(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "  check failed: %s\n", what);
    failures++;
  }
}

static void show(int dev) {
  cudaDeviceProp p;
  cudaError_t err = cudaGetDeviceProperties(&p, dev);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "cudaGetDeviceProperties(%d): %s\n", dev,
                 cudaGetErrorString(err));
    failures++;
    return;
  }
  std::printf("Device %d: \"%s\"\n", dev, p.name);
  std::printf("  Compute capability:             %d.%d\n", p.major, p.minor);
  std::printf("  Global memory:                  %zu MiB\n",
              p.totalGlobalMem >> 20);
  std::printf("  Multiprocessors:                %d\n", p.multiProcessorCount);
  std::printf("  Warp size:                      %d\n", p.warpSize);
  std::printf("  Max threads per block:          %d\n", p.maxThreadsPerBlock);
  std::printf("  Max block dimensions:           %d x %d x %d\n",
              p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("  Max grid dimensions:            %d x %d x %d\n",
              p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("  Shared memory per block:        %zu bytes\n",
              p.sharedMemPerBlock);
  std::printf("  Constant memory:                %zu bytes\n", p.totalConstMem);
  std::printf("  Copy engines:                   %d\n", p.asyncEngineCount);
  std::printf("  Unified addressing:             %s\n",
              p.unifiedAddressing ? "yes" : "no");
  std::printf("  PCI domain/bus/device:          %d / %d / %d\n", p.pciDomainID,
              p.pciBusID, p.pciDeviceID);

  int value = 0;
  cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, dev);
  expect(value == p.multiProcessorCount, "SM count attribute matches");
  expect(p.warpSize == 32, "warp size is 32");
  expect(p.maxThreadsPerBlock >= 1024, "1024 threads per block");
  expect(p.totalGlobalMem > 0, "device memory");
  expect(p.major >= 7, "compute capability 7.0 or newer");

  size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(dev) == cudaSuccess &&
      cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    std::printf("  Free / total memory:            %zu / %zu MiB\n",
                free_bytes >> 20, total_bytes >> 20);
    expect(total_bytes == p.totalGlobalMem, "cudaMemGetInfo total");
    expect(free_bytes <= total_bytes, "free <= total");
  } else {
    expect(false, "cudaMemGetInfo");
  }
}

int main() {
  int count = 0, driver = 0, runtime = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "cudaGetDeviceCount: %s\n", cudaGetErrorString(err));
    return EXIT_FAILURE;
  }
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("CUDA driver version %d.%d, runtime version %d.%d, %d device(s)\n",
              driver / 1000, driver % 1000 / 10, runtime / 1000,
              runtime % 1000 / 10, count);
  for (int dev = 0; dev < count; dev++)
    show(dev);
  expect(count > 0, "at least one device");
  std::printf("Result = %s\n", failures ? "FAIL" : "PASS");
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
