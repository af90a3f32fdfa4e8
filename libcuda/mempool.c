// SPDX-License-Identifier: MIT
/*
 * Pool blocks: allocation in stream order, frees, and giving memory back
 * (see mempool.h). cuMemAllocAsync, cuMemAllocFromPoolAsync,
 * cuMemFreeAsync and cuMemPoolTrimTo.
 *
 * Reuse follows CUDA's rules with the pool's attributes: a block freed on
 * the allocating stream is reused at once (stream order guarantees the
 * free came first); one freed on another stream is reused if that free
 * has completed (REUSE_ALLOW_OPPORTUNISTIC), or else if the allocating
 * stream may be made to wait for it (REUSE_ALLOW_INTERNAL_DEPENDENCIES).
 * With REUSE_FOLLOW_EVENT_DEPENDENCIES, a stream that waited for an
 * event recorded after the free (on the freeing stream) reuses the block
 * with no wait of its own (stream_follows).
 */
#include <stdlib.h>

#include "api.h"
#include "alloc_table.h"
#include "enqueue.h"
#include "context.h"
#include "devmap.h"
#include "gem_ref.h"
#include "graph_mem.h"
#include "hostmap.h"
#include "kmd.h"
#include "lock_assert.h"
#include "memory.h"
#include "mempool.h"
#include "mempool_internal.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) & ~(to - 1);
}

/* Whether the free of @b has certainly happened on the device. */
static bool free_passed(struct pool_block *b)
{
	struct CUstream_st *s = b->freed_on;
	uint64_t reached;

	if (!s)
		return true;
	if (kmd_syncobj_query(s->ctx->dev->fd, b->freed_at.syncobj, &reached) ||
	    reached < b->freed_at.point)
		return false;
	b->freed_on = NULL;
	return true;
}

/*
 * Whether @b may serve an allocation on @s now, and whether @s must wait
 * for its free first (*wait).
 */
static bool reusable(CUmemoryPool pool, struct pool_block *b,
		     struct CUstream_st *s, bool *wait)
{
	*wait = false;
	if (b->freed_on == s || (pool->opportunistic && free_passed(b)))
		return true;
	/* @s waited for an event recorded after the free. */
	if (pool->follow_events && stream_follows(s, &b->freed_at))
		return true;
	if (!pool->internal_deps)
		return false;
	*wait = b->freed_on != NULL;
	return true;
}

/* The best free block for @size: the smallest that is not too big. */
static struct pool_block *find_block_locked(CUmemoryPool pool, uint64_t size,
					    struct CUstream_st *s, bool *wait)
{
	struct pool_block *best = NULL;
	bool best_wait = false, w;

	lock_assert_held(&pool->lock);
	for (struct pool_block *b = pool->blocks; b; b = b->next) {
		if (b->in_use || b->size < size || b->size / 2 > size ||
		    (best && best->size <= b->size) || !reusable(pool, b, s, &w))
			continue;
		best = b;
		best_wait = w;
	}
	*wait = best_wait;
	return best;
}

/* A new block of @size bytes, mapped, with the pool's access. */
static CUresult new_block_locked(CUmemoryPool pool, uint64_t size,
				 struct pool_block **out)
{
	uint32_t placement = pool->props.location.type == CU_MEM_LOCATION_TYPE_DEVICE
			     ? DRM_VCUDA_BO_PLACEMENT_DEVICE
			     : DRM_VCUDA_BO_PLACEMENT_HOST;
	struct pool_block *b = calloc(1, sizeof(*b));
	struct vc_device *dev = pool->dev;
	CUresult res;
	int err;

	lock_assert_held(&pool->lock);
	if (!b)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (pool->props.maxSize && pool->reserved + size > pool->props.maxSize) {
		free(b);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	b->size = size;
	err = kmd_bo_create(dev->fd, size, placement, 0, &b->bo);
	res = err ? result_from_errno(err) : gem_ref_get(dev, b->bo);
	if (res == CUDA_SUCCESS) {
		res = hostmap_map(dev, b->bo, size, &b->va);
		if (res == CUDA_SUCCESS)
			res = devmap_add(b->va, size, dev, b->bo, &b->map);
		else
			gem_ref_put(dev, b->bo);
	} else if (!err) {
		kmd_bo_close(dev->fd, b->bo);
	}
	for (int i = 0; res == CUDA_SUCCESS && i < MAX_DEVICES; i++)
		if (pool->access[i])
			res = devmap_set_access(b->map, i, pool->access[i]);
	if (res != CUDA_SUCCESS) {
		if (b->map) {
			devmap_remove(b->map);
			hostmap_release(b->va, size);
		}
		free(b);
		return res;
	}
	b->next = pool->blocks;
	pool->blocks = b;
	pool->reserved += size;
	if (pool->reserved > pool->reserved_high)
		pool->reserved_high = pool->reserved;
	*out = b;
	return CUDA_SUCCESS;
}

static void release_block_locked(CUmemoryPool pool, struct pool_block *b)
{
	struct pool_block **link = &pool->blocks;

	lock_assert_held(&pool->lock);
	while (*link != b)
		link = &(*link)->next;
	*link = b->next;
	devmap_remove(b->map);
	hostmap_release(b->va, b->size);
	pool->reserved -= b->size;
	free(b);
}

void pool_release_block_locked(CUmemoryPool pool, struct pool_block *b)
{
	lock_assert_held(&pool->lock);
	if (b->freed_on)
		kmd_syncobj_wait(b->freed_on->ctx->dev->fd, b->freed_at.syncobj,
				 b->freed_at.point);
	release_block_locked(pool, b);
}

void pool_trim_locked(CUmemoryPool pool, uint64_t keep)
{
	struct pool_block *b = pool->blocks, *next;

	lock_assert_held(&pool->lock);
	for (; b && pool->reserved > keep; b = next) {
		next = b->next;
		if (!b->in_use && pool->reserved - b->size >= keep &&
		    free_passed(b))
			release_block_locked(pool, b);
	}
}

struct pool_block *pool_block_at_locked(CUmemoryPool pool, uint64_t va)
{
	struct pool_block *b = pool->blocks;

	lock_assert_held(&pool->lock);
	while (b && b->va != va)
		b = b->next;
	return b;
}

/* More than the pool's device has, or than the pool may hold. */
static bool too_big_locked(CUmemoryPool pool, uint64_t size)
{
	lock_assert_held(&pool->lock);
	if (pool->props.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    size > pool->dev->info.vram_size)
		return true;
	return pool->props.maxSize && size > pool->props.maxSize;
}

static CUresult take_block(CUmemoryPool pool, uint64_t size,
			   struct CUstream_st *s, struct pool_block **out)
{
	uint64_t need = round_up(size, PAGE_SIZE);
	struct pool_block *b;
	CUresult res = CUDA_SUCCESS;
	bool wait;

	if (need < size || too_big_locked(pool, need))
		return CUDA_ERROR_OUT_OF_MEMORY;
	b = find_block_locked(pool, need, s, &wait);
	if (b && wait)
		res = stream_add_wait(s, &b->freed_at);
	if (!b && res == CUDA_SUCCESS)
		res = new_block_locked(pool, need, &b);
	if (res != CUDA_SUCCESS)
		return res;
	b->in_use = true;
	b->asked = size;
	pool->used += b->size;
	if (pool->used > pool->used_high)
		pool->used_high = pool->used;
	*out = b;
	return CUDA_SUCCESS;
}

CUresult mempool_alloc(CUmemoryPool pool, uint64_t size,
		       struct CUstream_st *s, uint64_t *va)
{
	struct pool_block *b = NULL;
	struct vc_alloc entry = { .dev = pool->dev, .kind = ALLOC_POOL,
				  .owner = pool };
	CUresult res;

	pthread_mutex_lock(&pool->lock);
	res = take_block(pool, size, s, &b);
	pthread_mutex_unlock(&pool->lock);
	if (res != CUDA_SUCCESS)
		return res;
	entry.va = entry.map_va = b->va;
	entry.size = size;
	entry.mapped_size = b->size;
	entry.bo = b->bo;
	if (alloc_table_insert(&entry)) {
		mempool_free(&entry, NULL);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*va = b->va;
	return CUDA_SUCCESS;
}

/* The last submitted point of @s: what a free on it comes after. */
static struct timeline_point stream_tail(struct CUstream_st *s)
{
	struct timeline_point tp = { .syncobj = s->syncobj };

	pthread_mutex_lock(&s->lock);
	tp.point = s->submitted;
	pthread_mutex_unlock(&s->lock);
	return tp;
}

/*
 * Gives the block of @a back to its pool after the work queued on @s (at
 * once without a stream). @uncount: take it out of the pool's used bytes.
 */
static void give_back(const struct vc_alloc *a, struct CUstream_st *s,
		      bool uncount)
{
	CUmemoryPool pool = a->owner;
	struct pool_block *b;
	bool finished;

	alloc_table_remove(a->va, NULL);
	pthread_mutex_lock(&pools_lock);
	pthread_mutex_lock(&pool->lock);
	b = pool_block_at_locked(pool, a->va);
	if (b && b->in_use) {
		b->in_use = false;
		b->freed_on = s;
		if (s)
			b->freed_at = stream_tail(s);
		if (uncount)
			pool->used -= b->size;
	}
	/* A destroyed pool goes with its last allocation. */
	finished = pool_finish_locked(pool);
	if (!finished)
		pthread_mutex_unlock(&pool->lock);
	pthread_mutex_unlock(&pools_lock);
}

CUresult mempool_free(const struct vc_alloc *a, struct CUstream_st *s)
{
	give_back(a, s, true);
	return CUDA_SUCCESS;
}

/*
 * cuMemFree of stream-ordered memory frees it at once, but NVIDIA's
 * driver (580, H200) leaves its bytes counted in the pool's
 * USED_MEM_CURRENT, and so does vcuda, for the same answers.
 */
CUresult mempool_free_sync(const struct vc_alloc *a)
{
	give_back(a, NULL, false);
	return CUDA_SUCCESS;
}

void mempool_release_idle(void)
{
	pthread_mutex_lock(&pools_lock);
	for (CUmemoryPool p = pools; p; p = p->next) {
		pthread_mutex_lock(&p->lock);
		if (p->reserved > p->threshold)
			pool_trim_locked(p, p->threshold);
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_unlock(&pools_lock);
}

void mempool_stream_gone(struct CUstream_st *s)
{
	pthread_mutex_lock(&pools_lock);
	for (CUmemoryPool p = pools; p; p = p->next) {
		pthread_mutex_lock(&p->lock);
		for (struct pool_block *b = p->blocks; b; b = b->next)
			if (b->freed_on == s)
				b->freed_on = NULL;
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_unlock(&pools_lock);
}

/* --- API --- */

static CUresult submit_alloc(struct CUstream_st *s, const struct stream_op *op)
{
	return mempool_alloc(op->u.alloc.pool, op->u.alloc.size, s,
			     op->u.alloc.va);
}

/* Allocates from @pool (@from_current: @s's device's) in @s's order. */
static CUresult alloc_on_stream(struct CUstream_st *s, size_t size,
				CUmemoryPool pool, bool from_current,
				uint64_t *va)
{
	CUresult res = CUDA_SUCCESS;

	if (from_current)
		pool = mempool_current(s->ctx->dev->ordinal);
	pthread_mutex_lock(&pools_lock);
	/* Imported pools give no new memory: CUDA says so. */
	if (!pool_valid_locked(pool) || pool->imported)
		res = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&pools_lock);
	if (res != CUDA_SUCCESS)
		return res;
	return stream_enqueue(s, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC,
		.u.alloc = { .size = size, .pool = pool, .va = va },
		.submit = submit_alloc,
	});
}

static CUresult alloc_on(CUdeviceptr *dptr, size_t size, CUmemoryPool pool,
			 CUstream hstream, bool from_current)
{
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	uint64_t va;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	/* Nothing to allocate: success with no memory, as NVIDIA's does. */
	if (!size) {
		*dptr = 0;
		return CUDA_SUCCESS;
	}
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, hstream);
	res = alloc_on_stream(s, size, pool, from_current, &va);
	stream_put(s);
	if (res == CUDA_SUCCESS)
		*dptr = va;
	return res;
}

CUDA_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t size,
				     CUstream stream)
{
	return alloc_on(dptr, size, NULL, stream, true);
}

CUDA_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t size,
					     CUmemoryPool pool, CUstream stream)
{
	return alloc_on(dptr, size, pool, stream, false);
}

/*
 * cuMemAlloc memory given to cuMemFreeAsync: NVIDIA's driver takes it.
 * It is freed once the stream has done the work queued before; here the
 * caller waits for that (the free itself is not deferred).
 */
static CUresult free_plain(const struct vc_alloc *a, struct CUstream_st *s)
{
	CUresult res = stream_wait_idle(s);

	if (res == CUDA_SUCCESS)
		res = ctx_check_fault(s->ctx);
	return res == CUDA_SUCCESS ? mem_free(a->va) : res;
}

/* Frees @op->u.mem_free in @s's order, as its kind of memory says. */
static CUresult submit_free(struct CUstream_st *s, const struct stream_op *op)
{
	struct vc_alloc a;

	if (!alloc_table_find(op->u.mem_free, &a) || a.va != op->u.mem_free)
		return CUDA_ERROR_INVALID_VALUE;
	switch (a.kind) {
	case ALLOC_POOL:
		return mempool_free(&a, s);
	case ALLOC_POOL_IMPORT:
		return mempool_free_import(&a, s);
	case ALLOC_GRAPH:
		return graph_mem_free(&a, s);
	case ALLOC_DEVICE:
	case ALLOC_MANAGED:
		return free_plain(&a, s);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hstream)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS || !dptr)
		return res;
	return stream_enqueue_handle(ctx, hstream, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_MEM_FREE, .u.mem_free = dptr,
		.submit = submit_free,
	});
}

CUDA_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&pools_lock);
	if (pool_valid_locked(pool)) {
		pthread_mutex_lock(&pool->lock);
		pool_trim_locked(pool, keep);
		pthread_mutex_unlock(&pool->lock);
	} else {
		res = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&pools_lock);
	return res;
}
