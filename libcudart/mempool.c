// SPDX-License-Identifier: MIT
/*
 * The runtime's stream-ordered allocator and memory pools: cudaMemPool_t
 * is the driver's CUmemoryPool, and the runtime's pool, access and
 * export structures are the driver's, field for field.
 */
#include <stdint.h>

#include "rt.h"

/* Runtime allocations of 0 bytes succeed with NULL, as cudaMalloc's do. */
static cudaError_t alloc_async(void **ptr, size_t size, cudaMemPool_t pool,
			       cudaStream_t stream, int from_pool)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER();
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	if (!size) {
		*ptr = NULL;
		return cudaSuccess;
	}
	err = rt_error(from_pool
		       ? cuMemAllocFromPoolAsync(&d, size, (CUmemoryPool)pool,
						 (CUstream)stream)
		       : cuMemAllocAsync(&d, size, (CUstream)stream));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMallocAsync(void **ptr, size_t size,
					  cudaStream_t stream)
{
	return alloc_async(ptr, size, NULL, stream, 0);
}

CUDART_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
						  cudaMemPool_t pool,
						  cudaStream_t stream)
{
	return alloc_async(ptr, size, pool, stream, 1);
}

CUDART_EXPORT cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream)
{
	RT_CALL(cuMemFreeAsync((uintptr_t)ptr, (CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep)
{
	RT_CALL(cuMemPoolTrimTo((CUmemoryPool)pool, keep));
}

CUDART_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool,
						  enum cudaMemPoolAttr attr,
						  void *value)
{
	/* cudaMemPoolAttr* and CU_MEMPOOL_ATTR_* share their values. */
	RT_CALL(cuMemPoolSetAttribute((CUmemoryPool)pool,
				      (CUmemPool_attribute)attr, value));
}

CUDART_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool,
						  enum cudaMemPoolAttr attr,
						  void *value)
{
	RT_CALL(cuMemPoolGetAttribute((CUmemoryPool)pool,
				      (CUmemPool_attribute)attr, value));
}

CUDART_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
					       const struct cudaMemAccessDesc *map,
					       size_t count)
{
	RT_CALL(cuMemPoolSetAccess((CUmemoryPool)pool,
				   (const CUmemAccessDesc *)map, count));
}

CUDART_EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
					       cudaMemPool_t pool,
					       struct cudaMemLocation *location)
{
	RT_CALL(cuMemPoolGetAccess((CUmemAccess_flags *)flags,
				   (CUmemoryPool)pool,
				   (CUmemLocation *)location));
}

CUDART_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
					    const struct cudaMemPoolProps *props)
{
	RT_CALL(cuMemPoolCreate((CUmemoryPool *)pool,
				(const CUmemPoolProps *)props));
}

CUDART_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
	RT_CALL(cuMemPoolDestroy((CUmemoryPool)pool));
}

CUDART_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool,
						      int device)
{
	RT_CALL(cuDeviceGetDefaultMemPool((CUmemoryPool *)pool, device));
}

CUDART_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
	RT_CALL(cuDeviceGetMemPool((CUmemoryPool *)pool, device));
}

CUDART_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
	RT_CALL(cuDeviceSetMemPool(device, (CUmemoryPool)pool));
}

CUDART_EXPORT cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool,
						   struct cudaMemLocation *loc,
						   enum cudaMemAllocationType type)
{
	RT_CALL(cuMemGetDefaultMemPool((CUmemoryPool *)pool,
				       (CUmemLocation *)loc,
				       (CUmemAllocationType)type));
}

CUDART_EXPORT cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool,
					    struct cudaMemLocation *loc,
					    enum cudaMemAllocationType type)
{
	RT_CALL(cuMemGetMemPool((CUmemoryPool *)pool, (CUmemLocation *)loc,
				(CUmemAllocationType)type));
}

CUDART_EXPORT cudaError_t cudaMemSetMemPool(struct cudaMemLocation *loc,
					    enum cudaMemAllocationType type,
					    cudaMemPool_t pool)
{
	RT_CALL(cuMemSetMemPool((CUmemLocation *)loc,
				(CUmemAllocationType)type,
				(CUmemoryPool)pool));
}

CUDART_EXPORT cudaError_t cudaMemPoolExportToShareableHandle(
	void *handle, cudaMemPool_t pool, enum cudaMemAllocationHandleType type,
	unsigned int flags)
{
	RT_CALL(cuMemPoolExportToShareableHandle(
	      handle, (CUmemoryPool)pool, (CUmemAllocationHandleType)type,
	      flags));
}

CUDART_EXPORT cudaError_t cudaMemPoolImportFromShareableHandle(
	cudaMemPool_t *pool, void *handle, enum cudaMemAllocationHandleType type,
	unsigned int flags)
{
	RT_CALL(cuMemPoolImportFromShareableHandle(
	      (CUmemoryPool *)pool, handle, (CUmemAllocationHandleType)type,
	      flags));
}

CUDART_EXPORT cudaError_t cudaMemPoolExportPointer(
	struct cudaMemPoolPtrExportData *data, void *ptr)
{
	RT_CALL(cuMemPoolExportPointer((CUmemPoolPtrExportData *)data,
				       (uintptr_t)ptr));
}

CUDART_EXPORT cudaError_t cudaMemPoolImportPointer(
	void **ptr, cudaMemPool_t pool, struct cudaMemPoolPtrExportData *data)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER();
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error(cuMemPoolImportPointer(&d, (CUmemoryPool)pool,
					      (CUmemPoolPtrExportData *)data));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return rt_return(err);
}
