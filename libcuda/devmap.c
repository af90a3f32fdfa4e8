// SPDX-License-Identifier: MIT
/*
 * Device mappings and reservations, in two lists under one lock. The
 * lock is taken before the live-context list (context.c) and before any
 * context's own lock.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api.h"
#include "binding.h"
#include "context.h"
#include "devmap.h"
#include "gem_ref.h"
#include "kmd.h"
#include "lock_assert.h"

struct reservation {
	uint64_t va, size;
	struct reservation *next;
};

static pthread_mutex_t devmap_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct devmap *mappings;
static struct reservation *reservations;

void devmap_lock(void)
{
	pthread_mutex_lock(&devmap_mutex);
}

void devmap_unlock(void)
{
	pthread_mutex_unlock(&devmap_mutex);
}

/* Binds @m in @ctx as its device's access says, or unbinds it. */
static CUresult apply(struct devmap *m, struct CUctx_st *ctx)
{
	unsigned int flags = m->access[ctx->dev->ordinal];

	if (flags == CU_MEM_ACCESS_FLAGS_PROT_NONE) {
		ctx_unbind_foreign(ctx, m->va);
		return CUDA_SUCCESS;
	}
	return ctx_bind_foreign(ctx, m, m->owner, m->bo, m->va, m->size,
				flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
}

struct apply_args {
	struct devmap *m;
	int ordinal;		/* contexts of this device only; -1: all */
	CUresult res;
};

static void apply_one(struct CUctx_st *ctx, void *arg)
{
	struct apply_args *a = arg;
	CUresult res;

	if (a->ordinal >= 0 && ctx->dev->ordinal != a->ordinal)
		return;
	res = apply(a->m, ctx);
	if (a->res == CUDA_SUCCESS)
		a->res = res;
}

CUresult devmap_add(uint64_t va, uint64_t size, struct vc_device *owner,
		    uint32_t bo, struct devmap **out)
{
	struct devmap *m = calloc(1, sizeof(*m));

	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*m = (struct devmap){ .va = va, .size = size, .owner = owner,
			      .bo = bo };
	devmap_lock();
	m->next = mappings;
	mappings = m;
	devmap_unlock();
	*out = m;
	return CUDA_SUCCESS;
}

void devmap_remove(struct devmap *m)
{
	struct devmap **link;

	devmap_lock();
	for (link = &mappings; *link && *link != m; link = &(*link)->next)
		;
	if (*link)
		*link = m->next;
	for (int i = 0; i < MAX_DEVICES; i++)
		m->access[i] = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	ctx_for_each_live(apply_one, &(struct apply_args){ m, -1, 0 });
	devmap_unlock();
	gem_ref_put(m->owner, m->bo);
	free(m);
}

CUresult devmap_set_access(struct devmap *m, int ordinal, unsigned int flags)
{
	struct apply_args a = { .m = m, .ordinal = ordinal };

	devmap_lock();
	m->access[ordinal] = (unsigned char)flags;
	ctx_for_each_live(apply_one, &a);
	devmap_unlock();
	return a.res;
}

unsigned int devmap_get_access(struct devmap *m, int ordinal)
{
	unsigned int flags;

	devmap_lock();
	flags = m->access[ordinal];
	devmap_unlock();
	return flags;
}

struct reserve_args {
	uint64_t va, size;
	int reserve;
	CUresult res;
};

static void reserve_one(struct CUctx_st *ctx, void *arg)
{
	struct reserve_args *a = arg;
	int err;

	if (a->reserve)
		err = kmd_vm_reserve(ctx->dev->fd, ctx->ctx_id, a->va, a->size);
	else
		err = kmd_vm_unmap(ctx->dev->fd, ctx->ctx_id, a->va, a->size);
	if (err && a->res == CUDA_SUCCESS)
		a->res = result_from_errno(err);
}

CUresult devmap_reserve(uint64_t va, uint64_t size)
{
	struct reservation *r = calloc(1, sizeof(*r));
	struct reserve_args a = { va, size, 1, CUDA_SUCCESS };

	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	devmap_lock();
	ctx_for_each_live(reserve_one, &a);
	if (a.res == CUDA_SUCCESS) {
		*r = (struct reservation){ va, size, reservations };
		reservations = r;
	} else {
		a.reserve = 0;
		ctx_for_each_live(reserve_one, &a);
		free(r);
	}
	devmap_unlock();
	return a.res;
}

void devmap_unreserve(uint64_t va, uint64_t size)
{
	struct reserve_args a = { va, size, 0, CUDA_SUCCESS };
	struct reservation **link, *gone = NULL;

	devmap_lock();
	for (link = &reservations; *link; link = &(*link)->next) {
		if ((*link)->va == va && (*link)->size == size) {
			gone = *link;
			*link = gone->next;
			break;
		}
	}
	ctx_for_each_live(reserve_one, &a);
	devmap_unlock();
	free(gone);
}

CUresult devmap_attach_locked(struct CUctx_st *ctx)
{
	CUresult res = CUDA_SUCCESS;

	lock_assert_held(&devmap_mutex);
	for (struct reservation *r = reservations; r && !res; r = r->next)
		res = result_from_errno(kmd_vm_reserve(ctx->dev->fd,
						       ctx->ctx_id, r->va,
						       r->size));
	for (struct devmap *m = mappings; m && !res; m = m->next)
		res = apply(m, ctx);
	return res;
}
