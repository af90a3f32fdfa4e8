// SPDX-License-Identifier: MIT
//
// pitchedMemory: a 2D image in pitched device memory (cudaMallocPitch,
// cudaMemset2D, cudaMemcpy2D both ways, a kernel indexing by pitch), a 3D
// volume through cudaMalloc3D/cudaMemcpy3D, and registered host memory
// used for asynchronous 2D copies.

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

__global__ void brighten(unsigned char *img, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) img[y * pitch + x] += (unsigned char)(x + y);
}

static int wrong;

static void expect(bool ok, const char *what, int i) {
  if (!ok && wrong++ < 8) std::fprintf(stderr, "mismatch: %s at %d\n", what, i);
}

static void image_2d() {
  const int w = 100, h = 37;
  std::vector<unsigned char> host(w * h), back(w * h);
  for (int i = 0; i < w * h; i++) host[i] = (unsigned char)(i * 7);
  unsigned char *img;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void **)&img, &pitch, w, h));
  if (pitch < (size_t)w) {
    std::fprintf(stderr, "pitch %zu < width %d\n", pitch, w);
    wrong++;
  }
  CHECK(cudaMemset2D(img, pitch, 0xEE, pitch, h));
  CHECK(cudaMemcpy2D(img, pitch, host.data(), w, w, h, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  brighten<<<grid, block>>>(img, pitch, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(back.data(), w, img, pitch, w, h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      expect(back[y * w + x] == (unsigned char)(host[y * w + x] + x + y), "2D kernel",
             y * w + x);
  // The padding of each row keeps the memset value.
  unsigned char pad = 0;
  if (pitch > (size_t)w) {
    CHECK(cudaMemcpy(&pad, img + w, 1, cudaMemcpyDeviceToHost));
    expect(pad == 0xEE, "row padding", 0);
  }

  // Registered host memory, asynchronous 2D copy of a sub-rectangle.
  const int sub_w = 40, sub_h = 10;
  std::vector<unsigned char> reg(4096 * 2);
  CHECK(cudaHostRegister(reg.data(), reg.size(), cudaHostRegisterDefault));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpy2DAsync(reg.data(), sub_w, img + 5 * pitch + 3, pitch, sub_w, sub_h,
                          cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int y = 0; y < sub_h; y++)
    for (int x = 0; x < sub_w; x++)
      expect(reg[y * sub_w + x] == back[(y + 5) * w + x + 3], "2D async sub-rectangle",
             y * sub_w + x);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaHostUnregister(reg.data()));
  if (cudaHostUnregister(reg.data()) != cudaErrorHostMemoryNotRegistered) {
    std::fprintf(stderr, "double unregister did not fail\n");
    wrong++;
  }
  cudaGetLastError();
  CHECK(cudaFree(img));
}

static void volume_3d() {
  const int w = 12, h = 5, d = 4;
  std::vector<float> host(w * h * d), back(w * h * d, -1.0f);
  for (int i = 0; i < w * h * d; i++) host[i] = i * 0.5f;
  cudaExtent extent = make_cudaExtent(w * sizeof(float), h, d);
  cudaPitchedPtr vol;
  CHECK(cudaMalloc3D(&vol, extent));
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(float), w, h);
  in.dstPtr = vol;
  in.extent = extent;
  in.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&in));
  cudaMemcpy3DParms out = {};
  out.srcPtr = vol;
  out.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(float), w, h);
  out.extent = extent;
  out.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&out));
  for (int i = 0; i < w * h * d; i++) expect(back[i] == host[i], "3D round trip", i);
  CHECK(cudaFree(vol.ptr));
}

int main() {
  image_2d();
  volume_3d();
  std::printf("[pitchedMemory] 2D image, 3D volume, registered memory\n");
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
