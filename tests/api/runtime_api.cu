// SPDX-License-Identifier: MIT
//
// runtime_api: what the runtime API returns, call by call, for good and
// bad input, including launch configuration errors, the last-error rules
// and a sticky fault. One line per call, "what = code"; the expected lines
// were recorded on an NVIDIA H100 (runtime_api.expected).

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))

__device__ int device_value;
__constant__ float constant_table[4];

__global__ void write_index(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + device_value + (int)constant_table[i % 4];
}

__global__ void store_to(int *p) { *p = 1; }

static void devices() {
  int count = -1, device = -1;
  SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count));
  std::printf("at least one device = %d\n", count > 0);
  SHOW("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(nullptr));
  SHOW("cudaSetDevice(-1)", cudaSetDevice(-1));
  SHOW("cudaSetDevice(1000)", cudaSetDevice(1000));
  SHOW("cudaGetLastError after bad cudaSetDevice", cudaGetLastError());
  SHOW("cudaGetLastError again", cudaGetLastError());
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaGetDevice", cudaGetDevice(&device));
  std::printf("device = %d\n", device);
  cudaDeviceProp prop;
  SHOW("cudaGetDeviceProperties(1000)", cudaGetDeviceProperties(&prop, 1000));
  SHOW("cudaGetDeviceProperties(0)", cudaGetDeviceProperties(&prop, 0));
  std::printf("warpSize = %d\n", prop.warpSize);
  cudaGetLastError();
}

static void memory() {
  void *p = (void *)1, *q = nullptr;
  int host[16], back[16];
  for (int i = 0; i < 16; i++) host[i] = i * 7;
  SHOW("cudaFree(NULL)", cudaFree(nullptr));
  SHOW("cudaMalloc(size 0)", cudaMalloc(&p, 0));
  std::printf("size-0 pointer is NULL = %d\n", p == nullptr);
  SHOW("cudaMalloc(NULL)", cudaMalloc(nullptr, 16));
  SHOW("cudaMalloc(1 PiB)", cudaMalloc(&p, (size_t)1 << 50));
  SHOW("cudaGetLastError after failed cudaMalloc", cudaGetLastError());
  SHOW("cudaMalloc(64)", cudaMalloc(&q, 64));
  SHOW("cudaMemcpy(bad kind)",
       cudaMemcpy(q, host, sizeof(host), (cudaMemcpyKind)77));
  SHOW("cudaMemcpy(H2D)", cudaMemcpy(q, host, sizeof(host), cudaMemcpyHostToDevice));
  SHOW("cudaMemcpy(D2H)", cudaMemcpy(back, q, sizeof(back), cudaMemcpyDeviceToHost));
  SHOW("cudaMemcpy(Default)", cudaMemcpy(back, q, sizeof(back), cudaMemcpyDefault));
  std::printf("round-trip = %d\n", back[15] == host[15]);
  SHOW("cudaMemset", cudaMemset(q, 0xff, 64));
  SHOW("cudaMemcpy(D2H) after memset", cudaMemcpy(back, q, 4, cudaMemcpyDeviceToHost));
  std::printf("memset value = %d\n", back[0] == -1);
  SHOW("cudaFree(interior pointer)", cudaFree((char *)q + 8));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaFree", cudaFree(q));
  void *h = nullptr;
  SHOW("cudaMallocHost", cudaMallocHost(&h, 4096));
  SHOW("cudaFreeHost", cudaFreeHost(h));
  cudaGetLastError();
}

static void symbols() {
  int value = 5, back = 0;
  float table[4] = {10, 20, 30, 40};
  SHOW("cudaMemcpyToSymbol", cudaMemcpyToSymbol(device_value, &value, sizeof(value)));
  SHOW("cudaMemcpyToSymbol(constant)", cudaMemcpyToSymbol(constant_table, table, sizeof(table)));
  SHOW("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(&back, device_value, sizeof(back)));
  std::printf("symbol value = %d\n", back);
  SHOW("cudaMemcpyToSymbol(too large)",
       cudaMemcpyToSymbol(device_value, table, sizeof(table)));
  size_t size = 0;
  SHOW("cudaGetSymbolSize", cudaGetSymbolSize(&size, constant_table));
  std::printf("symbol size = %zu\n", size);
  cudaGetLastError();
}

static void launches() {
  const int n = 1000;
  int *out = nullptr;
  static int host[1000];
  cudaMalloc(&out, n * sizeof(int));
  write_index<<<1, 2048>>>(out, n);
  SHOW("launch 2048 threads: cudaGetLastError", cudaGetLastError());
  SHOW("cudaGetLastError again", cudaGetLastError());
  write_index<<<0, 32>>>(out, n);
  SHOW("launch grid 0: cudaPeekAtLastError", cudaPeekAtLastError());
  SHOW("cudaGetLastError", cudaGetLastError());
  write_index<<<1, dim3(1, 1, 128)>>>(out, n);
  SHOW("launch block z 128: cudaGetLastError", cudaGetLastError());
  write_index<<<(n + 255) / 256, 256>>>(out, n);
  SHOW("launch: cudaGetLastError", cudaGetLastError());
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("cudaMemcpy result", cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost));
  int wrong = 0;
  float table[4] = {10, 20, 30, 40};
  for (int i = 0; i < n; i++) wrong += host[i] != i + 5 + (int)table[i % 4];
  std::printf("wrong elements = %d\n", wrong);
  cudaFuncAttributes attr;
  SHOW("cudaFuncGetAttributes", cudaFuncGetAttributes(&attr, write_index));
  SHOW("cudaFuncGetAttributes(not a kernel)",
       cudaFuncGetAttributes(&attr, (const void *)devices));
  cudaGetLastError();
  cudaFree(out);
}

static void fault() {
  store_to<<<1, 1>>>((int *)0x10);
  SHOW("faulting launch: cudaGetLastError", cudaGetLastError());
  SHOW("cudaDeviceSynchronize after fault", cudaDeviceSynchronize());
  SHOW("cudaGetLastError after fault", cudaGetLastError());
  SHOW("cudaGetLastError again after fault", cudaGetLastError());
  void *p;
  SHOW("cudaMalloc after fault", cudaMalloc(&p, 16));
  SHOW("cudaDeviceSynchronize again", cudaDeviceSynchronize());
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  devices();
  memory();
  symbols();
  launches();
  fault();
  return 0;
}
