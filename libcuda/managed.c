// SPDX-License-Identifier: MIT
/*
 * Hints about managed memory: prefetches and advice. Managed memory on
 * vcuda is always resident and coherent for the host and every device, so
 * there is nothing to move; these check their arguments as CUDA does and
 * succeed.
 */
#include <stdint.h>

#include "api.h"

static CUresult check_managed(CUdeviceptr ptr, size_t count)
{
	CUdeviceptr start = 0;
	size_t size = 0;
	int managed = 0;

	if (cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
				  ptr) != CUDA_SUCCESS || !managed)
		return CUDA_ERROR_INVALID_VALUE;
	cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr);
	cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr);
	return count <= start + size - ptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult check_location(CUmemLocation loc)
{
	int count = 0;

	switch (loc.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		cuDeviceGetCount(&count);
		return loc.id >= 0 && loc.id < count ? CUDA_SUCCESS
						     : CUDA_ERROR_INVALID_DEVICE;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr ptr, size_t count,
					CUmemLocation location,
					unsigned int flags, CUstream stream)
{
	CUresult res = driver_check_init();

	(void)stream;	/* nothing moves, so nothing to order */
	if (res == CUDA_SUCCESS && flags != 0)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		res = check_location(location);
	if (res == CUDA_SUCCESS)
		res = check_managed(ptr, count);
	return res;
}

CUDA_EXPORT CUresult cuMemAdvise(CUdeviceptr ptr, size_t count,
				 CUmem_advise advice, CUmemLocation location)
{
	CUresult res = driver_check_init();

	if (res == CUDA_SUCCESS && (advice < CU_MEM_ADVISE_SET_READ_MOSTLY ||
				    advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY))
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS && advice != CU_MEM_ADVISE_SET_READ_MOSTLY &&
	    advice != CU_MEM_ADVISE_UNSET_READ_MOSTLY)
		res = check_location(location);
	if (res == CUDA_SUCCESS)
		res = check_managed(ptr, count);
	return res;
}

/* The first forms took a device, CU_DEVICE_CPU for the host. */
static CUmemLocation location_of_device(CUdevice dev)
{
	CUmemLocation loc = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev };

	if (dev == CU_DEVICE_CPU)
		loc = (CUmemLocation){ .type = CU_MEM_LOCATION_TYPE_HOST, .id = 0 };
	return loc;
}

CUDA_EXPORT CUresult mem_prefetch_async_v1(CUdeviceptr ptr, size_t count,
					   CUdevice dev, CUstream stream)
	__asm__("cuMemPrefetchAsync");
CUresult mem_prefetch_async_v1(CUdeviceptr ptr, size_t count, CUdevice dev,
			       CUstream stream)
{
	return cuMemPrefetchAsync(ptr, count, location_of_device(dev), 0, stream);
}

CUDA_EXPORT CUresult mem_advise_v1(CUdeviceptr ptr, size_t count,
				   CUmem_advise advice, CUdevice dev)
	__asm__("cuMemAdvise");
CUresult mem_advise_v1(CUdeviceptr ptr, size_t count, CUmem_advise advice,
		       CUdevice dev)
{
	return cuMemAdvise(ptr, count, advice, location_of_device(dev));
}
