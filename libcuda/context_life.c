// SPDX-License-Identifier: MIT
/*
 * A context's life cycle: creation (the kernel context, then the
 * subsystems' hooks in order, context_hooks.h), the list of live
 * contexts, destruction in reverse, and the API that creates and
 * destroys contexts, primary ones included.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "context.h"
#include "context_hooks.h"
#include "devmap.h"
#include "kmd.h"

/* Every live context, so that stale handles are caught. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_ctx {
	struct CUctx_st *ctx;
	struct live_ctx *next;
} *live;

static void live_add(struct live_ctx *node, struct CUctx_st *ctx)
{
	node->ctx = ctx;
	pthread_mutex_lock(&live_lock);
	node->next = live;
	live = node;
	pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct CUctx_st *ctx)
{
	struct live_ctx **link, *gone = NULL;

	pthread_mutex_lock(&live_lock);
	for (link = &live; *link; link = &(*link)->next) {
		if ((*link)->ctx == ctx) {
			gone = *link;
			*link = gone->next;
			break;
		}
	}
	pthread_mutex_unlock(&live_lock);
	free(gone);
}

static int is_live(struct CUctx_st *ctx)
{
	int found = 0;

	pthread_mutex_lock(&live_lock);
	for (struct live_ctx *n = live; n && !found; n = n->next)
		found = n->ctx == ctx;
	pthread_mutex_unlock(&live_lock);
	return found;
}

bool ctx_is_live(struct CUctx_st *ctx)
{
	return is_live(ctx);
}

void ctx_for_each_live(void (*fn)(struct CUctx_st *ctx, void *arg), void *arg)
{
	pthread_mutex_lock(&live_lock);
	for (struct live_ctx *n = live; n; n = n->next)
		fn(n->ctx, arg);
	pthread_mutex_unlock(&live_lock);
}

/*
 * The context becomes live with the reservations and device mappings it
 * should have, atomically with respect to their changes (devmap.c).
 */
static CUresult go_live(struct live_ctx *node, struct CUctx_st *ctx)
{
	CUresult res;

	devmap_lock();
	res = devmap_attach_locked(ctx);
	if (res == CUDA_SUCCESS)
		live_add(node, ctx);
	devmap_unlock();
	return res;
}

/* --- Subsystems' hooks, by enum ctx_hook_order --- */

static const struct ctx_hooks *hooks[CTX_HOOKS_COUNT];

void ctx_hooks_register(const struct ctx_hooks *h)
{
	if (h->order >= CTX_HOOKS_COUNT || hooks[h->order]) {
		/* A build mistake: two subsystems at one place in the order. */
		fprintf(stderr, "vcuda: context hooks '%s' misplaced\n", h->name);
		abort();
	}
	hooks[h->order] = h;
}

/*
 * Undoes the hooks below @count: their teardowns with the kernel context
 * still there, then (once it is gone) their releases, last first.
 */
static void hooks_unwind(struct CUctx_st *ctx, int count)
{
	for (int i = count - 1; i >= 0; i--)
		if (hooks[i] && hooks[i]->teardown)
			hooks[i]->teardown(ctx);
	/* Wakes the dispatchers out of their wait with -ENOENT. */
	kmd_ctx_destroy(ctx->dev->fd, ctx->ctx_id);
	for (int i = count - 1; i >= 0; i--)
		if (hooks[i] && hooks[i]->release)
			hooks[i]->release(ctx);
}

/* Runs the inits in order; on a failure, unwinds them (that one too). */
static CUresult hooks_init(struct CUctx_st *ctx)
{
	for (int i = 0; i < CTX_HOOKS_COUNT; i++) {
		CUresult res;

		if (!hooks[i] || !hooks[i]->init)
			continue;
		res = hooks[i]->init(ctx);
		if (res != CUDA_SUCCESS) {
			hooks_unwind(ctx, i + 1);
			return res;
		}
	}
	return CUDA_SUCCESS;
}

CUresult ctx_create(struct vc_device *dev, unsigned int flags, int primary,
		    struct CUctx_st **out)
{
	struct CUctx_st *ctx = calloc(1, sizeof(*ctx));
	struct live_ctx *node = malloc(sizeof(*node));
	CUresult res = CUDA_ERROR_OUT_OF_MEMORY;
	int err;

	if (!ctx || !node)
		goto fail_free;
	ctx->dev = dev;
	ctx->flags = flags;
	ctx->is_primary = primary;
	pthread_mutex_init(&ctx->lock, NULL);
	atomic_init(&ctx->sticky, CUDA_SUCCESS);
	err = kmd_ctx_create(dev->fd, &ctx->ctx_id);
	if (err) {
		res = err == -EPERM || err == -EBUSY
		      ? CUDA_ERROR_DEVICE_UNAVAILABLE : result_from_errno(err);
		goto fail_free;
	}
	/* A failed init has destroyed the kernel context with the hooks. */
	res = hooks_init(ctx);
	if (res != CUDA_SUCCESS)
		goto fail_free;
	res = go_live(node, ctx);
	if (res != CUDA_SUCCESS) {
		hooks_unwind(ctx, CTX_HOOKS_COUNT);
		goto fail_free;
	}
	*out = ctx;
	return CUDA_SUCCESS;

fail_free:
	if (ctx)
		pthread_mutex_destroy(&ctx->lock);
	free(ctx);
	free(node);
	return res;
}

void ctx_destroy(struct CUctx_st *ctx)
{
	devmap_lock();
	live_remove(ctx);
	devmap_unlock();
	ctx_synchronize(ctx);
	hooks_unwind(ctx, CTX_HOOKS_COUNT);
	pthread_mutex_destroy(&ctx->lock);
	/* Drop it from this thread's stack; other threads keep a stale one. */
	ctx_stack_forget(ctx);
	free(ctx);
}

/* --- Created contexts --- */

#define CTX_SCHED_FLAGS (CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | \
			 CU_CTX_LMEM_RESIZE_TO_MAX)

CUDA_EXPORT CUresult cuCtxCreate(CUcontext *pctx,
				 CUctxCreateParams *params,
				 unsigned int flags, CUdevice dev)
{
	CUresult res = driver_check_init();
	struct vc_device *vd;
	struct CUctx_st *ctx;

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx || (flags & ~CTX_SCHED_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	if (params && (params->execAffinityParams || params->cigParams))
		return CUDA_ERROR_NOT_SUPPORTED;
	vd = device_get(dev);
	if (!vd)
		return CUDA_ERROR_INVALID_DEVICE;
	res = ctx_create(vd, flags, 0, &ctx);
	if (res != CUDA_SUCCESS)
		return res;
	res = ctx_push(ctx);
	if (res != CUDA_SUCCESS) {
		ctx_destroy(ctx);
		return res;
	}
	*pctx = ctx;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxDestroy(CUcontext ctx)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!ctx)	/* NVIDIA's driver says so (tests/api/legacy_api) */
		return CUDA_ERROR_INVALID_VALUE;
	if (!is_live(ctx) || ctx->is_primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	ctx_destroy(ctx);
	ctx_stack_drop_forgotten();
	return CUDA_SUCCESS;
}

/* --- Primary contexts --- */

static CUresult primary_lookup(CUdevice dev, struct vc_device **out)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	*out = device_get(dev);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult ctx_primary_unretained(CUdevice dev, struct CUctx_st **out)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&vd->primary_lock);
	if (!vd->primary)
		res = ctx_create(vd, vd->primary_flags, 1, &vd->primary);
	if (res == CUDA_SUCCESS)
		*out = vd->primary;
	pthread_mutex_unlock(&vd->primary_lock);
	return res;
}

CUDA_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vd->primary_lock);
	if (!vd->primary)
		res = ctx_create(vd, vd->primary_flags, 1, &vd->primary);
	if (res == CUDA_SUCCESS) {
		vd->primary_refs++;
		*pctx = vd->primary;
	}
	pthread_mutex_unlock(&vd->primary_lock);
	return res;
}

CUDA_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&vd->primary_lock);
	if (vd->primary_refs == 0) {
		res = CUDA_ERROR_INVALID_CONTEXT;
	} else if (--vd->primary_refs == 0 && vd->primary) {
		ctx_destroy(vd->primary);
		vd->primary = NULL;
	}
	pthread_mutex_unlock(&vd->primary_lock);
	return res;
}

CUDA_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&vd->primary_lock);
	if (vd->primary) {
		ctx_destroy(vd->primary);
		vd->primary = NULL;
	}
	pthread_mutex_unlock(&vd->primary_lock);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev,
						unsigned int *flags,
						int *active)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vd->primary_lock);
	*flags = vd->primary_flags;
	*active = vd->primary != NULL;
	pthread_mutex_unlock(&vd->primary_lock);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev,
						unsigned int flags)
{
	struct vc_device *vd;
	CUresult res = primary_lookup(dev, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags & ~CTX_SCHED_FLAGS)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vd->primary_lock);
	vd->primary_flags = flags;
	if (vd->primary)
		vd->primary->flags = flags;
	pthread_mutex_unlock(&vd->primary_lock);
	return CUDA_SUCCESS;
}

/*
 * The first forms of the primary-context calls, from before CUDA 11's
 * _v2: the same calls under their old names.
 */
CUDA_EXPORT CUresult primary_ctx_release_v1(CUdevice dev)
	__asm__("cuDevicePrimaryCtxRelease");
CUresult primary_ctx_release_v1(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease(dev);
}

CUDA_EXPORT CUresult primary_ctx_reset_v1(CUdevice dev)
	__asm__("cuDevicePrimaryCtxReset");
CUresult primary_ctx_reset_v1(CUdevice dev)
{
	return cuDevicePrimaryCtxReset(dev);
}

CUDA_EXPORT CUresult primary_ctx_set_flags_v1(CUdevice dev, unsigned int flags)
	__asm__("cuDevicePrimaryCtxSetFlags");
CUresult primary_ctx_set_flags_v1(CUdevice dev, unsigned int flags)
{
	return cuDevicePrimaryCtxSetFlags(dev, flags);
}
