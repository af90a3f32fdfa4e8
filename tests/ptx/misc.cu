// SPDX-License-Identifier: MIT
// CUDA integer intrinsics and 3-D grids: what nvcc emits for them.
extern "C" __global__ void intrinsics(const unsigned *a, const unsigned *b,
				      unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = a[i], y = b[i];
	unsigned *o = out + i * 13;
	o[0] = __brev(x);
	o[1] = __clz(x);
	o[2] = __ffs(x);
	o[3] = __popc(x) + __popcll(((unsigned long long)x << 32) | y);
	o[4] = __byte_perm(x, y, 0x5140);
	o[5] = __funnelshift_l(x, y, y & 63);
	o[6] = __funnelshift_r(x, y, y & 63);
	o[7] = __sad(x, y, 5);
	o[8] = __umulhi(x, y);
	o[9] = (unsigned)__mul64hi((long long)x * 977, (long long)y << 20);
	o[10] = __umul24(x, y);
	o[11] = __dp4a(x, y, 7u);
	o[12] = __vsadu4(x, y);
}

extern "C" __global__ void grid3d(unsigned *out)
{
	unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y *
						 blockIdx.z);
	unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y *
						  threadIdx.z);
	unsigned idx = bx * blockDim.x * blockDim.y * blockDim.z + t;
	out[idx] = blockIdx.x | blockIdx.y << 4 | blockIdx.z << 8 |
		   threadIdx.x << 12 | threadIdx.y << 16 | threadIdx.z << 20 |
		   (threadIdx.x % 32 == 0) << 28;
}
