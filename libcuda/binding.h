/* SPDX-License-Identifier: MIT */
/*
 * Foreign bindings: memory a context does not own, bound in its GPU
 * address space at the address it has everywhere (unified addressing) and
 * in the ranges its kernels may touch. Peer access binds another
 * context's allocations this way; VMM mappings and pool allocations,
 * which belong to a device rather than a context, are bound into every
 * context of each device that has access.
 */
#ifndef VCUDA_BINDING_H
#define VCUDA_BINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

struct CUctx_st;
struct vc_device;
struct ptx_mem_range;

struct foreign_binding {
	uint64_t va, size;
	uint32_t handle;	/* counted handle on the context's device */
	bool writable;
	const void *source;	/* who bound it: peer context, device mapping */
};

/*
 * Binds [va, va + size), object @bo of @owner, in @ctx. Binding what is
 * already bound at @va again only changes its protection, so racing
 * binders need not agree on who goes first.
 */
CUresult ctx_bind_foreign(struct CUctx_st *ctx, const void *source,
			  struct vc_device *owner, uint32_t bo, uint64_t va,
			  uint64_t size, bool writable);
/* Unbinds what is bound at @va, if anything. */
void ctx_unbind_foreign(struct CUctx_st *ctx, uint64_t va);
/* Unbinds everything @source bound (all of it when @source is NULL). */
void ctx_unbind_source(struct CUctx_st *ctx, const void *source);

/* Whether [addr, addr + size) lies in one foreign binding of @ctx. */
bool ctx_foreign_covers(struct CUctx_st *ctx, uint64_t addr, uint64_t size);

/* For launch snapshots, with ctx->lock held: how many, and their ranges. */
size_t ctx_foreign_count_locked(const struct CUctx_st *ctx);
void ctx_foreign_ranges_locked(const struct CUctx_st *ctx,
			       struct ptx_mem_range *out);

#endif
