// SPDX-License-Identifier: MIT
/*
 * Managed memory and pointer attributes. Managed allocations are device
 * memory mapped in the process (see cuMemAllocManaged): coherent for CPU
 * and device at all times, so prefetches, advice and stream attachment
 * have nothing to move; they are checked and succeed, as they would on a
 * system where all memory is shared.
 */
#include <stdint.h>

#include "rt.h"

CUDART_EXPORT cudaError_t cudaMallocManaged(void **ptr, size_t size,
					    unsigned int flags)
{
	CUdeviceptr dptr;
	cudaError_t err;

	RT_ENTER();
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	if (size == 0 && (flags == cudaMemAttachGlobal || flags == cudaMemAttachHost)) {
		*ptr = NULL;	/* as cudaMalloc(0) */
		return cudaSuccess;
	}
	/* cudaMemAttach* and CU_MEM_ATTACH_* share their values. */
	err = rt_error(cuMemAllocManaged(&dptr, size, flags));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)dptr;
	return rt_return(err);
}

/* cudaSuccess if [ptr, ptr + count) is managed memory. */
static cudaError_t check_managed(const void *ptr, size_t count)
{
	CUdeviceptr start = 0;
	size_t size = 0;
	int managed = 0;

	if (cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
				  (uintptr_t)ptr) != CUDA_SUCCESS || !managed)
		return cudaErrorInvalidValue;
	cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
			      (uintptr_t)ptr);
	cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
			      (uintptr_t)ptr);
	return count <= start + size - (uintptr_t)ptr ? cudaSuccess
						      : cudaErrorInvalidValue;
}


/* cudaMemLocation and CUmemLocation are one layout. */
static CUmemLocation driver_location(struct cudaMemLocation loc)
{
	return (CUmemLocation){ .type = (CUmemLocationType)loc.type, .id = loc.id };
}

CUDART_EXPORT cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count,
					       struct cudaMemLocation location,
					       unsigned int flags,
					       cudaStream_t stream)
{
	cudaError_t err;

	RT_ENTER();
	err = rt_error(cuMemPrefetchAsync((uintptr_t)ptr, count,
					  driver_location(location),
					  flags, stream));
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMemAdvise(const void *ptr, size_t count,
					enum cudaMemoryAdvise advice,
					struct cudaMemLocation location)
{
	cudaError_t err;

	RT_ENTER();
	err = rt_error(cuMemAdvise((uintptr_t)ptr, count,
				   (CUmem_advise)advice,
				   driver_location(location)));
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream,
						   void *ptr, size_t length,
						   unsigned int flags)
{
	cudaError_t err = cudaSuccess;

	(void)stream;
	RT_ENTER();
	if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
	    flags != cudaMemAttachSingle)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = check_managed(ptr, length);
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaPointerGetAttributes(
	struct cudaPointerAttributes *attr, const void *ptr)
{
	CUpointer_attribute which[] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
		CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
		CU_POINTER_ATTRIBUTE_HOST_POINTER,
	};
	unsigned int type = 0;
	int managed = 0, device = -2;
	CUdeviceptr dptr = 0;
	void *hptr = NULL;
	void *data[] = { &type, &managed, &device, &dptr, &hptr };
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	if (!attr)
		return rt_return(cudaErrorInvalidValue);
	cuPointerGetAttributes(5, which, data, (uintptr_t)ptr);
	attr->type = managed ? cudaMemoryTypeManaged :
		     type == CU_MEMORYTYPE_DEVICE ? cudaMemoryTypeDevice :
		     type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost :
		     cudaMemoryTypeUnregistered;
	attr->device = device;
	attr->devicePointer = (void *)(uintptr_t)dptr;
	/* Memory CUDA does not know is taken for host memory at @ptr. */
	attr->hostPointer = attr->type == cudaMemoryTypeUnregistered
			    ? (void *)ptr : hptr;
	return cudaSuccess;
}
