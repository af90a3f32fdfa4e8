/* SPDX-License-Identifier: MIT */
/*
 * Memory of a device rather than of a context: VMM mappings (cuMemMap),
 * pool allocations, graph allocations. CUDA gives access to such memory
 * per device (cuMemSetAccess, cuMemPoolSetAccess); on vcuda each context
 * has its own address space, so a mapping is bound in every context of
 * every device that has access, now and whenever such a context is
 * created later. Address reservations (cuMemAddressReserve) are kept in
 * every context likewise.
 */
#ifndef VCUDA_DEVMAP_H
#define VCUDA_DEVMAP_H

#include <stdint.h>

#include <cuda.h>

#include "device.h"

struct CUctx_st;

struct devmap {
	uint64_t va, size;
	struct vc_device *owner;	/* the device whose object it is */
	uint32_t bo;			/* counted handle on owner (gem_ref) */
	/* CU_MEM_ACCESS_FLAGS_PROT_* of each device, by ordinal. */
	unsigned char access[MAX_DEVICES];
	struct devmap *next;
};

/* A mapping nobody has access to yet; it takes over a reference to @bo. */
CUresult devmap_add(uint64_t va, uint64_t size, struct vc_device *owner,
		    uint32_t bo, struct devmap **out);
/* Unbinds it everywhere, drops its reference and frees it. */
void devmap_remove(struct devmap *m);
/* Gives device @ordinal @flags (CU_MEM_ACCESS_FLAGS_PROT_*). */
CUresult devmap_set_access(struct devmap *m, int ordinal, unsigned int flags);
unsigned int devmap_get_access(struct devmap *m, int ordinal);

/* Reserves [va, va + size) in every context (MAP_SPARSE), and releases. */
CUresult devmap_reserve(uint64_t va, uint64_t size);
void devmap_unreserve(uint64_t va, uint64_t size);

/*
 * Context creation and destruction (context.c): between lock and unlock,
 * the set of live contexts changes and a new context gets the
 * reservations and mappings it should have.
 */
void devmap_lock(void);
void devmap_unlock(void);
CUresult devmap_attach_locked(struct CUctx_st *ctx);

#endif
