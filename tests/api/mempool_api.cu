// SPDX-License-Identifier: MIT
//
// mempool_api: the stream-ordered allocator. Default and created pools,
// their attributes and watermarks, reuse in stream order, trimming,
// access from another device, pools shared with another process (a POSIX
// file descriptor for the pool, export data for a pointer), and
// cudaMallocAsync/cudaFreeAsync captured into graph memory nodes. Every
// call with good and bad input; expected output recorded on two NVIDIA
// H200s (mempool_api.expected). Byte counts are printed only as
// comparisons: how a pool rounds is its own business.
//
// Taken out after the recording: lines for calls that crashed NVIDIA's
// runtime (NULL arguments it does not check), and pointer queries made
// before a stream-ordered allocation had happened (undefined, CUDA says;
// NVIDIA's driver did not know the pointer yet). The recording ends at
// the last free node added by hand, and so does the test.

#include <cstdint>

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

constexpr int kN = 4096;

__global__ void fill(int *p, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * mul;
}

__global__ void plus_one(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1;
}

static int holds(const int *dev, int n, int mul, int add) {
  static int host[kN];
  if (cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDefault) != cudaSuccess) return 0;
  for (int i = 0; i < n; i++)
    if (host[i] != i * mul + add) return 0;
  return 1;
}

static uint64_t attr64(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 12345;
  cudaMemPoolGetAttribute(pool, a, &v);
  return v;
}

static int attr_int(cudaMemPool_t pool, cudaMemPoolAttr a) {
  int v = -1;
  cudaMemPoolGetAttribute(pool, a, &v);
  return v;
}

static cudaMemPoolProps pool_props(int dev, cudaMemAllocationHandleType types) {
  cudaMemPoolProps p = {};
  p.allocType = cudaMemAllocationTypePinned;
  p.handleTypes = types;
  p.location.type = cudaMemLocationTypeDevice;
  p.location.id = dev;
  return p;
}

static void device_attributes() {
  int v = -1;
  SHOW("cudaDeviceGetAttribute(MemoryPoolsSupported)",
       cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
  SAY("pools supported", v);
  SHOW("cudaDeviceGetAttribute(MemoryPoolSupportedHandleTypes)",
       cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  SAY("pool handle types include POSIX fd", (v & cudaMemHandleTypePosixFileDescriptor) != 0);
  SHOW("cudaDeviceGetAttribute(IpcEventSupport)",
       cudaDeviceGetAttribute(&v, cudaDevAttrIpcEventSupport, 0));
  SAY("IPC events supported", v);
}

static void default_pool(cudaMemPool_t *pool) {
  cudaMemPool_t cur = nullptr;
  int v = -1;
  SHOW("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(pool, 0));
  SHOW("cudaDeviceGetDefaultMemPool(NULL)", cudaDeviceGetDefaultMemPool(nullptr, 0));
  SHOW("cudaDeviceGetDefaultMemPool(device 99)", cudaDeviceGetDefaultMemPool(&cur, 99));
  SHOW("cudaDeviceGetMemPool", cudaDeviceGetMemPool(&cur, 0));
  SAY("current pool is the default", cur == *pool);
  SHOW("cudaDeviceGetMemPool(device 99)", cudaDeviceGetMemPool(&cur, 99));
  cudaGetLastError();
  for (int a = cudaMemPoolReuseFollowEventDependencies;
       a <= cudaMemPoolReuseAllowInternalDependencies; a++) {
    char what[64];
    std::snprintf(what, sizeof(what), "cudaMemPoolGetAttribute(%d)", a);
    SHOW(what, cudaMemPoolGetAttribute(*pool, (cudaMemPoolAttr)a, &v));
    SAY("value", v);
  }
  SAY("release threshold is 0", attr64(*pool, cudaMemPoolAttrReleaseThreshold) == 0);
  SAY("nothing reserved yet", attr64(*pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  SAY("nothing used yet", attr64(*pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  SHOW("cudaMemPoolGetAttribute(attr 99)",
       cudaMemPoolGetAttribute(*pool, (cudaMemPoolAttr)99, &v));
  SHOW("cudaMemPoolGetAttribute(attr 0)",
       cudaMemPoolGetAttribute(*pool, (cudaMemPoolAttr)0, &v));
  SHOW("cudaMemPoolGetAttribute(NULL value)",
       cudaMemPoolGetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, nullptr));
  SHOW("cudaMemPoolGetAttribute(NULL pool)",
       cudaMemPoolGetAttribute(nullptr, cudaMemPoolAttrReleaseThreshold, &v));
  cudaGetLastError();
}

static void allocate(cudaMemPool_t pool, cudaStream_t s) {
  void *a = nullptr, *b = nullptr, *z = nullptr;
  SHOW("cudaMallocAsync(1000)", cudaMallocAsync(&a, 1000, s));
  SAY("used >= 1000", attr64(pool, cudaMemPoolAttrUsedMemCurrent) >= 1000);
  SAY("reserved >= used", attr64(pool, cudaMemPoolAttrReservedMemCurrent) >=
                              attr64(pool, cudaMemPoolAttrUsedMemCurrent));
  SHOW("cudaMallocAsync(0 bytes)", cudaMallocAsync(&z, 0, s));
  SAY("0 bytes gives NULL", z == nullptr);
  SHOW("cudaMallocAsync(NULL)", cudaMallocAsync(nullptr, 16, s));
  SHOW("cudaMallocAsync(too much)", cudaMallocAsync(&z, (size_t)1 << 50, s));
  SHOW("cudaGetLastError", cudaGetLastError());
  fill<<<1, 250, 0, s>>>((int *)a, 250, 3);
  SHOW("kernel on the allocation", cudaGetLastError());
  SHOW("cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaMallocAsync(same size, same stream)", cudaMallocAsync(&b, 1000, s));
  SAY("reused at once in stream order", a == b);
  SHOW("cudaFreeAsync(b)", cudaFreeAsync(b, s));
  SHOW("cudaFreeAsync(NULL)", cudaFreeAsync(nullptr, s));
  void *c = nullptr;
  CUdeviceptr dz = 0;
  SHOW("cudaMallocAsync(for cudaFree)", cudaMallocAsync(&c, 512, s));
  SHOW("cudaFree(stream-ordered memory)", cudaFree(c));
  SHOW("cuMemAllocAsync(0 bytes)", cuMemAllocAsync(&dz, 0, (CUstream)s));
  SHOW("cuMemFreeAsync(0)", cuMemFreeAsync(0, (CUstream)s));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SAY("nothing used after the frees", attr64(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  SAY("reserved released at the synchronize",
      attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  SAY("used high >= 1000", attr64(pool, cudaMemPoolAttrUsedMemHigh) >= 1000);
  SAY("reserved high >= used high", attr64(pool, cudaMemPoolAttrReservedMemHigh) >=
                                        attr64(pool, cudaMemPoolAttrUsedMemHigh));
}

static void attributes(cudaMemPool_t pool, cudaStream_t s) {
  uint64_t zero = 0, five = 5, max = UINT64_MAX;
  int off = 0, on = 1;
  void *a = nullptr;
  SHOW("cudaMemPoolSetAttribute(used high = 0)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  SAY("used high is 0 after the reset", attr64(pool, cudaMemPoolAttrUsedMemHigh) == 0);
  SHOW("cudaMemPoolSetAttribute(reserved high = 0)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  SHOW("cudaMemPoolSetAttribute(used high = 5)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &five));
  SHOW("cudaMemPoolSetAttribute(used current)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero));
  SHOW("cudaMemPoolSetAttribute(reserved current)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &zero));
  SHOW("cudaMemPoolSetAttribute(attr 99)",
       cudaMemPoolSetAttribute(pool, (cudaMemPoolAttr)99, &zero));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaMemPoolSetAttribute(reuse off)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &off));
  SAY("opportunistic now", attr_int(pool, cudaMemPoolReuseAllowOpportunistic));
  SHOW("cudaMemPoolSetAttribute(reuse on)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &on));
  SHOW("cudaMemPoolSetAttribute(threshold max)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &max));
  SAY("threshold is max", attr64(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX);
  SHOW("cudaMallocAsync", cudaMallocAsync(&a, 100000, s));
  SHOW("cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SAY("kept reserved under the threshold", attr64(pool, cudaMemPoolAttrReservedMemCurrent) >= 100000);
  SAY("nothing used", attr64(pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  SHOW("cudaMemPoolTrimTo(everything but 1 byte)", cudaMemPoolTrimTo(pool, 1));
  SAY("something kept", attr64(pool, cudaMemPoolAttrReservedMemCurrent) >= 1);
  SHOW("cudaMemPoolTrimTo(0)", cudaMemPoolTrimTo(pool, 0));
  SAY("trimmed to nothing", attr64(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  SHOW_NULL("cudaMemPoolTrimTo(NULL)", cudaMemPoolTrimTo(nullptr, 0));
  SHOW("cudaMemPoolSetAttribute(threshold 0)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero));
  cudaGetLastError();
}

// Memory that does not come from a pool, given to cudaFreeAsync.
static void foreign_frees(cudaStream_t s) {
  void *plain = nullptr;
  static int stack_like[16];
  SHOW("cudaMalloc", cudaMalloc(&plain, 4096));
  int res = cudaFreeAsync(plain, s);
  SAY("cudaFreeAsync(cudaMalloc memory)", res);
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  if (res != cudaSuccess) SHOW("cudaFree", cudaFree(plain));
  SHOW("cudaFreeAsync(pageable)", cudaFreeAsync(stack_like, s));
  SHOW("cudaGetLastError", cudaGetLastError());
}

static void created_pools(cudaMemPool_t dflt, cudaStream_t s, cudaMemPool_t *ipc) {
  cudaMemPoolProps p = pool_props(0, cudaMemHandleTypeNone), bad;
  cudaMemPool_t pool = nullptr, x = nullptr, cur = nullptr;
  void *a = nullptr;
  cudaMemAccessFlags flags = (cudaMemAccessFlags)99;
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  SHOW("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &p));
  SHOW_NULL("cudaMemPoolCreate(NULL props)", cudaMemPoolCreate(&x, nullptr));
  SHOW_NULL("cudaMemPoolCreate(NULL pool)", cudaMemPoolCreate(nullptr, &p));
  bad = p;
  bad.location.id = 99;
  SHOW("cudaMemPoolCreate(device 99)", cudaMemPoolCreate(&x, &bad));
  bad = p;
  bad.allocType = cudaMemAllocationTypeInvalid;
  SHOW("cudaMemPoolCreate(no type)", cudaMemPoolCreate(&x, &bad));
  bad = p;
  bad.location.type = cudaMemLocationTypeInvalid;
  SHOW("cudaMemPoolCreate(no location)", cudaMemPoolCreate(&x, &bad));
  bad = p;
  bad.handleTypes = cudaMemHandleTypeWin32;
  SHOW("cudaMemPoolCreate(Win32 handles)", cudaMemPoolCreate(&x, &bad));
  cudaGetLastError();
  cudaMemPoolProps q = pool_props(0, cudaMemHandleTypePosixFileDescriptor);
  SHOW("cudaMemPoolCreate(POSIX fd)", cudaMemPoolCreate(ipc, &q));
  SHOW("cudaMallocFromPoolAsync", cudaMallocFromPoolAsync(&a, 4096, pool, s));
  SHOW_NULL("cudaMallocFromPoolAsync(NULL pool)", cudaMallocFromPoolAsync(&a, 4096, nullptr, s));
  cudaGetLastError();
  CUmemoryPool owner = nullptr;
  SHOW("cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaDeviceSetMemPool", cudaDeviceSetMemPool(0, pool));
  SHOW("cudaDeviceGetMemPool", cudaDeviceGetMemPool(&cur, 0));
  SAY("current pool is the new one", cur == pool);
  SHOW("cudaMallocAsync from the current pool", cudaMallocAsync(&a, 4096, s));
  cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, (CUdeviceptr)a);
  SAY("it came from the new pool", owner == (CUmemoryPool)pool);
  SHOW("cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaDeviceSetMemPool(device 99)", cudaDeviceSetMemPool(99, pool));
  SHOW_NULL("cudaDeviceSetMemPool(NULL)", cudaDeviceSetMemPool(0, nullptr));
  cudaGetLastError();
  cudaMemAccessDesc d = {dev0, cudaMemAccessFlagsProtReadWrite};
  SHOW("cudaMemPoolSetAccess(own device read-write)", cudaMemPoolSetAccess(pool, &d, 1));
  d.flags = cudaMemAccessFlagsProtNone;
  SHOW("cudaMemPoolSetAccess(own device none)", cudaMemPoolSetAccess(pool, &d, 1));
  SHOW("cudaMemPoolSetAccess(count 0)", cudaMemPoolSetAccess(pool, &d, 0));
  d = {{cudaMemLocationTypeDevice, 99}, cudaMemAccessFlagsProtReadWrite};
  SHOW("cudaMemPoolSetAccess(device 99)", cudaMemPoolSetAccess(pool, &d, 1));
  cudaGetLastError();
  SHOW("cudaMemPoolGetAccess(own device)", cudaMemPoolGetAccess(&flags, pool, &dev0));
  SAY("own device flags", flags);
  cudaGetLastError();
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SHOW("cudaMemPoolDestroy(the current pool)", cudaMemPoolDestroy(pool));
  SHOW("cudaDeviceGetMemPool", cudaDeviceGetMemPool(&cur, 0));
  SAY("current pool is the default again", cur == dflt);
  SHOW("cudaMemPoolDestroy(default pool)", cudaMemPoolDestroy(dflt));
  SHOW_NULL("cudaMemPoolDestroy(NULL)", cudaMemPoolDestroy(nullptr));
  SHOW("cudaGetLastError", cudaGetLastError());
}

// Device 1 reads and writes a pool of device 0 once it has access.
static void other_device(cudaMemPool_t dflt) {
  cudaMemLocation dev1 = {cudaMemLocationTypeDevice, 1};
  cudaMemAccessFlags flags = (cudaMemAccessFlags)99;
  cudaMemAccessDesc d = {dev1, cudaMemAccessFlagsProtReadWrite};
  int *a = nullptr, *mine = nullptr;
  SHOW("cudaMemPoolGetAccess(device 1)", cudaMemPoolGetAccess(&flags, dflt, &dev1));
  SAY("device 1 flags", flags);
  int res = cudaMemPoolSetAccess(dflt, &d, 1);
  SAY("cudaMemPoolSetAccess(device 1 read-write)", res);
  SHOW("cudaMemPoolGetAccess(device 1)", cudaMemPoolGetAccess(&flags, dflt, &dev1));
  SAY("device 1 flags now", flags);
  SHOW("cudaMallocAsync on 0", cudaMallocAsync((void **)&a, kN * sizeof(int), 0));
  fill<<<kN / 256, 256>>>(a, kN, 4);
  SHOW("fill on 0", cudaDeviceSynchronize());
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaMalloc on 1", cudaMalloc(&mine, kN * sizeof(int)));
  if (res == cudaSuccess) {
    plus_one<<<kN / 256, 256>>>(mine, a, kN);
    SHOW("device 1 reads the pool memory", cudaDeviceSynchronize());
    SAY("read", holds(mine, kN, 4, 1));
  }
  SHOW("cudaFree on 1", cudaFree(mine));
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaFreeAsync", cudaFreeAsync(a, 0));
  d.flags = cudaMemAccessFlagsProtNone;
  SHOW("cudaMemPoolSetAccess(device 1 none)", cudaMemPoolSetAccess(dflt, &d, 1));
  SHOW("cudaMemPoolGetAccess(device 1)", cudaMemPoolGetAccess(&flags, dflt, &dev1));
  SAY("device 1 flags at last", flags);
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
}

// The pool goes to the child as a file descriptor, one pointer as data.
static void share(int sock, cudaMemPool_t ipc, cudaMemPool_t dflt, cudaStream_t s) {
  int fd = -1, other = -1;
  int *a = nullptr;
  void *plain = nullptr;
  cudaMemPoolPtrExportData data, junk;
  SHOW("cudaMemPoolExportToShareableHandle(default pool)",
       cudaMemPoolExportToShareableHandle(&other, dflt, cudaMemHandleTypePosixFileDescriptor, 0));
  SHOW("cudaMemPoolExportToShareableHandle(flags 1)",
       cudaMemPoolExportToShareableHandle(&other, ipc, cudaMemHandleTypePosixFileDescriptor, 1));
  SHOW_NULL("cudaMemPoolExportToShareableHandle(NULL)",
       cudaMemPoolExportToShareableHandle(nullptr, ipc, cudaMemHandleTypePosixFileDescriptor, 0));
  SHOW("cudaMemPoolExportToShareableHandle",
       cudaMemPoolExportToShareableHandle(&fd, ipc, cudaMemHandleTypePosixFileDescriptor, 0));
  SAY("fd is open", fd >= 0);
  cudaGetLastError();
  SHOW("cudaMallocFromPoolAsync(ipc pool)",
       cudaMallocFromPoolAsync((void **)&a, kN * sizeof(int), ipc, s));
  fill<<<kN / 256, 256, 0, s>>>(a, kN, 6);
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SHOW("cudaMemPoolExportPointer", cudaMemPoolExportPointer(&data, a));
  SHOW_NULL("cudaMemPoolExportPointer(NULL data)", cudaMemPoolExportPointer(nullptr, a));
  SHOW_NULL("cudaMemPoolExportPointer(NULL)", cudaMemPoolExportPointer(&junk, nullptr));
  SHOW("cudaMalloc", cudaMalloc(&plain, 4096));
  SHOW("cudaMemPoolExportPointer(cudaMalloc memory)", cudaMemPoolExportPointer(&junk, plain));
  SHOW("cudaFree", cudaFree(plain));
  cudaMemPool_t self = nullptr;
  int dup_fd = dup(fd);
  int res = cudaMemPoolImportFromShareableHandle(
      &self, (void *)(intptr_t)dup_fd, cudaMemHandleTypePosixFileDescriptor, 0);
  SAY("cudaMemPoolImportFromShareableHandle(own pool)", res);
  if (res == cudaSuccess) {
    void *q = nullptr;
    SHOW("cudaMemPoolImportPointer(own pointer)", cudaMemPoolImportPointer(&q, self, &data));
  }
  SHOW("cudaGetLastError", cudaGetLastError());
  put_bytes(sock, &data, sizeof(data));
  put_fd(sock, fd);
  close(fd);
  wait_peer(sock);
  SAY("parent sees the child's writes", holds(a, kN, 6, 1));
  SHOW("cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SHOW("cudaMemPoolDestroy(ipc pool)", cudaMemPoolDestroy(ipc));
}

static void child(int sock) {
  cudaMemPoolPtrExportData data;
  cudaMemPool_t pool = nullptr;
  int *q = nullptr;
  void *x = nullptr;
  get_bytes(sock, &data, sizeof(data));
  int fd = get_fd(sock);
  SHOW("child: cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("child: cudaMemPoolImportFromShareableHandle(flags 1)",
       cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd,
                                            cudaMemHandleTypePosixFileDescriptor, 1));
  SHOW("child: cudaMemPoolImportFromShareableHandle(no type)",
       cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd, cudaMemHandleTypeNone,
                                            0));
  cudaGetLastError();
  SHOW("child: cudaMemPoolImportFromShareableHandle",
       cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd,
                                            cudaMemHandleTypePosixFileDescriptor, 0));
  close(fd);
  SHOW("child: cudaMemPoolImportPointer", cudaMemPoolImportPointer((void **)&q, pool, &data));
  SHOW_NULL("child: cudaMemPoolImportPointer(NULL data)",
       cudaMemPoolImportPointer((void **)&x, pool, nullptr));
  cudaGetLastError();
  SAY("child: reads the parent's data", holds(q, kN, 6, 0));
  plus_one<<<kN / 256, 256>>>(q, q, kN);
  SHOW("child: kernel updates it", cudaDeviceSynchronize());
  SHOW("child: cudaMallocFromPoolAsync(imported pool)",
       cudaMallocFromPoolAsync(&x, 4096, pool, 0));
  cudaGetLastError();
  uint64_t used = 0;
  SHOW("child: cudaMemPoolGetAttribute(used)",
       cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  SHOW("child: cudaFree(imported pointer)", cudaFree(q));
  SHOW("child: cudaMemPoolDestroy", cudaMemPoolDestroy(pool));
  signal_peer(sock);
}

static cudaGraphNodeType node_type(cudaGraphNode_t n) {
  cudaGraphNodeType t = (cudaGraphNodeType)-1;
  cudaGraphNodeGetType(n, &t);
  return t;
}

static void captured(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t e;
  int *a = nullptr, *out = nullptr;
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  uint64_t v = 0;
  SHOW("cudaMalloc(out)", cudaMalloc(&out, kN * sizeof(int)));
  SHOW("cudaStreamBeginCapture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  SHOW("captured cudaMallocAsync", cudaMallocAsync((void **)&a, kN * sizeof(int), s));
  fill<<<kN / 256, 256, 0, s>>>(a, kN, 8);
  plus_one<<<kN / 256, 256, 0, s>>>(out, a, kN);
  SHOW("captured cudaFreeAsync", cudaFreeAsync(a, s));
  SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s, &g));
  SHOW("cudaGraphGetNodes", cudaGraphGetNodes(g, nodes, &count));
  SAY("nodes", (int)count);
  for (size_t i = 0; i < count; i++) SAY("node type", node_type(nodes[i]));
  cudaMemAllocNodeParams ap;
  SHOW("cudaGraphMemAllocNodeGetParams", cudaGraphMemAllocNodeGetParams(nodes[0], &ap));
  SAY("bytesize", (int)ap.bytesize);
  SAY("dptr is the captured pointer", ap.dptr == a);
  SAY("pool location id", ap.poolProps.location.id);
  SAY("pool handle types", ap.poolProps.handleTypes);
  void *freed = nullptr;
  SHOW("cudaGraphMemFreeNodeGetParams", cudaGraphMemFreeNodeGetParams(nodes[count - 1], &freed));
  SAY("frees the captured pointer", freed == a);
  SHOW("cudaGraphMemAllocNodeGetParams(free node)",
       cudaGraphMemAllocNodeGetParams(nodes[count - 1], &ap));
  cudaGetLastError();
  SHOW("cudaGraphInstantiate", cudaGraphInstantiate(&e, g, 0));
  SHOW("cudaGraphLaunch", cudaGraphLaunch(e, s));
  SHOW("cudaGraphLaunch again", cudaGraphLaunch(e, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SAY("graph result", holds(out, kN, 8, 1));
  SHOW("cudaDeviceGetGraphMemAttribute(used)",
       cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &v));
  SAY("graph memory in use after the launches is 0", v == 0);
  SAY("graph memory in use covers the allocation", v >= kN * sizeof(int));
  SHOW("cudaDeviceGetGraphMemAttribute(reserved)",
       cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &v));
  SAY("graph memory reserved", v >= kN * sizeof(int));
  SHOW("cudaDeviceGetGraphMemAttribute(used high)",
       cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &v));
  SAY("used high", v >= kN * sizeof(int));
  SHOW_NULL("cudaDeviceGetGraphMemAttribute(NULL)",
       cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, nullptr));
  SHOW("cudaDeviceGetGraphMemAttribute(device 99)",
       cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemHigh, &v));
  SHOW("cudaDeviceGetGraphMemAttribute(attr 9)",
       cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)9, &v));
  cudaGetLastError();
  uint64_t zero = 0, five = 5;
  SHOW("cudaDeviceSetGraphMemAttribute(used high = 0)",
       cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  SHOW("cudaDeviceSetGraphMemAttribute(used high = 5)",
       cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &five));
  SHOW("cudaDeviceSetGraphMemAttribute(used current)",
       cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
  SHOW("cudaDeviceSetGraphMemAttribute(reserved high = 0)",
       cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
  cudaGetLastError();
  SHOW("cudaGraphExecDestroy", cudaGraphExecDestroy(e));
  SHOW("cudaGraphDestroy", cudaGraphDestroy(g));
  SHOW("cudaDeviceGraphMemTrim", cudaDeviceGraphMemTrim(0));
  SHOW("cudaDeviceGetGraphMemAttribute(reserved)",
       cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &v));
  SAY("graph memory reserved after the trim is 0", v == 0);
  SHOW("cudaDeviceGraphMemTrim(device 99)", cudaDeviceGraphMemTrim(99));
  cudaGetLastError();
  SHOW("cudaFree(out)", cudaFree(out));
}

// Memory nodes added by hand, and a graph that keeps its allocation.
static void explicit_nodes(cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaGraphNode_t alloc, free_node, bad;
  cudaMemAllocNodeParams p = {};
  p.poolProps = pool_props(0, cudaMemHandleTypeNone);
  p.bytesize = kN * sizeof(int);
  SHOW("cudaGraphCreate", cudaGraphCreate(&g, 0));
  SHOW("cudaGraphAddMemAllocNode", cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &p));
  SAY("dptr set", p.dptr != nullptr);
  cudaMemAllocNodeParams z = p;
  z.bytesize = 0;
  SHOW("cudaGraphAddMemAllocNode(0 bytes)", cudaGraphAddMemAllocNode(&bad, g, nullptr, 0, &z));
  z = p;
  z.poolProps.location.id = 99;
  SHOW("cudaGraphAddMemAllocNode(device 99)", cudaGraphAddMemAllocNode(&bad, g, nullptr, 0, &z));
  z = p;
  z.poolProps.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  SHOW("cudaGraphAddMemAllocNode(POSIX fd)", cudaGraphAddMemAllocNode(&bad, g, nullptr, 0, &z));
  SHOW_NULL("cudaGraphAddMemAllocNode(NULL params)",
       cudaGraphAddMemAllocNode(&bad, g, nullptr, 0, nullptr));
  static int stack_like[4];
  SHOW("cudaGraphAddMemFreeNode(not a graph allocation)",
       cudaGraphAddMemFreeNode(&bad, g, &alloc, 1, stack_like));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaGraphInstantiate(alloc only)", cudaGraphInstantiate(&e, g, 0));
  SHOW("cudaGraphLaunch", cudaGraphLaunch(e, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SHOW("cudaGraphLaunch(allocation not freed)", cudaGraphLaunch(e, s));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaMemsetAsync(graph allocation)", cudaMemsetAsync(p.dptr, 0, p.bytesize, s));
  SHOW("cudaFreeAsync(graph allocation)", cudaFreeAsync(p.dptr, s));
  SHOW("cudaGraphLaunch(after the free)", cudaGraphLaunch(e, s));
  SHOW("cudaFreeAsync(graph allocation) again", cudaFreeAsync(p.dptr, s));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
  SHOW("cudaGraphExecDestroy", cudaGraphExecDestroy(e));
  // Freed outside the graph already: no free node may be added any more.
  SHOW("cudaGraphAddMemFreeNode", cudaGraphAddMemFreeNode(&free_node, g, &alloc, 1, p.dptr));
  // The recording ends here (see the top of the file).
  cudaGraphDestroy(g);
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
  cudaMemPool_t dflt = nullptr, ipc = nullptr;
  cudaStream_t s;
  int count = 0;
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaStreamCreate", cudaStreamCreate(&s));
  device_attributes();
  default_pool(&dflt);
  allocate(dflt, s);
  attributes(dflt, s);
  foreign_frees(s);
  created_pools(dflt, s, &ipc);
  SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count));
  if (count > 1) other_device(dflt);
  share(f.sock, ipc, dflt, s);
  SAY("child exit status", reap_child(f));
  captured(s);
  explicit_nodes(s);
  cudaStreamDestroy(s);
  return 0;
}
