// SPDX-License-Identifier: MIT
/*
 * Synchronous copies and sets. They run on the legacy default stream,
 * which orders them after all earlier work of the context: once that work
 * is done, the bytes are moved by the CPU through the process's own
 * mapping of device memory (the same address the GPU uses).
 */
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"

/* CUDA_SUCCESS if [addr, addr + size) lies inside one known allocation. */
static CUresult check_device_range(uint64_t addr, size_t size)
{
	struct vc_alloc alloc;

	if (!alloc_table_find(addr, &alloc))
		return CUDA_ERROR_INVALID_VALUE;
	if (size > alloc.va + alloc.size - addr)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* Synchronizes the current context, the first step of every sync copy. */
static CUresult enter_sync_copy(void)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	return ctx_synchronize(ctx);
}

CUDA_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src,
				  size_t bytes)
{
	CUresult res = enter_sync_copy();

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!src)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memcpy((void *)(uintptr_t)dst, src, bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
	CUresult res = enter_sync_copy();

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!dst)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS)
		memcpy(dst, (const void *)(uintptr_t)src, bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src,
				  size_t bytes)
{
	CUresult res = enter_sync_copy();

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS)
		res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			bytes);
	return res;
}

/*
 * cuMemcpy with unified addressing: either side may be device or host
 * memory; unknown addresses are taken as pageable host memory.
 */
CUDA_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
	CUresult res = enter_sync_copy();
	struct vc_alloc alloc;

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	if (alloc_table_find(src, &alloc))
		res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS && alloc_table_find(dst, &alloc))
		res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			bytes);
	return res;
}

/* Writes @count elements of @elem_size bytes, each @pattern. */
static CUresult memset_elements(CUdeviceptr dst, uint32_t pattern,
				size_t elem_size, size_t count)
{
	CUresult res = enter_sync_copy();

	if (res != CUDA_SUCCESS || count == 0)
		return res;
	if (dst % elem_size)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_device_range(dst, count * elem_size);
	if (res != CUDA_SUCCESS)
		return res;
	if (elem_size == 1) {
		memset((void *)(uintptr_t)dst, (int)pattern, count);
	} else if (elem_size == 2) {
		uint16_t *p = (uint16_t *)(uintptr_t)dst;

		for (size_t i = 0; i < count; i++)
			p[i] = (uint16_t)pattern;
	} else {
		uint32_t *p = (uint32_t *)(uintptr_t)dst;

		for (size_t i = 0; i < count; i++)
			p[i] = pattern;
	}
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n)
{
	return memset_elements(dst, value, 1, n);
}

CUDA_EXPORT CUresult cuMemsetD16(CUdeviceptr dst, unsigned short value,
				 size_t n)
{
	return memset_elements(dst, value, 2, n);
}

CUDA_EXPORT CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n)
{
	return memset_elements(dst, value, 4, n);
}
