// SPDX-License-Identifier: MIT
// Integer instructions, written as inline PTX so that each result is one
// known instruction: out[i * N + k] is operation k on (a[i], b[i], c[i]).
#define OP(k, text)                                                     \
	asm(text : "=r"(r) : "r"(x), "r"(y), "r"(z));                  \
	o[k] = r;

extern "C" __global__ void int32_ops(const unsigned *a, const unsigned *b,
				     const unsigned *c, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = a[i], y = b[i], z = c[i], r;
	unsigned *o = out + i * 48;
	OP(0, "add.u32 %0, %1, %2;")
	OP(1, "sub.s32 %0, %1, %2;")
	OP(2, "mul.lo.u32 %0, %1, %2;")
	OP(3, "mul.hi.u32 %0, %1, %2;")
	OP(4, "mul.hi.s32 %0, %1, %2;")
	OP(5, "mad.lo.s32 %0, %1, %2, %3;")
	OP(6, "mad.hi.u32 %0, %1, %2, %3;")
	OP(7, "div.u32 %0, %1, %2;")
	OP(8, "div.s32 %0, %1, %2;")
	OP(9, "rem.u32 %0, %1, %2;")
	OP(10, "rem.s32 %0, %1, %2;")
	OP(11, "abs.s32 %0, %1;")
	OP(12, "neg.s32 %0, %1;")
	OP(13, "min.u32 %0, %1, %2;")
	OP(14, "min.s32 %0, %1, %2;")
	OP(15, "max.u32 %0, %1, %2;")
	OP(16, "max.s32 %0, %1, %2;")
	OP(17, "and.b32 %0, %1, %2;")
	OP(18, "or.b32 %0, %1, %2;")
	OP(19, "xor.b32 %0, %1, %2;")
	OP(20, "not.b32 %0, %1;")
	OP(21, "cnot.b32 %0, %1;")
	OP(22, "shl.b32 %0, %1, %2;")
	OP(23, "shr.u32 %0, %1, %2;")
	OP(24, "shr.s32 %0, %1, %2;")
	OP(25, "popc.b32 %0, %1;")
	OP(26, "clz.b32 %0, %1;")
	OP(27, "bfind.u32 %0, %1;")
	OP(28, "bfind.s32 %0, %1;")
	OP(29, "bfind.shiftamt.u32 %0, %1;")
	OP(30, "brev.b32 %0, %1;")
	OP(31, "bfe.u32 %0, %1, %2, %3;")
	OP(32, "bfe.s32 %0, %1, %2, %3;")
	OP(33, "bfi.b32 %0, %1, %2, %3, 7;")
	OP(34, "prmt.b32 %0, %1, %2, %3;")
	OP(35, "lop3.b32 %0, %1, %2, %3, 0x96;")
	OP(36, "shf.l.wrap.b32 %0, %1, %2, %3;")
	OP(37, "shf.r.clamp.b32 %0, %1, %2, %3;")
	OP(38, "sad.u32 %0, %1, %2, %3;")
	OP(39, "mul24.lo.u32 %0, %1, %2;")
	OP(40, "mul24.hi.s32 %0, %1, %2;")
	OP(41, "mad24.lo.s32 %0, %1, %2, %3;")
	OP(42, "dp4a.u32.s32 %0, %1, %2, %3;")
	OP(43, "bmsk.clamp.b32 %0, %1, %2;")
	OP(44, "prmt.b32.f4e %0, %1, %2, %3;")
	OP(45, "shf.r.wrap.b32 %0, %1, %2, %3;")
	OP(46, "{ .reg .pred p; setp.lt.s32 p, %1, %2; selp.b32 %0, 1, 0, p; }")
	OP(47, "{ .reg .pred p; setp.hi.u32 p, %1, %2; selp.b32 %0, %3, 7, p; }")
}

#define OP64(k, text)                                                   \
	asm(text : "=l"(r) : "l"(x), "l"(y), "l"(z));                  \
	o[k] = r;

extern "C" __global__ void int64_ops(const unsigned long long *a,
				     const unsigned long long *b,
				     const unsigned long long *c,
				     unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned long long x = a[i], y = b[i], z = c[i], r;
	unsigned long long *o = out + i * 24;
	OP64(0, "add.s64 %0, %1, %2;")
	OP64(1, "sub.u64 %0, %1, %2;")
	OP64(2, "mul.lo.u64 %0, %1, %2;")
	OP64(3, "mul.hi.u64 %0, %1, %2;")
	OP64(4, "mul.hi.s64 %0, %1, %2;")
	OP64(5, "mad.lo.u64 %0, %1, %2, %3;")
	OP64(6, "div.u64 %0, %1, %2;")
	OP64(7, "div.s64 %0, %1, %2;")
	OP64(8, "rem.u64 %0, %1, %2;")
	OP64(9, "rem.s64 %0, %1, %2;")
	OP64(10, "min.s64 %0, %1, %2;")
	OP64(11, "max.u64 %0, %1, %2;")
	OP64(12, "{ .reg .b32 t; cvt.u32.u64 t, %2; shl.b64 %0, %1, t; }")
	OP64(13, "{ .reg .b32 t; cvt.u32.u64 t, %2; shr.s64 %0, %1, t; }")
	OP64(14, "{ .reg .b32 t; cvt.u32.u64 t, %2; shr.u64 %0, %1, t; }")
	OP64(15, "abs.s64 %0, %1;")
	OP64(16, "{ .reg .b32 t; popc.b64 t, %1; cvt.u64.u32 %0, t; }")
	OP64(17, "{ .reg .b32 t; clz.b64 t, %1; cvt.u64.u32 %0, t; }")
	OP64(18, "brev.b64 %0, %1;")
	OP64(19, "{ .reg .b32 p, l; cvt.u32.u64 p, %2; cvt.u32.u64 l, %3; "
		 "bfe.s64 %0, %1, p, l; }")
	OP64(20, "{ .reg .b32 lo; cvt.u32.u64 lo, %2; mul.wide.s32 %0, lo, lo; }")
	OP64(21, "{ .reg .b32 lo, hi; cvt.u32.u64 lo, %1; cvt.u32.u64 hi, %2; "
		 "mad.wide.u32 %0, lo, hi, %3; }")
	OP64(22, "xor.b64 %0, %1, %2;")
	OP64(23, "{ .reg .b32 t; bfind.s64 t, %1; cvt.u64.u32 %0, t; }")
}

// 8- and 16-bit arithmetic, the way nvcc emits it for char and short.
extern "C" __global__ void small_ints(const short *a, const short *b,
				      const signed char *c, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	short x = a[i], y = b[i];
	signed char ch = c[i];
	unsigned short ux = x, uy = y;
	int *o = out + i * 8;
	o[0] = (short)(x + y);
	o[1] = (short)(x * y);
	o[2] = (unsigned short)(ux >> (uy & 15));
	o[3] = y ? (short)(x / y) : 0;
	o[4] = (x < y) ? x : y;
	o[5] = ch * 3 + x;
	o[6] = (unsigned char)ch;
	o[7] = (int)(signed char)(x ^ y);
}
