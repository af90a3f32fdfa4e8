// SPDX-License-Identifier: MIT
// Fragment dumps shared by the warp matrix corpus (mma.cu, mma_shapes.cu):
// register lists for inline PTX, and DUMP, a kernel that loads one
// fragment and writes what each lane's registers hold.
#ifndef TESTS_PTX_MMA_DUMP_H
#define TESTS_PTX_MMA_DUMP_H

#define R8 "{%0, %1, %2, %3, %4, %5, %6, %7}"
#define R4 "{%0, %1, %2, %3}"
#define R2 "{%0, %1}"
#define R1 "{%0}"
#define O8(r) "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), \
	"=r"(r[5]), "=r"(r[6]), "=r"(r[7])

// Loads a fragment of N (at most 8) b32 registers from m (leading
// dimension ld) with instruction INS; register k of lane l goes to
// out[l * 8 + k].
#define DUMP(name, INS, N, REGS)                                             \
	extern "C" __global__ void name(const void *m, unsigned *out, int ld) \
	{                                                                    \
		unsigned r[8] = { 0 };                                       \
		asm volatile(INS " " REGS ", [%8], %9;" : O8(r)              \
			     : "l"(m), "r"(ld) : "memory");                  \
		for (int k = 0; k < 8; k++)                                  \
			out[threadIdx.x * 8 + k] = k < N ? r[k] : 0;         \
	}

#endif
