// SPDX-License-Identifier: MIT
/*
 * Graph allocations (see graph_mem.h) and each device's graph memory
 * accounting: cuDeviceGraphMemTrim and cuDevice{Get,Set}GraphMemAttribute.
 * Their nodes are in graph_mem_node.c.
 *
 * A graph allocation is referenced by every allocation node that names
 * it (a graph and its copies, instantiated ones included) and by itself
 * while allocated; it goes with its last reference. Its backing remembers
 * the stream point of its last free, so that trimming never takes memory
 * from work still queued.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "devmap.h"
#include "gem_ref.h"
#include "graph_mem.h"
#include "hostmap.h"
#include "kmd.h"
#include "lock_assert.h"
#include "mempool_internal.h"
#include "stream.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE
#define LARGE_PAGE DRM_VCUDA_LARGE_PAGE_SIZE

struct graph_mem {
	unsigned int refs;
	struct vc_device *dev;
	uint64_t va, size;		/* reserved range, page-rounded */
	uint64_t asked;
	CUmemPoolProps props;
	CUmemAccessDesc *access;	/* as the node was given them */
	size_t naccess;
	bool allocated;
	/* Freed by a free node (no other), or once outside graphs. */
	bool has_free_node, freed_outside;
	uint32_t bo;			/* backing, or 0 */
	struct devmap *map;
	struct CUstream_st *freed_on;	/* last free, until it has passed */
	struct timeline_point freed_at;
	struct graph_mem *next;
};

/* Every graph allocation, and each device's high watermarks. */
static pthread_mutex_t mems_lock = PTHREAD_MUTEX_INITIALIZER;
static struct graph_mem *mems;
static uint64_t used_high[MAX_DEVICES], reserved_high[MAX_DEVICES];

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) & ~(to - 1);
}

/*
 * Memory of the device's graph allocations that have memory behind them.
 * NVIDIA's driver counts it as used for as long as a graph holds it,
 * allocated or not (tests/api/mempool_api.expected); vcuda gives backing
 * back only when the last graph goes or at a trim, so used and reserved
 * are the same amount here.
 */
static uint64_t device_sum(int ordinal)
{
	uint64_t sum = 0;

	for (struct graph_mem *m = mems; m; m = m->next)
		if (m->dev->ordinal == ordinal && m->bo)
			sum += m->size;
	return sum;
}

static void watermarks_locked(int ordinal)
{
	uint64_t used = device_sum(ordinal);
	uint64_t reserved = used;

	lock_assert_held(&mems_lock);
	if (used > used_high[ordinal])
		used_high[ordinal] = used;
	if (reserved > reserved_high[ordinal])
		reserved_high[ordinal] = reserved;
}

CUresult graph_mem_new(struct vc_device *dev, uint64_t size,
		       const CUmemPoolProps *props,
		       const CUmemAccessDesc *access, size_t naccess,
		       struct graph_mem **out)
{
	uint64_t rounded = round_up(size, PAGE_SIZE);
	struct graph_mem *m = calloc(1, sizeof(*m));
	CUmemAccessDesc *copy = naccess ? malloc(naccess * sizeof(*copy)) : NULL;
	void *va = NULL;

	if (m && rounded >= size && (copy || !naccess))
		va = hostmap_reserve(rounded, rounded >= LARGE_PAGE ? LARGE_PAGE
								    : PAGE_SIZE);
	if (!va) {
		free(copy);
		free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (naccess)
		memcpy(copy, access, naccess * sizeof(*copy));
	*m = (struct graph_mem){ .refs = 1, .dev = dev, .va = (uintptr_t)va,
				 .size = rounded, .asked = size, .props = *props,
				 .access = copy, .naccess = naccess };
	/* Graph allocations are not shareable, whatever the pool was. */
	m->props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
	pthread_mutex_lock(&mems_lock);
	m->next = mems;
	mems = m;
	pthread_mutex_unlock(&mems_lock);
	*out = m;
	return CUDA_SUCCESS;
}

/* Gives back the backing once its last free has passed; mems_lock held. */
static void unback_locked(struct graph_mem *m)
{
	lock_assert_held(&mems_lock);
	if (!m->bo)
		return;
	if (m->freed_on)
		kmd_syncobj_wait(m->freed_on->ctx->dev->fd, m->freed_at.syncobj,
				 m->freed_at.point);
	m->freed_on = NULL;
	devmap_remove(m->map);
	hostmap_unmap_keep(m->va, m->size);
	m->bo = 0;
	m->map = NULL;
}

/* Backs @m with an object of its device, bound where it may be used. */
static CUresult back_locked(struct graph_mem *m)
{
	struct vc_device *dev = m->dev;
	CUresult res;
	int err;

	lock_assert_held(&mems_lock);
	err = kmd_bo_create(dev->fd, m->size, DRM_VCUDA_BO_PLACEMENT_DEVICE, 0,
			    &m->bo);
	if (err) {
		m->bo = 0;
		return result_from_errno(err);
	}
	res = gem_ref_get(dev, m->bo);
	if (res != CUDA_SUCCESS) {
		kmd_bo_close(dev->fd, m->bo);
		m->bo = 0;
		return res;
	}
	res = hostmap_map_at(dev, m->bo, m->va, m->size);
	if (res == CUDA_SUCCESS)
		res = devmap_add(m->va, m->size, dev, m->bo, &m->map);
	if (res != CUDA_SUCCESS) {
		gem_ref_put(dev, m->bo);
		hostmap_unmap_keep(m->va, m->size);
		m->bo = 0;
		return res;
	}
	res = devmap_set_access(m->map, dev->ordinal,
				CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	for (size_t i = 0; res == CUDA_SUCCESS && i < m->naccess; i++)
		res = devmap_set_access(m->map, m->access[i].location.id,
					m->access[i].flags);
	if (res != CUDA_SUCCESS)
		unback_locked(m);
	return res;
}

void graph_mem_get(struct graph_mem *m)
{
	pthread_mutex_lock(&mems_lock);
	m->refs++;
	pthread_mutex_unlock(&mems_lock);
}

void graph_mem_put(struct graph_mem *m)
{
	struct graph_mem **link;

	pthread_mutex_lock(&mems_lock);
	if (--m->refs) {
		pthread_mutex_unlock(&mems_lock);
		return;
	}
	for (link = &mems; *link != m; link = &(*link)->next)
		;
	*link = m->next;
	unback_locked(m);
	pthread_mutex_unlock(&mems_lock);
	hostmap_release(m->va, m->size);
	free(m->access);
	free(m);
}

/* The graph allocation reserved at @va, with mems_lock held. */
static struct graph_mem *at_locked(uint64_t va)
{
	struct graph_mem *m = mems;

	lock_assert_held(&mems_lock);
	while (m && m->va != va)
		m = m->next;
	return m;
}

bool graph_mem_reserved(uint64_t va, uint64_t size)
{
	bool inside = false;

	pthread_mutex_lock(&mems_lock);
	for (struct graph_mem *m = mems; m && !inside; m = m->next)
		inside = va >= m->va && va - m->va < m->asked &&
			 size <= m->asked - (va - m->va);
	pthread_mutex_unlock(&mems_lock);
	return inside;
}

uint64_t graph_mem_address(const struct graph_mem *m)
{
	return m->va;
}

bool graph_mem_free_to_allocate(struct graph_mem *m)
{
	bool free_now;

	pthread_mutex_lock(&mems_lock);
	free_now = !m->allocated;
	pthread_mutex_unlock(&mems_lock);
	return free_now;
}

CUresult graph_mem_launch_alloc(struct graph_mem *m)
{
	struct vc_alloc entry = { .va = m->va, .size = m->asked,
				  .map_va = m->va, .mapped_size = m->size,
				  .dev = m->dev, .kind = ALLOC_GRAPH,
				  .owner = m };
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&mems_lock);
	if (m->allocated)
		res = CUDA_ERROR_INVALID_VALUE;
	else if (!m->bo)
		res = back_locked(m);
	if (res == CUDA_SUCCESS) {
		entry.bo = m->bo;
		if (alloc_table_insert(&entry))
			res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res == CUDA_SUCCESS) {
		m->allocated = true;
		m->refs++;	/* the allocation outlives its graphs */
		watermarks_locked(m->dev->ordinal);
	}
	pthread_mutex_unlock(&mems_lock);
	return res;
}

/* The tail of @s: what a free queued on it comes after. */
static struct timeline_point tail_of(struct CUstream_st *s)
{
	struct timeline_point tp = { .syncobj = s->syncobj };

	pthread_mutex_lock(&s->lock);
	tp.point = s->submitted;
	pthread_mutex_unlock(&s->lock);
	return tp;
}

CUresult graph_mem_launch_free(uint64_t va, struct CUstream_st *s)
{
	struct graph_mem *m;

	pthread_mutex_lock(&mems_lock);
	m = at_locked(va);
	if (!m || !m->allocated) {
		pthread_mutex_unlock(&mems_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	alloc_table_remove(va, NULL);
	m->allocated = false;
	m->freed_on = s;
	if (s)
		m->freed_at = tail_of(s);
	pthread_mutex_unlock(&mems_lock);
	graph_mem_put(m);
	return CUDA_SUCCESS;
}

CUresult graph_mem_free(const struct vc_alloc *a, struct CUstream_st *s)
{
	struct graph_mem *m = a->owner;

	pthread_mutex_lock(&mems_lock);
	m->freed_outside = true;
	pthread_mutex_unlock(&mems_lock);
	return graph_mem_launch_free(a->va, s);
}

/*
 * One free node per allocation. Once freed outside graphs, the
 * allocating graph may not get one any more (NVIDIA's driver refuses it,
 * tests/api/mempool_api); another graph may, to free a later launch's
 * allocation (cuda-samples' graphMemoryNodes does).
 */
CUresult graph_mem_claim_free_node(uint64_t va,
				   bool (*allocates)(const struct graph_mem *m,
						     const void *graph),
				   const void *graph)
{
	struct graph_mem *m;
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&mems_lock);
	m = at_locked(va);
	if (!m || m->has_free_node ||
	    (m->freed_outside && allocates(m, graph)))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		m->has_free_node = true;
	pthread_mutex_unlock(&mems_lock);
	return res;
}

void graph_mem_node_params(const struct graph_mem *m,
			   CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	memset(p, 0, sizeof(*p));
	p->poolProps = m->props;
	p->accessDescs = m->access;
	p->accessDescCount = m->naccess;
	p->bytesize = m->asked;
	p->dptr = m->va;
}

void graph_mem_stream_gone(struct CUstream_st *s)
{
	pthread_mutex_lock(&mems_lock);
	for (struct graph_mem *m = mems; m; m = m->next)
		if (m->freed_on == s)
			m->freed_on = NULL;
	pthread_mutex_unlock(&mems_lock);
}

/* --- The device's graph memory --- */

CUDA_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice dev)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!device_get(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&mems_lock);
	for (struct graph_mem *m = mems; m; m = m->next)
		if (m->dev->ordinal == dev && !m->allocated)
			unback_locked(m);
	pthread_mutex_unlock(&mems_lock);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice dev,
						  CUgraphMem_attribute attr,
						  void *value)
{
	cuuint64_t *v = value;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!device_get(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value || attr > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&mems_lock);
	watermarks_locked(dev);
	if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT)
		*v = device_sum(dev);
	else if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
		*v = used_high[dev];
	else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT)
		*v = device_sum(dev);
	else
		*v = reserved_high[dev];
	pthread_mutex_unlock(&mems_lock);
	return CUDA_SUCCESS;
}

/* Only the high watermarks may be set, and only to zero (a reset). */
CUDA_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice dev,
						  CUgraphMem_attribute attr,
						  void *value)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!device_get(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value || *(cuuint64_t *)value ||
	    (attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
	     attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&mems_lock);
	if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
		used_high[dev] = device_sum(dev);
	else
		reserved_high[dev] = device_sum(dev);
	pthread_mutex_unlock(&mems_lock);
	return CUDA_SUCCESS;
}
