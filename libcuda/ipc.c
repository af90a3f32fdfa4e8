// SPDX-License-Identifier: MIT
/*
 * cuIpcGetMemHandle, cuIpcOpenMemHandle and cuIpcCloseMemHandle, and the
 * token handling that IPC events share (ipc_event.c).
 *
 * Opening a handle imports the object by its token on the device it is
 * on (the kernel checks that the exporter is the same user), brings it
 * to the current context's device as a peer object if that is another
 * one, maps it at a new address and binds it in the context. A context
 * that opens the same handle again gets the same pointer, counted, as
 * CUDA specifies; the last close unmaps it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "context_hooks.h"
#include "gem_ref.h"
#include "ipc.h"
#include "kmd.h"
#include "lock_assert.h"
#include "memory.h"
#include "peer.h"

/* Handles this process exported, and handles its contexts opened. */
struct exported {
	struct drm_vcuda_ipc_handle token;
	struct exported *next;
};

struct opened {
	struct CUctx_st *ctx;
	struct drm_vcuda_ipc_handle token;
	uint64_t va;		/* the mapping */
	uint64_t ptr;		/* what the caller got */
	unsigned int refs;
	struct opened *next;
};

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct exported *exports;
static struct opened *opens;

static bool same_token(const struct drm_vcuda_ipc_handle *a,
		       const struct drm_vcuda_ipc_handle *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static bool own_locked(const struct drm_vcuda_ipc_handle *token)
{
	lock_assert_held(&ipc_lock);
	for (struct exported *e = exports; e; e = e->next)
		if (same_token(&e->token, token))
			return true;
	return false;
}

CUresult ipc_export(struct vc_device *dev, uint32_t bo, uint32_t tag,
		    uint32_t offset, struct ipc_wire *out)
{
	struct exported *e;
	int err;

	memset(out, 0, sizeof(*out));
	err = kmd_ipc_export(dev->fd, bo, &out->token);
	if (err)
		return result_from_errno(err);
	out->tag = tag;
	out->offset = offset;
	pthread_mutex_lock(&ipc_lock);
	if (!own_locked(&out->token) && (e = calloc(1, sizeof(*e)))) {
		e->token = out->token;
		e->next = exports;
		exports = e;
	}
	pthread_mutex_unlock(&ipc_lock);
	return CUDA_SUCCESS;
}

bool ipc_is_own(const struct ipc_wire *w)
{
	bool own;

	pthread_mutex_lock(&ipc_lock);
	own = own_locked(&w->token);
	pthread_mutex_unlock(&ipc_lock);
	return own;
}

/*
 * Tries each device: the kernel refuses a token of another device with
 * -EINVAL, and one naming no live object with -ENOENT.
 */
static CUresult import_anywhere(const struct ipc_wire *w,
				struct vc_device **owner, uint32_t *handle,
				uint64_t *size)
{
	CUresult res = CUDA_ERROR_INVALID_VALUE;

	for (int i = 0; i < device_count(); i++) {
		int err = kmd_ipc_import(device_get(i)->fd, &w->token, handle,
					 size);

		if (!err) {
			*owner = device_get(i);
			return CUDA_SUCCESS;
		}
		if (err == -ENOENT)
			res = CUDA_ERROR_INVALID_HANDLE;
		else if (err != -EINVAL)
			return result_from_errno(err);
	}
	return res;
}

CUresult ipc_import(const struct ipc_wire *w, struct vc_device *dev,
		    uint32_t *handle, uint64_t *size, struct vc_device **owner)
{
	struct vc_device *from = NULL;
	uint32_t h = 0;
	CUresult res = import_anywhere(w, &from, &h, size);

	if (res != CUDA_SUCCESS)
		return res;
	if (owner)
		*owner = from;
	if (from == dev) {
		/* A handle of its own: nobody else counts it yet. */
		*handle = h;
		res = gem_ref_get(dev, h);
		if (res != CUDA_SUCCESS)
			kmd_bo_close(dev->fd, h);
		return res;
	}
	res = gem_import_to(from, h, dev, handle);
	kmd_bo_close(from->fd, h);
	return res;
}

CUDA_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr dptr)
{
	struct CUctx_st *ctx;
	struct vc_alloc a;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || !alloc_table_find(dptr, &a))
		return CUDA_ERROR_INVALID_VALUE;
	/* Only cuMemAlloc memory is legacy-IPC capable. */
	if (a.kind != ALLOC_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * The handle names the allocation, wherever in it @dptr points:
	 * opening gives its start (as NVIDIA's driver does).
	 */
	return ipc_export(a.dev, a.bo, IPC_TAG_MEM, 0,
			  (struct ipc_wire *)handle);
}

static struct opened *find_open_locked(struct CUctx_st *ctx,
				       const struct drm_vcuda_ipc_handle *t)
{
	lock_assert_held(&ipc_lock);
	for (struct opened *o = opens; o; o = o->next)
		if (o->ctx == ctx && same_token(&o->token, t))
			return o;
	return NULL;
}

/* Maps the object of @w in @ctx; the table holds it as ALLOC_IPC. */
static CUresult open_new(struct CUctx_st *ctx, const struct ipc_wire *w,
			 struct opened *o)
{
	struct vc_alloc a = { .ctx = ctx, .dev = ctx->dev, .kind = ALLOC_IPC };
	uint64_t size;
	CUresult res = ipc_import(w, ctx->dev, &a.bo, &size, NULL);

	if (res != CUDA_SUCCESS)
		return res;
	if (w->offset >= size) {
		gem_ref_put(ctx->dev, a.bo);
		return CUDA_ERROR_INVALID_VALUE;
	}
	res = mem_map_bo(ctx, a.bo, size, &a.va);
	if (res != CUDA_SUCCESS) {
		gem_ref_put(ctx->dev, a.bo);
		return res;
	}
	a.map_va = a.va;
	a.size = a.mapped_size = size;
	if (alloc_table_insert(&a)) {
		mem_release(&a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	peer_alloc_added(&a);
	*o = (struct opened){ .ctx = ctx, .token = w->token, .va = a.va,
			      .ptr = a.va + w->offset, .refs = 1 };
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr,
					CUipcMemHandle handle,
					unsigned int flags)
{
	const struct ipc_wire *w = (const struct ipc_wire *)&handle;
	struct opened *o;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	/* The one flag is required, as cuda.h says and NVIDIA's driver checks. */
	if (!pdptr || flags != CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS ||
	    w->tag != IPC_TAG_MEM)
		return CUDA_ERROR_INVALID_VALUE;
	/* A process maps its own memory already: CUDA refuses. */
	if (ipc_is_own(w))
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&ipc_lock);
	o = find_open_locked(ctx, &w->token);
	if (o) {
		o->refs++;
		*pdptr = o->ptr;
		pthread_mutex_unlock(&ipc_lock);
		return CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&ipc_lock);
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = open_new(ctx, w, o);
	if (res != CUDA_SUCCESS) {
		free(o);
		return res;
	}
	pthread_mutex_lock(&ipc_lock);
	o->next = opens;
	opens = o;
	pthread_mutex_unlock(&ipc_lock);
	*pdptr = o->ptr;
	return CUDA_SUCCESS;
}

/* Takes out the last reference of @ctx's mapping returned as @ptr. */
static struct opened *close_ref(struct CUctx_st *ctx, uint64_t ptr,
				bool *found)
{
	struct opened **link, *o = NULL;

	*found = false;
	pthread_mutex_lock(&ipc_lock);
	for (link = &opens; *link; link = &(*link)->next) {
		if ((*link)->ctx == ctx && (*link)->ptr == ptr) {
			*found = true;
			if (--(*link)->refs == 0) {
				o = *link;
				*link = o->next;
			}
			break;
		}
	}
	pthread_mutex_unlock(&ipc_lock);
	return o;
}

CUDA_EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
	struct CUctx_st *ctx;
	struct vc_alloc a;
	struct opened *o;
	bool found;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	o = close_ref(ctx, dptr, &found);
	if (!found)
		return CUDA_ERROR_INVALID_VALUE;
	if (!o)
		return CUDA_SUCCESS;
	/* Work in flight may still use it, as with cuMemFree. */
	res = ctx_synchronize(ctx);
	if (alloc_table_remove(o->va, &a))
		mem_release(&a);
	free(o);
	return res;
}

/* A context goes: forget what it opened (its allocations go with it). */
static void ipc_ctx_destroyed(struct CUctx_st *ctx)
{
	struct opened **link = &opens;

	pthread_mutex_lock(&ipc_lock);
	while (*link) {
		struct opened *o = *link;

		if (o->ctx == ctx) {
			*link = o->next;
			free(o);
		} else {
			link = &o->next;
		}
	}
	pthread_mutex_unlock(&ipc_lock);
}

static const struct ctx_hooks ipc_hooks = {
	.name = "ipc",
	.order = CTX_HOOKS_IPC,
	.teardown = ipc_ctx_destroyed,
};
CTX_HOOKS_REGISTER(ipc_hooks)
