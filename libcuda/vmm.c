// SPDX-License-Identifier: MIT
/*
 * The VMM API. A physical allocation (CUmemGenericAllocationHandle) is a
 * buffer object of its location's device with a reference count: its
 * creator's (cuMemRelease drops it), one per mapping, one per
 * cuMemRetainAllocationHandle. Reservations are kept in a list to check
 * that mappings and cuMemAddressFree name them; mappings are allocation
 * table entries (ALLOC_VMM), which is how an address leads back to its
 * handle and how cuMemGetAddressRange and pointer attributes see them.
 *
 * The argument checks follow what NVIDIA's driver returns (tests/api/
 * vmm_api.expected): mapping with an offset, a size that is no multiple
 * of the granularity or more than the allocation is
 * CUDA_ERROR_NOT_SUPPORTED; the rest is CUDA_ERROR_INVALID_VALUE, but a
 * device that does not exist for cuMemCreate (CUDA_ERROR_INVALID_DEVICE).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "devmap.h"
#include "dmabuf.h"
#include "gem_ref.h"
#include "hostmap.h"
#include "kmd.h"
#include "lock_assert.h"
#include "vmm.h"

struct vmm_alloc {
	unsigned int refs;
	struct vc_device *dev;		/* whose render node has the object */
	uint32_t bo;			/* counted handle (gem_ref) */
	uint64_t size;
	CUmemAllocationProp prop;
	struct vmm_alloc *next;
};

struct vmm_mapping {
	struct vmm_alloc *alloc;
	struct devmap *map;
};

struct reservation {
	uint64_t va, size;
	struct reservation *next;
};

/* One lock for handles, reservations and mappings: they change rarely. */
static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vmm_alloc *allocs;
static struct reservation *reservations;

static bool aligned(uint64_t v)
{
	return v % VMM_GRANULARITY == 0;
}

/* The live allocation a handle names, or NULL; with vmm_lock held. */
static struct vmm_alloc *lookup_locked(CUmemGenericAllocationHandle h)
{
	lock_assert_held(&vmm_lock);
	for (struct vmm_alloc *a = allocs; a; a = a->next)
		if ((uintptr_t)a == h)
			return a;
	return NULL;
}

static void put_locked(struct vmm_alloc *a)
{
	struct vmm_alloc **link;

	lock_assert_held(&vmm_lock);
	if (--a->refs)
		return;
	for (link = &allocs; *link != a; link = &(*link)->next)
		;
	*link = a->next;
	gem_ref_put(a->dev, a->bo);
	free(a);
}

static struct reservation *reservation_of_locked(uint64_t va, uint64_t size)
{
	lock_assert_held(&vmm_lock);
	for (struct reservation *r = reservations; r; r = r->next)
		if (va >= r->va && va - r->va < r->size &&
		    size <= r->va + r->size - va)
			return r;
	return NULL;
}

/* --- Granularity and reservations --- */

CUDA_EXPORT CUresult cuMemGetAllocationGranularity(
	size_t *granularity, const CUmemAllocationProp *prop,
	CUmemAllocationGranularity_flags option)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!granularity || !prop ||
	    (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	     option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
		return CUDA_ERROR_INVALID_VALUE;
	/* Every placement maps with large pages best; NVIDIA's driver does
	 * not check the rest of @prop here either. */
	*granularity = VMM_GRANULARITY;
	return CUDA_SUCCESS;
}

/* A free range at @hint if it is free, else anywhere suitably aligned. */
static uint64_t place(uint64_t size, uint64_t align, uint64_t hint)
{
	void *at;

	if (hint && hint % align == 0) {
		at = mmap((void *)(uintptr_t)hint, size, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			  MAP_FIXED_NOREPLACE, -1, 0);
		if (at != MAP_FAILED)
			return (uintptr_t)at;
	}
	at = hostmap_reserve(size, align);
	return (uintptr_t)at;
}

CUDA_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size,
					 size_t alignment, CUdeviceptr addr,
					 unsigned long long flags)
{
	struct reservation *r;
	uint64_t va;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ptr || !size || flags || !aligned(size) || !aligned(addr) ||
	    (alignment & (alignment - 1)))
		return CUDA_ERROR_INVALID_VALUE;
	if (alignment < VMM_GRANULARITY)
		alignment = VMM_GRANULARITY;
	r = calloc(1, sizeof(*r));
	va = r ? place(size, alignment, addr) : 0;
	if (!va) {
		free(r);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	res = devmap_reserve(va, size);
	if (res != CUDA_SUCCESS) {
		hostmap_release(va, size);
		free(r);
		return res;
	}
	*r = (struct reservation){ .va = va, .size = size };
	pthread_mutex_lock(&vmm_lock);
	r->next = reservations;
	reservations = r;
	pthread_mutex_unlock(&vmm_lock);
	*ptr = va;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	struct reservation **link, *r = NULL;
	struct vc_alloc inside;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&vmm_lock);
	for (link = &reservations; *link; link = &(*link)->next) {
		if ((*link)->va == ptr && (*link)->size == size)
			break;
	}
	/* It must be the very range, and nothing may be mapped in it. */
	if (*link && !alloc_table_overlapping(ptr, ptr + size, &inside, 1)) {
		r = *link;
		*link = r->next;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (!r)
		return CUDA_ERROR_INVALID_VALUE;
	devmap_unreserve(ptr, size);
	hostmap_release(ptr, size);
	free(r);
	return CUDA_SUCCESS;
}

/* --- Physical allocations --- */

/* Where an allocation of @prop lives, and in which placement. */
static CUresult location_of(const CUmemAllocationProp *prop,
			    struct vc_device **dev, uint32_t *placement)
{
	switch (prop->location.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		*dev = device_get(prop->location.id);
		*placement = DRM_VCUDA_BO_PLACEMENT_DEVICE;
		return *dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		/* Not IPC capable, as CUDA says of host allocations. */
		if (prop->requestedHandleTypes)
			return CUDA_ERROR_INVALID_VALUE;
		*dev = device_get(0);
		*placement = DRM_VCUDA_BO_PLACEMENT_HOST;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static CUresult check_prop(const CUmemAllocationProp *prop)
{
	if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
		return CUDA_ERROR_INVALID_VALUE;
	if (prop->requestedHandleTypes & CU_MEM_HANDLE_TYPE_FABRIC)
		return CUDA_ERROR_NOT_SUPPORTED;	/* no fabric here */
	if (prop->requestedHandleTypes & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;	/* Windows handles */
	if (prop->allocFlags.compressionType > CU_MEM_ALLOCATION_COMP_GENERIC)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* Registers an allocation of @bo (counted) and returns its handle. */
static CUresult new_alloc(struct vc_device *dev, uint32_t bo, uint64_t size,
			  const CUmemAllocationProp *prop,
			  CUmemGenericAllocationHandle *out)
{
	struct vmm_alloc *a = calloc(1, sizeof(*a));

	if (!a) {
		gem_ref_put(dev, bo);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*a = (struct vmm_alloc){ .refs = 1, .dev = dev, .bo = bo, .size = size,
				 .prop = *prop };
	/*
	 * Compressible memory is a request: a GPU without compression
	 * (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED 0, as vcuda)
	 * makes it uncompressed and says so in the properties.
	 */
	a->prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_NONE;
	pthread_mutex_lock(&vmm_lock);
	a->next = allocs;
	allocs = a;
	pthread_mutex_unlock(&vmm_lock);
	*out = (uintptr_t)a;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle,
				 size_t size, const CUmemAllocationProp *prop,
				 unsigned long long flags)
{
	struct vc_device *dev = NULL;
	uint32_t placement = 0, bo;
	CUresult res = driver_check_init();
	int err;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || !prop || flags || !size || !aligned(size))
		return CUDA_ERROR_INVALID_VALUE;
	res = check_prop(prop);
	if (res == CUDA_SUCCESS)
		res = location_of(prop, &dev, &placement);
	if (res != CUDA_SUCCESS)
		return res;
	if (placement == DRM_VCUDA_BO_PLACEMENT_DEVICE &&
	    size > dev->info.vram_size)
		return CUDA_ERROR_OUT_OF_MEMORY;
	err = kmd_bo_create(dev->fd, size, placement, 0, &bo);
	if (err)
		return result_from_errno(err);
	res = gem_ref_get(dev, bo);
	if (res != CUDA_SUCCESS) {
		kmd_bo_close(dev->fd, bo);
		return res;
	}
	return new_alloc(dev, bo, size, prop, handle);
}

CUDA_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	struct vmm_alloc *a;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&vmm_lock);
	a = lookup_locked(handle);
	if (a)
		put_locked(a);
	pthread_mutex_unlock(&vmm_lock);
	return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUDA_EXPORT CUresult cuMemGetAllocationPropertiesFromHandle(
	CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
	struct vmm_alloc *a;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm_lock);
	a = lookup_locked(handle);
	if (a)
		*prop = a->prop;
	pthread_mutex_unlock(&vmm_lock);
	return a ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* --- Mapping --- */

/* Maps @a over [ptr, ptr + size) of a reservation; with vmm_lock held. */
static CUresult map_locked(struct vmm_alloc *a, uint64_t ptr, uint64_t size)
{
	struct vmm_mapping *m = calloc(1, sizeof(*m));
	struct vc_alloc entry = {
		.va = ptr, .size = size, .map_va = ptr, .mapped_size = size,
		.dev = a->dev, .bo = a->bo, .kind = ALLOC_VMM, .owner = m,
	};
	CUresult res = m ? hostmap_map_at(a->dev, a->bo, ptr, size)
			 : CUDA_ERROR_OUT_OF_MEMORY;

	lock_assert_held(&vmm_lock);
	if (res == CUDA_SUCCESS)
		res = gem_ref_get(a->dev, a->bo);
	if (res == CUDA_SUCCESS) {
		res = devmap_add(ptr, size, a->dev, a->bo, &m->map);
		if (res != CUDA_SUCCESS)
			gem_ref_put(a->dev, a->bo);
	}
	if (res == CUDA_SUCCESS && alloc_table_insert(&entry)) {
		devmap_remove(m->map);
		res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res != CUDA_SUCCESS) {
		hostmap_unmap_keep(ptr, size);
		free(m);
		return res;
	}
	m->alloc = a;
	a->refs++;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
			      CUmemGenericAllocationHandle handle,
			      unsigned long long flags)
{
	struct vc_alloc overlap;
	struct vmm_alloc *a;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm_lock);
	a = lookup_locked(handle);
	if (!a)
		res = CUDA_ERROR_INVALID_VALUE;
	else if (offset || !size || !aligned(size) || size > a->size)
		res = CUDA_ERROR_NOT_SUPPORTED;	/* what NVIDIA says */
	else if (!aligned(ptr) || !reservation_of_locked(ptr, size) ||
		 alloc_table_overlapping(ptr, ptr + size, &overlap, 1))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		res = map_locked(a, ptr, size);
	pthread_mutex_unlock(&vmm_lock);
	return res;
}

/* The mappings in [ptr, ptr + size), all whole; -1 if one is cut. */
static long whole_mappings(uint64_t ptr, uint64_t size, struct vc_alloc *out,
			   size_t max)
{
	size_t n = alloc_table_overlapping(ptr, ptr + size, out, max);

	if (n > max)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (out[i].kind != ALLOC_VMM || out[i].va < ptr ||
		    out[i].va + out[i].size > ptr + size)
			return -1;
	return (long)n;
}

#define MAX_MAPPINGS_AT_ONCE 256

static void unmap_one(const struct vc_alloc *entry)
{
	struct vmm_mapping *m = entry->owner;
	struct vc_alloc gone;

	alloc_table_remove(entry->va, &gone);
	devmap_remove(m->map);
	hostmap_unmap_keep(entry->va, entry->size);
	put_locked(m->alloc);
	free(m);
}

CUDA_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	struct vc_alloc *found = malloc(MAX_MAPPINGS_AT_ONCE * sizeof(*found));
	struct CUctx_st *ctx = ctx_current();
	CUresult res = driver_check_init();
	long n;

	if (res != CUDA_SUCCESS || !found) {
		free(found);
		return res != CUDA_SUCCESS ? res : CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* Work in flight may use the mapping: the call is synchronous. */
	if (ctx && ctx_is_live(ctx))
		ctx_synchronize(ctx);
	pthread_mutex_lock(&vmm_lock);
	n = whole_mappings(ptr, size, found, MAX_MAPPINGS_AT_ONCE);
	if (n < 0 || !reservation_of_locked(ptr, size))
		res = CUDA_ERROR_INVALID_VALUE;
	for (long i = 0; res == CUDA_SUCCESS && i < n; i++)
		unmap_one(&found[i]);
	pthread_mutex_unlock(&vmm_lock);
	free(found);
	return res;
}

/* --- Access --- */

static CUresult check_desc(const CUmemAccessDesc *d)
{
	if (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
	    d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
	    d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return CUDA_ERROR_INVALID_VALUE;
	if (d->location.type == CU_MEM_LOCATION_TYPE_HOST ||
	    d->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		return CUDA_SUCCESS;	/* the CPU reaches everything */
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    !device_get(d->location.id))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* The mappings tiling [ptr, ptr + size) exactly, or -1. */
static long tiling(uint64_t ptr, uint64_t size, struct vc_alloc *out,
		   size_t max)
{
	long n = whole_mappings(ptr, size, out, max);
	uint64_t covered = 0;

	for (long i = 0; i < n; i++)
		covered += out[i].size;
	return n > 0 && covered == size ? n : -1;
}

static CUresult set_access(const struct vc_alloc *found, long n,
			   const CUmemAccessDesc *desc, size_t count)
{
	CUresult res = CUDA_SUCCESS;

	for (long i = 0; i < n; i++) {
		struct vmm_mapping *m = found[i].owner;

		for (size_t d = 0; d < count && res == CUDA_SUCCESS; d++)
			if (desc[d].location.type == CU_MEM_LOCATION_TYPE_DEVICE)
				res = devmap_set_access(m->map,
							desc[d].location.id,
							desc[d].flags);
	}
	return res;
}

CUDA_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
				    const CUmemAccessDesc *desc, size_t count)
{
	struct vc_alloc *found;
	CUresult res = driver_check_init();
	long n;

	if (res != CUDA_SUCCESS)
		return res;
	if (!desc || !count)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < count; i++)
		if (check_desc(&desc[i]) != CUDA_SUCCESS)
			return CUDA_ERROR_INVALID_VALUE;
	found = malloc(MAX_MAPPINGS_AT_ONCE * sizeof(*found));
	if (!found)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vmm_lock);
	n = tiling(ptr, size, found, MAX_MAPPINGS_AT_ONCE);
	res = n < 0 ? CUDA_ERROR_INVALID_VALUE
		    : set_access(found, n, desc, count);
	pthread_mutex_unlock(&vmm_lock);
	free(found);
	return res;
}

/* The VMM mapping containing @addr, with vmm_lock held. */
static struct vmm_mapping *mapping_at_locked(uint64_t addr)
{
	struct vc_alloc entry;

	lock_assert_held(&vmm_lock);
	if (!alloc_table_find(addr, &entry) || entry.kind != ALLOC_VMM)
		return NULL;
	return entry.owner;
}

CUDA_EXPORT CUresult cuMemGetAccess(unsigned long long *flags,
				    const CUmemLocation *location,
				    CUdeviceptr ptr)
{
	struct vmm_mapping *m;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !location)
		return CUDA_ERROR_INVALID_VALUE;
	if (location->type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    !device_get(location->id))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&vmm_lock);
	m = mapping_at_locked(ptr);
	if (!m)
		res = CUDA_ERROR_INVALID_VALUE;
	else if (location->type == CU_MEM_LOCATION_TYPE_DEVICE)
		*flags = devmap_get_access(m->map, location->id);
	else
		*flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	pthread_mutex_unlock(&vmm_lock);
	return res;
}

CUDA_EXPORT CUresult cuMemRetainAllocationHandle(
	CUmemGenericAllocationHandle *handle, void *addr)
{
	struct vmm_mapping *m;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm_lock);
	m = mapping_at_locked((uintptr_t)addr);
	if (m) {
		m->alloc->refs++;
		*handle = (uintptr_t)m->alloc;
	}
	pthread_mutex_unlock(&vmm_lock);
	return m ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* --- Sharing --- */

CUDA_EXPORT CUresult cuMemExportToShareableHandle(
	void *shareable, CUmemGenericAllocationHandle handle,
	CUmemAllocationHandleType type, unsigned long long flags)
{
	struct vmm_alloc *a;
	struct vc_device *dev = NULL;
	uint32_t bo = 0;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!shareable || flags || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vmm_lock);
	a = lookup_locked(handle);
	/* Only as the allocation was created to be shared. */
	if (a && (a->prop.requestedHandleTypes & type)) {
		dev = a->dev;
		bo = a->bo;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (!dev)
		return CUDA_ERROR_INVALID_VALUE;
	return dmabuf_export(dev, bo, (int *)shareable);
}

CUDA_EXPORT CUresult cuMemImportFromShareableHandle(
	CUmemGenericAllocationHandle *handle, void *os_handle,
	CUmemAllocationHandleType type)
{
	int fd = (int)(intptr_t)os_handle;
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location.type = CU_MEM_LOCATION_TYPE_DEVICE,
	};
	struct vc_device *dev;
	uint64_t size;
	uint32_t bo;
	CUresult res = driver_check_init();
	int err;

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	/* Not even a file descriptor: NVIDIA's driver says "unknown". */
	if (fcntl(fd, F_GETFD) < 0)
		return CUDA_ERROR_UNKNOWN;
	dev = dmabuf_device(fd);
	size = dmabuf_size(fd);
	if (!dev || !size || !aligned(size))
		return CUDA_ERROR_INVALID_VALUE;
	err = kmd_prime_import(dev->fd, fd, &bo);
	if (err)
		return err == -EOPNOTSUPP ? CUDA_ERROR_NOT_SUPPORTED
					  : CUDA_ERROR_INVALID_VALUE;
	/* The handle may be one this process has already (gem_ref.h). */
	res = gem_ref_get(dev, bo);
	if (res != CUDA_SUCCESS)
		return res;
	prop.location.id = dev->ordinal;
	return new_alloc(dev, bo, size, &prop, handle);
}
