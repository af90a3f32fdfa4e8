// SPDX-License-Identifier: MIT
// Warp matrix instructions: what each lane's wmma fragment registers hold
// after a load (every census shape, type, layout and state space), where a
// store puts each register, products through wmma.mma and mma.sync, and
// ldmatrix. Needs sm_80 (bf16, tf32, f64); one warp per kernel.
#include <cuda_bf16.h>
#include <mma.h>

/* bf16, tf32 and f64 fragments of the C++ API need sm_80 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SM80 1
#else
#define SM80 0
#endif

#include "mma_dump.h"

DUMP(dump_a_f16_row, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16", 8, R8)
DUMP(dump_a_f16_col, "wmma.load.a.sync.aligned.col.m16n16k16.global.f16", 8, R8)
DUMP(dump_b_f16_col, "wmma.load.b.sync.aligned.col.m16n16k16.global.f16", 8, R8)
DUMP(dump_b_f16_row, "wmma.load.b.sync.aligned.row.m16n16k16.global.f16", 8, R8)
DUMP(dump_c_f32_row, "wmma.load.c.sync.aligned.row.m16n16k16.global.f32", 8, R8)
DUMP(dump_c_f32_col, "wmma.load.c.sync.aligned.col.m16n16k16.global.f32", 8, R8)
DUMP(dump_c_f16_row, "wmma.load.c.sync.aligned.row.m16n16k16.global.f16", 4, R4)
DUMP(dump_a_u8_row, "wmma.load.a.sync.aligned.row.m16n16k16.global.u8", 2, R2)
DUMP(dump_a_s8_col, "wmma.load.a.sync.aligned.col.m16n16k16.global.s8", 2, R2)
DUMP(dump_b_u8_col, "wmma.load.b.sync.aligned.col.m16n16k16.global.u8", 2, R2)
DUMP(dump_b_s8_row, "wmma.load.b.sync.aligned.row.m16n16k16.global.s8", 2, R2)
DUMP(dump_c_s32_row, "wmma.load.c.sync.aligned.row.m16n16k16.global.s32", 8, R8)
DUMP(dump_a_bf16_row, "wmma.load.a.sync.aligned.row.m16n16k16.bf16", 4, R4)
DUMP(dump_b_bf16_col, "wmma.load.b.sync.aligned.col.m16n16k16.bf16", 4, R4)
DUMP(dump_a_tf32_row, "wmma.load.a.sync.aligned.row.m16n16k8.tf32", 4, R4)
DUMP(dump_b_tf32_col, "wmma.load.b.sync.aligned.col.m16n16k8.tf32", 4, R4)
DUMP(dump_c_tf32_row, "wmma.load.c.sync.aligned.row.m16n16k8.f32", 8, R8)

// f64: registers are 64 bits
extern "C" __global__ void dump_f64(const double *a, const double *b,
				   const double *c, unsigned long long *out)
{
	double ra, rb, rc0, rc1;
	asm volatile("wmma.load.a.sync.aligned.row.m8n8k4.f64 {%0}, [%1], 4;"
		     : "=d"(ra) : "l"(a) : "memory");
	asm volatile("wmma.load.b.sync.aligned.col.m8n8k4.f64 {%0}, [%1], 4;"
		     : "=d"(rb) : "l"(b) : "memory");
	asm volatile("wmma.load.c.sync.aligned.row.m8n8k4.f64 {%0, %1}, [%2], 8;"
		     : "=d"(rc0), "=d"(rc1) : "l"(c) : "memory");
	unsigned long long *o = out + threadIdx.x * 4;
	o[0] = __double_as_longlong(ra);
	o[1] = __double_as_longlong(rb);
	o[2] = __double_as_longlong(rc0);
	o[3] = __double_as_longlong(rc1);
}

// Shared-memory loads and stores of the census (sm_75 forms): the tiles
// go through shared memory, the product back to global.
extern "C" __global__ void wmma_shared_f16(const half *a, const half *b,
					   const float *c, float *d)
{
	__shared__ half sa[256], sb[256];
	__shared__ float sc[256];
	for (int i = threadIdx.x; i < 256; i += 32) {
		sa[i] = a[i];
		sb[i] = b[i];
		sc[i] = c[i];
	}
	__syncwarp();
	unsigned ra[8], rb[8];
	float rc[8], rd[8];
	asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 " R8
		     ", [%8], 16;" : O8(ra)
		     : "r"((unsigned)__cvta_generic_to_shared(sa)) : "memory");
	asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 " R8
		     ", [%8], 16;" : O8(rb)
		     : "r"((unsigned)__cvta_generic_to_shared(sb)) : "memory");
	asm volatile("wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 " R8
		     ", [%8], 16;" : "=f"(rc[0]), "=f"(rc[1]), "=f"(rc[2]),
		     "=f"(rc[3]), "=f"(rc[4]), "=f"(rc[5]), "=f"(rc[6]),
		     "=f"(rc[7])
		     : "r"((unsigned)__cvta_generic_to_shared(sc)) : "memory");
	asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7}, "
		     "{%8, %9, %10, %11, %12, %13, %14, %15}, "
		     "{%16, %17, %18, %19, %20, %21, %22, %23}, "
		     "{%24, %25, %26, %27, %28, %29, %30, %31};"
		     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3]),
		       "=f"(rd[4]), "=f"(rd[5]), "=f"(rd[6]), "=f"(rd[7])
		     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
		       "r"(ra[4]), "r"(ra[5]), "r"(ra[6]), "r"(ra[7]),
		       "r"(rb[0]), "r"(rb[1]), "r"(rb[2]), "r"(rb[3]),
		       "r"(rb[4]), "r"(rb[5]), "r"(rb[6]), "r"(rb[7]),
		       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]),
		       "f"(rc[4]), "f"(rc[5]), "f"(rc[6]), "f"(rc[7]));
	asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 "
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, 16;"
		     :: "r"((unsigned)__cvta_generic_to_shared(sc)), "f"(rd[0]),
		     "f"(rd[1]), "f"(rd[2]), "f"(rd[3]), "f"(rd[4]), "f"(rd[5]),
		     "f"(rd[6]), "f"(rd[7]) : "memory");
	__syncwarp();
	for (int i = threadIdx.x; i < 256; i += 32)
		d[i] = sc[i];
}

extern "C" __global__ void wmma_shared_u8(const unsigned char *a,
					  const unsigned char *b,
					  const int *c, int *d)
{
	__shared__ unsigned char sa[256], sb[256];
	__shared__ int sc[256];
	for (int i = threadIdx.x; i < 256; i += 32) {
		sa[i] = a[i];
		sb[i] = b[i];
		sc[i] = c[i];
	}
	__syncwarp();
	unsigned ra[2], rb[2];
	int rc[8], rd[8];
	asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.u8 "
		     "{%0, %1}, [%2], 16;" : "=r"(ra[0]), "=r"(ra[1])
		     : "r"((unsigned)__cvta_generic_to_shared(sa)) : "memory");
	asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.u8 "
		     "{%0, %1}, [%2], 16;" : "=r"(rb[0]), "=r"(rb[1])
		     : "r"((unsigned)__cvta_generic_to_shared(sb)) : "memory");
	asm volatile("wmma.load.c.sync.aligned.row.m16n16k16.shared.s32 " R8
		     ", [%8], 16;" : O8(rc)
		     : "r"((unsigned)__cvta_generic_to_shared(sc)) : "memory");
	asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32 "
		     "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, "
		     "{%12, %13, %14, %15, %16, %17, %18, %19};"
		     : O8(rd)
		     : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "r"(rb[1]),
		       "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]),
		       "r"(rc[4]), "r"(rc[5]), "r"(rc[6]), "r"(rc[7]));
	asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.s32 "
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, 16;"
		     :: "r"((unsigned)__cvta_generic_to_shared(sc)),
		     "r"(rd[0]), "r"(rd[1]), "r"(rd[2]), "r"(rd[3]), "r"(rd[4]),
		     "r"(rd[5]), "r"(rd[6]), "r"(rd[7]) : "memory");
	__syncwarp();
	for (int i = threadIdx.x; i < 256; i += 32)
		d[i] = sc[i];
}

// Through the C++ API, as the samples do (global memory, generic loads).
using namespace nvcuda;

extern "C" __global__ void wmma_f16_global(const half *a, const half *b,
					   const float *c, float *d,
					   half *dh)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
	wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
	wmma::fill_fragment(fh, __float2half(0.5f));
	wmma::mma_sync(fh, fa, fb, fh);
	wmma::store_matrix_sync(dh, fh, 16, wmma::mem_col_major);
}

extern "C" __global__ void wmma_u8_global(const unsigned char *a,
					  const signed char *b, const int *c,
					  int *d)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char,
		       wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char,
		       wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, (const unsigned char *)b, 16);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc, true);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *a,
				     const __nv_bfloat16 *b, const float *c,
				     float *d)
{
#if SM80
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
		       wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
		       wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
#endif
}

extern "C" __global__ void wmma_tf32(const float *a, const float *b,
				     const float *c, float *d)
{
#if SM80
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
		       wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
		       wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
	wmma::load_matrix_sync(fa, a, 8);
	wmma::load_matrix_sync(fb, b, 8);
	for (int i = 0; i < fa.num_elements; i++)
		fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
	for (int i = 0; i < fb.num_elements; i++)
		fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
#endif
}

extern "C" __global__ void wmma_f64(const double *a, const double *b,
				    const double *c, double *d)
{
#if SM80
	wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
	wmma::load_matrix_sync(fa, a, 4);
	wmma::load_matrix_sync(fb, b, 4);
	wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
#endif
}

// A stored fragment whose register k of lane l holds l * 8 + k: where each
// register goes.
extern "C" __global__ void wmma_store_map(float *d, int *di, double *dd)
{
	float r[8];
	int ri[8];
	for (int k = 0; k < 8; k++) {
		r[k] = (float)(threadIdx.x * 8 + k);
		ri[k] = threadIdx.x * 8 + k;
	}
	asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 "
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, 16;"
		     :: "l"(d), "f"(r[0]), "f"(r[1]), "f"(r[2]), "f"(r[3]),
		     "f"(r[4]), "f"(r[5]), "f"(r[6]), "f"(r[7]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.col.m16n16k16.global.s32 "
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, 16;"
		     :: "l"(di), "r"(ri[0]), "r"(ri[1]), "r"(ri[2]), "r"(ri[3]),
		     "r"(ri[4]), "r"(ri[5]), "r"(ri[6]), "r"(ri[7]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.row.m16n16k8.f32 "
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, 16;"
		     :: "l"(d + 256), "f"(r[0]), "f"(r[1]), "f"(r[2]), "f"(r[3]),
		     "f"(r[4]), "f"(r[5]), "f"(r[6]), "f"(r[7]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.row.m8n8k4.f64 "
		     "[%0], {%1, %2}, 8;"
		     :: "l"(dd), "d"((double)(threadIdx.x * 2)),
		     "d"((double)(threadIdx.x * 2 + 1)) : "memory");
}

// mma.sync with fragments built as the PTX ISA lays them out.
extern "C" __global__ void mma_m16n8k16_f16(const half *a, const half *b,
					    const float *c, float *d)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	unsigned ra[4], rb[2];
	float rc[4], rd[4];
	for (int i = 0; i < 4; i++) {
		int row = g + 8 * (i & 1), col = 2 * q + 8 * (i >> 1);
		half2 h = __halves2half2(a[row * 16 + col], a[row * 16 + col + 1]);
		ra[i] = *(unsigned *)&h;
	}
	for (int i = 0; i < 2; i++) {
		int row = 2 * q + 8 * i;
		half2 h = __halves2half2(b[row * 8 + g], b[(row + 1) * 8 + g]);
		rb[i] = *(unsigned *)&h;
	}
	for (int i = 0; i < 4; i++)
		rc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%10, %11, %12, %13};"
		     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
		     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
		       "r"(rb[0]), "r"(rb[1]), "f"(rc[0]), "f"(rc[1]),
		       "f"(rc[2]), "f"(rc[3]));
	for (int i = 0; i < 4; i++)
		d[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_m16n8k8_tf32(const float *a, const float *b,
					    const float *c, float *d)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	unsigned ra[4], rb[2];
	float rc[4], rd[4];
	for (int i = 0; i < 4; i++)
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ra[i])
		    : "f"(a[(g + 8 * (i & 1)) * 8 + q + 4 * (i >> 1)]));
	for (int i = 0; i < 2; i++)
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rb[i])
		    : "f"(b[(q + 4 * i) * 8 + g]));
	for (int i = 0; i < 4; i++)
		rc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%10, %11, %12, %13};"
		     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
		     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
		       "r"(rb[0]), "r"(rb[1]), "f"(rc[0]), "f"(rc[1]),
		       "f"(rc[2]), "f"(rc[3]));
	for (int i = 0; i < 4; i++)
		d[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_m16n8k32_s8(const signed char *a,
					   const signed char *b, const int *c,
					   int *d)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	unsigned ra[4], rb[2];
	int rc[4], rd[4];
	for (int i = 0; i < 4; i++) {
		int row = g + 8 * (i & 1), col = 4 * q + 16 * (i >> 1);
		ra[i] = *(const unsigned *)&a[row * 32 + col];
	}
	for (int i = 0; i < 2; i++) {
		unsigned v = 0;
		for (int k = 0; k < 4; k++)
			v |= (unsigned)(unsigned char)b[(4 * q + k + 16 * i) * 8 +
							g] << (8 * k);
		rb[i] = v;
	}
	for (int i = 0; i < 4; i++)
		rc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
	asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%10, %11, %12, %13};"
		     : "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3])
		     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
		       "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]),
		       "r"(rc[2]), "r"(rc[3]));
	for (int i = 0; i < 4; i++)
		d[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = rd[i];
}

extern "C" __global__ void mma_m8n8k4_f64(const double *a, const double *b,
					  const double *c, double *d)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	double rd0, rd1;
	asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
		     "{%0, %1}, {%2}, {%3}, {%4, %5};"
		     : "=d"(rd0), "=d"(rd1)
		     : "d"(a[g * 4 + q]), "d"(b[q * 8 + g]),
		       "d"(c[g * 8 + 2 * q]), "d"(c[g * 8 + 2 * q + 1]));
	d[g * 8 + 2 * q] = rd0;
	d[g * 8 + 2 * q + 1] = rd1;
}

// ldmatrix: four 8x8 b16 matrices in shared memory, each row's address
// from a lane.
extern "C" __global__ void ldmatrix_ops(const unsigned short *m,
					unsigned *out)
{
	__shared__ unsigned short s[4 * 64];
	for (int i = threadIdx.x; i < 256; i += 32)
		s[i] = m[i];
	__syncwarp();
	int l = threadIdx.x;
	unsigned a = (unsigned)__cvta_generic_to_shared(&s[(l / 8) * 64 +
							   (l % 8) * 8]);
	unsigned r[4], t[4], x1, x2[2];
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];"
		     : "=r"(t[0]), "=r"(t[1]), "=r"(t[2]), "=r"(t[3]) : "r"(a));
	asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
		     : "=r"(x1) : "r"(a));
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 "
		     "{%0, %1}, [%2];" : "=r"(x2[0]), "=r"(x2[1]) : "r"(a));
	unsigned *o = out + l * 11;
	for (int k = 0; k < 4; k++) {
		o[k] = r[k];
		o[4 + k] = t[k];
	}
	o[8] = x1;
	o[9] = x2[0];
	o[10] = x2[1];
}
