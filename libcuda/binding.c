// SPDX-License-Identifier: MIT
/*
 * A context's foreign bindings: an array under ctx->lock, and a
 * generation that tells launch snapshots when it changed.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "binding.h"
#include "context.h"
#include "context_hooks.h"
#include "gem_ref.h"
#include "kmd.h"
#include "lock_assert.h"
#include "ptx/ptx.h"

static struct foreign_binding *find_locked(struct CUctx_st *ctx, uint64_t va)
{
	lock_assert_held(&ctx->lock);
	for (size_t i = 0; i < ctx->nforeign; i++)
		if (ctx->foreign[i].va == va)
			return &ctx->foreign[i];
	return NULL;
}

static int grow_locked(struct CUctx_st *ctx)
{
	size_t cap = ctx->foreign_cap ? ctx->foreign_cap * 2 : 16;
	struct foreign_binding *grown;

	lock_assert_held(&ctx->lock);
	if (ctx->nforeign < ctx->foreign_cap)
		return 0;
	grown = realloc(ctx->foreign, cap * sizeof(*grown));
	if (!grown)
		return -1;
	ctx->foreign = grown;
	ctx->foreign_cap = cap;
	return 0;
}

static uint32_t bind_flags(bool writable)
{
	return writable ? 0 : DRM_VCUDA_VM_BIND_READONLY;
}

/* Binding at @va exists: give it the protection asked for. */
static CUresult reprotect_locked(struct CUctx_st *ctx,
				 struct foreign_binding *b, bool writable)
{
	int fd = ctx->dev->fd, err;

	lock_assert_held(&ctx->lock);
	if (b->writable == writable)
		return CUDA_SUCCESS;
	kmd_vm_unmap(fd, ctx->ctx_id, b->va, b->size);
	err = kmd_vm_map(fd, ctx->ctx_id, b->handle, b->va, b->size,
			 bind_flags(writable));
	if (err)
		return result_from_errno(err);
	b->writable = writable;
	ctx->foreign_generation++;
	return CUDA_SUCCESS;
}

CUresult ctx_bind_foreign(struct CUctx_st *ctx, const void *source,
			  struct vc_device *owner, uint32_t bo, uint64_t va,
			  uint64_t size, bool writable)
{
	struct foreign_binding *b;
	uint32_t handle;
	CUresult res;
	int err;

	pthread_mutex_lock(&ctx->lock);
	b = find_locked(ctx, va);
	if (b) {
		res = reprotect_locked(ctx, b, writable);
		pthread_mutex_unlock(&ctx->lock);
		return res;
	}
	res = grow_locked(ctx) ? CUDA_ERROR_OUT_OF_MEMORY
			       : gem_import_to(owner, bo, ctx->dev, &handle);
	if (res != CUDA_SUCCESS)
		goto out;
	err = kmd_vm_map(ctx->dev->fd, ctx->ctx_id, handle, va, size,
			 bind_flags(writable));
	if (err) {
		gem_ref_put(ctx->dev, handle);
		res = result_from_errno(err);
		goto out;
	}
	ctx->foreign[ctx->nforeign++] = (struct foreign_binding){
		.va = va, .size = size, .handle = handle,
		.writable = writable, .source = source,
	};
	ctx->foreign_generation++;
out:
	pthread_mutex_unlock(&ctx->lock);
	return res;
}

/* Takes entry @i out: launches made from now on no longer see it. */
static void unbind_at_locked(struct CUctx_st *ctx, size_t i)
{
	struct foreign_binding b = ctx->foreign[i];

	lock_assert_held(&ctx->lock);
	ctx->foreign[i] = ctx->foreign[--ctx->nforeign];
	ctx->foreign_generation++;
	kmd_vm_unmap(ctx->dev->fd, ctx->ctx_id, b.va, b.size);
	gem_ref_put(ctx->dev, b.handle);
}

void ctx_unbind_foreign(struct CUctx_st *ctx, uint64_t va)
{
	pthread_mutex_lock(&ctx->lock);
	for (size_t i = 0; i < ctx->nforeign; i++) {
		if (ctx->foreign[i].va == va) {
			unbind_at_locked(ctx, i);
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
}

void ctx_unbind_source(struct CUctx_st *ctx, const void *source)
{
	pthread_mutex_lock(&ctx->lock);
	for (size_t i = ctx->nforeign; i-- > 0;)
		if (!source || ctx->foreign[i].source == source)
			unbind_at_locked(ctx, i);
	pthread_mutex_unlock(&ctx->lock);
}

bool ctx_foreign_covers(struct CUctx_st *ctx, uint64_t addr, uint64_t size)
{
	bool found = false;

	pthread_mutex_lock(&ctx->lock);
	for (size_t i = 0; i < ctx->nforeign && !found; i++) {
		const struct foreign_binding *b = &ctx->foreign[i];

		found = addr >= b->va && addr - b->va < b->size &&
			size <= b->va + b->size - addr;
	}
	pthread_mutex_unlock(&ctx->lock);
	return found;
}

size_t ctx_foreign_count_locked(const struct CUctx_st *ctx)
{
	lock_assert_held(&ctx->lock);
	return ctx->nforeign;
}

void ctx_foreign_ranges_locked(const struct CUctx_st *ctx,
			       struct ptx_mem_range *out)
{
	lock_assert_held(&ctx->lock);
	for (size_t i = 0; i < ctx->nforeign; i++)
		out[i] = (struct ptx_mem_range){
			.start = ctx->foreign[i].va,
			.end = ctx->foreign[i].va + ctx->foreign[i].size,
			.writable = ctx->foreign[i].writable,
		};
}

/* Memory of others goes with the address space; the handles too. */
static void binding_ctx_teardown(struct CUctx_st *ctx)
{
	ctx_unbind_source(ctx, NULL);
	free(ctx->foreign);
	ctx->foreign = NULL;
}

static const struct ctx_hooks binding_hooks = {
	.name = "binding",
	.order = CTX_HOOKS_BINDING,
	.teardown = binding_ctx_teardown,
};
CTX_HOOKS_REGISTER(binding_hooks)
