// SPDX-License-Identifier: MIT
//
// alloc_api: allocations as programs meet them. __managed__ variables
// through the symbol calls and pointer attributes; pinned host memory
// that cannot be had; and a stream-ordered allocation ordered after a
// free by an event, which takes the freed block back instead of growing
// the pool (cudaMemPoolReuseFollowEventDependencies), with the default
// attributes, with that one alone, and with none. Expected output
// recorded on an NVIDIA H100, driver 580.159.04, CUDA 13.0
// (alloc_api.expected, three runs alike): codes, booleans and values,
// never pointers or sizes of the machine.

#include <cstdint>
#include <cstdio>
#include <ctime>

#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))
#define SAY(what, value) std::printf("%s = %d\n", what, (int)(value))

__managed__ int managed_counter = 7;
__managed__ float managed_table[100];
__device__ int device_value = 3;

__global__ void bump(int *p, int by) { *p += by; }

static void managed_symbols() {
  void *addr = nullptr;
  size_t size = 0;
  SHOW("cudaGetSymbolAddress(__managed__ int)", cudaGetSymbolAddress(&addr, managed_counter));
  SAY("address is &managed_counter", addr == (void *)&managed_counter);
  SHOW("cudaGetSymbolSize(__managed__ int)", cudaGetSymbolSize(&size, managed_counter));
  SAY("size", size);
  SHOW("cudaGetSymbolSize(__managed__ float[100])", cudaGetSymbolSize(&size, managed_table));
  SAY("size", size);
  cudaPointerAttributes a = {};
  SHOW("cudaPointerGetAttributes(__managed__)", cudaPointerGetAttributes(&a, addr));
  SAY("type", a.type);
  SAY("device", a.device);
  SAY("devicePointer is it", a.devicePointer == addr);
  SAY("hostPointer is it", a.hostPointer == addr);
  SHOW("cudaGetSymbolAddress(__managed__ float[100])", cudaGetSymbolAddress(&addr, managed_table));
  SHOW("cudaPointerGetAttributes(__managed__ + 40)",
       cudaPointerGetAttributes(&a, (char *)addr + 40));
  SAY("type", a.type);
  bump<<<1, 1>>>(&managed_counter, 5);
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SAY("managed_counter on the host", managed_counter);
  int *p = nullptr;
  SHOW("cudaGetSymbolAddress(__managed__ int)", cudaGetSymbolAddress((void **)&p, managed_counter));
  bump<<<1, 1>>>(p, 10);
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SAY("managed_counter on the host", managed_counter);
  int v = 0;
  SHOW("cudaMemcpyFromSymbol(__managed__)", cudaMemcpyFromSymbol(&v, managed_counter, sizeof(v)));
  SAY("value", v);
  v = 40;
  SHOW("cudaMemcpyToSymbol(__managed__)", cudaMemcpyToSymbol(managed_counter, &v, sizeof(v)));
  SAY("managed_counter on the host", managed_counter);
  SHOW("cudaGetSymbolAddress(__device__)", cudaGetSymbolAddress(&addr, device_value));
  SHOW("cudaPointerGetAttributes(__device__)", cudaPointerGetAttributes(&a, addr));
  SAY("type", a.type);
}

static void impossible_pinned() {
  void *p = nullptr;
  size_t huge = (size_t)1 << 50;
  SHOW("cudaMallocHost(1 PiB)", cudaMallocHost(&p, huge));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaHostAlloc(1 PiB)", cudaHostAlloc(&p, huge, cudaHostAllocDefault));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaHostAlloc(1 PiB, mapped)", cudaHostAlloc(&p, huge, cudaHostAllocMapped));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaMallocHost(SIZE_MAX)", cudaMallocHost(&p, SIZE_MAX));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaMallocHost(0)", cudaMallocHost(&p, 0));
  SHOW("cudaMallocHost(1 MiB)", cudaMallocHost(&p, 1 << 20));
  SHOW("cudaFreeHost", cudaFreeHost(p));
}

static uint64_t reserved(cudaMemPool_t pool) {
  uint64_t v = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v);
  return v;
}

// Frees on @s1, orders @s2 after the free by an event, allocates on @s2.
// @grown: print whether the pool grew (a pool reserves in chunks of its
// own choosing, so only where it must not grow).
static void free_then_wait(cudaMemPool_t pool, const char *what, bool grown) {
  cudaStream_t s1, s2;
  cudaEvent_t freed;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEventCreateWithFlags(&freed, cudaEventDisableTiming);
  void *first = nullptr, *second = nullptr;
  std::printf("-- %s\n", what);
  SHOW("cudaMallocFromPoolAsync(s1)", cudaMallocFromPoolAsync(&first, 1 << 20, pool, s1));
  SHOW("cudaStreamSynchronize(s1)", cudaStreamSynchronize(s1));
  uint64_t before = reserved(pool);
  // Keeps s1 busy so that the free is not yet done when s2 allocates.
  SHOW("cudaLaunchHostFunc(s1)", cudaLaunchHostFunc(s1, [](void *) {
         struct timespec t = {0, 50 * 1000 * 1000};
         nanosleep(&t, nullptr);
       }, nullptr));
  SHOW("cudaFreeAsync(s1)", cudaFreeAsync(first, s1));
  SHOW("cudaEventRecord(s1)", cudaEventRecord(freed, s1));
  SHOW("cudaStreamWaitEvent(s2)", cudaStreamWaitEvent(s2, freed, 0));
  SHOW("cudaMallocFromPoolAsync(s2)", cudaMallocFromPoolAsync(&second, 1 << 20, pool, s2));
  SAY("same block", second == first);
  if (grown) SAY("pool grew", reserved(pool) > before);
  SHOW("cudaFreeAsync(s2)", cudaFreeAsync(second, s2));
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("cudaMemPoolTrimTo(0)", cudaMemPoolTrimTo(pool, 0));
  cudaEventDestroy(freed);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

static void set_reuse(cudaMemPool_t pool, int follow, int opportunistic, int internal) {
  SHOW("cudaMemPoolSetAttribute(ReuseFollowEventDependencies)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow));
  SHOW("cudaMemPoolSetAttribute(ReuseAllowOpportunistic)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &opportunistic));
  SHOW("cudaMemPoolSetAttribute(ReuseAllowInternalDependencies)",
       cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &internal));
}

static void pool_reuse() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  SHOW("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props));
  int on = -1;
  SHOW("cudaMemPoolGetAttribute(ReuseFollowEventDependencies)",
       cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &on));
  SAY("ReuseFollowEventDependencies", on);
  free_then_wait(pool, "default reuse attributes", true);
  set_reuse(pool, 1, 0, 0);
  free_then_wait(pool, "event dependencies followed, nothing else", true);
  set_reuse(pool, 0, 0, 0);
  free_then_wait(pool, "no reuse across streams", false);
  SHOW("cudaMemPoolDestroy", cudaMemPoolDestroy(pool));
}

int main() {
  managed_symbols();
  impossible_pinned();
  pool_reuse();
  SHOW("cudaGetLastError", cudaGetLastError());
  return 0;
}
