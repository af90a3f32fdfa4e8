// SPDX-License-Identifier: MIT
//
// vmmVectorAdd: C = A + B in memory managed with the driver's virtual
// memory API. One address range is reserved for the three vectors; each
// vector is a physical allocation mapped into it. A and B live on device
// 0 and C on the last device; every device is given access to all three,
// a kernel on each device computes its half of C, and C is checked.
// Then A is remapped onto a new allocation in place, shared through a
// POSIX file descriptor (imported back), and the sum is done again.

#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/check.h"

#define CHECK_CU(call)                                                       \
  do {                                                                       \
    CUresult res_ = (call);                                                  \
    if (res_ != CUDA_SUCCESS) {                                              \
      const char *name_ = "?";                                               \
      cuGetErrorName(res_, &name_);                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,     \
                   #call, name_);                                            \
      std::exit(EXIT_FAILURE);                                               \
    }                                                                        \
  } while (0)

constexpr int N = 20000;	// not a multiple of the block size

__global__ void add_range(const float *a, const float *b, float *c, int first, int last) {
  int i = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < last) c[i] = a[i] + b[i];
}

static CUmemGenericAllocationHandle create(int device, size_t size, bool shareable) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  if (shareable) prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle h;
  CHECK_CU(cuMemCreate(&h, size, &prop, 0));
  return h;
}

// Gives every device read-write access to [ptr, ptr + size).
static void grant_all(CUdeviceptr ptr, size_t size, int devices) {
  std::vector<CUmemAccessDesc> access(devices);
  for (int d = 0; d < devices; d++) {
    access[d].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access[d].location.id = d;
    access[d].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  }
  CHECK_CU(cuMemSetAccess(ptr, size, access.data(), devices));
}

// Each device computes its share of C.
static void sum(const float *a, const float *b, float *c, int devices) {
  int per = (N + devices - 1) / devices;
  for (int d = 0; d < devices; d++) {
    int first = d * per, last = first + per < N ? first + per : N;
    CHECK(cudaSetDevice(d));
    add_range<<<(last - first + 255) / 256, 256>>>(a, b, c, first, last);
    CHECK(cudaGetLastError());
  }
  for (int d = 0; d < devices; d++) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
  }
}

static int check(const char *what, const float *c, const std::vector<float> &a,
                 const std::vector<float> &b) {
  std::vector<float> got(N);
  int wrong = 0;
  CHECK(cudaMemcpy(got.data(), c, N * sizeof(float), cudaMemcpyDefault));
  for (int i = 0; i < N; i++)
    if (got[i] != a[i] + b[i] && wrong++ < 3)
      std::fprintf(stderr, "%s: c[%d] = %f, expected %f\n", what, i, got[i], a[i] + b[i]);
  std::printf("  %-32s %s\n", what, wrong ? "wrong" : "ok");
  return wrong;
}

int main() {
  int devices = 0, vmm = 0;
  CHECK(cudaGetDeviceCount(&devices));
  CHECK(cudaSetDevice(0));
  CHECK_CU(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
  if (!vmm) {
    std::printf("[vmmVectorAdd] no virtual memory management: waived\n");
    return 2;
  }
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  size_t gran = 0;
  CHECK_CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  size_t bytes = N * sizeof(float);
  size_t size = (bytes + gran - 1) / gran * gran;
  std::printf("[vmmVectorAdd] %d device(s), granularity %zu KiB, %zu bytes a vector\n",
              devices, gran / 1024, size);

  // One reservation: A, B, C, and a granule left unmapped between B and C.
  CUdeviceptr base;
  CHECK_CU(cuMemAddressReserve(&base, 4 * size, 0, 0, 0));
  CUdeviceptr da = base, db = base + size, dc = base + 3 * size;
  CUmemGenericAllocationHandle ha = create(0, size, false), hb = create(0, size, false);
  CUmemGenericAllocationHandle hc = create(devices - 1, size, false);
  CHECK_CU(cuMemMap(da, size, 0, ha, 0));
  CHECK_CU(cuMemMap(db, size, 0, hb, 0));
  CHECK_CU(cuMemMap(dc, size, 0, hc, 0));
  // Mappings keep their memory: the handles may go now.
  CHECK_CU(cuMemRelease(ha));
  CHECK_CU(cuMemRelease(hb));
  CHECK_CU(cuMemRelease(hc));
  grant_all(da, 2 * size, devices);
  grant_all(dc, size, devices);

  std::vector<float> a(N), b(N);
  for (int i = 0; i < N; i++) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)(i % 777) * 0.25f;
  }
  CHECK(cudaMemcpy((void *)da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy((void *)db, b.data(), bytes, cudaMemcpyHostToDevice));
  sum((float *)da, (float *)db, (float *)dc, devices);
  int wrong = check("A + B, every device a share", (float *)dc, a, b);

  // A moves to new memory at the same address, exported as a file
  // descriptor and imported back, as another process would.
  CHECK_CU(cuMemUnmap(da, size));
  CUmemGenericAllocationHandle fresh = create(0, size, true), imported;
  int fd = -1;
  CHECK_CU(cuMemExportToShareableHandle(&fd, fresh, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK_CU(cuMemImportFromShareableHandle(&imported, (void *)(intptr_t)fd,
                                          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  CHECK_CU(cuMemMap(da, size, 0, imported, 0));
  CHECK_CU(cuMemRelease(imported));
  CHECK_CU(cuMemRelease(fresh));
  grant_all(da, size, devices);
  for (int i = 0; i < N; i++) a[i] = (float)(N - i);
  CHECK(cudaMemcpy((void *)da, a.data(), bytes, cudaMemcpyHostToDevice));
  sum((float *)da, (float *)db, (float *)dc, devices);
  wrong += check("new A + B", (float *)dc, a, b);

  CUdeviceptr range_base = 0;
  size_t range_size = 0;
  CHECK_CU(cuMemGetAddressRange(&range_base, &range_size, dc + 100));
  if (range_base != dc || range_size != size) {
    std::fprintf(stderr, "address range of C is not its mapping\n");
    wrong++;
  }
  CHECK(cudaSetDevice(0));
  CHECK_CU(cuMemUnmap(da, 2 * size));
  CHECK_CU(cuMemUnmap(dc, size));
  CHECK_CU(cuMemAddressFree(base, 4 * size));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
