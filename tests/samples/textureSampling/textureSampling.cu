// SPDX-License-Identifier: MIT
//
// textureSampling: texture and surface objects over CUDA arrays and
// linear memory. Point-sampled and linearly filtered 2D float textures,
// normalized 8-bit reads, layered textures, 1D fetches from linear
// memory, and a surface the kernel writes.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

static int wrong;

static void expect_near(float got, float want, float tol, const char *what, int i) {
  if (!(std::fabs(got - want) <= tol) && wrong++ < 10)
    std::fprintf(stderr, "%s[%d] = %f, expected %f\n", what, i, got, want);
}

__global__ void sample_2d(cudaTextureObject_t point, cudaTextureObject_t linear, int w, int h,
                          float *out_point, float *out_linear) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= w || y >= h) return;
  out_point[y * w + x] = tex2D<float>(point, x + 0.5f, y + 0.5f);
  // Halfway between texel centres x and x+1 (normalized coordinates).
  out_linear[y * w + x] = tex2D<float>(linear, (x + 1.0f) / w, (y + 0.5f) / h);
}

__global__ void sample_misc(cudaTextureObject_t rgba, cudaTextureObject_t layered,
                            cudaTextureObject_t lin, float *out) {
  int i = threadIdx.x;
  float4 c = tex2D<float4>(rgba, i + 0.5f, 0.5f);
  out[i * 4 + 0] = c.x;
  out[i * 4 + 1] = c.w;
  out[i * 4 + 2] = tex2DLayered<float>(layered, i + 0.5f, 0.5f, 1);
  out[i * 4 + 3] = (float)tex1Dfetch<int>(lin, i);
}

__global__ void write_surface(cudaSurfaceObject_t surf, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite((unsigned int)(y * 1000 + x), surf, x * 4, y);
}

static cudaTextureObject_t make_texture(cudaArray_t array, cudaTextureFilterMode filter,
                                        bool normalized, cudaTextureReadMode read) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc tex = {};
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = filter;
  tex.normalizedCoords = normalized;
  tex.readMode = read;
  cudaTextureObject_t obj = 0;
  CHECK(cudaCreateTextureObject(&obj, &res, &tex, nullptr));
  return obj;
}

static void float_textures() {
  const int w = 16, h = 8;
  std::vector<float> img(w * h), point(w * h), linear(w * h);
  for (int i = 0; i < w * h; i++) img[i] = (float)(i % w) * 2.0f + (float)(i / w) * 0.25f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, w, h));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaTextureObject_t tp = make_texture(arr, cudaFilterModePoint, false, cudaReadModeElementType);
  cudaTextureObject_t tl = make_texture(arr, cudaFilterModeLinear, true, cudaReadModeElementType);
  float *dp, *dl;
  CHECK(cudaMalloc(&dp, w * h * sizeof(float)));
  CHECK(cudaMalloc(&dl, w * h * sizeof(float)));
  sample_2d<<<h, w>>>(tp, tl, w, h, dp, dl);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(point.data(), dp, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(linear.data(), dl, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int i = y * w + x;
      expect_near(point[i], img[i], 0.0f, "point", i);
      // Clamp: past the last column the texel itself.
      float right = x + 1 < w ? img[i + 1] : img[i];
      expect_near(linear[i], 0.5f * (img[i] + right), 0.02f, "linear", i);
    }
  CHECK(cudaDestroyTextureObject(tp));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(dl));
  CHECK(cudaFreeArray(arr));
}

static void other_textures() {
  const int n = 8;
  // uchar4, read as normalized floats.
  std::vector<uchar4> rgba(n);
  for (int i = 0; i < n; i++) rgba[i] = make_uchar4(i * 32, 0, 0, 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t carr;
  CHECK(cudaMallocArray(&carr, &cd, n, 1));
  CHECK(cudaMemcpy2DToArray(carr, 0, 0, rgba.data(), n * 4, n * 4, 1, cudaMemcpyHostToDevice));
  cudaTextureObject_t trgba = make_texture(carr, cudaFilterModePoint, false,
                                           cudaReadModeNormalizedFloat);
  // A 2-layer float texture.
  std::vector<float> layers(2 * n);
  for (int i = 0; i < 2 * n; i++) layers[i] = i < n ? -1.0f : 100.0f + i - n;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t larr;
  CHECK(cudaMalloc3DArray(&larr, &fd, make_cudaExtent(n, 1, 2), cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(layers.data(), n * sizeof(float), n, 1);
  p.dstArray = larr;
  p.extent = make_cudaExtent(n, 1, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaTextureObject_t tlay = make_texture(larr, cudaFilterModePoint, false, cudaReadModeElementType);
  // 1D fetches from linear device memory.
  int *lin;
  CHECK(cudaMalloc(&lin, n * sizeof(int)));
  std::vector<int> ints(n);
  for (int i = 0; i < n; i++) ints[i] = i * i - 5;
  CHECK(cudaMemcpy(lin, ints.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeLinear;
  lres.res.linear.devPtr = lin;
  lres.res.linear.desc = cudaCreateChannelDesc<int>();
  lres.res.linear.sizeInBytes = n * sizeof(int);
  cudaTextureDesc ltex = {};
  ltex.readMode = cudaReadModeElementType;
  cudaTextureObject_t tlin;
  CHECK(cudaCreateTextureObject(&tlin, &lres, &ltex, nullptr));

  float *dout;
  std::vector<float> out(4 * n);
  CHECK(cudaMalloc(&dout, 4 * n * sizeof(float)));
  sample_misc<<<1, n>>>(trgba, tlay, tlin, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    expect_near(out[i * 4 + 0], i * 32 / 255.0f, 1e-6f, "rgba.x", i);
    expect_near(out[i * 4 + 1], 1.0f, 0.0f, "rgba.w", i);
    expect_near(out[i * 4 + 2], 100.0f + i, 0.0f, "layer 1", i);
    expect_near(out[i * 4 + 3], (float)ints[i], 0.0f, "tex1Dfetch", i);
  }
  CHECK(cudaDestroyTextureObject(trgba));
  CHECK(cudaDestroyTextureObject(tlay));
  CHECK(cudaDestroyTextureObject(tlin));
  CHECK(cudaFreeArray(carr));
  CHECK(cudaFreeArray(larr));
  CHECK(cudaFree(lin));
  CHECK(cudaFree(dout));
}

static void surfaces() {
  const int w = 20, h = 6;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<unsigned int>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, w, h, cudaArraySurfaceLoadStore));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaSurfaceObject_t surf;
  CHECK(cudaCreateSurfaceObject(&surf, &res));
  write_surface<<<h, w>>>(surf, w, h);
  CHECK(cudaGetLastError());
  std::vector<unsigned int> back(w * h);
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, arr, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      expect_near((float)back[y * w + x], (float)(y * 1000 + x), 0.0f, "surface", y * w + x);
  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaFreeArray(arr));
}

int main() {
  float_textures();
  other_textures();
  surfaces();
  std::printf("[textureSampling] 2D point/linear, uchar4 normalized, layered, 1D fetch, surface\n");
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
