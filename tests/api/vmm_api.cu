// SPDX-License-Identifier: MIT
//
// vmm_api: the driver's virtual memory management: granularity, address
// reservations, physical allocations, mapping, access control on one and
// two devices, handles retained from addresses, and sharing a physical
// allocation as a POSIX file descriptor with another process. Every call
// with good and bad input; expected output recorded on two NVIDIA H200s
// (vmm_api.expected). Sizes are printed only in units of the granularity.

#include <cuda.h>
#include <cuda_runtime.h>

#include <fcntl.h>

#include "api_test.h"

__global__ void fill(int *p, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * mul;
}

__global__ void plus_one(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1;
}

static size_t gran;
// Kernels touch the first kN ints of a mapping: enough to see the bytes,
// small enough for a slow device.
constexpr int kN = 16384;

static int holds(CUdeviceptr dev, int n, int mul, int add) {
  static int host[kN];
  if (cuMemcpyDtoH(host, dev, n * sizeof(int)) != CUDA_SUCCESS) return 0;
  for (int i = 0; i < n; i++)
    if (host[i] != i * mul + add) return 0;
  return 1;
}

static CUmemAllocationProp device_prop(int dev, CUmemAllocationHandleType types) {
  CUmemAllocationProp p = {};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.requestedHandleTypes = types;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = dev;
  return p;
}

static CUmemAccessDesc access_desc(int dev, CUmemAccess_flags flags) {
  CUmemAccessDesc d = {};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = dev;
  d.flags = flags;
  return d;
}

static void granularity() {
  CUmemAllocationProp p = device_prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  size_t g = 0, r = 0;
  int v = -1;
  SHOW("cuDeviceGetAttribute(VMM supported)",
       cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
  SAY("VMM supported", v);
  SHOW("cuDeviceGetAttribute(POSIX fd supported)",
       cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0));
  SAY("POSIX fd supported", v);
  SHOW("cuMemGetAllocationGranularity(minimum)",
       cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  SAY("minimum granularity in KiB", g / 1024);
  SHOW("cuMemGetAllocationGranularity(recommended)",
       cuMemGetAllocationGranularity(&r, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  SAY("recommended granularity in KiB", r / 1024);
  gran = g;
  SHOW("cuMemGetAllocationGranularity(NULL)",
       cuMemGetAllocationGranularity(nullptr, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  SHOW("cuMemGetAllocationGranularity(NULL prop)",
       cuMemGetAllocationGranularity(&g, nullptr, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  SHOW("cuMemGetAllocationGranularity(option 7)",
       cuMemGetAllocationGranularity(&g, &p, (CUmemAllocationGranularity_flags)7));
  CUmemAllocationProp bad = p;
  bad.location.id = 99;
  SHOW("cuMemGetAllocationGranularity(device 99)",
       cuMemGetAllocationGranularity(&g, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  bad = p;
  bad.location.type = CU_MEM_LOCATION_TYPE_INVALID;
  SHOW("cuMemGetAllocationGranularity(no location)",
       cuMemGetAllocationGranularity(&g, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  bad = p;
  bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  SHOW("cuMemGetAllocationGranularity(no type)",
       cuMemGetAllocationGranularity(&g, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}

static void reservations(CUdeviceptr *va) {
  CUdeviceptr x = 0;
  SHOW("cuMemAddressReserve(4 granules)", cuMemAddressReserve(va, 4 * gran, 0, 0, 0));
  SAY("reservation aligned to the granularity", *va % gran == 0);
  SHOW("cuMemAddressReserve(NULL)", cuMemAddressReserve(nullptr, gran, 0, 0, 0));
  SHOW("cuMemAddressReserve(size 0)", cuMemAddressReserve(&x, 0, 0, 0, 0));
  SHOW("cuMemAddressReserve(flags 1)", cuMemAddressReserve(&x, gran, 0, 0, 1));
  SHOW("cuMemAddressReserve(alignment 3)", cuMemAddressReserve(&x, gran, 3, 0, 0));
  int res = cuMemAddressReserve(&x, gran + 4096, 0, 0, 0);
  SAY("cuMemAddressReserve(granule + page)", res);
  if (res == CUDA_SUCCESS) SHOW("cuMemAddressFree(granule + page)", cuMemAddressFree(x, gran + 4096));
  SHOW("cuMemAddressReserve(aligned to 8 granules)",
       cuMemAddressReserve(&x, gran, 8 * gran, 0, 0));
  SAY("aligned as asked", x % (8 * gran) == 0);
  SHOW("cuMemAddressFree(wrong size)", cuMemAddressFree(x, 2 * gran));
  SHOW("cuMemAddressFree(aligned)", cuMemAddressFree(x, gran));
  SHOW("cuMemAddressFree(again)", cuMemAddressFree(x, gran));
  SHOW("cuMemAddressFree(0)", cuMemAddressFree(0, gran));
}

static void creation(CUmemGenericAllocationHandle *h, CUmemGenericAllocationHandle *plain) {
  CUmemAllocationProp p = device_prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemAllocationProp q = device_prop(0, CU_MEM_HANDLE_TYPE_NONE);
  CUmemGenericAllocationHandle x;
  SHOW("cuMemCreate(2 granules, POSIX fd)", cuMemCreate(h, 2 * gran, &p, 0));
  SHOW("cuMemCreate(1 granule, no handle type)", cuMemCreate(plain, gran, &q, 0));
  SHOW("cuMemCreate(NULL)", cuMemCreate(nullptr, gran, &p, 0));
  SHOW("cuMemCreate(one page)", cuMemCreate(&x, 4096, &p, 0));
  SHOW("cuMemCreate(size 0)", cuMemCreate(&x, 0, &p, 0));
  SHOW("cuMemCreate(flags 1)", cuMemCreate(&x, gran, &p, 1));
  SHOW("cuMemCreate(NULL prop)", cuMemCreate(&x, gran, nullptr, 0));
  CUmemAllocationProp bad = p;
  bad.location.id = 99;
  SHOW("cuMemCreate(device 99)", cuMemCreate(&x, gran, &bad, 0));
  bad = p;
  bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  SHOW("cuMemCreate(no type)", cuMemCreate(&x, gran, &bad, 0));
  bad = p;
  bad.requestedHandleTypes = CU_MEM_HANDLE_TYPE_WIN32;
  SHOW("cuMemCreate(Win32 handle)", cuMemCreate(&x, gran, &bad, 0));
  CUmemAllocationProp host = device_prop(0, CU_MEM_HANDLE_TYPE_NONE);
  host.location.type = CU_MEM_LOCATION_TYPE_HOST;
  size_t hg = 0;
  SHOW("cuMemGetAllocationGranularity(host)",
       cuMemGetAllocationGranularity(&hg, &host, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  SAY("host granularity in KiB", hg / 1024);
  int res = cuMemCreate(&x, gran, &host, 0);
  SAY("cuMemCreate(host)", res);
  if (res == CUDA_SUCCESS) SHOW("cuMemRelease(host)", cuMemRelease(x));
  CUmemAllocationProp got = {};
  SHOW("cuMemGetAllocationPropertiesFromHandle",
       cuMemGetAllocationPropertiesFromHandle(&got, *h));
  SAY("prop type", got.type);
  SAY("prop handle types", got.requestedHandleTypes);
  SAY("prop location type", got.location.type);
  SAY("prop location id", got.location.id);
  SHOW("cuMemGetAllocationPropertiesFromHandle(NULL)",
       cuMemGetAllocationPropertiesFromHandle(nullptr, *h));
}

static void mapping(CUdeviceptr va, CUmemGenericAllocationHandle h,
                    CUmemGenericAllocationHandle plain) {
  CUmemAccessDesc rw = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  unsigned long long flags = 99;
  CUmemLocation dev0 = rw.location;
  SHOW("cuMemMap(offset 1 granule)", cuMemMap(va + 2 * gran, gran, gran, h, 0));
  SHOW("cuMemMap(flags 1)", cuMemMap(va, 2 * gran, 0, h, 1));
  SHOW("cuMemMap(one page)", cuMemMap(va, 4096, 0, h, 0));
  SHOW("cuMemMap(bigger than the allocation)", cuMemMap(va, 3 * gran, 0, h, 0));
  SHOW("cuMemMap(0 handle)", cuMemMap(va, 2 * gran, 0, 0, 0));
  SHOW("cuMemMap(2 granules)", cuMemMap(va, 2 * gran, 0, h, 0));
  SHOW("cuMemMap(same range again)", cuMemMap(va, 2 * gran, 0, h, 0));
  SHOW("cuMemMap(overlapping)", cuMemMap(va + gran, gran, 0, plain, 0));
  SHOW("cuMemMap(plain after it)", cuMemMap(va + 2 * gran, gran, 0, plain, 0));
  SHOW("cuMemGetAccess(before any access)", cuMemGetAccess(&flags, &dev0, va));
  SAY("flags before", (int)flags);
  SHOW("cuMemSetAccess(count 0)", cuMemSetAccess(va, 2 * gran, &rw, 0));
  SHOW("cuMemSetAccess(NULL desc)", cuMemSetAccess(va, 2 * gran, nullptr, 1));
  CUmemAccessDesc bad = access_desc(99, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  SHOW("cuMemSetAccess(device 99)", cuMemSetAccess(va, 2 * gran, &bad, 1));
  bad = access_desc(0, (CUmemAccess_flags)2);
  SHOW("cuMemSetAccess(flags 2)", cuMemSetAccess(va, 2 * gran, &bad, 1));
  SHOW("cuMemSetAccess(unmapped range)", cuMemSetAccess(va + 3 * gran, gran, &rw, 1));
  SHOW("cuMemSetAccess(part of a mapping)", cuMemSetAccess(va, gran, &rw, 1));
  SHOW("cuMemSetAccess(both mappings)", cuMemSetAccess(va, 3 * gran, &rw, 1));
  SHOW("cuMemSetAccess(first mapping)", cuMemSetAccess(va, 2 * gran, &rw, 1));
  SHOW("cuMemSetAccess(second mapping)", cuMemSetAccess(va + 2 * gran, gran, &rw, 1));
  SHOW("cuMemGetAccess", cuMemGetAccess(&flags, &dev0, va + 100));
  SAY("flags", (int)flags);
  SHOW("cuMemGetAccess(unmapped)", cuMemGetAccess(&flags, &dev0, va + 3 * gran));
  SHOW("cuMemGetAccess(NULL flags)", cuMemGetAccess(nullptr, &dev0, va));
  SHOW("cuMemGetAccess(NULL location)", cuMemGetAccess(&flags, nullptr, va));
}

static void use(CUdeviceptr va, CUmemGenericAllocationHandle h) {
  int n = kN;
  fill<<<n / 256, 256>>>((int *)va, n, 2);
  SHOW("kernel fills the mapping", cudaDeviceSynchronize());
  SAY("mapping holds the data", holds(va, n, 2, 0));
  SHOW("cuMemsetD32 on the mapping", cuMemsetD32(va + 2 * gran, 7, gran / 4));
  unsigned int word = 0;
  SHOW("cuMemcpyDtoH from the plain mapping", cuMemcpyDtoH(&word, va + 3 * gran - 4, 4));
  SAY("word", (int)word);
  CUdeviceptr base = 0;
  size_t size = 0;
  SHOW("cuMemGetAddressRange", cuMemGetAddressRange(&base, &size, va + 12345));
  SAY("base is the mapping", base == va);
  SAY("size in granules", (int)(size / gran));
  SHOW("cuMemGetAddressRange(second mapping)", cuMemGetAddressRange(&base, &size, va + 2 * gran));
  SAY("base is the second mapping", base == va + 2 * gran);
  SAY("size in granules", (int)(size / gran));
  int ordinal = -1;
  unsigned int type = 0;
  SHOW("cuPointerGetAttribute(ordinal)",
       cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, va));
  SAY("ordinal", ordinal);
  SHOW("cuPointerGetAttribute(type)",
       cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va));
  SAY("type", (int)type);
  CUmemGenericAllocationHandle r = 0;
  SHOW("cuMemRetainAllocationHandle", cuMemRetainAllocationHandle(&r, (void *)(va + 100)));
  SAY("retained handle is the handle", r == h);
  SHOW("cuMemRelease(retained)", cuMemRelease(r));
  SHOW("cuMemRetainAllocationHandle(unmapped)",
       cuMemRetainAllocationHandle(&r, (void *)(va + 3 * gran)));
  SHOW("cuMemRetainAllocationHandle(NULL)", cuMemRetainAllocationHandle(nullptr, (void *)va));
}

// Device 1 is given access to device 0's memory, then device 0 to device
// 1's. Returns what device 1 added to the data. Kernels run only where
// access was granted: a fault would end the test.
static int two_devices(CUdeviceptr va) {
  int n = kN, added = 0, res;
  CUmemAccessDesc both[2] = {access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
                             access_desc(1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE)};
  CUmemLocation dev1 = both[1].location;
  unsigned long long flags = 99;
  CUdeviceptr other = 0;
  CUmemGenericAllocationHandle h1;
  SHOW("cuMemGetAccess(device 1 before)", cuMemGetAccess(&flags, &dev1, va));
  SAY("device 1 flags before", (int)flags);
  res = cuMemSetAccess(va, 2 * gran, both, 2);
  SAY("cuMemSetAccess(devices 0 and 1)", res);
  SHOW("cuMemGetAccess(device 1)", cuMemGetAccess(&flags, &dev1, va));
  SAY("device 1 flags", (int)flags);
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  if (res == CUDA_SUCCESS) {
    plus_one<<<n / 256, 256>>>((int *)va, (const int *)va, n);
    SHOW("device 1 updates device 0 memory", cudaDeviceSynchronize());
    SAY("updated", holds(va, n, 2, 1));
    added = 1;
  }
  CUmemAccessDesc ro = access_desc(1, CU_MEM_ACCESS_FLAGS_PROT_READ);
  SHOW("cuMemSetAccess(device 1 read-only)", cuMemSetAccess(va, 2 * gran, &ro, 1));
  SHOW("cuMemGetAccess(device 1)", cuMemGetAccess(&flags, &dev1, va));
  SAY("device 1 flags now", (int)flags);
  CUmemAccessDesc none = access_desc(1, CU_MEM_ACCESS_FLAGS_PROT_NONE);
  SHOW("cuMemSetAccess(device 1 none)", cuMemSetAccess(va, 2 * gran, &none, 1));
  SHOW("cuMemGetAccess(device 1)", cuMemGetAccess(&flags, &dev1, va));
  SAY("device 1 flags at last", (int)flags);
  CUmemAllocationProp p1 = device_prop(1, CU_MEM_HANDLE_TYPE_NONE);
  SHOW("cuMemCreate on device 1", cuMemCreate(&h1, gran, &p1, 0));
  SHOW("cuMemAddressReserve", cuMemAddressReserve(&other, gran, 0, 0, 0));
  SHOW("cuMemMap(device 1 memory)", cuMemMap(other, gran, 0, h1, 0));
  SHOW("cuMemRelease(device 1 handle while mapped)", cuMemRelease(h1));
  res = cuMemSetAccess(other, gran, both, 1);
  SAY("cuMemSetAccess(device 0 on device 1 memory)", res);
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  if (res == CUDA_SUCCESS) {
    fill<<<kN / 256, 256>>>((int *)other, kN, 9);
    SHOW("device 0 fills device 1 memory", cudaDeviceSynchronize());
    SAY("filled", holds(other, kN, 9, 0));
  }
  int ordinal = -1;
  SHOW("cuPointerGetAttribute(ordinal of device 1 memory)",
       cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, other));
  SAY("ordinal", ordinal);
  SHOW("cuMemUnmap(device 1 memory)", cuMemUnmap(other, gran));
  SHOW("cuMemAddressFree", cuMemAddressFree(other, gran));
  return added;
}

// The physical allocation goes to a child process as a file descriptor.
static void share(int sock, CUmemGenericAllocationHandle h, CUmemGenericAllocationHandle plain,
                  int add) {
  int fd = -1, other = -1;
  SHOW("cuMemExportToShareableHandle(NULL)",
       cuMemExportToShareableHandle(nullptr, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  SHOW("cuMemExportToShareableHandle(flags 1)",
       cuMemExportToShareableHandle(&other, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  CUmemFabricHandle fabric;
  SHOW("cuMemExportToShareableHandle(fabric)",
       cuMemExportToShareableHandle(&fabric, h, CU_MEM_HANDLE_TYPE_FABRIC, 0));
  SHOW("cuMemExportToShareableHandle(not requested)",
       cuMemExportToShareableHandle(&other, plain, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  SHOW("cuMemExportToShareableHandle",
       cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  SAY("fd is open", fcntl(fd, F_GETFD) >= 0);
  CUmemGenericAllocationHandle again = 0;
  SHOW("cuMemImportFromShareableHandle(own fd)",
       cuMemImportFromShareableHandle(&again, (void *)(intptr_t)fd,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  CUmemAllocationProp got = {};
  SHOW("cuMemGetAllocationPropertiesFromHandle(imported)",
       cuMemGetAllocationPropertiesFromHandle(&got, again));
  SAY("imported location id", got.location.id);
  SAY("imported handle types", got.requestedHandleTypes);
  SHOW("cuMemRelease(imported)", cuMemRelease(again));
  SHOW("cuMemImportFromShareableHandle(bad fd)",
       cuMemImportFromShareableHandle(&again, (void *)(intptr_t)-1,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  SHOW("cuMemImportFromShareableHandle(not a dma-buf)",
       cuMemImportFromShareableHandle(&again, (void *)(intptr_t)0,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  put_bytes(sock, &add, sizeof(add));
  put_fd(sock, fd);
  close(fd);
  wait_peer(sock);
}

static void child(int sock) {
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr va = 0;
  CUmemGenericAllocationHandle h = 0;
  size_t g = 0;
  int add = 0, fd;
  get_bytes(sock, &add, sizeof(add));
  fd = get_fd(sock);
  SHOW("child: cuInit", cuInit(0));
  SHOW("child: cuDeviceGet", cuDeviceGet(&dev, 0));
  SHOW("child: cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev));
  SHOW("child: cuCtxSetCurrent", cuCtxSetCurrent(ctx));
  CUmemAllocationProp p = device_prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  SHOW("child: cuMemImportFromShareableHandle",
       cuMemImportFromShareableHandle(&h, (void *)(intptr_t)fd,
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  CUmemAllocationProp got = {};
  SHOW("child: cuMemGetAllocationPropertiesFromHandle",
       cuMemGetAllocationPropertiesFromHandle(&got, h));
  SAY("child: location id", got.location.id);
  SHOW("child: cuMemAddressReserve", cuMemAddressReserve(&va, 2 * g, 0, 0, 0));
  SHOW("child: cuMemMap", cuMemMap(va, 2 * g, 0, h, 0));
  CUmemAccessDesc rw = access_desc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  SHOW("child: cuMemSetAccess", cuMemSetAccess(va, 2 * g, &rw, 1));
  int n = kN;
  SAY("child: reads the parent's data", holds(va, n, 2, add));
  plus_one<<<n / 256, 256>>>((int *)va, (const int *)va, n);
  SHOW("child: kernel updates it", cudaDeviceSynchronize());
  SHOW("child: cuMemUnmap", cuMemUnmap(va, 2 * g));
  SHOW("child: cuMemRelease", cuMemRelease(h));
  SHOW("child: cuMemAddressFree", cuMemAddressFree(va, 2 * g));
  SHOW("child: cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(dev));
  signal_peer(sock);
}

static void teardown(CUdeviceptr va, CUmemGenericAllocationHandle h,
                     CUmemGenericAllocationHandle plain, int add) {
  int n = kN;
  SAY("data after the child", holds(va, n, 2, add + 1));
  SHOW("cuMemAddressFree(still mapped)", cuMemAddressFree(va, 4 * gran));
  SHOW("cuMemUnmap(part of a mapping)", cuMemUnmap(va, gran));
  SHOW("cuMemUnmap(two mappings at once)", cuMemUnmap(va, 3 * gran));
  SHOW("cuMemUnmap(first)", cuMemUnmap(va, 2 * gran));
  SHOW("cuMemUnmap(first again)", cuMemUnmap(va, 2 * gran));
  SHOW("cuMemUnmap(second)", cuMemUnmap(va + 2 * gran, gran));
  SHOW("cuMemRelease(h)", cuMemRelease(h));
  SHOW("cuMemRelease(plain)", cuMemRelease(plain));
  SHOW("cuMemAddressFree", cuMemAddressFree(va, 4 * gran));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  test_fork f = fork_test();
  if (f.pid == 0) {
    child(f.sock);
    std::fflush(stdout);
    _exit(0);
  }
  alarm(300);
  CUdeviceptr va = 0;
  CUmemGenericAllocationHandle h = 0, plain = 0;
  int count = 0, add = 0;
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  granularity();
  reservations(&va);
  creation(&h, &plain);
  mapping(va, h, plain);
  use(va, h);
  SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count));
  if (count > 1) add = two_devices(va);
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  share(f.sock, h, plain, add);
  teardown(va, h, plain, add);
  SAY("child exit status", reap_child(f));
  return 0;
}
