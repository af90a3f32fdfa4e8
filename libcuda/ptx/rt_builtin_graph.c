// SPDX-License-Identifier: MIT
/*
 * cudaGraphSetConditional for every back end: a store of the condition
 * value into the handle's cell, which the graph's conditional node reads
 * once the kernel has completed (libcuda/graph_cond.c). The address is
 * checked like any store of the kernel's.
 */
#include "builtin.h"
#include "rt.h"

bool rt_graph_set_conditional(struct rt_cta *c, uint32_t thread,
			      uint64_t handle, uint32_t value)
{
	uint8_t *cell = rt_global(c, thread, handle, sizeof(value), true);

	if (!cell)
		return false;
	__atomic_store_n((uint32_t *)cell, value, __ATOMIC_RELEASE);
	return true;
}
