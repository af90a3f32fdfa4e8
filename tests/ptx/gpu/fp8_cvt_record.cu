// SPDX-License-Identifier: MIT
/*
 * Records the FP8 conversions test_fp8_cvt checks, on an NVIDIA GPU
 * (sm_89 or newer): nvcc -O2 -arch=sm_90 -o fp8_cvt_record fp8_cvt_record.cu
 * && ./fp8_cvt_record > tests/ptx/expected/fp8_cvt.h200.txt
 */
#include <cstdio>
#include <cstdint>
#include <cstring>
__global__ void widen(const uint16_t *in, uint32_t *e4, uint32_t *e5, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x; if (i >= n) return;
  uint32_t a, b; uint16_t v = in[i];
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(a) : "h"(v));
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(b) : "h"(v));
  e4[i] = a; e5[i] = b;
}
__global__ void narrow(const float *x, uint16_t *e4, uint16_t *e5, uint16_t *h4, uint16_t *h5, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x; if (i >= n) return;
  uint16_t a, b, c, d; float hi = x[i], lo = x[(i + 1) % n];
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(a) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(b) : "f"(hi), "f"(lo));
  uint32_t hh; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(hh) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(c) : "r"(hh));
  asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(d) : "r"(hh));
  e4[i] = a; e5[i] = b; h4[i] = c; h5[i] = d;
}
static float fb(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
int main() {
  uint16_t hin[256]; for (int i = 0; i < 256; i++) hin[i] = (uint16_t)(i << 8 | (255 - i));
  uint16_t *din; uint32_t *d4, *d5; cudaMalloc(&din, 512); cudaMalloc(&d4, 1024); cudaMalloc(&d5, 1024);
  cudaMemcpy(din, hin, 512, cudaMemcpyHostToDevice);
  widen<<<1, 256>>>(din, d4, d5, 256);
  uint32_t o4[256], o5[256]; cudaMemcpy(o4, d4, 1024, cudaMemcpyDeviceToHost); cudaMemcpy(o5, d5, 1024, cudaMemcpyDeviceToHost);
  printf("# widen: in(b16: hi byte i, lo byte 255-i) e4m3x2->f16x2 e5m2x2->f16x2\n");
  for (int i = 0; i < 256; i++) printf("w %04x %08x %08x\n", hin[i], o4[i], o5[i]);
  float xs[] = { 0.f, -0.f, 1.f, -1.f, 0.5f, 1.0625f, 1.125f, 1.1875f, 1.25f, 3.f, -3.f, 7.f, 240.f, 256.f, 448.f, 449.f, 464.f, 465.f, 480.f, 500.f, 1e4f, 57344.f, 61439.f, 61440.f, 65504.f, 1e5f, 1e30f,
    fb(0x7f800000), fb(0xff800000), fb(0x7fc00000), fb(0xffc00000), fb(0x7f800001), 0.001953125f, 0.0009765625f, 0.00146484375f, 0.0029296875f, 0.013671875f, 1.52587890625e-05f, 7.62939453125e-06f, 1.1444091796875e-05f, 3e-8f, -3e-8f, 1e-3f, 0.1f, 0.3f, -0.7f, 2.5f, 5.5f, 13.f, 17.f, 19.f, 100.f, -300.f, 3.4e38f };
  int n = sizeof(xs) / sizeof(xs[0]);
  float *dx; uint16_t *a, *b, *c, *d; cudaMalloc(&dx, 4 * n); cudaMalloc(&a, 2 * n); cudaMalloc(&b, 2 * n); cudaMalloc(&c, 2 * n); cudaMalloc(&d, 2 * n);
  cudaMemcpy(dx, xs, 4 * n, cudaMemcpyHostToDevice);
  narrow<<<1, 64>>>(dx, a, b, c, d, n);
  uint16_t oa[64], ob[64], oc[64], od[64];
  cudaMemcpy(oa, a, 2 * n, cudaMemcpyDeviceToHost); cudaMemcpy(ob, b, 2 * n, cudaMemcpyDeviceToHost);
  cudaMemcpy(oc, c, 2 * n, cudaMemcpyDeviceToHost); cudaMemcpy(od, d, 2 * n, cudaMemcpyDeviceToHost);
  printf("# narrow: hi(f32 bits) lo(f32 bits) e4m3x2.f32 e5m2x2.f32 e4m3x2.f16x2(of cvt.rn.f16x2.f32) e5m2x2.f16x2\n");
  for (int i = 0; i < n; i++) { uint32_t h, l; memcpy(&h, &xs[i], 4); memcpy(&l, &xs[(i + 1) % n], 4);
    printf("n %08x %08x %04x %04x %04x %04x\n", h, l, oa[i], ob[i], oc[i], od[i]); }
  printf("# status %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
