// SPDX-License-Identifier: MIT
// Kernels for the JIT's vector form (test_jit_lanes.c): lanes that part
// ways at branches, guards and exits, threads past the last whole group,
// barriers after some threads exited, 2-D and 3-D blocks, and memory
// accessed contiguously, uniformly, strided, gathered and atomically.
// Each is run on the interpreter, the scalar JIT and the vector JIT, and
// the three must agree bit for bit.

extern "C" __global__ void lanes_diverge(const float *in, const int *n_iter,
					 float *out, int *count, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i], acc = 0.0f;
	int k = n_iter[i] & 15;
	for (int j = 0; j < k; j++) {	// a trip count per lane
		if ((j ^ i) & 1)
			acc = fmaf(acc, x, 1.5f);
		else
			acc = acc * 0.5f - __sinf(x + j);
		if (acc > 1e6f)
			break;
	}
	if (i % 5 == 3)
		atomicAdd(count, k);
	else
		out[n + i] = sqrtf(fabsf(acc)) / (x + 2.0f);
	out[i] = acc;
}

#define SH 64

// 2-D blocks whose rows do not fill a group; threads leave before and
// between barriers; a reduction whose tail parts groups.
extern "C" __global__ void lanes_barrier(const int *in, int *out,
					 unsigned *hist, int live)
{
	__shared__ int s[SH];
	__shared__ unsigned bins[16];
	int t = threadIdx.y * blockDim.x + threadIdx.x;
	int g = blockIdx.x * blockDim.x * blockDim.y + t;
	if (t < 16)
		bins[t] = 0;
	s[t] = in[g];
	__syncthreads();
	atomicAdd(&bins[in[g] & 15], 1u);
	if (t >= live)
		return;		// the rest of the CTA goes on without them
	__syncthreads();
	for (int stride = SH / 2; stride > 0; stride /= 2) {
		if (t < stride && t + stride < live)
			s[t] += s[t + stride];
		__syncthreads();
	}
	int v = s[(t * 7) % live];	// a gather
	out[g] = v + s[0] * (int)threadIdx.y + (int)threadIdx.z;
	if (t < 16)
		atomicAdd(&hist[t], bins[t]);
}

struct pair {
	short a;
	unsigned char b;
	signed char c;
};

// Loads and stores of every width: contiguous, uniform, strided,
// reversed, vector (v2, v4) and narrow signed/unsigned.
extern "C" __global__ void lanes_memory(const int *in, const pair *p,
					const float4 *q, long long *out,
					float4 *out4, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int u = in[blockIdx.x];			// uniform
	int s = in[(i * 3) % n];		// strided
	int r = in[n - 1 - i];			// reversed
	pair pp = p[i];
	float4 f = q[i % 3];
	long long w = (long long)u * s - r + pp.a * 3 + pp.b - pp.c;
	out[i] = w;
	out[n + (i * 5) % n] = (long long)(f.x * f.w) + i;
	out4[i] = make_float4(f.y, f.z, (float)pp.a, (float)pp.c);
}

// A counter every write of which is the same in every lane, yet whose
// value differs by thread after lanes part in a loop: the vector form
// must not take it for one value after the barrier (an address from it).
extern "C" __global__ void lanes_counter(const int *in, int *out)
{
	__shared__ int s[64];
	int t = threadIdx.x;
	int k = 0;
	while (k < 12 && in[(t + k) & 63] > 100 * k)
		k++;
	s[t] = k;
	__syncthreads();
	out[t] = s[(t + k) & 63] + in[k];
}

// Regions of the vector form (a loop over the groups each): registers
// kept across several barriers that no region between changes, a
// barrier in a loop whose trip count is the same in every thread, and
// lanes that part ways between barriers (a loop of a trip count of
// their own) holding registers the region never touched, which the
// scalar code then finds in their save slots.
extern "C" __global__ void lanes_regions(const int *in, int *out, int rounds)
{
	__shared__ int s[128];
	int t = threadIdx.x;
	int n = blockDim.x;
	int g = blockIdx.x * n + t;
	int a = in[g], b = in[g] * 3 + 1, c = in[g] ^ 0x55;
	s[t] = a;
	__syncthreads();
	int acc = 0;
#pragma unroll 1
	for (int r = 0; r < rounds; r++) {
		int x = s[(t + r + 1) % n];
		for (int j = 0; j < (x & 3); j++)
			acc += s[(t * 5 + j) % n] ^ b;
		__syncthreads();
		s[t] = x + acc;
		__syncthreads();
	}
	out[g] = acc + a * c - b + s[(t + 3) % n];
}
