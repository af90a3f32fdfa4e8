// SPDX-License-Identifier: MIT
// Census forms nothing else in the corpus produces: narrow and vector
// kernel parameters, narrow call arguments, old-style vote, fences,
// 64-bit matches, constant-space addresses, mbarrier inval and parity
// waits, cooperative groups' reserved shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__constant__ int ctable[4] = { 11, 22, 33, 44 };

struct one {
	signed char k;
};

__device__ __noinline__ float scaled(float x, one k)
{
	return x * (float)k.k;
}

// Parameters of every narrow type and two small structs by value.
extern "C" __global__ void params(signed char s8, unsigned char u8,
				  short s16, unsigned short u16, uint2 p,
				  uchar2 q, float f, int *out)
{
	int t = threadIdx.x;
	out[t * 8 + 0] = s8 + t;
	out[t * 8 + 1] = u8 + t;
	out[t * 8 + 2] = s16 + t;
	out[t * 8 + 3] = u16 + t;
	/* as older compilers loaded vector parameters */
	unsigned px, py;
	unsigned short qx, qy;
	asm("ld.param.v2.u32 {%0, %1}, [params_param_4];" : "=r"(px), "=r"(py));
	asm("ld.param.v2.u8 {%0, %1}, [params_param_5];" : "=h"(qx), "=h"(qy));
	out[t * 8 + 4] = (int)(px + py * t) + (int)(p.x - px);
	out[t * 8 + 5] = qx * 256 + qy + t + (q.y - qy);
	out[t * 8 + 6] = __float_as_int(scaled(f, one{ (signed char)(s8 + t) }));
	const int *c;
	asm("cvta.const.u64 %0, ctable;" : "=l"(c));
	out[t * 8 + 7] = c[t & 3];
}

extern "C" __global__ void warp_misc(const unsigned long long *in,
				     unsigned *out)
{
	int t = threadIdx.x;
	unsigned long long v = in[t];
	unsigned b;
	asm volatile("{ .reg .pred p; setp.ne.u64 p, %1, 0; "
		     "vote.ballot.sync.b32 %0, p, 0xffffffff; }"
		     : "=r"(b) : "l"(v & 4));
	out[t * 4] = b;
	out[t * 4 + 1] = __match_any_sync(0xffffffff, v % 5);
	asm volatile("membar.gl;" ::: "memory");
	asm volatile("fence.sc.cta;" ::: "memory");
	asm volatile("membar.cta;" ::: "memory");
	out[t * 4 + 2] = __match_any_sync(0xffffffff, (unsigned long long)t >> 2);
	out[t * 4 + 3] = t;
}

// Split arrive/wait barriers: phases, parity waits, inval (sm_80).
extern "C" __global__ void mbarrier_phases(int *out)
{
#if __CUDA_ARCH__ >= 800
	__shared__ unsigned long long bar;
	__shared__ int data[64];
	unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
	int t = threadIdx.x;
	if (t == 0)
		asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a),
			     "r"(64) : "memory");
	__syncthreads();
	for (unsigned phase = 0; phase < 3; phase++) {
		data[t] = t * 10 + (int)phase;
		asm volatile("{ .reg .b64 state; "
			     "mbarrier.arrive.shared.b64 state, [%0]; }"
			     :: "r"(a) : "memory");
		unsigned done = 0;
		while (!done)
			asm volatile("{ .reg .pred p; "
				     "mbarrier.test_wait.parity.shared.b64 p, "
				     "[%1], %2; selp.u32 %0, 1, 0, p; }"
				     : "=r"(done) : "r"(a), "r"(phase & 1)
				     : "memory");
		out[phase * 64 + t] = data[(t + 1) % 64];
		__syncthreads();
	}
	if (t == 0)
		asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(a)
			     : "memory");
#endif
}

// Cooperative groups' tiles larger than a warp keep their scratch in
// reserved shared memory (%reserved_smem_offset_1, sm_80).
extern "C" __global__ void big_tiles(const int *in, int *out)
{
	__shared__ cg::block_tile_memory<128> scratch;
	cg::thread_block block = cg::this_thread_block(scratch);
	auto tile = cg::tiled_partition<64>(block);
	int v = in[block.thread_rank()];
	int sum = cg::reduce(tile, v, cg::plus<int>());
	tile.sync();
	out[block.thread_rank()] = sum + (int)tile.meta_group_rank();
}

// Floating-point atomic adds on special values (NaN, infinities, signed
// zeros, subnormals), one address per thread: old values and results.
extern "C" __global__ void float_atomics(float *f, const float *fb,
					 double *d, const double *db,
					 unsigned *h, const unsigned *hb,
					 unsigned *old)
{
	int t = threadIdx.x;
	old[t * 4] = __float_as_uint(atomicAdd(&f[t], fb[t]));
	old[t * 4 + 1] = (unsigned)__double_as_longlong(atomicAdd(&d[t], db[t]));
	unsigned o;
	asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(o)
		     : "l"(&h[t]), "r"(hb[t]) : "memory");
	old[t * 4 + 2] = o;
	asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(o)
		     : "l"(&h[64 + t]), "r"(hb[64 + t]) : "memory");
	old[t * 4 + 3] = o;
}
