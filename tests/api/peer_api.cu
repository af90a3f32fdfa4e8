// SPDX-License-Identifier: MIT
//
// peer_api: peer access between two devices, through the runtime and the
// driver: capability queries, enabling and disabling (with every error),
// peer copies, cudaMemcpyDefault across devices, and kernels of one
// device reading and writing the other's memory, allocated before and
// after access was enabled. Needs two devices; the expected output was
// recorded on two NVIDIA H200s (peer_api.expected). Link attributes that
// depend on the machine's topology (rank, atomics) print only their codes.

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

constexpr int kN = 4096;

__global__ void fill(int *p, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * mul;
}

// dst[i] = src[i] + 1: a kernel reading one buffer and writing another.
__global__ void plus_one(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1;
}

// Whether @dev holds i * mul + add at every index.
static int holds(const int *dev, int mul, int add) {
  static int host[kN];
  if (cudaMemcpy(host, dev, sizeof(host), cudaMemcpyDefault) != cudaSuccess) return 0;
  for (int i = 0; i < kN; i++)
    if (host[i] != i * mul + add) return 0;
  return 1;
}

static void capabilities() {
  int can = -1, v = -1;
  SHOW("cudaDeviceCanAccessPeer(0, 1)", cudaDeviceCanAccessPeer(&can, 0, 1));
  SAY("can access 0 -> 1", can);
  SHOW("cudaDeviceCanAccessPeer(1, 0)", cudaDeviceCanAccessPeer(&can, 1, 0));
  SAY("can access 1 -> 0", can);
  SHOW("cudaDeviceCanAccessPeer(0, 0)", cudaDeviceCanAccessPeer(&can, 0, 0));
  SAY("can access 0 -> 0", can);
  SHOW("cudaDeviceCanAccessPeer(0, 99)", cudaDeviceCanAccessPeer(&can, 0, 99));
  SHOW("cudaDeviceCanAccessPeer(99, 0)", cudaDeviceCanAccessPeer(&can, 99, 0));
  SHOW("cudaDeviceCanAccessPeer(NULL)", cudaDeviceCanAccessPeer(nullptr, 0, 1));
  cudaGetLastError();
  for (int a = 1; a <= 5; a++) {
    char what[64];
    std::snprintf(what, sizeof(what), "cudaDeviceGetP2PAttribute(%d, 0, 1)", a);
    SHOW(what, cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)a, 0, 1));
  }
  SHOW("cudaDeviceGetP2PAttribute(access)",
       cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 1, 0));
  SAY("access supported 1 -> 0", v);
  SHOW("cudaDeviceGetP2PAttribute(0, 0)",
       cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0));
  SHOW("cudaDeviceGetP2PAttribute(0, 99)",
       cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 99));
  SHOW("cudaDeviceGetP2PAttribute(attr 99)",
       cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)99, 0, 1));
  SHOW("cudaDeviceGetP2PAttribute(attr 0)",
       cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)0, 0, 1));
  SHOW("cudaDeviceGetP2PAttribute(NULL)",
       cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 1));
  SHOW("cuDeviceGetP2PAttribute(access)",
       cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
  SAY("driver access supported 0 -> 1", v);
  SHOW("cuDeviceGetP2PAttribute(same device)",
       cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 1, 1));
  SHOW("cuDeviceCanAccessPeer(0, 1)", cuDeviceCanAccessPeer(&can, 0, 1));
  SAY("driver can access 0 -> 1", can);
  SHOW("cuDeviceCanAccessPeer(0, 7)", cuDeviceCanAccessPeer(&can, 0, 7));
  cudaGetLastError();
}

// Device 1 may use device 0's memory.
static void enable_errors() {
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaDeviceDisablePeerAccess(0) never enabled", cudaDeviceDisablePeerAccess(0));
  SHOW("cudaDeviceEnablePeerAccess(0, flags 1)", cudaDeviceEnablePeerAccess(0, 1));
  SHOW("cudaDeviceEnablePeerAccess(1) self", cudaDeviceEnablePeerAccess(1, 0));
  SHOW("cudaDeviceEnablePeerAccess(99)", cudaDeviceEnablePeerAccess(99, 0));
  SHOW("cudaDeviceEnablePeerAccess(-1)", cudaDeviceEnablePeerAccess(-1, 0));
  SHOW("cudaGetLastError", cudaGetLastError());
}

static void copies(int *d0, int *d1) {
  cudaStream_t s1;
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  fill<<<kN / 256, 256>>>(d0, kN, 2);
  SHOW("fill on 0", cudaDeviceSynchronize());
  SHOW("cudaMemcpyPeer(1 <- 0)", cudaMemcpyPeer(d1, 1, d0, 0, kN * sizeof(int)));
  SAY("copied", holds(d1, 2, 0));
  SHOW("cudaMemcpyPeer(0 bytes)", cudaMemcpyPeer(d1, 1, d0, 0, 0));
  SHOW("cudaMemcpyPeer(bad dst device)", cudaMemcpyPeer(d1, 5, d0, 0, 16));
  SHOW("cudaMemcpyPeer(bad src device)", cudaMemcpyPeer(d1, 1, d0, -1, 16));
  SHOW("cudaMemcpyPeer(NULL dst)", cudaMemcpyPeer(nullptr, 1, d0, 0, 16));
  SHOW("cudaMemcpyPeer(same device)", cudaMemcpyPeer(d0 + 16, 0, d0, 0, 16));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaMemset(d1)", cudaMemset(d1, 0, kN * sizeof(int)));
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaStreamCreate on 1", cudaStreamCreate(&s1));
  SHOW("cudaMemcpyPeerAsync(1 <- 0)",
       cudaMemcpyPeerAsync(d1, 1, d0, 0, kN * sizeof(int), s1));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s1));
  SAY("copied async", holds(d1, 2, 0));
  SHOW("cudaMemcpyPeerAsync(bad device)", cudaMemcpyPeerAsync(d1, 1, d0, 9, 16, s1));
  cudaGetLastError();
  SHOW("cudaMemset(d1) again", cudaMemset(d1, 0, kN * sizeof(int)));
  SHOW("cudaMemcpy(Default, 1 <- 0)",
       cudaMemcpy(d1, d0, kN * sizeof(int), cudaMemcpyDefault));
  SAY("copied by Default", holds(d1, 2, 0));
  SHOW("cudaMemcpy(DeviceToDevice, 0 <- 1)",
       cudaMemcpy(d0 + 1, d1, (kN - 1) * sizeof(int), cudaMemcpyDeviceToDevice));
  SHOW("cudaMemcpyAsync(Default, 1 <- 0)",
       cudaMemcpyAsync(d1, d0, kN * sizeof(int), cudaMemcpyDefault, s1));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s1));
  SHOW("cudaStreamDestroy", cudaStreamDestroy(s1));
  cudaPointerAttributes a;
  SHOW("cudaPointerGetAttributes(d0) on 1", cudaPointerGetAttributes(&a, d0));
  SAY("d0's device", a.device);
  SAY("d0's type", a.type);
}

static void kernels(int *d0, int *d1) {
  int *late = nullptr;
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaDeviceEnablePeerAccess(0)", cudaDeviceEnablePeerAccess(0, 0));
  SHOW("cudaDeviceEnablePeerAccess(0) again", cudaDeviceEnablePeerAccess(0, 0));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  fill<<<kN / 256, 256>>>(d0, kN, 5);
  SHOW("fill on 0", cudaDeviceSynchronize());
  // Device 1 reads device 0's memory, allocated before access was enabled.
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  plus_one<<<kN / 256, 256>>>(d1, d0, kN);
  SHOW("peer read on 1", cudaDeviceSynchronize());
  SAY("read device 0 memory", holds(d1, 5, 1));
  // ... and writes into it.
  plus_one<<<kN / 256, 256>>>(d0, d1, kN);
  SHOW("peer write on 1", cudaDeviceSynchronize());
  SAY("wrote device 0 memory", holds(d0, 5, 2));
  // Memory allocated on 0 after access was enabled is reachable too.
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaMalloc(late) on 0", cudaMalloc(&late, kN * sizeof(int)));
  fill<<<kN / 256, 256>>>(late, kN, 7);
  SHOW("fill late on 0", cudaDeviceSynchronize());
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  plus_one<<<kN / 256, 256>>>(late, late, kN);
  SHOW("peer update of late on 1", cudaDeviceSynchronize());
  SAY("updated late allocation", holds(late, 7, 1));
  SHOW("cudaDeviceDisablePeerAccess(0)", cudaDeviceDisablePeerAccess(0));
  SHOW("cudaDeviceDisablePeerAccess(0) again", cudaDeviceDisablePeerAccess(0));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaDeviceEnablePeerAccess(0) after disable", cudaDeviceEnablePeerAccess(0, 0));
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaFree(late)", cudaFree(late));
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaDeviceDisablePeerAccess(0) after the free", cudaDeviceDisablePeerAccess(0));
}

static void driver() {
  CUcontext c0, c1, now;
  CUdeviceptr p0, p1;
  SHOW("cuDevicePrimaryCtxRetain(0)", cuDevicePrimaryCtxRetain(&c0, 0));
  SHOW("cuDevicePrimaryCtxRetain(1)", cuDevicePrimaryCtxRetain(&c1, 1));
  SHOW("cuCtxSetCurrent(c1)", cuCtxSetCurrent(c1));
  SHOW("cuCtxEnablePeerAccess(NULL)", cuCtxEnablePeerAccess(nullptr, 0));
  SHOW("cuCtxEnablePeerAccess(self)", cuCtxEnablePeerAccess(c1, 0));
  SHOW("cuCtxEnablePeerAccess(c0, flags 1)", cuCtxEnablePeerAccess(c0, 1));
  SHOW("cuCtxDisablePeerAccess(NULL)", cuCtxDisablePeerAccess(nullptr));
  SHOW("cuCtxDisablePeerAccess(c0) not enabled", cuCtxDisablePeerAccess(c0));
  SHOW("cuCtxEnablePeerAccess(c0)", cuCtxEnablePeerAccess(c0, 0));
  SHOW("cuCtxEnablePeerAccess(c0) again", cuCtxEnablePeerAccess(c0, 0));
  SHOW("cuMemAlloc on 1", cuMemAlloc(&p1, 4096));
  SHOW("cuCtxSetCurrent(c0)", cuCtxSetCurrent(c0));
  SHOW("cuMemAlloc on 0", cuMemAlloc(&p0, 4096));
  SHOW("cuMemsetD32(p0)", cuMemsetD32(p0, 0x1234, 1024));
  SHOW("cuMemcpyPeer(c1 <- c0)", cuMemcpyPeer(p1, c1, p0, c0, 4096));
  SHOW("cuMemcpyPeer(NULL contexts)", cuMemcpyPeer(p1, nullptr, p0, nullptr, 4096));
  SHOW("cuMemcpyPeerAsync(c0 <- c1)", cuMemcpyPeerAsync(p0, c0, p1, c1, 4096, 0));
  SHOW("cuCtxSynchronize", cuCtxSynchronize());
  unsigned int word = 0;
  SHOW("cuMemcpyDtoH(p0)", cuMemcpyDtoH(&word, p0 + 4092, 4));
  SAY("round trip kept the value", word == 0x1234);
  SHOW("cuCtxSetCurrent(c1)", cuCtxSetCurrent(c1));
  SHOW("cuCtxDisablePeerAccess(c0)", cuCtxDisablePeerAccess(c0));
  SHOW("cuMemFree(p1)", cuMemFree(p1));
  SHOW("cuCtxSetCurrent(c0)", cuCtxSetCurrent(c0));
  SHOW("cuMemFree(p0)", cuMemFree(p0));
  SHOW("cuCtxGetCurrent", cuCtxGetCurrent(&now));
  SHOW("cuDevicePrimaryCtxRelease(0)", cuDevicePrimaryCtxRelease(0));
  SHOW("cuDevicePrimaryCtxRelease(1)", cuDevicePrimaryCtxRelease(1));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  int count = 0;
  int *d0 = nullptr, *d1 = nullptr;
  SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count));
  if (count < 2) {
    std::printf("peer_api needs two devices, found %d\n", count);
    return 1;
  }
  capabilities();
  enable_errors();
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaMalloc(d0)", cudaMalloc(&d0, kN * sizeof(int)));
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaMalloc(d1)", cudaMalloc(&d1, kN * sizeof(int)));
  copies(d0, d1);
  kernels(d0, d1);
  driver();
  SHOW("cudaSetDevice(1)", cudaSetDevice(1));
  SHOW("cudaFree(d1)", cudaFree(d1));
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaFree(d0)", cudaFree(d0));
  return 0;
}
