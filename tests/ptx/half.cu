// SPDX-License-Identifier: MIT
// Half precision arithmetic and conversions.
#include <cuda_fp16.h>

extern "C" __global__ void half_ops(const float *a, const float *b,
				    float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	__half x = __float2half(a[i]), y = __float2half(b[i]);
	__half2 p = __halves2half2(x, y), q = __halves2half2(y, x);
	float *o = out + i * 8;
	o[0] = __half2float(__hadd(x, y));
	o[1] = __half2float(__hmul(x, y));
	o[2] = __half2float(__hfma(x, y, x));
	__half2 s = __hadd2(p, q), m = __hmul2(p, q);
	o[3] = __low2float(s);
	o[4] = __high2float(m);
	o[5] = __half2float(__hneg(x));
	o[6] = (float)__hlt(x, y);
	o[7] = __half2float(__float2half_rz(a[i] * 3.0f));
}
