// SPDX-License-Identifier: MIT
// Atomics on global and shared memory: every thread of every block hits
// a few counters, so results check both the operations and atomicity.
extern "C" __global__ void global_atomics(const int *in, int *g,
					  unsigned long long *g64, float *gf,
					  double *gd)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];
	atomicAdd(&g[0], v);
	atomicSub(&g[1], v);
	atomicMax(&g[2], v);
	atomicMin(&g[3], v);
	atomicMax((unsigned *)&g[4], (unsigned)v);
	atomicMin((unsigned *)&g[5], (unsigned)v);
	atomicAnd(&g[6], (int)~(1u << (i & 31)));
	atomicOr(&g[7], (int)(1u << (v & 31)));
	atomicXor(&g[8], v);
	atomicInc((unsigned *)&g[9], 1000u);
	atomicDec((unsigned *)&g[10], 77u);
	int cur = g[11];	/* a maximum by compare-and-swap */
	while (cur < v) {
		int prev = atomicCAS(&g[11], cur, v);
		if (prev == cur)
			break;
		cur = prev;
	}
	atomicExch(&g[12], 5);
	atomicAdd(&g64[0], (unsigned long long)(unsigned)v << 20);
	atomicAdd(&gf[0], 0.5f);
	atomicAdd(&gd[0], 0.25);
	atomicMax(&g64[1], (unsigned long long)(unsigned)v);
}

extern "C" __global__ void shared_atomics(const int *in, int *out)
{
	__shared__ int hist[16];
	__shared__ unsigned long long total;
	int t = threadIdx.x;
	if (t < 16)
		hist[t] = 0;
	if (t == 0)
		total = 0;
	__syncthreads();
	int v = in[blockIdx.x * blockDim.x + t];
	atomicAdd(&hist[v & 15], 1);
	atomicAdd(&total, (unsigned long long)(v & 0xff));
	__syncthreads();
	if (t < 16)
		out[blockIdx.x * 17 + t] = hist[t];
	if (t == 0)
		out[blockIdx.x * 17 + 16] = (int)total;
}
