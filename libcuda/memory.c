// SPDX-License-Identifier: MIT
/*
 * Allocation: create a buffer object, map it into the process with mmap()
 * on the render node (the kernel picks the address), then bind the same
 * address in the context's GPU address space. From then on the CPU and
 * the GPU see the allocation at one address, which is the CUdeviceptr.
 */
#include <stdlib.h>

#include "api.h"
#include "context.h"
#include "context_hooks.h"
#include "gem_ref.h"
#include "hostmap.h"
#include "kmd.h"
#include "memory.h"
#include "peer.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) & ~(to - 1);
}

CUresult mem_map_bo(struct CUctx_st *ctx, uint32_t bo, uint64_t size,
		       uint64_t *va)
{
	CUresult res = hostmap_map(ctx->dev, bo, size, va);
	int err;

	if (res != CUDA_SUCCESS)
		return res;
	err = kmd_vm_map(ctx->dev->fd, ctx->ctx_id, bo, *va, size, 0);
	if (err) {
		hostmap_release(*va, size);
		return result_from_errno(err);
	}
	return CUDA_SUCCESS;
}

/* The largest buffer object vcuda.ko creates (vcuda_bo_check_args). */
#define MAX_ALLOC_SIZE (1ULL << 47)

CUresult mem_alloc(struct CUctx_st *ctx, uint64_t size, enum alloc_kind kind,
		   unsigned int flags, uint64_t *va)
{
	uint64_t mapped_size = round_up(size, PAGE_SIZE);
	uint32_t placement = kind == ALLOC_HOST ? DRM_VCUDA_BO_PLACEMENT_HOST
						: DRM_VCUDA_BO_PLACEMENT_DEVICE;
	uint32_t bo_flags = kind == ALLOC_HOST ? flags : 0;
	struct vc_alloc alloc = {
		.size = size,
		.mapped_size = mapped_size,
		.ctx = ctx,
		.dev = ctx->dev,
		.kind = kind,
		.flags = flags,
	};
	CUresult res;
	int err;

	if (size == 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* More than the device has, or than any address space holds (the
	 * module refuses objects past 2^47 bytes, and a size whose pages
	 * overflow), is "out of memory" in CUDA, not invalid. */
	if (mapped_size < size || size > MAX_ALLOC_SIZE ||
	    (kind != ALLOC_HOST && size > ctx->dev->info.vram_size))
		return CUDA_ERROR_OUT_OF_MEMORY;
	err = kmd_bo_create(ctx->dev->fd, mapped_size, placement, bo_flags,
			    &alloc.bo);
	if (err)
		return result_from_errno(err);
	res = mem_map_bo(ctx, alloc.bo, mapped_size, &alloc.va);
	alloc.map_va = alloc.va;
	if (res == CUDA_SUCCESS && alloc_table_insert(&alloc)) {
		mem_release(&alloc);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res != CUDA_SUCCESS) {
		kmd_bo_close(ctx->dev->fd, alloc.bo);
		return res;
	}
	/* Contexts with peer access see it at once, as CUDA promises. */
	peer_alloc_added(&alloc);
	*va = alloc.va;
	return CUDA_SUCCESS;
}

void mem_release(const struct vc_alloc *alloc)
{
	int fd = alloc->ctx->dev->fd;

	peer_alloc_removed(alloc);
	kmd_vm_unmap(fd, alloc->ctx->ctx_id, alloc->map_va, alloc->mapped_size);
	/* Registered pages are the caller's: they stay mapped. */
	if (alloc->kind != ALLOC_REGISTERED)
		hostmap_release(alloc->map_va, alloc->mapped_size);
	/* Opened IPC memory may share its handle (gem_ref.h). */
	if (alloc->kind == ALLOC_IPC)
		gem_ref_put(alloc->dev, alloc->bo);
	else
		kmd_bo_close(fd, alloc->bo);
}

CUresult mem_free(uint64_t va)
{
	struct vc_alloc alloc;

	if (!alloc_table_remove(va, &alloc))
		return CUDA_ERROR_INVALID_VALUE;
	mem_release(&alloc);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	uint64_t va;

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr || bytesize == 0)
		return CUDA_ERROR_INVALID_VALUE;
	res = mem_alloc(ctx, bytesize, ALLOC_DEVICE, 0, &va);
	if (res == CUDA_SUCCESS)
		*dptr = va;
	return res;
}

CUDA_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize,
				    unsigned int flags)
{
	const unsigned int known = CU_MEMHOSTALLOC_PORTABLE |
				   CU_MEMHOSTALLOC_DEVICEMAP |
				   CU_MEMHOSTALLOC_WRITECOMBINED;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	uint64_t va;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pp || (flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	if (bytesize == 0) {
		*pp = NULL;
		return CUDA_SUCCESS;
	}
	res = mem_alloc(ctx, bytesize, ALLOC_HOST, flags, &va);
	if (res == CUDA_SUCCESS)
		*pp = (void *)(uintptr_t)va;
	return res;
}

CUDA_EXPORT CUresult cuMemAllocHost(void **pp, size_t bytesize)
{
	return cuMemHostAlloc(pp, bytesize, 0);
}

CUDA_EXPORT CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
					       unsigned int flags)
{
	struct CUctx_st *ctx;
	struct vc_alloc alloc;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pdptr || flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (!alloc_table_find((uintptr_t)p, &alloc) ||
	    (alloc.kind != ALLOC_HOST && alloc.kind != ALLOC_REGISTERED))
		return CUDA_ERROR_INVALID_VALUE;
	/* Unified addressing: the device sees host memory at its address. */
	*pdptr = (uintptr_t)p;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	struct drm_vcuda_memory_info info;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	int err;

	if (res != CUDA_SUCCESS)
		return res;
	if (!free_bytes || !total_bytes)
		return CUDA_ERROR_INVALID_VALUE;
	err = kmd_memory_info(ctx->dev->fd, &info);
	if (err)
		return result_from_errno(err);
	*total_bytes = info.vram_size;
	*free_bytes = info.vram_size - info.vram_used;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemGetAddressRange(CUdeviceptr *base, size_t *size,
					  CUdeviceptr dptr)
{
	struct CUctx_st *ctx;
	struct vc_alloc alloc;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!alloc_table_find(dptr, &alloc))
		return CUDA_ERROR_NOT_FOUND;
	if (base)
		*base = alloc.va;
	if (size)
		*size = alloc.size;
	return CUDA_SUCCESS;
}

/*
 * Managed memory is device memory that the CPU may touch at any time: on
 * vcuda every allocation is mapped in the process, so it is coherent for
 * both, concurrently, with nothing to migrate.
 */
CUDA_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
				       unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	uint64_t va;

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr || bytesize == 0 ||
	    (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	res = mem_alloc(ctx, bytesize, ALLOC_MANAGED, flags, &va);
	if (res == CUDA_SUCCESS)
		*dptr = va;
	return res;
}

/* Pitched rows start at multiples of this, as texture rows must. */
#define PITCH_ALIGNMENT 512

CUDA_EXPORT CUresult cuMemAllocPitch(CUdeviceptr *dptr, size_t *pitch,
				     size_t width, size_t height,
				     unsigned int elem_size)
{
	size_t row;

	if (!pitch || !width || !height ||
	    (elem_size != 4 && elem_size != 8 && elem_size != 16))
		return CUDA_ERROR_INVALID_VALUE;
	row = (width + PITCH_ALIGNMENT - 1) / PITCH_ALIGNMENT * PITCH_ALIGNMENT;
	if (row < width || height > SIZE_MAX / row)
		return CUDA_ERROR_INVALID_VALUE;
	*pitch = row;
	return cuMemAlloc(dptr, row * height);
}

/* What the context's code did not free, it frees now. */
static void memory_ctx_teardown(struct CUctx_st *ctx)
{
	struct vc_alloc alloc;

	while (alloc_table_take_any(ctx, &alloc))
		mem_release(&alloc);
}

static void memory_ctx_release(struct CUctx_st *ctx)
{
	range_snapshot_put(ctx->ranges);
	ctx->ranges = NULL;
}

static const struct ctx_hooks memory_hooks = {
	.name = "memory",
	.order = CTX_HOOKS_MEMORY,
	.teardown = memory_ctx_teardown,
	.release = memory_ctx_release,
};
CTX_HOOKS_REGISTER(memory_hooks)
