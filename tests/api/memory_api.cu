// SPDX-License-Identifier: MIT
//
// memory_api: managed, registered and pitched memory and pointer
// attributes, with good and bad input. Expected lines recorded on an
// NVIDIA H100 (memory_api.expected). Pointers are printed only as "is
// the same pointer" booleans.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda.h>
#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))

static void describe(const char *what, const void *p) {
  cudaPointerAttributes a;
  cudaError_t err = cudaPointerGetAttributes(&a, p);
  std::printf("%s: err %d, type %d, device %d, devicePointer same %d, hostPointer same %d\n",
              what, (int)err, (int)a.type, err ? -99 : a.device, a.devicePointer == p,
              a.hostPointer == p);
  cudaGetLastError();
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  void *dev = nullptr, *pinned = nullptr, *managed = nullptr, *bad = nullptr;
  static char stack_like[64];
  char *pageable = (char *)std::malloc(3 * 4096);
  char *aligned = (char *)(((uintptr_t)pageable + 4095) & ~(uintptr_t)4095);

  SHOW("cudaMalloc", cudaMalloc(&dev, 256));
  SHOW("cudaMallocHost", cudaMallocHost(&pinned, 256));
  SHOW("cudaMallocManaged(size 0)", cudaMallocManaged(&bad, 0));
  cudaGetLastError();
  SHOW("cudaMallocManaged(flags 0)", cudaMallocManaged(&bad, 16, 0));
  cudaGetLastError();
  SHOW("cudaMallocManaged", cudaMallocManaged(&managed, 4096));
  SHOW("cudaHostRegister", cudaHostRegister(aligned, 4096, cudaHostRegisterDefault));
  SHOW("cudaHostRegister(again)", cudaHostRegister(aligned, 4096, cudaHostRegisterDefault));
  cudaGetLastError();
  SHOW("cudaHostUnregister(never registered)", cudaHostUnregister(stack_like));
  cudaGetLastError();

  describe("device", dev);
  describe("device + 16", (char *)dev + 16);
  describe("pinned", pinned);
  describe("managed", managed);
  describe("registered", aligned);
  describe("pageable", stack_like);
  describe("NULL", nullptr);

  unsigned int type = 0;
  int is_managed = -1;
  SHOW("cuPointerGetAttribute(type, device)",
       cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)dev));
  std::printf("memory type = %u\n", type);
  SHOW("cuPointerGetAttribute(type, managed)",
       cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)managed));
  std::printf("memory type = %u\n", type);
  SHOW("cuPointerGetAttribute(is managed)",
       cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)managed));
  std::printf("is managed = %d\n", is_managed);
  SHOW("cuPointerGetAttribute(type, pageable)",
       cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)stack_like));

  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  SHOW("cudaMemPrefetchAsync(managed)", cudaMemPrefetchAsync(managed, 4096, dev0, 0, 0));
  SHOW("cudaMemPrefetchAsync(device memory)", cudaMemPrefetchAsync(dev, 256, dev0, 0, 0));
  cudaGetLastError();
  SHOW("cudaMemAdvise(managed, read mostly)",
       cudaMemAdvise(managed, 4096, cudaMemAdviseSetReadMostly, dev0));
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());

  void *pitched = nullptr;
  size_t pitch = 0;
  SHOW("cudaMallocPitch(100 x 10)", cudaMallocPitch(&pitched, &pitch, 100, 10));
  std::printf("pitch = %zu\n", pitch);
  static char host2d[100 * 10];
  SHOW("cudaMemcpy2D(spitch < width)",
       cudaMemcpy2D(pitched, pitch, host2d, 50, 100, 10, cudaMemcpyHostToDevice));
  cudaGetLastError();
  SHOW("cudaMemcpy2D", cudaMemcpy2D(pitched, pitch, host2d, 100, 100, 10, cudaMemcpyHostToDevice));
  SHOW("cudaMemset2D", cudaMemset2D(pitched, pitch, 1, 100, 10));
  SHOW("cudaMemset2D(width > pitch)", cudaMemset2D(pitched, pitch, 1, pitch + 1, 10));
  cudaGetLastError();

  SHOW("cudaHostUnregister", cudaHostUnregister(aligned));
  SHOW("cudaFree(managed)", cudaFree(managed));
  SHOW("cudaFree(pitched)", cudaFree(pitched));
  SHOW("cudaFreeHost", cudaFreeHost(pinned));
  SHOW("cudaFree", cudaFree(dev));
  std::free(pageable);
  return 0;
}
