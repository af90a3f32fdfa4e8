// SPDX-License-Identifier: MIT
// The execution model and device-side library: malloc/free across
// launches, printf formats and the FIFO's capacity, cooperative grid
// synchronisation, named barriers with thread counts, carry chains,
// partial warps with member masks, special registers, asynchronous
// copies with mbarriers.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

/* redux.sync exists from sm_80 on */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define REDUCE(op, m, v) __reduce_##op##_sync(m, v)
#else
#define REDUCE(op, m, v) ((m) & 0 ? (v) : 0)
#endif

// ---- malloc / free ----

// Each thread allocates n[i] bytes, fills them, keeps every other block
// for the next launch (keep[i]), frees the rest; out[i] = checksum.
extern "C" __global__ void heap_alloc(const int *n, unsigned char **keep,
				      unsigned *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned char *p = (unsigned char *)malloc(n[i]);
	unsigned sum = 0;
	if (!p) {
		out[i] = 0xdeadu;
		return;
	}
	for (int k = 0; k < n[i]; k++)
		p[k] = (unsigned char)(i * 7 + k);
	for (int k = 0; k < n[i]; k++)
		sum += p[k] * (k + 1);
	out[i] = sum;
	if (i & 1) {
		keep[i] = p;
	} else {
		free(p);
		keep[i] = 0;
	}
}

// The blocks kept by heap_alloc survive until this launch frees them.
extern "C" __global__ void heap_reuse(const int *n, unsigned char **keep,
				      unsigned *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned char *p = keep[i];
	unsigned sum = 0;
	if (p) {
		for (int k = 0; k < n[i]; k++)
			sum += p[k] * (k + 1);
		free(p);
	}
	free(0);
	out[i] = sum;
}

extern "C" __global__ void heap_exhaust(int size, int *count)
{
	int got = 0;
	while (malloc(size))
		got++;
	count[threadIdx.x] = got;
}

// ---- printf ----

extern "C" __global__ void print_formats(int i, float f, double d,
					 long long ll, const char *s)
{
	int t = threadIdx.x;
	if (t >= 4)
		return;
	printf("[%d] i=%d u=%u x=%x X=%08X o=%o c=%c\n", t, i + t,
	       (unsigned)(i - t), i * t, i * (t + 1), i + t, 'a' + t);
	printf("[%d] f=%f e=%e g=%g a=%.3f w=%8.2f l=%-8.1f|\n", t, f * t, d,
	       f / (t + 1), d * t, f, d);
	printf("[%d] ll=%lld llu=%llu s=%s %5s %-5s| %%\n", t, ll * t,
	       (unsigned long long)ll + t, s, s + t, s + 2 * t);
}

// One thread prints @lines lines of @args integers each: how many fit a
// FIFO of the launch's size.
extern "C" __global__ void print_flood(int lines, int args)
{
	for (int k = 0; k < lines; k++) {
		if (args == 1)
			printf("%d\n", k);
		else if (args == 4)
			printf("%d %d %d %d\n", k, k, k, k);
		else
			printf("line %d %s\n", k, "abcdefghijklmnopqrstuvwxyz");
	}
}

// ---- cooperative launch: grid-wide barriers ----

extern "C" __global__ void coop_sum(const int *in, int *partial, int *out,
				    unsigned *env)
{
	cg::grid_group g = cg::this_grid();
	__shared__ int s;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		s = 0;
	__syncthreads();
	atomicAdd(&s, in[i]);
	__syncthreads();
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s;
	g.sync();
	if (i == 0) {
		int total = 0;
		for (unsigned b = 0; b < gridDim.x; b++)
			total += partial[b];
		partial[gridDim.x] = total;
	}
	g.sync();
	out[i] = partial[gridDim.x] - in[i];
	g.sync();
	out[i] += partial[(blockIdx.x + 1) % gridDim.x];
	if (i == 0)
		env[0] = g.is_valid();
}

#ifdef __CUDACC_RDC__
// Grid barriers of both kinds in one kernel (-rdc builds only: the
// device runtime's are external calls): nvcc's grid.sync() and the
// device runtime's cudaCGSynchronize, as numba's grid group calls it,
// alternating. Thread col writes m[row][col] = m[row - 1][cols - 1 -
// col] + 1, a barrier after each row: m[row][col] == row for all when
// both wait for the whole grid.
extern "C" __global__ void coop_mixed(int *m, int rows, int cols)
{
	cg::grid_group g = cg::this_grid();
	unsigned long long h = cudaCGGetIntrinsicHandle(cudaCGScopeGrid);
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	for (int row = 1; row < rows; row++) {
		m[row * cols + col] = m[(row - 1) * cols + cols - 1 - col] + 1;
		if (row & 1)
			g.sync();
		else
			cudaCGSynchronize(h, 0);
	}
}
#endif

// ---- named barriers with thread counts ----

// Warps 0-1 produce, warps 2-3 consume, through barrier 1 (128
// threads); barrier 2 hands back. bar.red counts across all four.
extern "C" __global__ void named_barriers(const int *in, int *out)
{
	__shared__ int buf[64];
	int t = threadIdx.x;
	for (int round = 0; round < 3; round++) {
		if (t < 64) {
			buf[t] = in[t] * (round + 1);
			asm volatile("bar.arrive 1, 128;" ::: "memory");
			asm volatile("bar.sync 2, 128;" ::: "memory");
		} else {
			asm volatile("bar.sync 1, 128;" ::: "memory");
			out[round * 64 + t - 64] = buf[t - 64] + t;
			asm volatile("bar.arrive 2, 128;" ::: "memory");
		}
	}
	int votes = __syncthreads_count(in[t % 64] > 50);
	int all = __syncthreads_and(in[t % 64] >= 0);
	int any = __syncthreads_or(in[t % 64] == 77);
	if (t == 0) {
		out[192] = votes;
		out[193] = all;
		out[194] = any;
	}
}

// ---- carry chains: 128-bit arithmetic ----

extern "C" __global__ void carry_ops(const unsigned *a, const unsigned *b,
				     unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned *x = a + 4 * i, *y = b + 4 * i;
	unsigned *o = out + 20 * i;
	asm("add.cc.u32 %0, %4, %8;\n\taddc.cc.u32 %1, %5, %9;\n\t"
	    "addc.cc.u32 %2, %6, %10;\n\taddc.u32 %3, %7, %11;"
	    : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]),
	      "r"(y[1]), "r"(y[2]), "r"(y[3]));
	asm("sub.cc.u32 %0, %4, %8;\n\tsubc.cc.u32 %1, %5, %9;\n\t"
	    "subc.cc.u32 %2, %6, %10;\n\tsubc.u32 %3, %7, %11;"
	    : "=r"(o[4]), "=r"(o[5]), "=r"(o[6]), "=r"(o[7])
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]),
	      "r"(y[1]), "r"(y[2]), "r"(y[3]));
	// 64x64 -> 128 from 32-bit pieces with mad.cc / madc
	asm("mul.lo.u32 %0, %4, %6;\n\tmul.hi.u32 %1, %4, %6;\n\t"
	    "mad.lo.cc.u32 %1, %5, %6, %1;\n\tmadc.hi.u32 %2, %5, %6, 0;\n\t"
	    "mad.lo.cc.u32 %1, %4, %7, %1;\n\tmadc.hi.cc.u32 %2, %4, %7, %2;\n\t"
	    "addc.u32 %3, 0, 0;\n\tmad.lo.cc.u32 %2, %5, %7, %2;\n\t"
	    "madc.hi.u32 %3, %5, %7, %3;"
	    : "=r"(o[8]), "=&r"(o[9]), "=&r"(o[10]), "=&r"(o[11])
	    : "r"(x[0]), "r"(x[1]), "r"(y[0]), "r"(y[1]));
	unsigned long long p = (unsigned long long)x[0] << 32 | x[1];
	unsigned long long q = (unsigned long long)y[0] << 32 | y[1], r0, r1;
	asm("add.cc.u64 %0, %2, %3;\n\taddc.u64 %1, 0, 0;"
	    : "=l"(r0), "=l"(r1) : "l"(p), "l"(q));
	o[12] = (unsigned)r0;
	o[13] = (unsigned)(r0 >> 32);
	o[14] = (unsigned)r1;
	asm("sub.cc.s64 %0, %2, %3;\n\tsubc.s64 %1, 0, 0;"
	    : "=l"(r0), "=l"(r1) : "l"(p), "l"(q));
	o[15] = (unsigned)r0;
	o[16] = (unsigned)r1;
	asm("mad.hi.cc.s32 %0, %2, %3, %4;\n\taddc.s32 %1, 7, 0;"
	    : "=r"(o[17]), "=r"(o[18]) : "r"(x[2]), "r"(y[2]), "r"(x[3]));
	asm("mad.lo.cc.u64 %0, %1, %2, %3;" : "=l"(r0) : "l"(p), "l"(q),
	    "l"(r1));
	o[19] = (unsigned)(r0 ^ (r0 >> 32));
}

// ---- partial warps, member masks, warp-level reductions ----

extern "C" __global__ void warp_masks(const int *in, int *out)
{
	int t = threadIdx.x, lane = t & 31;
	int v = in[t];
	int *o = out + t * 16;
	unsigned active = __activemask();
	o[0] = (int)active;
	o[1] = __shfl_sync(active, v, 3);
	o[2] = __shfl_xor_sync(active, v, 1, 4);
	o[3] = __shfl_up_sync(active, v, 1, 8);
	o[4] = __shfl_down_sync(active, v, 2, 16);
	o[5] = (int)__ballot_sync(active, v > 40);
	o[6] = __any_sync(active, v == 13);
	o[7] = __all_sync(active, v < 90);
	unsigned m = 0;
	o[8] = (int)__match_all_sync(active, v & 1, (int *)&m);
	o[9] = (int)m;
	o[10] = REDUCE(add, active, v);
	o[11] = (int)REDUCE(max, active, (unsigned)v);
	o[12] = REDUCE(min, active, v - 50);
	o[13] = (int)REDUCE(or, active, (unsigned)v);
	if (lane < 16) {	// diverged: the half-warp alone
		__syncwarp(0xffff & active);
		o[14] = __shfl_xor_sync(0xffff & active, v, 2);
		o[15] = (int)(__activemask() & 0xffff);
	} else {
		o[14] = (int)REDUCE(xor, active & 0xffff0000, (unsigned)v);
		o[15] = (int)__ballot_sync(active & 0xffff0000, v & 4);
	}
}

// ---- special registers ----

extern "C" __global__ void sregs(unsigned *out)
{
	extern __shared__ int dyn[];
	unsigned t = threadIdx.x + blockDim.x * (threadIdx.y +
						 blockDim.y * threadIdx.z);
	unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y *
					       blockIdx.z);
	unsigned *o = out + (b * blockDim.x * blockDim.y * blockDim.z + t) * 12;
	unsigned r;
	asm("mov.u32 %0, %%laneid;" : "=r"(r));
	o[0] = r;
	asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r));
	o[1] = r;
	asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
	o[2] = r;
	asm("mov.u32 %0, %%lanemask_le;" : "=r"(r));
	o[3] = r;
	asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r));
	o[4] = r;
	asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r));
	o[5] = r;
	asm("mov.u32 %0, %%nctaid.z;" : "=r"(r));
	o[6] = r * 100 + gridDim.y * 10 + gridDim.x;
	asm("mov.u32 %0, %%ntid.z;" : "=r"(r));
	o[7] = r * 100 + blockDim.y * 10 + blockDim.x;
	asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
	o[8] = r;
	dyn[t] = (int)t;
	unsigned long long c0, c1, g0, g1;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
	__nanosleep(100);
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
	o[9] = c1 > c0;
	o[10] = g1 >= g0;
	asm("mov.u32 %0, %%nsmid;" : "=r"(r));
	o[11] = r > 0;
}

// ---- asynchronous copies (sm_80) ----

extern "C" __global__ void async_copies(const int *in, int *out)
{
#if __CUDA_ARCH__ >= 800
	__shared__ __align__(16) int s[4 * 64];
	__shared__ unsigned long long bar;
	int t = threadIdx.x;
	unsigned base = (unsigned)__cvta_generic_to_shared(s);
	for (int k = 0; k < 4; k++)
		s[k * 64 + t] = -1;
	// each thread arrives twice: through cp.async's .noinc arrive (which
	// the count must include) and its own
	if (t == 0)
		asm volatile("mbarrier.init.shared.b64 [%0], %1;"
			     :: "r"((unsigned)__cvta_generic_to_shared(&bar)),
			     "r"(128));
	__syncthreads();
	// 16-byte copies with offsets, some partly zero-filled
	if (t < 16) {
		unsigned src_size = t % 5 * 4;
		asm volatile("cp.async.cg.shared.global [%0+16], [%1+16], 16, %2;"
			     :: "r"(base + t * 16), "l"(in + (t % 8) * 4),
			     "r"(src_size) : "memory");
	}
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;"
		     :: "r"(base + 512 + t * 4), "l"(in + 63 - t) : "memory");
	asm volatile("cp.async.commit_group;" ::: "memory");
	asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
		     :: "r"(base + 768 + (t & 31) * 8), "l"(in + (t & 31) * 2)
		     : "memory");
	asm volatile("cp.async.commit_group;" ::: "memory");
	asm volatile("cp.async.wait_group 1;" ::: "memory");
	asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];"
		     :: "r"((unsigned)__cvta_generic_to_shared(&bar)) : "memory");
	unsigned long long state;
	asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state)
		     : "r"((unsigned)__cvta_generic_to_shared(&bar)) : "memory");
	unsigned done = 0;
	while (!done)
		asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, "
			     "[%1], %2; selp.u32 %0, 1, 0, p; }"
			     : "=r"(done)
			     : "r"((unsigned)__cvta_generic_to_shared(&bar)),
			     "l"(state) : "memory");
	asm volatile("cp.async.wait_all;" ::: "memory");
	__syncthreads();
	for (int k = 0; k < 4; k++)
		out[k * 64 + t] = s[k * 64 + t];
#endif
}
