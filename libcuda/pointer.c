// SPDX-License-Identifier: MIT
/*
 * Pointer attributes: what the allocation table knows of an address.
 */
#include <stdbool.h>
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"

static CUmemorytype memory_type(const struct vc_alloc *a)
{
	return a->kind == ALLOC_HOST || a->kind == ALLOC_REGISTERED
	       ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
}

/* Memory only a device reaches (no host pointer to it in CUDA). */
static bool device_only(const struct vc_alloc *a)
{
	return a->kind != ALLOC_HOST && a->kind != ALLOC_REGISTERED &&
	       a->kind != ALLOC_MANAGED;
}

/* Writes attribute @attr of @a (containing @ptr) to @data. */
static CUresult attribute_of(const struct vc_alloc *a, CUdeviceptr ptr,
			     CUpointer_attribute attr, void *data)
{
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*(CUcontext *)data = a->ctx;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)data = memory_type(a);
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		/* Unified addressing: the same address on both sides. */
		*(CUdeviceptr *)data = ptr;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (device_only(a))
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)(uintptr_t)ptr;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		/* Synchronous copies always synchronize on vcuda. */
		*(int *)data = 1;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
		*(unsigned long long *)data = a->id;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(int *)data = a->kind == ALLOC_MANAGED;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = a->dev->ordinal;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(CUdeviceptr *)data = a->va;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = a->size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(int *)data = 1;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*(unsigned int *)data = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
		/* cuIpcGetMemHandle takes cuMemAlloc memory. */
		*(int *)data = a->kind == ALLOC_DEVICE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		*(int *)data = 0;	/* neither exists on vcuda */
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*(unsigned long long *)data = 0;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(void **)data = a->kind == ALLOC_POOL ? a->owner : NULL;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
		*(size_t *)data = a->mapped_size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
		*(void **)data = (void *)(uintptr_t)a->map_va;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr,
					   CUdeviceptr ptr)
{
	CUresult res = driver_check_init();
	struct vc_alloc a;

	if (res != CUDA_SUCCESS)
		return res;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	if (!alloc_table_find(ptr, &a))
		return CUDA_ERROR_INVALID_VALUE;
	return attribute_of(&a, ptr, attr, data);
}

/* What cuPointerGetAttributes reports for memory CUDA does not know:
 * as NVIDIA's driver does, the pointer itself is its host pointer. */
static void unknown_attribute(CUpointer_attribute attr, void *data, CUdeviceptr ptr)
{
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		*(void **)data = (void *)(uintptr_t)ptr;
		break;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(void **)data = NULL;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*(unsigned long long *)data = 0;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = 0;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = -2;
		break;
	default:
		*(int *)data = 0;
		break;
	}
}

CUDA_EXPORT CUresult cuPointerGetAttributes(unsigned int count,
					    CUpointer_attribute *attrs,
					    void **data, CUdeviceptr ptr)
{
	CUresult res = driver_check_init();
	struct vc_alloc a;
	int known;

	if (res != CUDA_SUCCESS)
		return res;
	if (!count || !attrs || !data)
		return CUDA_ERROR_INVALID_VALUE;
	known = alloc_table_find(ptr, &a);
	for (unsigned int i = 0; i < count; i++) {
		if (!data[i])
			continue;
		/* Unlike the singular call, unknown memory is not an error. */
		if (!known)
			unknown_attribute(attrs[i], data[i], ptr);
		else if (attribute_of(&a, ptr, attrs[i], data[i]) != CUDA_SUCCESS)
			unknown_attribute(attrs[i], data[i], 0);	/* device memory has no host pointer */
	}
	return CUDA_SUCCESS;
}
