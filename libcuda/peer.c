// SPDX-License-Identifier: MIT
/*
 * Peer access: cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute,
 * cuCtxEnablePeerAccess/cuCtxDisablePeerAccess. Every vcuda device keeps
 * its memory in host pages, so any two devices can reach each other's:
 * an allocation of context A is exported as a dma-buf, imported into B's
 * device (a peer object with A's pages) and bound in B's address space at
 * A's address. Kernels of B then reach it through the process's mapping
 * and B's copy engine through B's page tables.
 *
 * One lock orders enabling against allocations being added and removed;
 * binding twice is harmless (binding.c), so a race between the two only
 * binds once.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api.h"
#include "alloc_table.h"
#include "binding.h"
#include "context.h"
#include "context_hooks.h"
#include "lock_assert.h"
#include "peer.h"

static pthread_mutex_t peer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Kinds of a context's memory that its peers see. */
static bool shared_with_peers(const struct vc_alloc *a)
{
	return a->kind == ALLOC_DEVICE || a->kind == ALLOC_MANAGED ||
	       a->kind == ALLOC_IPC;
}

bool peer_devices_can_access(int dev, int peer)
{
	return dev != peer && device_get(dev) && device_get(peer);
}

static bool in_list(struct CUctx_st **list, size_t n, struct CUctx_st *c)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == c)
			return true;
	return false;
}

static int list_add(struct CUctx_st ***list, size_t *n, struct CUctx_st *c)
{
	struct CUctx_st **grown = realloc(*list, (*n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	grown[(*n)++] = c;
	*list = grown;
	return 0;
}

static void list_remove(struct CUctx_st **list, size_t *n, struct CUctx_st *c)
{
	for (size_t i = 0; i < *n; i++) {
		if (list[i] == c) {
			list[i] = list[--*n];
			return;
		}
	}
}

/* Binds one allocation of a peer into @arg, a context using it. */
static void bind_one(const struct vc_alloc *a, void *arg)
{
	struct CUctx_st *user = arg;

	if (shared_with_peers(a))
		ctx_bind_foreign(user, a->ctx, a->dev, a->bo, a->map_va,
				 a->mapped_size, true);
}

void peer_alloc_added(const struct vc_alloc *a)
{
	struct CUctx_st *ctx = a->ctx;

	if (!shared_with_peers(a))
		return;
	pthread_mutex_lock(&peer_lock);
	for (size_t i = 0; i < ctx->npeer_users; i++)
		bind_one(a, ctx->peer_users[i]);
	pthread_mutex_unlock(&peer_lock);
}

void peer_alloc_removed(const struct vc_alloc *a)
{
	struct CUctx_st *ctx = a->ctx;

	if (!ctx || !shared_with_peers(a))
		return;
	pthread_mutex_lock(&peer_lock);
	for (size_t i = 0; i < ctx->npeer_users; i++)
		ctx_unbind_foreign(ctx->peer_users[i], a->map_va);
	pthread_mutex_unlock(&peer_lock);
}

/* @user stops using @peer's memory; with peer_lock held. */
static void drop_locked(struct CUctx_st *user, struct CUctx_st *peer)
{
	lock_assert_held(&peer_lock);
	list_remove(user->peers, &user->npeers, peer);
	list_remove(peer->peer_users, &peer->npeer_users, user);
	ctx_unbind_source(user, peer);
}

/* A context goes: it stops using peers and peers stop using it. */
static void peer_ctx_destroyed(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&peer_lock);
	while (ctx->npeers)
		drop_locked(ctx, ctx->peers[0]);
	while (ctx->npeer_users)
		drop_locked(ctx->peer_users[0], ctx);
	pthread_mutex_unlock(&peer_lock);
	free(ctx->peers);
	free(ctx->peer_users);
}

/* The current context and a live peer context, checked as CUDA does. */
static CUresult enter_pair(CUcontext peer, struct CUctx_st **ctx)
{
	CUresult res = ctx_enter(ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!peer || !ctx_is_live(peer))
		return CUDA_ERROR_INVALID_CONTEXT;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult res = enter_pair(peer, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	/* A context (or its device) is no peer of its own. */
	if (!peer_devices_can_access(ctx->dev->ordinal, peer->dev->ordinal))
		return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	pthread_mutex_lock(&peer_lock);
	if (in_list(ctx->peers, ctx->npeers, peer)) {
		res = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	} else if (list_add(&ctx->peers, &ctx->npeers, peer)) {
		res = CUDA_ERROR_OUT_OF_MEMORY;
	} else if (list_add(&peer->peer_users, &peer->npeer_users, ctx)) {
		list_remove(ctx->peers, &ctx->npeers, peer);
		res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_unlock(&peer_lock);
	/* Allocations made from here on are bound by peer_alloc_added. */
	if (res == CUDA_SUCCESS)
		alloc_table_each(peer, bind_one, ctx);
	return res;
}

CUDA_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer)
{
	struct CUctx_st *ctx;
	CUresult res = enter_pair(peer, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&peer_lock);
	if (in_list(ctx->peers, ctx->npeers, peer))
		drop_locked(ctx, peer);
	else
		res = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	pthread_mutex_unlock(&peer_lock);
	return res;
}

/* Common prologue of the device-pair queries. */
static CUresult check_pair(const void *out, CUdevice dev, CUdevice peer)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	return device_get(dev) && device_get(peer) ? CUDA_SUCCESS
						  : CUDA_ERROR_INVALID_DEVICE;
}

CUDA_EXPORT CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev,
					   CUdevice peer)
{
	CUresult res = check_pair(can, dev, peer);

	if (res == CUDA_SUCCESS)
		*can = peer_devices_can_access(dev, peer);
	return res;
}

/*
 * The link between two vcuda devices is the host's memory: every access
 * works, atomics included (they are the CPU's), and arrays too.
 */
CUDA_EXPORT CUresult cuDeviceGetP2PAttribute(int *value,
					     CUdevice_P2PAttribute attr,
					     CUdevice src, CUdevice dst)
{
	CUresult res = check_pair(value, src, dst);

	if (res != CUDA_SUCCESS)
		return res;
	if (src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (attr) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		*value = 0;
		return CUDA_SUCCESS;
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		*value = 1;
		return CUDA_SUCCESS;
	case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
		*value = 0;	/* all of them are */
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static const struct ctx_hooks peer_hooks = {
	.name = "peer",
	.order = CTX_HOOKS_PEER,
	.teardown = peer_ctx_destroyed,
};
CTX_HOOKS_REGISTER(peer_hooks)
