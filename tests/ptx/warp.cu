// SPDX-License-Identifier: MIT
// Warp-wide operations: shuffles, votes, active masks, matches.
extern "C" __global__ void warp_ops(const int *in, int *out)
{
	int t = threadIdx.x;
	int v = in[blockIdx.x * blockDim.x + t];
	int *o = out + (blockIdx.x * blockDim.x + t) * 12;
	o[0] = __shfl_sync(0xffffffff, v, (t * 7) & 31);
	o[1] = __shfl_up_sync(0xffffffff, v, 3);
	o[2] = __shfl_down_sync(0xffffffff, v, 5);
	o[3] = __shfl_xor_sync(0xffffffff, v, 6);
	o[4] = __shfl_sync(0xffffffff, v, 2, 8);
	o[5] = __shfl_down_sync(0xffffffff, v, 3, 16);
	o[6] = (int)__ballot_sync(0xffffffff, v & 1);
	o[7] = __any_sync(0xffffffff, v == 3);
	o[8] = __all_sync(0xffffffff, v >= 0);
	unsigned active = 0;
	if (v & 2)
		active = __activemask();
	o[9] = (int)active;
	o[10] = (int)__match_any_sync(0xffffffff, v & 3);
	int sum = v;
	for (int off = 16; off > 0; off >>= 1)
		sum += __shfl_down_sync(0xffffffff, sum, off);
	o[11] = sum;
}
