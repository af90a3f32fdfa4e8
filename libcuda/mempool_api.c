// SPDX-License-Identifier: MIT
/*
 * Memory pools as objects: creation and destruction, each device's
 * default and current pool, attributes, and access from other devices.
 * Argument checks follow NVIDIA's driver (tests/api/mempool_api.expected).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "devmap.h"
#include "gem_ref.h"
#include "lock_assert.h"
#include "mempool.h"
#include "mempool_internal.h"

pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
struct CUmemPoolHandle_st *pools;

/* Each device's default pool (made on first use) and current pool. */
static CUmemoryPool default_pools[MAX_DEVICES];
static CUmemoryPool current_pools[MAX_DEVICES];

bool pool_valid_locked(CUmemoryPool pool)
{
	lock_assert_held(&pools_lock);
	for (CUmemoryPool p = pools; p; p = p->next)
		if (p == pool)
			return !p->destroyed;
	return false;
}

CUresult pool_new(struct vc_device *dev, const CUmemPoolProps *props,
		  bool is_default, CUmemoryPool *out)
{
	CUmemoryPool pool = calloc(1, sizeof(*pool));

	if (!pool)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pool->dev = dev;
	pool->props = *props;
	pool->is_default = is_default;
	pool->follow_events = 1;
	pool->opportunistic = 1;
	pool->internal_deps = 1;
	/* Its own device has access, and only it, until told otherwise. */
	if (props->location.type == CU_MEM_LOCATION_TYPE_DEVICE)
		pool->access[dev->ordinal] = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	pthread_mutex_init(&pool->lock, NULL);
	pool->next = pools;
	pools = pool;
	*out = pool;
	return CUDA_SUCCESS;
}

bool pool_finish_locked(CUmemoryPool pool)
{
	CUmemoryPool *link;

	lock_assert_held(&pools_lock);
	lock_assert_held(&pool->lock);
	if (!pool->destroyed)
		return false;
	for (struct pool_block *b = pool->blocks; b; b = b->next)
		if (b->in_use)
			return false;
	while (pool->blocks)
		pool_release_block_locked(pool, pool->blocks);
	for (link = &pools; *link != pool; link = &(*link)->next)
		;
	*link = pool->next;
	pthread_mutex_unlock(&pool->lock);
	pthread_mutex_destroy(&pool->lock);
	if (pool->descriptor)
		gem_ref_put(pool->dev, pool->descriptor);
	free(pool);
	return true;
}

static CUmemPoolProps device_props(int ordinal)
{
	CUmemPoolProps p = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE,
			      .id = ordinal },
	};

	return p;
}

/* @ordinal's default pool, made now if need be; with pools_lock held. */
static CUresult default_pool_locked(int ordinal, CUmemoryPool *out)
{
	CUmemPoolProps props = device_props(ordinal);
	CUresult res = CUDA_SUCCESS;

	lock_assert_held(&pools_lock);
	if (!default_pools[ordinal])
		res = pool_new(device_get(ordinal), &props, true,
			       &default_pools[ordinal]);
	*out = default_pools[ordinal];
	return res;
}

CUmemoryPool mempool_current(int ordinal)
{
	CUmemoryPool pool = NULL;

	pthread_mutex_lock(&pools_lock);
	if (current_pools[ordinal])
		pool = current_pools[ordinal];
	else
		default_pool_locked(ordinal, &pool);
	pthread_mutex_unlock(&pools_lock);
	return pool;
}

/* --- Creation --- */

static CUresult check_props(const CUmemPoolProps *p, struct vc_device **dev)
{
	static const unsigned char zero[sizeof(p->reserved)];

	if (p->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    memcmp(p->reserved, zero, sizeof(zero)))
		return CUDA_ERROR_INVALID_VALUE;
	if (p->handleTypes & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return p->handleTypes & CU_MEM_HANDLE_TYPE_FABRIC
		       ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
	switch (p->location.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		/* No such device: an invalid value here, says NVIDIA's driver. */
		*dev = device_get(p->location.id);
		return *dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		/* Host pools are not IPC capable, as CUDA says. */
		*dev = device_get(0);
		return p->handleTypes ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool,
				     const CUmemPoolProps *props)
{
	struct vc_device *dev = NULL;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool || !props)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_props(props, &dev);
	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&pools_lock);
	res = pool_new(dev, props, false, pool);
	pthread_mutex_unlock(&pools_lock);
	return res;
}

CUDA_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&pools_lock);
	if (!pool_valid_locked(pool) || pool->is_default) {
		pthread_mutex_unlock(&pools_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* Its device allocates from the default pool again. */
	if (current_pools[pool->dev->ordinal] == pool)
		current_pools[pool->dev->ordinal] = NULL;
	pthread_mutex_lock(&pool->lock);
	pool->destroyed = true;
	pool_trim_locked(pool, 0);
	if (!pool_finish_locked(pool))
		pthread_mutex_unlock(&pool->lock);
	pthread_mutex_unlock(&pools_lock);
	return CUDA_SUCCESS;
}

/* --- Each device's pools --- */

CUDA_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_get(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&pools_lock);
	res = default_pool_locked(dev, pool);
	pthread_mutex_unlock(&pools_lock);
	return res;
}

CUDA_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pool || !device_get(dev))
		return CUDA_ERROR_INVALID_VALUE;
	*pool = mempool_current(dev);
	return *pool ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&pools_lock);
	/* A pool of that device that can allocate. */
	if (!pool_valid_locked(pool) || pool->imported ||
	    pool->props.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    pool->dev->ordinal != dev)
		res = CUDA_ERROR_INVALID_VALUE;
	else
		current_pools[dev] = pool;
	pthread_mutex_unlock(&pools_lock);
	return res;
}

/* The CUDA 13 forms, for device memory of a device. */
static CUresult device_location(const CUmemLocation *loc,
				CUmemAllocationType type)
{
	if (!loc || type != CU_MEM_ALLOCATION_TYPE_PINNED)
		return CUDA_ERROR_INVALID_VALUE;
	if (loc->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED;	/* host pools: not here */
	return device_get(loc->id) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUDA_EXPORT CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool,
					    CUmemLocation *loc,
					    CUmemAllocationType type)
{
	CUresult res = device_location(loc, type);

	return res == CUDA_SUCCESS ? cuDeviceGetDefaultMemPool(pool, loc->id)
				   : res;
}

CUDA_EXPORT CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *loc,
				     CUmemAllocationType type)
{
	CUresult res = device_location(loc, type);

	return res == CUDA_SUCCESS ? cuDeviceGetMemPool(pool, loc->id) : res;
}

CUDA_EXPORT CUresult cuMemSetMemPool(CUmemLocation *loc,
				     CUmemAllocationType type,
				     CUmemoryPool pool)
{
	CUresult res = device_location(loc, type);

	return res == CUDA_SUCCESS ? cuDeviceSetMemPool(loc->id, pool) : res;
}

/* --- Attributes --- */

static CUresult get_attr_locked(CUmemoryPool p, CUmemPool_attribute attr,
				void *value)
{
	lock_assert_held(&p->lock);
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		*(int *)value = p->follow_events;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		*(int *)value = p->opportunistic;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*(int *)value = p->internal_deps;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*(cuuint64_t *)value = p->threshold;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		*(cuuint64_t *)value = p->reserved;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		*(cuuint64_t *)value = p->reserved_high;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		*(cuuint64_t *)value = p->used;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*(cuuint64_t *)value = p->used_high;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* High watermarks may only be reset (to what is held now). */
static CUresult set_attr_locked(CUmemoryPool p, CUmemPool_attribute attr,
				const void *value)
{
	lock_assert_held(&p->lock);
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		p->follow_events = *(const int *)value != 0;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		p->opportunistic = *(const int *)value != 0;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		p->internal_deps = *(const int *)value != 0;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		p->threshold = *(const cuuint64_t *)value;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		if (*(const cuuint64_t *)value)
			return CUDA_ERROR_INVALID_VALUE;
		p->reserved_high = p->reserved;
		return CUDA_SUCCESS;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		if (*(const cuuint64_t *)value)
			return CUDA_ERROR_INVALID_VALUE;
		p->used_high = p->used;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;	/* the current counts too */
	}
}

/* Gets or sets an attribute of a valid @pool, under its lock. */
static CUresult with_pool(CUmemoryPool pool, CUmemPool_attribute attr,
			  void *value, bool set)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&pools_lock);
	/* An imported pool has no attributes of its own (NVIDIA's answer). */
	if (!pool_valid_locked(pool) || pool->imported) {
		pthread_mutex_unlock(&pools_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&pool->lock);
	res = set ? set_attr_locked(pool, attr, value)
		  : get_attr_locked(pool, attr, value);
	pthread_mutex_unlock(&pool->lock);
	pthread_mutex_unlock(&pools_lock);
	return res;
}

CUDA_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool,
					   CUmemPool_attribute attr,
					   void *value)
{
	return with_pool(pool, attr, value, false);
}

CUDA_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool,
					   CUmemPool_attribute attr,
					   void *value)
{
	return with_pool(pool, attr, value, true);
}

/* --- Access --- */

CUresult pool_apply_access_locked(CUmemoryPool pool, int ordinal,
				  unsigned int flags)
{
	CUresult res = CUDA_SUCCESS;

	lock_assert_held(&pool->lock);
	pool->access[ordinal] = (unsigned char)flags;
	for (struct pool_block *b = pool->blocks; b && !res; b = b->next)
		res = devmap_set_access(b->map, ordinal, flags);
	return res;
}

static CUresult check_access(CUmemoryPool pool, const CUmemAccessDesc *d)
{
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_get(d->location.id))
		return CUDA_ERROR_INVALID_DEVICE;
	if (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
	    d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
	    d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return CUDA_ERROR_INVALID_VALUE;
	/* The pool's own device keeps read-write access. */
	if (pool->props.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    d->location.id == pool->dev->ordinal &&
	    d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return CUDA_ERROR_INVALID_DEVICE;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool pool,
					const CUmemAccessDesc *map,
					size_t count)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!map && count)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&pools_lock);
	if (!pool_valid_locked(pool))
		res = CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; res == CUDA_SUCCESS && i < count; i++)
		res = check_access(pool, &map[i]);
	if (res == CUDA_SUCCESS) {
		pthread_mutex_lock(&pool->lock);
		for (size_t i = 0; res == CUDA_SUCCESS && i < count; i++)
			res = pool_apply_access_locked(pool, map[i].location.id,
						       map[i].flags);
		pthread_mutex_unlock(&pool->lock);
	}
	pthread_mutex_unlock(&pools_lock);
	return res;
}

CUDA_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags,
					CUmemoryPool pool, CUmemLocation *loc)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !loc || loc->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_get(loc->id))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&pools_lock);
	if (pool_valid_locked(pool)) {
		pthread_mutex_lock(&pool->lock);
		*flags = pool->access[loc->id];
		pthread_mutex_unlock(&pool->lock);
	} else {
		res = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&pools_lock);
	return res;
}
