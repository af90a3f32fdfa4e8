// SPDX-License-Identifier: MIT
/*
 * Registered host memory: the caller's own pages, pinned by the kernel
 * (charged to RLIMIT_MEMLOCK) as a buffer object and bound in the
 * context's address space at the address they already have. Nothing is
 * mapped or copied: the device uses the same pages at the same address.
 */
#include <errno.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "kmd.h"
#include "memory.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE

static CUresult register_range(struct CUctx_st *ctx, uint64_t va, size_t size,
			       unsigned int flags)
{
	uint64_t start = va & ~(PAGE_SIZE - 1);
	uint64_t end = (va + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	struct vc_alloc alloc = {
		.va = va, .size = size, .map_va = start,
		.mapped_size = end - start, .ctx = ctx, .dev = ctx->dev,
		.kind = ALLOC_REGISTERED, .flags = flags,
	};
	uint32_t bind = flags & CU_MEMHOSTREGISTER_READ_ONLY
			? DRM_VCUDA_VM_BIND_READONLY : 0;
	int fd = ctx->dev->fd;
	int err = kmd_bo_userptr(fd, start, end - start, &alloc.bo);

	if (err)
		return err == -EFAULT ? CUDA_ERROR_INVALID_VALUE
				      : result_from_errno(err);
	err = kmd_vm_map(fd, ctx->ctx_id, alloc.bo, start, end - start, bind);
	if (err) {
		kmd_bo_close(fd, alloc.bo);
		/* A page of it is already registered (bound). */
		return err == -EEXIST ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
				      : result_from_errno(err);
	}
	if (alloc_table_insert(&alloc)) {
		kmd_vm_unmap(fd, ctx->ctx_id, start, end - start);
		kmd_bo_close(fd, alloc.bo);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemHostRegister(void *p, size_t size, unsigned int flags)
{
	const unsigned int known = CU_MEMHOSTREGISTER_PORTABLE |
				   CU_MEMHOSTREGISTER_DEVICEMAP |
				   CU_MEMHOSTREGISTER_IOMEMORY |
				   CU_MEMHOSTREGISTER_READ_ONLY;
	struct CUctx_st *ctx;
	struct vc_alloc existing;
	CUresult res = ctx_enter(&ctx);
	uint64_t va = (uintptr_t)p;

	if (res != CUDA_SUCCESS)
		return res;
	if (!p || size == 0 || (flags & ~known) || va + size < va)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (alloc_table_find(va, &existing) ||
	    alloc_table_find(va + size - 1, &existing))
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	return register_range(ctx, va, size, flags);
}

CUDA_EXPORT CUresult cuMemHostUnregister(void *p)
{
	struct CUctx_st *ctx;
	struct vc_alloc alloc;
	CUresult res = ctx_enter(&ctx);
	uint64_t va = (uintptr_t)p;

	if (res != CUDA_SUCCESS)
		return res;
	if (!alloc_table_find(va, &alloc) || alloc.va != va ||
	    alloc.kind != ALLOC_REGISTERED)
		return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	/* The device may still be using the pages. */
	res = ctx_synchronize(alloc.ctx);
	if (res != CUDA_SUCCESS)
		return res;
	if (alloc_table_remove(va, &alloc))
		mem_release(&alloc);
	return CUDA_SUCCESS;
}
