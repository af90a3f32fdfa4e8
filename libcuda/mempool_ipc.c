// SPDX-License-Identifier: MIT
/*
 * Pools shared between processes. The pool's POSIX handle is a dma-buf
 * of a page of host memory describing the pool (its device and
 * properties); importing it makes a pool object that can take in
 * pointers but not allocate. A pointer travels as export data holding
 * the IPC token of its block (ipc.h), which the importer maps at an
 * address of its own, bound for the pool's device.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "devmap.h"
#include "dmabuf.h"
#include "gem_ref.h"
#include "hostmap.h"
#include "ipc.h"
#include "kmd.h"
#include "lock_assert.h"
#include "mempool.h"
#include "mempool_internal.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE
#define DESCRIPTOR_MAGIC 0x44506376u	/* "vcPD" */

struct descriptor {
	uint32_t magic;
	uint32_t index;		/* the kernel's index of the pool's device */
	CUmemPoolProps props;
};

/* A pointer imported from another process's pool. */
struct imported {
	CUmemoryPool pool;
	struct devmap *map;
};

/* The pool's descriptor page, written once; with pool->lock held. */
static CUresult descriptor_locked(CUmemoryPool pool)
{
	struct descriptor d = { DESCRIPTOR_MAGIC, pool->dev->info.index,
				pool->props };
	struct vc_device *dev = pool->dev;
	uint64_t va;
	uint32_t bo;
	CUresult res;
	int err;

	lock_assert_held(&pool->lock);
	if (pool->descriptor)
		return CUDA_SUCCESS;
	err = kmd_bo_create(dev->fd, PAGE_SIZE, DRM_VCUDA_BO_PLACEMENT_HOST, 0,
			    &bo);
	if (err)
		return result_from_errno(err);
	res = gem_ref_get(dev, bo);
	if (res != CUDA_SUCCESS) {
		kmd_bo_close(dev->fd, bo);
		return res;
	}
	res = hostmap_map(dev, bo, PAGE_SIZE, &va);
	if (res != CUDA_SUCCESS) {
		gem_ref_put(dev, bo);
		return res;
	}
	memcpy((void *)(uintptr_t)va, &d, sizeof(d));
	hostmap_release(va, PAGE_SIZE);
	pool->descriptor = bo;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemPoolExportToShareableHandle(
	void *handle, CUmemoryPool pool, CUmemAllocationHandleType type,
	unsigned long long flags)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || flags || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&pools_lock);
	/* Only a pool made to be shared; an imported one is not ours. */
	if (!pool_valid_locked(pool) || pool->imported ||
	    !(pool->props.handleTypes & type)) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		pthread_mutex_lock(&pool->lock);
		res = descriptor_locked(pool);
		if (res == CUDA_SUCCESS)
			res = dmabuf_export(pool->dev, pool->descriptor,
					    (int *)handle);
		pthread_mutex_unlock(&pool->lock);
	}
	pthread_mutex_unlock(&pools_lock);
	return res;
}

/* Reads the descriptor behind dma-buf @fd. */
static CUresult read_descriptor(int fd, struct descriptor *d,
				struct vc_device **dev)
{
	uint64_t va;
	uint32_t bo;
	CUresult res;

	*dev = dmabuf_device(fd);
	if (!*dev || dmabuf_size(fd) != PAGE_SIZE ||
	    kmd_prime_import((*dev)->fd, fd, &bo))
		return CUDA_ERROR_INVALID_VALUE;
	/* It may be a handle this process has (its own pool's page). */
	res = gem_ref_get(*dev, bo);
	if (res != CUDA_SUCCESS)
		return res;
	res = hostmap_map(*dev, bo, PAGE_SIZE, &va);
	if (res == CUDA_SUCCESS) {
		memcpy(d, (void *)(uintptr_t)va, sizeof(*d));
		hostmap_release(va, PAGE_SIZE);
	}
	gem_ref_put(*dev, bo);
	if (res == CUDA_SUCCESS && (d->magic != DESCRIPTOR_MAGIC ||
				    d->index != (*dev)->info.index))
		res = CUDA_ERROR_INVALID_VALUE;
	return res;
}

CUDA_EXPORT CUresult cuMemPoolImportFromShareableHandle(
	CUmemoryPool *out, void *handle, CUmemAllocationHandleType type,
	unsigned long long flags)
{
	struct descriptor d;
	struct vc_device *dev;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || flags || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	res = read_descriptor((int)(intptr_t)handle, &d, &dev);
	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&pools_lock);
	res = pool_new(dev, &d.props, false, out);
	if (res == CUDA_SUCCESS)
		(*out)->imported = true;
	pthread_mutex_unlock(&pools_lock);
	return res;
}

CUDA_EXPORT CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *data,
					    CUdeviceptr ptr)
{
	struct vc_alloc a;
	CUmemoryPool pool;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!data || !alloc_table_find(ptr, &a) || a.kind != ALLOC_POOL)
		return CUDA_ERROR_INVALID_VALUE;
	pool = a.owner;
	if (!(pool->props.handleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
		return CUDA_ERROR_INVALID_VALUE;
	return ipc_export(a.dev, a.bo, IPC_TAG_POOL, (uint32_t)(ptr - a.va),
			  (struct ipc_wire *)data);
}

/* Maps an imported block for @pool's devices; the table holds it. */
static CUresult map_import(CUmemoryPool pool, uint32_t bo, uint64_t size,
			   uint64_t *va)
{
	struct imported *im = calloc(1, sizeof(*im));
	struct vc_alloc a = { .size = size, .mapped_size = size,
			      .dev = pool->dev, .bo = bo,
			      .kind = ALLOC_POOL_IMPORT, .owner = im };
	CUresult res = im ? hostmap_map(pool->dev, bo, size, &a.va)
			  : CUDA_ERROR_OUT_OF_MEMORY;

	if (res != CUDA_SUCCESS) {
		gem_ref_put(pool->dev, bo);
		free(im);
		return res;
	}
	a.map_va = a.va;
	im->pool = pool;
	res = devmap_add(a.va, size, pool->dev, bo, &im->map);
	for (int i = 0; res == CUDA_SUCCESS && i < MAX_DEVICES; i++)
		if (pool->access[i])
			res = devmap_set_access(im->map, i, pool->access[i]);
	if (res == CUDA_SUCCESS && alloc_table_insert(&a))
		res = CUDA_ERROR_OUT_OF_MEMORY;
	if (res != CUDA_SUCCESS) {
		if (im->map)
			devmap_remove(im->map);
		else
			gem_ref_put(pool->dev, bo);
		hostmap_release(a.va, size);
		free(im);
		return res;
	}
	*va = a.va;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemPoolImportPointer(CUdeviceptr *ptr, CUmemoryPool pool,
					    CUmemPoolPtrExportData *data)
{
	const struct ipc_wire *w = (const struct ipc_wire *)data;
	uint64_t size, va;
	uint32_t bo;
	bool valid;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ptr || !data || w->tag != IPC_TAG_POOL)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&pools_lock);
	valid = pool_valid_locked(pool) && pool->imported;
	pthread_mutex_unlock(&pools_lock);
	/* A process may import its own pool's pointers: a second mapping. */
	if (!valid)
		return CUDA_ERROR_INVALID_VALUE;
	res = ipc_import(w, pool->dev, &bo, &size, NULL);
	if (res == CUDA_SUCCESS && w->offset >= size) {
		gem_ref_put(pool->dev, bo);
		res = CUDA_ERROR_INVALID_VALUE;
	}
	if (res == CUDA_SUCCESS)
		res = map_import(pool, bo, size, &va);
	if (res == CUDA_SUCCESS)
		*ptr = va + w->offset;
	return res;
}

CUresult mempool_free_import(const struct vc_alloc *a,
			     struct CUstream_st *stream)
{
	struct imported *im = a->owner;
	struct vc_alloc gone;

	/* The free comes after the stream's work, which may use it. */
	if (stream)
		stream_wait_idle(stream);
	if (!alloc_table_remove(a->va, &gone))
		return CUDA_ERROR_INVALID_VALUE;
	devmap_remove(im->map);
	hostmap_release(a->va, a->mapped_size);
	free(im);
	return CUDA_SUCCESS;
}
