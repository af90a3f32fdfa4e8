// SPDX-License-Identifier: MIT
/*
 * cuMemFree and cuMemFreeHost: a free waits for the context's work (which
 * may still use the memory), then goes to the allocation's owner: the
 * allocator for plain device and host memory, the pool for pool memory,
 * the graph allocator for graph memory. This file sits above all three.
 */
#include "api.h"
#include "context.h"
#include "graph_mem.h"
#include "memory.h"
#include "mempool.h"

/*
 * Frees @va, which must start an allocation of kind @kind (or @also);
 * synchronizes its context first. The allocation names its context, so
 * no context need be current, as in CUDA (free_owner_api.expected):
 * numba-cuda's finalizers free on whatever thread collects an array.
 */
static CUresult free_kind(uint64_t va, enum alloc_kind kind,
			  enum alloc_kind also)
{
	struct vc_alloc alloc;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS || va == 0)
		return res;
	if (!alloc_table_find(va, &alloc) || alloc.va != va ||
	    (alloc.kind != kind && alloc.kind != also))
		return CUDA_ERROR_INVALID_VALUE;
	/* Work in flight may still use the memory, as cuMemFree promises. */
	res = ctx_synchronize(alloc.ctx);
	if (res != CUDA_SUCCESS)
		return res;
	return mem_free(va);
}

/*
 * Memory of a pool or a graph given to cuMemFree: a synchronous free,
 * after all work of the context (which may use it).
 */
static CUresult free_device_level(const struct vc_alloc *a)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS)
		res = ctx_synchronize(ctx);
	if (res != CUDA_SUCCESS)
		return res;
	if (a->kind == ALLOC_POOL)
		return mempool_free_sync(a);
	if (a->kind == ALLOC_POOL_IMPORT)
		return mempool_free_import(a, NULL);
	return graph_mem_free(a, NULL);
}

CUDA_EXPORT CUresult cuMemFree(CUdeviceptr dptr)
{
	struct vc_alloc a;

	if (dptr && alloc_table_find(dptr, &a) && a.va == dptr &&
	    (a.kind == ALLOC_POOL || a.kind == ALLOC_POOL_IMPORT ||
	     a.kind == ALLOC_GRAPH))
		return free_device_level(&a);
	return free_kind(dptr, ALLOC_DEVICE, ALLOC_MANAGED);
}

CUDA_EXPORT CUresult cuMemFreeHost(void *p)
{
	return free_kind((uintptr_t)p, ALLOC_HOST, ALLOC_HOST);
}
