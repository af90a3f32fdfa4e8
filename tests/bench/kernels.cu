// SPDX-License-Identifier: MIT
// Benchmark kernels for the interpreter's host harness (tools/ptx-run),
// beside the corpus's vector_add, int_loop and float_loop: the shapes
// that dominate real programs — shared-memory tiling with barriers, a
// tree reduction ending in warp shuffles, and shared-memory atomics.

#define TILE 16

// C = A x B for n x n row-major matrices, n a multiple of TILE.
extern "C" __global__ void matmul_tiled(const float *a, const float *b,
					float *c, int n)
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
			sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = sum;
}

// One partial sum per block of 256 threads, each thread adding a
// grid-stride run first.
extern "C" __global__ void reduce_sum(const float *in, float *partial, int n)
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
