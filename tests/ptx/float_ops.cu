// SPDX-License-Identifier: MIT
// Floating-point instructions with every rounding mode, as inline PTX:
// out[i * N + k] is operation k on (a[i], b[i], c[i]).
#define F(k, text)                                                      \
	asm(text : "=f"(r) : "f"(x), "f"(y), "f"(z));                  \
	o[k] = r;

extern "C" __global__ void f32_ops(const float *a, const float *b,
				   const float *c, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = a[i], y = b[i], z = c[i], r;
	float *o = out + i * 40;
	F(0, "add.rn.f32 %0, %1, %2;")
	F(1, "add.rz.f32 %0, %1, %2;")
	F(2, "add.rm.f32 %0, %1, %2;")
	F(3, "add.rp.f32 %0, %1, %2;")
	F(4, "sub.rn.f32 %0, %1, %2;")
	F(5, "mul.rn.f32 %0, %1, %2;")
	F(6, "mul.rz.f32 %0, %1, %2;")
	F(7, "mul.rm.f32 %0, %1, %2;")
	F(8, "mul.rp.f32 %0, %1, %2;")
	F(9, "fma.rn.f32 %0, %1, %2, %3;")
	F(10, "fma.rz.f32 %0, %1, %2, %3;")
	F(11, "fma.rm.f32 %0, %1, %2, %3;")
	F(12, "fma.rp.f32 %0, %1, %2, %3;")
	F(13, "div.rn.f32 %0, %1, %2;")
	F(14, "div.rz.f32 %0, %1, %2;")
	F(15, "div.rm.f32 %0, %1, %2;")
	F(16, "div.rp.f32 %0, %1, %2;")
	F(17, "sqrt.rn.f32 %0, %1;")
	F(18, "sqrt.rz.f32 %0, %1;")
	F(19, "rcp.rn.f32 %0, %1;")
	F(20, "rcp.rp.f32 %0, %1;")
	F(21, "min.f32 %0, %1, %2;")
	F(22, "max.f32 %0, %1, %2;")
	F(23, "abs.f32 %0, %1;")
	F(24, "neg.f32 %0, %1;")
	F(25, "add.rn.ftz.f32 %0, %1, %2;")
	F(26, "mul.rn.sat.f32 %0, %1, %2;")
	F(27, "copysign.f32 %0, %1, %2;")
	F(28, "cvt.rni.f32.f32 %0, %1;")
	F(29, "cvt.rzi.f32.f32 %0, %1;")
	F(30, "cvt.rmi.f32.f32 %0, %1;")
	F(31, "cvt.rpi.f32.f32 %0, %1;")
	F(32, "cvt.sat.f32.f32 %0, %1;")
	F(33, "sub.rz.f32 %0, %1, %2;")
	F(34, "{ .reg .pred p; setp.ltu.f32 p, %1, %2; selp.f32 %0, 1.0, 0.0, p; }")
	F(35, "{ .reg .pred p; setp.ne.f32 p, %1, %2; selp.f32 %0, 1.0, 0.0, p; }")
	F(36, "{ .reg .pred p; setp.nan.f32 p, %1, %2; selp.f32 %0, 1.0, 0.0, p; }")
	F(37, "{ .reg .pred p; testp.subnormal.f32 p, %1; selp.f32 %0, 1.0, 0.0, p; }")
#if __CUDA_ARCH__ >= 800
	F(38, "min.NaN.f32 %0, %1, %2;")
#else
	o[38] = __int_as_float(0x7fffffff);
#endif
	F(39, "{ .reg .f16 h; cvt.rn.f16.f32 h, %1; cvt.f32.f16 %0, h; }")
}

#define D(k, text)                                                      \
	asm(text : "=d"(r) : "d"(x), "d"(y), "d"(z));                  \
	o[k] = r;

extern "C" __global__ void f64_ops(const double *a, const double *b,
				   const double *c, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double x = a[i], y = b[i], z = c[i], r;
	double *o = out + i * 20;
	D(0, "add.rn.f64 %0, %1, %2;")
	D(1, "add.rz.f64 %0, %1, %2;")
	D(2, "add.rm.f64 %0, %1, %2;")
	D(3, "add.rp.f64 %0, %1, %2;")
	D(4, "mul.rn.f64 %0, %1, %2;")
	D(5, "mul.rp.f64 %0, %1, %2;")
	D(6, "fma.rn.f64 %0, %1, %2, %3;")
	D(7, "fma.rm.f64 %0, %1, %2, %3;")
	D(8, "div.rn.f64 %0, %1, %2;")
	D(9, "div.rz.f64 %0, %1, %2;")
	D(10, "sqrt.rn.f64 %0, %1;")
	D(11, "sqrt.rp.f64 %0, %1;")
	D(12, "rcp.rn.f64 %0, %1;")
	D(13, "min.f64 %0, %1, %2;")
	D(14, "max.f64 %0, %1, %2;")
	D(15, "neg.f64 %0, %1;")
	D(16, "abs.f64 %0, %1;")
	D(17, "cvt.rmi.f64.f64 %0, %1;")
	D(18, "{ .reg .f32 t; cvt.rn.f32.f64 t, %1; cvt.f64.f32 %0, t; }")
	D(19, "{ .reg .f32 t; cvt.rz.f32.f64 t, %1; cvt.f64.f32 %0, t; }")
}

// Conversions between floats and integers, in every rounding mode.
#define CV(k, text, outc, inc, v)                                       \
	asm(text : outc(r##k) : inc(v));                                \
	o[k] = (unsigned long long)r##k;

extern "C" __global__ void conversions(const float *a, const double *b,
				       const long long *c,
				       unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = a[i];
	double y = b[i];
	long long z = c[i];
	unsigned long long *o = out + i * 24;
	int r0, r1, r2, r3;
	unsigned r4, r5;
	long long r6, r7;
	unsigned long long r8;
	short r9;
	unsigned char r10;
	int r11;
	float f12, f13, f14, f15, f16, f17;
	double d18, d19;
	unsigned r20, r21, r22, r23;
	CV(0, "cvt.rni.s32.f32 %0, %1;", "=r", "f", x)
	CV(1, "cvt.rzi.s32.f32 %0, %1;", "=r", "f", x)
	CV(2, "cvt.rmi.s32.f32 %0, %1;", "=r", "f", x)
	CV(3, "cvt.rpi.s32.f32 %0, %1;", "=r", "f", x)
	CV(4, "cvt.rni.u32.f32 %0, %1;", "=r", "f", x)
	CV(5, "cvt.rzi.u32.f64 %0, %1;", "=r", "d", y)
	CV(6, "cvt.rzi.s64.f64 %0, %1;", "=l", "d", y)
	CV(7, "cvt.rni.s64.f32 %0, %1;", "=l", "f", x)
	CV(8, "cvt.rpi.u64.f64 %0, %1;", "=l", "d", y)
	CV(9, "cvt.rzi.s16.f32 %0, %1;", "=h", "f", x)
	asm("{ .reg .b16 t; cvt.rni.u8.f32 t, %1; cvt.u32.u16 %0, t; }"
	    : "=r"(r11) : "f"(x));
	o[10] = (unsigned)r11;
	asm("{ .reg .b16 t; cvt.sat.s8.s64 t, %1; cvt.s32.s8 %0, t; }"
	    : "=r"(r11) : "l"(z));
	o[11] = (unsigned)r11;
	(void)r10;
	asm("cvt.rn.f32.s64 %0, %1;" : "=f"(f12) : "l"(z));
	asm("cvt.rz.f32.s64 %0, %1;" : "=f"(f13) : "l"(z));
	asm("cvt.rm.f32.u64 %0, %1;" : "=f"(f14) : "l"(z));
	asm("cvt.rp.f32.s32 %0, %1;" : "=f"(f15) : "r"((int)z));
	asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f16) : "d"(y));
	asm("cvt.rm.f32.f64 %0, %1;" : "=f"(f17) : "d"(y));
	asm("cvt.rn.f64.s64 %0, %1;" : "=d"(d18) : "l"(z));
	asm("cvt.rz.f64.u64 %0, %1;" : "=d"(d19) : "l"(z));
	o[12] = __float_as_uint(f12);
	o[13] = __float_as_uint(f13);
	o[14] = __float_as_uint(f14);
	o[15] = __float_as_uint(f15);
	o[16] = __float_as_uint(f16);
	o[17] = __float_as_uint(f17);
	o[18] = __double_as_longlong(d18);
	o[19] = __double_as_longlong(d19);
	asm("{ .reg .b16 h; cvt.rz.f16.f32 h, %1; cvt.u32.u16 %0, h; }"
	    : "=r"(r20) : "f"(x));
#if __CUDA_ARCH__ >= 800
	asm("{ .reg .b16 h; cvt.rn.bf16.f32 h, %1; cvt.u32.u16 %0, h; }"
	    : "=r"(r21) : "f"(x));
#else
	r21 = 0;
#endif
#if __CUDA_ARCH__ >= 800
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r22) : "f"(x));
	asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r23) : "f"(x), "f"((float)y));
#else
	r22 = r23 = 0;
#endif
	o[20] = r20;
	o[21] = r21;
	o[22] = r22;
	o[23] = r23;
	(void)r9;
}

// Approximate functions (compared with a tolerance).
extern "C" __global__ void approx_ops(const float *a, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = a[i];
	float *o = out + i * 8;
	o[0] = __sinf(x);
	o[1] = __cosf(x);
	o[2] = __expf(x);
	o[3] = __log2f(fabsf(x) + 1.0f);
	o[4] = rsqrtf(fabsf(x) + 1.0f);
	o[5] = __fdividef(1.0f, x + 2.5f);
	o[6] = sqrtf(fabsf(x));
	o[7] = expf(x * 0.1f);
}
