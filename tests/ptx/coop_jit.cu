// SPDX-License-Identifier: MIT
// Cooperative kernels with grid-wide barriers, run on both executors by
// tests/unit/test_jit_coop.c (the JIT's fibers, libcuda/ptx/jit_fiber.c):
// a grid-stride stencil with a grid.sync() after each phase, and a wait
// for a flag nothing sets, which only the launch's kill flag ends.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// phases rounds of b[i] = 3 a[i] + a[i + 1] + a[i - 1] + round (mod n,
// wrapping), a and b swapped after each, a grid barrier between them.
extern "C" __global__ void coop_phases(unsigned *a, unsigned *b, unsigned n,
				       unsigned phases)
{
	cg::grid_group g = cg::this_grid();
	unsigned stride = gridDim.x * blockDim.x;
	for (unsigned p = 0; p < phases; p++) {
		for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += stride)
			b[i] = 3 * a[i] + a[(i + 1) % n] + a[(i + n - 1) % n] +
			       p;
		g.sync();
		unsigned *t = a;
		a = b;
		b = t;
	}
}

// Thread 0 of each CTA waits for *flag, which nothing sets.
extern "C" __global__ void coop_wait(volatile unsigned *flag, unsigned *out)
{
	cg::grid_group g = cg::this_grid();
	if (threadIdx.x == 0)
		while (!*flag)
			;
	g.sync();
	out[blockIdx.x] = 1;
}
