// SPDX-License-Identifier: MIT
// Control flow: divergent branches and loops, early exits, switches,
// calls, recursion, function pointers, local arrays.

// Per-thread loop trip counts and nested divergence.
extern "C" __global__ void diverge(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i], acc = 0;
	for (int k = 0; k < (v & 31); k++) {
		if (k & 1)
			acc += k * v;
		else if (k % 3 == 0)
			acc ^= k;
		else
			continue;
		if (acc > 100000)
			break;
	}
	if (v < 0) {
		out[i] = -1;
		return;
	}
	int w = v;
	while (w > 1)
		w = (w & 1) ? 3 * w + 1 : w / 2;	/* Collatz: varies a lot */
	out[i] = acc + w;
}

__device__ __noinline__ int classify(int v)
{
	switch (v & 15) {
	case 0: return 10;
	case 1: return 21;
	case 2: return 32;
	case 3: return 43;
	case 4: return 54;
	case 5: return 65;
	case 6: return 76;
	case 7: return 87;
	case 9: return 99;
	case 12: return 120;
	default: return -v;
	}
}

__device__ __noinline__ int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

struct pair {
	int a, b;
};

__device__ __noinline__ struct pair swap_pair(struct pair p, int k)
{
	struct pair q = { p.b + k, p.a - k };
	return q;
}

typedef int (*unary_fn)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }
__device__ unary_fn table[3] = { twice, square, negate };

extern "C" __global__ void calls(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i];
	struct pair p = { v, i };
	p = swap_pair(p, 3);
	out[i * 5 + 0] = classify(v);
	out[i * 5 + 1] = fib(v & 15);
	out[i * 5 + 2] = p.a * 1000 + p.b;
	out[i * 5 + 3] = table[i % 3](v);
	int local[16];
	for (int k = 0; k < 16; k++)
		local[k] = v * k + i;
	out[i * 5 + 4] = local[v & 15] + local[(v >> 4) & 15];
}

// Block-wide reduction in shared memory, with barriers in a loop.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
	extern __shared__ int s[];
	int t = threadIdx.x;
	int i = blockIdx.x * blockDim.x + t;
	s[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
		if (t < stride)
			s[t] += s[t + stride];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

// 2-D blocks: tiled transpose through static shared memory.
#define TILE 16
extern "C" __global__ void transpose(const float *in, float *out, int w,
				     int h)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	if (x < w && y < h)
		tile[threadIdx.y][threadIdx.x] = in[y * w + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	if (x < h && y < w)
		out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

// __syncthreads_count/_and/_or (bar.red) and an early exit before them.
extern "C" __global__ void bar_red(const int *in, int *out)
{
	int t = threadIdx.x;
	int v = in[blockIdx.x * blockDim.x + t];
	int c = __syncthreads_count(v > 0);
	int a = __syncthreads_and(v > -5);
	int o = __syncthreads_or(v == 7);
	if (t == 0) {
		out[blockIdx.x * 3 + 0] = c;
		out[blockIdx.x * 3 + 1] = a;
		out[blockIdx.x * 3 + 2] = o;
	}
}
