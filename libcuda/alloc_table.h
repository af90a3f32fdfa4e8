/* SPDX-License-Identifier: MIT */
/*
 * The process's table of device-visible allocations, keyed by address.
 * Addresses are unified: a device allocation lives at the same address
 * for the CPU and for the GPU, so one table answers "what is this
 * pointer?" for memcpy directions, pointer attributes and fault checks.
 */
#ifndef VCUDA_ALLOC_TABLE_H
#define VCUDA_ALLOC_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

struct CUctx_st;
struct vc_device;

enum alloc_kind {
	ALLOC_DEVICE,		/* cuMemAlloc, module variables */
	ALLOC_HOST,		/* cuMemAllocHost / cuMemHostAlloc */
	ALLOC_MANAGED,		/* cuMemAllocManaged: device memory, CPU too */
	ALLOC_REGISTERED,	/* cuMemHostRegister: the caller's own pages */
	ALLOC_IPC,		/* cuIpcOpenMemHandle: another process's */
	/* Memory of a device, not of a context (ctx is NULL): */
	ALLOC_VMM,		/* a cuMemMap mapping */
	ALLOC_POOL,		/* cuMemAllocAsync and pools */
	ALLOC_POOL_IMPORT,	/* cuMemPoolImportPointer */
	ALLOC_GRAPH,		/* a graph allocation, while allocated */
};

struct vc_alloc {
	uint64_t va;
	uint64_t size;		/* as requested */
	uint64_t map_va;	/* page-aligned start of the mapping */
	uint64_t mapped_size;	/* page-rounded, as mapped */
	struct CUctx_st *ctx;	/* NULL for memory of a device (ALLOC_VMM...) */
	struct vc_device *dev;	/* where the memory is */
	uint32_t bo;		/* GEM handle on dev */
	void *owner;		/* ALLOC_VMM, ALLOC_POOL...: the owning object */
	enum alloc_kind kind;
	unsigned int flags;
	uint64_t id;		/* process-wide, never reused (buffer id) */
};

/* Immutable, reference-counted list of a context's ranges for launches. */
struct range_snapshot {
	atomic_int refs;
	size_t count;
	struct ptx_mem_range ranges[];
};

int alloc_table_insert(const struct vc_alloc *alloc);
/* Removes the allocation starting exactly at @va. */
bool alloc_table_remove(uint64_t va, struct vc_alloc *out);
/* Finds the allocation containing @addr. */
bool alloc_table_find(uint64_t addr, struct vc_alloc *out);
/* Removes one allocation of @ctx, if any is left. */
bool alloc_table_take_any(struct CUctx_st *ctx, struct vc_alloc *out);
/* Calls @fn for each allocation of @ctx (on a copy of the entries taken
 * under the lock, so that @fn may take other locks). */
void alloc_table_each(struct CUctx_st *ctx,
		      void (*fn)(const struct vc_alloc *alloc, void *arg),
		      void *arg);
/* Copies out the allocations overlapping [start, end); returns how many
 * there are (up to @max copied). */
size_t alloc_table_overlapping(uint64_t start, uint64_t end,
			       struct vc_alloc *out, size_t max);
/* Whether @ctx may use the memory of @alloc: its own, or bound there. */
bool alloc_visible_in(const struct vc_alloc *alloc, struct CUctx_st *ctx,
		      uint64_t addr, uint64_t size);

/* The ranges of @ctx now, with a reference for the caller. */
struct range_snapshot *alloc_table_snapshot(struct CUctx_st *ctx);
void range_snapshot_put(struct range_snapshot *snap);

#endif
