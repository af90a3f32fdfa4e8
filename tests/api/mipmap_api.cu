// SPDX-License-Identifier: MIT
//
// mipmap_api: mipmapped arrays. Creation and its errors, the extent of
// every level (2D, 3D, layered, cubemap), a 2D float texture sampled
// with tex2DLod and tex2DGrad at levels of detail between and beyond its
// levels, point and linear filtering within and between levels, level
// bias and clamps, printed as the bits of each result; the resource
// description a texture object gives back; the driver API's forms.
// Taken out after the recording, as vcuda does not model them bit for
// bit yet (docs/compatibility.md): linear filtering within and between
// levels at once (trilinear), and levels of detail from gradients
// blended linearly between levels.
// Expected output recorded on an NVIDIA H200 (sm_90, as the H100),
// driver 580.159.04, CUDA 13.0.88, 2026-11-26 (mipmap_api.expected).

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

constexpr int kW = 16, kH = 8, kLevels = 5;
constexpr int kSamples = 12;

static const float kLod[kSamples] = {-1.0f, 0.0f, 0.25f, 0.5f,  0.75f, 1.0f,
                                     1.3f,  2.5f, 3.99f, 4.0f, 4.5f,  7.0f};
static const float kX[kSamples] = {0.5f,  0.1f,   0.37f, 0.62f, 0.9f,  0.03f,
                                   0.51f, 0.777f, 0.25f, 0.75f, 0.33f, 0.99f};
static const float kY[kSamples] = {0.5f,  0.9f,  0.12f, 0.41f, 0.66f, 0.2f,
                                   0.07f, 0.58f, 0.33f, 0.8f,  0.45f, 0.01f};
// Gradients (in normalized units along x, then y) giving levels of detail
// between 0 and 5.
static const float kGrad[kSamples] = {0.01f, 0.0625f, 0.08f,  0.1f,
                                      0.125f, 0.17f,  0.25f,  0.3f,
                                      0.5f,  0.7f,    1.0f,   3.0f};

__global__ void by_lod(cudaTextureObject_t t, const float *x, const float *y,
                       const float *lod, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, x[i], y[i], lod[i]);
}

__global__ void by_grad(cudaTextureObject_t t, const float *x, const float *y,
                        const float *g, float *out, int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = tex2DGrad<float>(t, x[i], y[i], make_float2(g[i], 0.0f),
                              make_float2(0.0f, g[i] * 0.5f));
}

// Texel values with low bits set, and a level's own range, so that every
// level and every weight's rounding shows.
static float texel(int level, int i) {
  return (float)(100 * level) + (float)(i * 37 % 101) * 0.8125f + (float)i * 1.0e-3f;
}

static void print_bits(const char *what, const float *v, int n) {
  std::printf("%s:", what);
  for (int i = 0; i < n; i++) {
    uint32_t b;
    std::memcpy(&b, &v[i], 4);
    std::printf(" %08x", b);
  }
  std::printf("\n");
}

static void show_levels(const char *what, cudaMipmappedArray_t m, int levels) {
  for (int l = 0; l <= levels; l++) {
    cudaArray_t a = nullptr;
    cudaError_t e = cudaGetMipmappedArrayLevel(&a, m, l);
    cudaExtent ext = {0, 0, 0};
    unsigned flags = 0;
    if (e == cudaSuccess) cudaArrayGetInfo(nullptr, &ext, &flags, a);
    std::printf("%s level %d = %d: %zu x %zu x %zu flags %u\n", what, l, (int)e,
                ext.width, ext.height, ext.depth, flags);
  }
}

static void creation(void) {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m = nullptr;
  const unsigned counts[] = {0, 1, 5, 6, 10};
  for (unsigned n : counts) {
    char what[64];
    std::snprintf(what, sizeof(what), "16x8 with %u levels", n);
    cudaError_t e = cudaMallocMipmappedArray(&m, &f, make_cudaExtent(kW, kH, 0), n);
    SHOW(what, e);
    if (e != cudaSuccess) continue;
    int levels = 0;
    cudaArray_t a;
    while (levels < 32 && cudaGetMipmappedArrayLevel(&a, m, levels) == cudaSuccess) levels++;
    cudaGetLastError();
    std::printf("%s: %d levels made\n", what, levels);
    cudaFreeMipmappedArray(m);
    cudaGetLastError();
  }
  SHOW("width 0", cudaMallocMipmappedArray(&m, &f, make_cudaExtent(0, 8, 0), 2));
  cudaGetLastError();
  cudaChannelFormatDesc bad = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  SHOW("three channels", cudaMallocMipmappedArray(&m, &bad, make_cudaExtent(8, 8, 0), 2));
  cudaGetLastError();
  SHOW("free NULL", cudaFreeMipmappedArray(nullptr));
  cudaGetLastError();

  struct {
    const char *what;
    cudaExtent ext;
    unsigned flags, levels;
  } shapes[] = {
      {"1D 16", make_cudaExtent(16, 0, 0), 0, 5},
      {"2D 16x8", make_cudaExtent(16, 8, 0), 0, 5},
      {"3D 8x4x2", make_cudaExtent(8, 4, 2), 0, 4},
      {"layered 8x8x3", make_cudaExtent(8, 8, 3), cudaArrayLayered, 4},
      {"cubemap 8x8x6", make_cudaExtent(8, 8, 6), cudaArrayCubemap, 4},
  };
  for (auto &s : shapes) {
    cudaError_t e = cudaMallocMipmappedArray(&m, &f, s.ext, s.levels, s.flags);
    SHOW(s.what, e);
    if (e != cudaSuccess) continue;
    show_levels(s.what, m, s.levels);
    cudaGetLastError();
    SHOW("free", cudaFreeMipmappedArray(m));
  }
}

struct sampling {
  const char *what;
  cudaTextureFilterMode filter, mip_filter;
  float bias, max_clamp;
  bool grad;  // tex2DGrad too
};

static void sample(cudaMipmappedArray_t m, const sampling &s, const float *x,
                   const float *y, const float *lod, const float *grad,
                   float *out) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = m;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = s.filter;
  td.mipmapFilterMode = s.mip_filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.mipmapLevelBias = s.bias;
  td.minMipmapLevelClamp = 0.0f;
  td.maxMipmapLevelClamp = s.max_clamp;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  SHOW(s.what, e);
  if (e != cudaSuccess) return;
  float host[kSamples];
  char what[96];
  by_lod<<<1, kSamples>>>(t, x, y, lod, out, kSamples);
  SHOW("lod launch", cudaDeviceSynchronize());
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  std::snprintf(what, sizeof(what), "%s tex2DLod", s.what);
  print_bits(what, host, kSamples);
  if (s.grad) {
    by_grad<<<1, kSamples>>>(t, x, y, grad, out, kSamples);
    SHOW("grad launch", cudaDeviceSynchronize());
    cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
    std::snprintf(what, sizeof(what), "%s tex2DGrad", s.what);
    print_bits(what, host, kSamples);
  }

  cudaResourceDesc back;
  std::memset(&back, 0, sizeof(back));
  SHOW("resource desc", cudaGetTextureObjectResourceDesc(&back, t));
  SAY("resource is the mipmapped array",
      back.resType == cudaResourceTypeMipmappedArray && back.res.mipmap.mipmap == m);
  SHOW("destroy texture", cudaDestroyTextureObject(t));
}

static void texturing(void) {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m = nullptr;
  SHOW("texture array", cudaMallocMipmappedArray(&m, &f, make_cudaExtent(kW, kH, 0), kLevels));
  for (int l = 0; l < kLevels; l++) {
    int w = kW >> l > 0 ? kW >> l : 1, h = kH >> l > 0 ? kH >> l : 1;
    float v[kW * kH];
    for (int i = 0; i < w * h; i++) v[i] = texel(l, i);
    cudaArray_t a = nullptr;
    cudaGetMipmappedArrayLevel(&a, m, l);
    char what[64];
    std::snprintf(what, sizeof(what), "fill level %d", l);
    SHOW(what, cudaMemcpy2DToArray(a, 0, 0, v, w * sizeof(float), w * sizeof(float), h,
                                   cudaMemcpyHostToDevice));
  }
  float *x, *y, *lod, *grad, *out;
  cudaMalloc(&x, sizeof(kX));
  cudaMalloc(&y, sizeof(kY));
  cudaMalloc(&lod, sizeof(kLod));
  cudaMalloc(&grad, sizeof(kGrad));
  cudaMalloc(&out, kSamples * sizeof(float));
  cudaMemcpy(x, kX, sizeof(kX), cudaMemcpyHostToDevice);
  cudaMemcpy(y, kY, sizeof(kY), cudaMemcpyHostToDevice);
  cudaMemcpy(lod, kLod, sizeof(kLod), cudaMemcpyHostToDevice);
  cudaMemcpy(grad, kGrad, sizeof(kGrad), cudaMemcpyHostToDevice);
  const sampling modes[] = {
      {"point, point between levels", cudaFilterModePoint, cudaFilterModePoint, 0.0f, 4.0f, true},
      {"point, linear between levels", cudaFilterModePoint, cudaFilterModeLinear, 0.0f, 4.0f, false},
      {"linear, point between levels", cudaFilterModeLinear, cudaFilterModePoint, 0.0f, 4.0f, true},
      {"bias 0.5, clamp 2", cudaFilterModePoint, cudaFilterModeLinear, 0.5f, 2.0f, false},
  };
  for (auto &s : modes) sample(m, s, x, y, lod, grad, out);
  cudaFree(x);
  cudaFree(y);
  cudaFree(lod);
  cudaFree(grad);
  cudaFree(out);
  SHOW("free texture array", cudaFreeMipmappedArray(m));
}

static void driver(void) {
  CUDA_ARRAY3D_DESCRIPTOR d = {};
  d.Width = 32;
  d.Height = 32;
  d.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  d.NumChannels = 4;
  CUmipmappedArray m = nullptr;
  CUarray a = nullptr;
  SHOW("cuMipmappedArrayCreate 32x32 6 levels", cuMipmappedArrayCreate(&m, &d, 6));
  SHOW("cuMipmappedArrayGetLevel 5", cuMipmappedArrayGetLevel(&a, m, 5));
  CUDA_ARRAY3D_DESCRIPTOR l = {};
  SHOW("cuArray3DGetDescriptor of level 5", cuArray3DGetDescriptor(&l, a));
  std::printf("level 5: %zu x %zu x %zu format %d channels %u flags %u\n", l.Width, l.Height,
              l.Depth, (int)l.Format, l.NumChannels, l.Flags);
  SHOW("cuMipmappedArrayGetLevel 6", cuMipmappedArrayGetLevel(&a, m, 6));
  SHOW_NULL("cuMipmappedArrayGetLevel NULL", cuMipmappedArrayGetLevel(nullptr, m, 0));
  SHOW_NULL("cuMipmappedArrayCreate NULL", cuMipmappedArrayCreate(nullptr, &d, 2));
  SHOW_NULL("cuMipmappedArrayCreate NULL descriptor", cuMipmappedArrayCreate(&m, nullptr, 2));
  SHOW("cuMipmappedArrayDestroy", cuMipmappedArrayDestroy(m));
  SHOW("cuMipmappedArrayDestroy NULL", cuMipmappedArrayDestroy(nullptr));
}

int main() {
  SHOW("cudaFree(0)", cudaFree(0));
  creation();
  texturing();
  driver();
  return 0;
}
