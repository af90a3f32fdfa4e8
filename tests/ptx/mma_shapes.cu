// SPDX-License-Identifier: MIT
// The warp matrix shapes beyond the census (tests/ptx/mma.cu has those):
// wmma m32n8k16 and m8n32k16 (f16, bf16, u8/s8), the sub-byte wmma
// m8n8k32 (s4/u4) and m8n8k128 (b1), and the integer mma.sync shapes
// m8n8k16, m8n8k32, m8n8k128, m16n8k32 (s4), m16n8k64, m16n8k128 and
// m16n8k256. Fragment dumps show what each lane's registers hold after a
// load (wmma leaves it unspecified: the H100's answer defines it) and
// where a store puts each register; products check the arithmetic.
// One warp per kernel; needs sm_80 (bf16, .and.popc).

// bf16 and the m16n8 integer shapes need sm_80
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define SM80 1
#else
#define SM80 0
#endif

#include "mma_dump.h"

#define L(shape, which, lay, type) \
	"wmma.load." #which ".sync.aligned." #lay "." #shape ".global." #type

DUMP(dump_m32n8k16_a_f16_row, L(m32n8k16, a, row, f16), 8, R8)
DUMP(dump_m32n8k16_a_f16_col, L(m32n8k16, a, col, f16), 8, R8)
DUMP(dump_m32n8k16_b_f16_row, L(m32n8k16, b, row, f16), 8, R8)
DUMP(dump_m32n8k16_b_f16_col, L(m32n8k16, b, col, f16), 8, R8)
DUMP(dump_m32n8k16_c_f32_row, L(m32n8k16, c, row, f32), 8, R8)
DUMP(dump_m32n8k16_c_f32_col, L(m32n8k16, c, col, f32), 8, R8)
DUMP(dump_m32n8k16_c_f16_row, L(m32n8k16, c, row, f16), 4, R4)
DUMP(dump_m32n8k16_a_u8_row, L(m32n8k16, a, row, u8), 4, R4)
DUMP(dump_m32n8k16_a_s8_col, L(m32n8k16, a, col, s8), 4, R4)
DUMP(dump_m32n8k16_b_u8_col, L(m32n8k16, b, col, u8), 1, R1)
DUMP(dump_m32n8k16_b_s8_row, L(m32n8k16, b, row, s8), 1, R1)
DUMP(dump_m32n8k16_c_s32_row, L(m32n8k16, c, row, s32), 8, R8)
#if SM80
DUMP(dump_m32n8k16_a_bf16_row, L(m32n8k16, a, row, bf16), 8, R8)
DUMP(dump_m32n8k16_b_bf16_col, L(m32n8k16, b, col, bf16), 2, R2)
#endif

DUMP(dump_m8n32k16_a_f16_row, L(m8n32k16, a, row, f16), 8, R8)
DUMP(dump_m8n32k16_a_f16_col, L(m8n32k16, a, col, f16), 8, R8)
DUMP(dump_m8n32k16_b_f16_row, L(m8n32k16, b, row, f16), 8, R8)
DUMP(dump_m8n32k16_b_f16_col, L(m8n32k16, b, col, f16), 8, R8)
DUMP(dump_m8n32k16_c_f32_row, L(m8n32k16, c, row, f32), 8, R8)
DUMP(dump_m8n32k16_c_f32_col, L(m8n32k16, c, col, f32), 8, R8)
DUMP(dump_m8n32k16_c_f16_col, L(m8n32k16, c, col, f16), 4, R4)
DUMP(dump_m8n32k16_a_u8_row, L(m8n32k16, a, row, u8), 1, R1)
DUMP(dump_m8n32k16_a_s8_col, L(m8n32k16, a, col, s8), 1, R1)
DUMP(dump_m8n32k16_b_u8_col, L(m8n32k16, b, col, u8), 4, R4)
DUMP(dump_m8n32k16_b_s8_row, L(m8n32k16, b, row, s8), 4, R4)
DUMP(dump_m8n32k16_c_s32_col, L(m8n32k16, c, col, s32), 8, R8)
#if SM80
DUMP(dump_m8n32k16_a_bf16_row, L(m8n32k16, a, row, bf16), 2, R2)
DUMP(dump_m8n32k16_b_bf16_col, L(m8n32k16, b, col, bf16), 8, R8)
#endif

DUMP(dump_m8n8k32_a_s4_row, L(m8n8k32, a, row, s4), 1, R1)
DUMP(dump_m8n8k32_b_u4_col, L(m8n8k32, b, col, u4), 1, R1)
DUMP(dump_m8n8k32_c_s32_row, L(m8n8k32, c, row, s32), 2, R2)
DUMP(dump_m8n8k128_a_b1_row, L(m8n8k128, a, row, b1), 1, R1)
DUMP(dump_m8n8k128_b_b1_col, L(m8n8k128, b, col, b1), 1, R1)
DUMP(dump_m8n8k128_c_s32_col, L(m8n8k128, c, col, s32), 2, R2)

// Stores of fragments whose register k of lane l holds l * 8 + k: where
// each register goes. d has room for 512 words.
#define STORE8(shape, lay, type, d, ld)                                      \
	asm volatile("wmma.store.d.sync.aligned." #lay "." #shape ".global." \
		     #type " [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;"    \
		     :: "l"(d), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]),  \
		     "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7]), "r"(ld)     \
		     : "memory")

extern "C" __global__ void store_map_shapes(unsigned *d)
{
	unsigned r[8];
	for (int k = 0; k < 8; k++)
		r[k] = threadIdx.x * 8 + k;
	STORE8(m32n8k16, row, s32, d, 8);
	STORE8(m32n8k16, col, s32, d + 256, 32);
	STORE8(m8n32k16, row, s32, d + 512, 32);
	STORE8(m8n32k16, col, s32, d + 768, 8);
	asm volatile("wmma.store.d.sync.aligned.row.m32n8k16.global.f16 "
		     "[%0], {%1, %2, %3, %4}, 8;"
		     :: "l"(d + 1024), "r"(r[0]), "r"(r[1]), "r"(r[2]),
		     "r"(r[3]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.col.m8n32k16.global.f16 "
		     "[%0], {%1, %2, %3, %4}, 8;"
		     :: "l"(d + 1152), "r"(r[0]), "r"(r[1]), "r"(r[2]),
		     "r"(r[3]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.row.m8n8k32.global.s32 "
		     "[%0], {%1, %2}, 8;"
		     :: "l"(d + 1280), "r"(r[0]), "r"(r[1]) : "memory");
	asm volatile("wmma.store.d.sync.aligned.col.m8n8k128.global.s32 "
		     "[%0], {%1, %2}, 8;"
		     :: "l"(d + 1344), "r"(r[0]), "r"(r[1]) : "memory");
}

// ---- wmma products: D = A x B + C, A row-major M x K, B column-major
// (K contiguous per column) unless the name says otherwise ----

#define MMA_F32(shape, alay, blay, atype, NA, NB, TYPES)                     \
	extern "C" __global__ void wmma_##shape##_##atype##_##alay##_##blay( \
		const void *a, const void *b, const float *c, float *d,      \
		int lda, int ldb)                                            \
	{                                                                    \
		unsigned ra[8] = { 0 }, rb[8] = { 0 };                       \
		float rc[8], rd[8];                                          \
		asm volatile("wmma.load.a.sync.aligned." #alay "." #shape    \
			     ".global." #atype " " R##NA ", [%8], %9;"       \
			     : O8(ra) : "l"(a), "r"(lda) : "memory");         \
		asm volatile("wmma.load.b.sync.aligned." #blay "." #shape    \
			     ".global." #atype " " R##NB ", [%8], %9;"       \
			     : O8(rb) : "l"(b), "r"(ldb) : "memory");         \
		asm volatile("wmma.load.c.sync.aligned.row." #shape          \
			     ".global.f32 " R8 ", [%8], %9;"                 \
			     : "=f"(rc[0]), "=f"(rc[1]), "=f"(rc[2]),         \
			       "=f"(rc[3]), "=f"(rc[4]), "=f"(rc[5]),         \
			       "=f"(rc[6]), "=f"(rc[7])                       \
			     : "l"(c), "r"(SHAPE_N_##shape) : "memory");      \
		MMA_ASM_##NA##_##NB("wmma.mma.sync.aligned." #alay "." #blay \
				    "." #shape TYPES);                       \
		asm volatile("wmma.store.d.sync.aligned.row." #shape         \
			     ".global.f32 [%0], {%1, %2, %3, %4, %5, %6, "   \
			     "%7, %8}, %9;"                                  \
			     :: "l"(d), "f"(rd[0]), "f"(rd[1]), "f"(rd[2]),   \
			     "f"(rd[3]), "f"(rd[4]), "f"(rd[5]), "f"(rd[6]),  \
			     "f"(rd[7]), "r"(SHAPE_N_##shape) : "memory");    \
	}

#define SHAPE_N_m32n8k16 8
#define SHAPE_N_m8n32k16 32

#define RA8 "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(ra[4]), \
	"r"(ra[5]), "r"(ra[6]), "r"(ra[7])
#define RB8 "r"(rb[0]), "r"(rb[1]), "r"(rb[2]), "r"(rb[3]), "r"(rb[4]), \
	"r"(rb[5]), "r"(rb[6]), "r"(rb[7])
#define RB2 "r"(rb[0]), "r"(rb[1])
#define RA2 "r"(ra[0]), "r"(ra[1])
#define FC8 "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]), "f"(rc[4]), \
	"f"(rc[5]), "f"(rc[6]), "f"(rc[7])
#define FD8 "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3]), \
	"=f"(rd[4]), "=f"(rd[5]), "=f"(rd[6]), "=f"(rd[7])

#define MMA_ASM_8_8(INS)                                                     \
	asm volatile(INS " " R8 ", {%8, %9, %10, %11, %12, %13, %14, %15}, " \
		     "{%16, %17, %18, %19, %20, %21, %22, %23}, "            \
		     "{%24, %25, %26, %27, %28, %29, %30, %31};"             \
		     : FD8 : RA8, RB8, FC8)
#define MMA_ASM_8_2(INS)                                                     \
	asm volatile(INS " " R8 ", {%8, %9, %10, %11, %12, %13, %14, %15}, " \
		     "{%16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" \
		     : FD8 : RA8, RB2, FC8)
#define MMA_ASM_2_8(INS)                                                     \
	asm volatile(INS " " R8 ", {%8, %9}, "                               \
		     "{%10, %11, %12, %13, %14, %15, %16, %17}, "            \
		     "{%18, %19, %20, %21, %22, %23, %24, %25};"             \
		     : FD8 : RA2, RB8, FC8)

// f16 in both shapes and both layouts of A; bf16 (2 registers on the
// short side)
MMA_F32(m32n8k16, row, col, f16, 8, 8, ".f32.f32")
MMA_F32(m8n32k16, col, row, f16, 8, 8, ".f32.f32")
#if SM80
MMA_F32(m32n8k16, row, col, bf16, 8, 2, ".f32.bf16.bf16.f32")
MMA_F32(m8n32k16, row, col, bf16, 2, 8, ".f32.bf16.bf16.f32")
#endif

// u8 (satfinite) and s8 with an s32 accumulator
#define LOAD_C_S32(shape, n)                                                 \
	asm volatile("wmma.load.c.sync.aligned.row." #shape ".global.s32 "   \
		     R8 ", [%8], " #n ";" : O8(rc) : "l"(c) : "memory")
#define STORE_D_S32(shape, n)                                                \
	asm volatile("wmma.store.d.sync.aligned.row." #shape ".global.s32 "  \
		     "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, " #n ";"       \
		     :: "l"(d), "r"(rd[0]), "r"(rd[1]), "r"(rd[2]),           \
		     "r"(rd[3]), "r"(rd[4]), "r"(rd[5]), "r"(rd[6]),          \
		     "r"(rd[7]) : "memory")
#define RC8 "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3]), "r"(rc[4]), \
	"r"(rc[5]), "r"(rc[6]), "r"(rc[7])

extern "C" __global__ void wmma_m32n8k16_u8(const void *a, const void *b,
					       const int *c, int *d)
{
	unsigned ra[8] = { 0 }, rb[8] = { 0 }, rc[8], rd[8];
	asm volatile(L(m32n8k16, a, row, u8) " " R4 ", [%8], 16;"
		     : O8(ra) : "l"(a) : "memory");
	asm volatile(L(m32n8k16, b, col, u8) " " R1 ", [%8], 16;"
		     : O8(rb) : "l"(b) : "memory");
	LOAD_C_S32(m32n8k16, 8);
	asm volatile("wmma.mma.sync.aligned.row.col.m32n8k16.s32.u8.u8.s32"
		     ".satfinite " R8 ", {%8, %9, %10, %11}, {%12}, "
		     "{%13, %14, %15, %16, %17, %18, %19, %20};"
		     : O8(rd) : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
		       "r"(rb[0]), RC8);
	STORE_D_S32(m32n8k16, 8);
}

extern "C" __global__ void wmma_m8n32k16_s8(const void *a, const void *b,
					       const int *c, int *d)
{
	unsigned ra[8] = { 0 }, rb[8] = { 0 }, rc[8], rd[8];
	asm volatile(L(m8n32k16, a, row, s8) " " R1 ", [%8], 16;"
		     : O8(ra) : "l"(a) : "memory");
	asm volatile(L(m8n32k16, b, col, s8) " " R4 ", [%8], 16;"
		     : O8(rb) : "l"(b) : "memory");
	LOAD_C_S32(m8n32k16, 32);
	asm volatile("wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32 "
		     R8 ", {%8}, {%9, %10, %11, %12}, "
		     "{%13, %14, %15, %16, %17, %18, %19, %20};"
		     : O8(rd) : "r"(ra[0]), "r"(rb[0]), "r"(rb[1]), "r"(rb[2]),
		       "r"(rb[3]), RC8);
	STORE_D_S32(m8n32k16, 32);
}

// Sub-byte wmma: A 8 x K row-major, B K x 8 column-major, both packed
// (K = 32 four-bit or 128 one-bit elements: 16 bytes a row), C and D 8x8.
#define SUBBYTE(name, shape, type, MMA)                                      \
	extern "C" __global__ void name(const void *a, const void *b,        \
					const int *c, int *d)                \
	{                                                                    \
		unsigned ra, rb, rc0, rc1, rd0, rd1;                         \
		asm volatile(L(shape, a, row, type) " {%0}, [%1], "          \
			     SHAPE_K_##shape ";" : "=r"(ra) : "l"(a)          \
			     : "memory");                                     \
		asm volatile(L(shape, b, col, type) " {%0}, [%1], "          \
			     SHAPE_K_##shape ";" : "=r"(rb) : "l"(b)          \
			     : "memory");                                     \
		asm volatile("wmma.load.c.sync.aligned.row." #shape          \
			     ".global.s32 {%0, %1}, [%2], 8;"                \
			     : "=r"(rc0), "=r"(rc1) : "l"(c) : "memory");     \
		asm volatile(MMA " {%0, %1}, {%2}, {%3}, {%4, %5};"          \
			     : "=r"(rd0), "=r"(rd1)                           \
			     : "r"(ra), "r"(rb), "r"(rc0), "r"(rc1));         \
		asm volatile("wmma.store.d.sync.aligned.row." #shape         \
			     ".global.s32 [%0], {%1, %2}, 8;"                \
			     :: "l"(d), "r"(rd0), "r"(rd1) : "memory");       \
	}
#define SHAPE_K_m8n8k32 "32"
#define SHAPE_K_m8n8k128 "128"

SUBBYTE(wmma_m8n8k32_s4, m8n8k32, s4,
	"wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32")
SUBBYTE(wmma_m8n8k32_u4_satfinite, m8n8k32, u4,
	"wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32.satfinite")
SUBBYTE(wmma_m8n8k128_xor, m8n8k128, b1,
	"wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32")
#if SM80
SUBBYTE(wmma_m8n8k128_and, m8n8k128, b1,
	"wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32")
#endif

// ---- integer mma.sync (fragments as the PTX ISA lays them out) ----
//
// A is M x K row-major and B K x N column-major, each row of A and
// column of B packed into 32-bit words (W words). Register r of a lane
// holds one word: of A, row groupID (+8 for odd r in the m16 shapes),
// word threadID_in_group + 4 * (r / 2); of B, column groupID, word
// threadID_in_group + 4 * r. C and D are M x 8 s32, row-major.
template <int M, int NA, int NB>
__device__ void mma_frags(const unsigned *a, const unsigned *b, int W,
			  unsigned *ra, unsigned *rb)
{
	int l = threadIdx.x, g = l >> 2, q = l & 3;
	for (int r = 0; r < NA; r++)
		ra[r] = a[(g + (M == 16 ? 8 * (r & 1) : 0)) * W + q +
			  4 * (M == 16 ? r >> 1 : r)];
	for (int r = 0; r < NB; r++)
		rb[r] = b[g * W + q + 4 * r];
}

#define MMA_M8(name, INS, W)                                                 \
	extern "C" __global__ void name(const unsigned *a, const unsigned *b, \
					const int *c, int *d)                \
	{                                                                    \
		int l = threadIdx.x, g = l >> 2, q = l & 3;                  \
		unsigned ra[1], rb[1];                                       \
		int rd0, rd1;                                                \
		mma_frags<8, 1, 1>(a, b, W, ra, rb);                         \
		asm volatile(INS " {%0, %1}, {%2}, {%3}, {%4, %5};"          \
			     : "=r"(rd0), "=r"(rd1)                           \
			     : "r"(ra[0]), "r"(rb[0]),                        \
			       "r"(c[g * 8 + 2 * q]), "r"(c[g * 8 + 2 * q + 1]));\
		d[g * 8 + 2 * q] = rd0;                                      \
		d[g * 8 + 2 * q + 1] = rd1;                                  \
	}

MMA_M8(mma_m8n8k16_s8_u8, "mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32", 4)
MMA_M8(mma_m8n8k16_u8_satfinite,
       "mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.u8.s32", 4)
MMA_M8(mma_m8n8k32_s4_u4, "mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32", 4)
MMA_M8(mma_m8n8k128_xor,
       "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 4)

#define MMA_M16(name, INS, W, NA, NB)                                        \
	extern "C" __global__ void name(const unsigned *a, const unsigned *b, \
					const int *c, int *d)                \
	{                                                                    \
		int l = threadIdx.x, g = l >> 2, q = l & 3;                  \
		unsigned ra[4] = { 0 }, rb[2] = { 0 };                       \
		int rc[4], rd[4];                                            \
		mma_frags<16, NA, NB>(a, b, W, ra, rb);                      \
		for (int i = 0; i < 4; i++)                                  \
			rc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)]; \
		MMA16_##NA##_##NB(INS);                                      \
		for (int i = 0; i < 4; i++)                                  \
			d[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = rd[i]; \
	}
#define D4 "=r"(rd[0]), "=r"(rd[1]), "=r"(rd[2]), "=r"(rd[3])
#define C4 "r"(rc[0]), "r"(rc[1]), "r"(rc[2]), "r"(rc[3])
#define MMA16_2_1(INS)                                                       \
	asm volatile(INS " " R4 ", {%4, %5}, {%6}, {%7, %8, %9, %10};"       \
		     : D4 : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), C4)
#define MMA16_4_2(INS)                                                       \
	asm volatile(INS " " R4 ", {%4, %5, %6, %7}, {%8, %9}, "             \
		     "{%10, %11, %12, %13};"                                 \
		     : D4 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),   \
		       "r"(rb[0]), "r"(rb[1]), C4)

#if SM80
MMA_M16(mma_m16n8k32_s4, "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32",
	4, 2, 1)
MMA_M16(mma_m16n8k64_u4_satfinite,
	"mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.u4.s32", 8, 4, 2)
MMA_M16(mma_m16n8k128_xor,
	"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 4, 2, 1)
MMA_M16(mma_m16n8k256_and,
	"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", 8, 4, 2)
#endif
