// SPDX-License-Identifier: MIT
// Textures and surfaces through object handles: every geometry, fetches
// at a list of coordinates, gathers, explicit levels of detail, queries,
// raw surface loads and stores with each out-of-bounds mode.
#include <cuda_runtime.h>

// Coordinates: c[4 * i ...]; results: out[4 * i ...].
extern "C" __global__ void tex_1d_fetch(cudaTextureObject_t t, const int *c,
					float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1Dfetch<float4>(t, c[4 * i]);
}

extern "C" __global__ void tex_1d(cudaTextureObject_t t, const float *c,
				  float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1D<float4>(t, c[4 * i]);
}

extern "C" __global__ void tex_2d(cudaTextureObject_t t, const float *c,
				  float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex2D<float4>(t, c[4 * i], c[4 * i + 1]);
}

extern "C" __global__ void tex_2d_uint(cudaTextureObject_t t, const float *c,
				       uint4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex2D<uint4>(t, c[4 * i], c[4 * i + 1]);
}

extern "C" __global__ void tex_2d_int(cudaTextureObject_t t, const float *c,
				      int4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex2D<int4>(t, c[4 * i], c[4 * i + 1]);
}

extern "C" __global__ void tex_3d(cudaTextureObject_t t, const float *c,
				  float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex3D<float4>(t, c[4 * i], c[4 * i + 1], c[4 * i + 2]);
}

extern "C" __global__ void tex_a1d(cudaTextureObject_t t, const float *c,
				   float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex1DLayered<float4>(t, c[4 * i], (int)c[4 * i + 3]);
}

extern "C" __global__ void tex_a2d(cudaTextureObject_t t, const float *c,
				   float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = tex2DLayered<float4>(t, c[4 * i], c[4 * i + 1],
					      (int)c[4 * i + 3]);
}

extern "C" __global__ void tex_cube(cudaTextureObject_t t, const float *c,
				    float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = texCubemap<float4>(t, c[4 * i], c[4 * i + 1],
					    c[4 * i + 2]);
}

extern "C" __global__ void tex_acube(cudaTextureObject_t t, const float *c,
				     float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = texCubemapLayered<float4>(t, c[4 * i], c[4 * i + 1],
						   c[4 * i + 2],
						   (int)c[4 * i + 3]);
}

extern "C" __global__ void tex_gather(cudaTextureObject_t t, const float *c,
				      float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[4 * i] = tex2Dgather<float4>(t, c[4 * i], c[4 * i + 1], 0);
		out[4 * i + 1] = tex2Dgather<float4>(t, c[4 * i],
						     c[4 * i + 1], 1);
		out[4 * i + 2] = tex2Dgather<float4>(t, c[4 * i],
						     c[4 * i + 1], 2);
		out[4 * i + 3] = tex2Dgather<float4>(t, c[4 * i],
						     c[4 * i + 1], 3);
	}
}

// c[4 * i + 2] is the level of detail, c[4 * i + 3] a gradient.
extern "C" __global__ void tex_lod(cudaTextureObject_t t, const float *c,
				   float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[2 * i] = tex2DLod<float4>(t, c[4 * i], c[4 * i + 1],
					      c[4 * i + 2]);
		float g = c[4 * i + 3];
		out[2 * i + 1] = tex2DGrad<float4>(t, c[4 * i], c[4 * i + 1],
						   make_float2(g, 0),
						   make_float2(0, g));
	}
}

extern "C" __global__ void tex_query(cudaTextureObject_t t, int *out)
{
	int w, h, d;
	asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
	asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
	asm("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(t));
	out[0] = w;
	out[1] = h;
	out[2] = d;
}

// Surfaces: x is a byte offset. Thread (x, y) writes f(x, y) at its
// texel, reads back its neighbour with each out-of-bounds mode.
/* Stores, then (another launch, so that every row is written) loads
 * with each out-of-bounds mode. */
extern "C" __global__ void surf_2d(cudaSurfaceObject_t s, int w, int h)
{
	int x = threadIdx.x, y = blockIdx.x;
	if (x < w && y < h)
		surf2Dwrite(x * 1000 + y, s, x * 4, y);
}

extern "C" __global__ void surf_2d_read(cudaSurfaceObject_t s, int w, int h,
					int *out)
{
	int x = threadIdx.x, y = blockIdx.x;
	int i = y * blockDim.x + x;
	int a, b, c;
	asm volatile("suld.b.2d.b32.clamp {%0}, [%1, {%2, %3}];"
		     : "=r"(a) : "l"(s), "r"((x + 1) * 4), "r"(y - 1));
	asm volatile("suld.b.2d.b32.zero {%0}, [%1, {%2, %3}];"
		     : "=r"(b) : "l"(s), "r"((x + 1) * 4), "r"(y + 1));
	asm volatile("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];"
		     : "=r"(c) : "l"(s), "r"((x % w) * 4), "r"(y % h));
	out[3 * i] = a;
	out[3 * i + 1] = b;
	out[3 * i + 2] = c;
}

extern "C" __global__ void surf_rgba(cudaSurfaceObject_t s, int w, int h)
{
	int x = threadIdx.x, y = blockIdx.x;
	if (x < w && y < h)
		surf2Dwrite(make_uchar4(x, y, x + y, 255), s, x * 4, y);
}

extern "C" __global__ void surf_1d_3d(cudaSurfaceObject_t s1,
				      cudaSurfaceObject_t s3,
				      cudaSurfaceObject_t sl, float *out)
{
	int x = threadIdx.x;
	surf1Dwrite((float)x * 0.5f, s1, x * 4);
	surf3Dwrite(make_float2(x, -x), s3, (x % 4) * 8, x / 4 % 4, x / 16);
	surf2DLayeredwrite((float)x, sl, (x % 4) * 4, x / 4 % 2, x / 8);
	__syncthreads();
	out[2 * x] = surf1Dread<float>(s1, ((x + 3) % 32) * 4);
	float2 v = surf3Dread<float2>(s3, ((x + 1) % 4) * 8, x / 4 % 4,
				      x / 16);
	out[2 * x + 1] = v.x + v.y * 0.25f;
}
