// SPDX-License-Identifier: MIT
// Device printf and assert.
#include <cassert>
#include <cstdio>

extern "C" __global__ void say(int n, float f)
{
	if (threadIdx.x < 2)
		printf("thread %d of %d: n=%d f=%.2f hex=%x str=%s ll=%lld\n",
		       threadIdx.x, blockDim.x, n, f, n, "ok", (long long)n << 33);
}

extern "C" __global__ void check(const int *in)
{
	assert(in[threadIdx.x] >= 0);
}
