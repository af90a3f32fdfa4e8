/* SPDX-License-Identifier: MIT */
/*
 * Memory pools inside libcuda: shared by mempool.c (blocks, allocation,
 * release), mempool_api.c (pools, attributes, access) and mempool_ipc.c
 * (sharing with other processes).
 */
#ifndef VCUDA_MEMPOOL_INTERNAL_H
#define VCUDA_MEMPOOL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "device.h"
#include "stream.h"

struct devmap;

struct pool_block {
	uint64_t va, size;		/* the mapping, page-rounded */
	uint32_t bo;			/* handle on the pool's device */
	struct devmap *map;		/* holds the handle's reference */
	bool in_use;
	uint64_t asked;			/* bytes the allocation asked for */
	/* Where it was freed: NULL once that point has certainly passed. */
	struct CUstream_st *freed_on;
	struct timeline_point freed_at;
	struct pool_block *next;
};

struct CUmemPoolHandle_st {
	struct vc_device *dev;
	CUmemPoolProps props;
	bool is_default;
	bool imported;			/* cuMemPoolImportFromShareableHandle */
	bool destroyed;			/* waits for its last allocation */

	pthread_mutex_t lock;		/* everything below */
	struct pool_block *blocks;
	uint64_t reserved, reserved_high, used, used_high;
	uint64_t threshold;
	int follow_events, opportunistic, internal_deps;
	unsigned char access[MAX_DEVICES];	/* CU_MEM_ACCESS_FLAGS_PROT_* */
	uint32_t descriptor;		/* shared page for export, or 0 */

	struct CUmemPoolHandle_st *next;	/* every pool */
};

/*
 * The registry of pools: a handle is valid while it is in it. The lock is
 * taken before any pool's.
 */
extern pthread_mutex_t pools_lock;
extern struct CUmemPoolHandle_st *pools;

/* A pool that may be used (live, not being destroyed), with pools_lock. */
bool pool_valid_locked(CUmemoryPool pool);

/* A new pool on @dev with @props (already checked), registered. */
CUresult pool_new(struct vc_device *dev, const CUmemPoolProps *props,
		  bool is_default, CUmemoryPool *out);
/*
 * Frees @pool if it was destroyed and nothing of it is in use any more,
 * with pools_lock and pool->lock held; then true, and pool->lock is gone.
 */
bool pool_finish_locked(CUmemoryPool pool);
/* Gives back a block, waiting for its free first if need be. */
void pool_release_block_locked(CUmemoryPool pool, struct pool_block *b);

/* Gives back free blocks whose frees have passed, keeping @keep bytes. */
void pool_trim_locked(CUmemoryPool pool, uint64_t keep);
/* Gives device @ordinal @flags to every block of @pool. */
CUresult pool_apply_access_locked(CUmemoryPool pool, int ordinal,
				  unsigned int flags);
/* The block at @va, with pool->lock held. */
struct pool_block *pool_block_at_locked(CUmemoryPool pool, uint64_t va);

#endif
