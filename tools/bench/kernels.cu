// SPDX-License-Identifier: MIT
// Kernels of the interpreter benchmark (tools/bench/interp_bench.c);
// baseline.c holds the same algorithms in C. Arithmetic-heavy loops
// (integer hashing, f32 polynomials, Mandelbrot iterations with
// divergence), and the shapes of real programs for comparison: tiled
// matrix multiply, a reduction, a streaming saxpy. tests/bench/run-bench
// runs matmul, reduce and histogram256 through ptx-run on every worker.

extern "C" __global__ void int_hash(unsigned *out, int iters)
{
	unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
	for (int i = 0; i < iters; i++) {
		x = x * 1664525u + 1013904223u;
		x ^= x >> 13;
		x += x << 5;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

extern "C" __global__ void fma_poly(float *out, int iters)
{
	float x = (float)(blockIdx.x * blockDim.x + threadIdx.x) * 1e-4f;
	float y = 0.0f;
	for (int i = 0; i < iters; i++) {
		y = fmaf(y, x, 0.5f);
		y = fmaf(y, x, -0.25f);
		y = fmaf(y, x, 0.125f);
		y = fmaf(y, x, 1.0f);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = y;
}

extern "C" __global__ void mandel(unsigned *out, int w, int h, int max_iter)
{
	int px = blockIdx.x * blockDim.x + threadIdx.x;
	int py = blockIdx.y;
	float cx = -2.0f + 3.0f * (float)px / (float)w;
	float cy = -1.5f + 3.0f * (float)py / (float)h;
	float x = 0.0f, y = 0.0f;
	int i = 0;
	while (i < max_iter && x * x + y * y <= 4.0f) {
		float t = x * x - y * y + cx;
		y = 2.0f * x * y + cy;
		x = t;
		i++;
	}
	out[py * w + px] = (unsigned)i;
}

#define TILE 16

extern "C" __global__ void matmul(const float *a, const float *b, float *c,
				  int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	for (int t = 0; t < n; t += TILE) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum = fmaf(ta[threadIdx.y][k], tb[k][threadIdx.x], sum);
		__syncthreads();
	}
	c[row * n + col] = sum;
}

extern "C" __global__ void reduce(const float *in, float *partial, int n)
{
	__shared__ float s[256];
	float v = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		v += in[i];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int stride = blockDim.x / 2; stride >= 32; stride /= 2) {
		if (threadIdx.x < stride)
			s[threadIdx.x] += s[threadIdx.x + stride];
		__syncthreads();
	}
	if (threadIdx.x < 32) {
		v = s[threadIdx.x];
		for (int off = 16; off > 0; off /= 2)
			v += __shfl_down_sync(0xffffffffu, v, off);
		if (threadIdx.x == 0)
			partial[blockIdx.x] = v;
	}
}

extern "C" __global__ void saxpy(float a, const float *x, const float *y,
				 float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = fmaf(a, x[i], y[i]);
}

// 256-bin histogram of bytes: shared-memory atomics, then one global
// atomic per bin and block.
extern "C" __global__ void histogram256(const unsigned char *in,
					unsigned *bins, int n)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		atomicAdd(&local[in[i]], 1u);
	__syncthreads();
	atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
