// SPDX-License-Identifier: MIT
/*
 * Interprocess events (see event.h): the shared page, recording, waiting,
 * and cuIpcGetEventHandle/cuIpcOpenEventHandle.
 *
 * Recording numbers are taken from the page itself with an atomic
 * increment, so that recordings in either process are numbered in one
 * sequence; "done" is the cyclic comparison reached - recorded >= 0, the
 * one a GEQ semaphore makes.
 */
#include <stdlib.h>
#include <time.h>

#include "api.h"
#include "context.h"
#include "event.h"
#include "gem_ref.h"
#include "hostmap.h"
#include "ipc.h"
#include "kmd.h"
#include "memory.h"
#include "stream.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE

struct ipc_event {
	uint32_t bo;		/* counted handle on the event context's device */
	uint64_t va;		/* the page, mapped and bound in that context */
};

/* Offsets in the page of the two 64-bit numbers. */
#define RECORDED 0
#define REACHED 8

static uint64_t *word(const struct ipc_event *ie, unsigned int offset)
{
	return (uint64_t *)(uintptr_t)(ie->va + offset);
}

/* Maps @bo (counted) in @e's context and makes it @e's page. */
static CUresult attach(struct CUevent_st *e, uint32_t bo)
{
	struct ipc_event *ie = calloc(1, sizeof(*ie));
	CUresult res = ie ? mem_map_bo(e->ctx, bo, PAGE_SIZE, &ie->va)
			  : CUDA_ERROR_OUT_OF_MEMORY;

	if (res != CUDA_SUCCESS) {
		free(ie);
		gem_ref_put(e->ctx->dev, bo);
		return res;
	}
	ie->bo = bo;
	e->ipc = ie;
	return CUDA_SUCCESS;
}

CUresult ipc_event_create(struct CUevent_st *e)
{
	struct vc_device *dev = e->ctx->dev;
	uint32_t bo;
	CUresult res;
	int err = kmd_bo_create(dev->fd, PAGE_SIZE, DRM_VCUDA_BO_PLACEMENT_HOST,
				0, &bo);

	if (err)
		return result_from_errno(err);
	res = gem_ref_get(dev, bo);
	if (res != CUDA_SUCCESS) {
		kmd_bo_close(dev->fd, bo);
		return res;
	}
	return attach(e, bo);
}

void ipc_event_destroy(struct CUevent_st *e)
{
	struct CUctx_st *ctx = e->ctx;

	kmd_vm_unmap(ctx->dev->fd, ctx->ctx_id, e->ipc->va, PAGE_SIZE);
	hostmap_release(e->ipc->va, PAGE_SIZE);
	gem_ref_put(ctx->dev, e->ipc->bo);
	free(e->ipc);
	e->ipc = NULL;
}

CUresult ipc_event_record(struct CUevent_st *e, struct CUstream_st *s)
{
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_SEM_RELEASE,
		.flags = DRM_VCUDA_SEM_64BIT,
		.u.sem.addr = e->ipc->va + REACHED,
	};
	struct timeline_point signal;
	uint64_t point;
	CUresult res;

	pthread_mutex_lock(&e->lock);
	cmd.u.sem.value = __atomic_add_fetch(word(e->ipc, RECORDED), 1,
					     __ATOMIC_ACQ_REL);
	signal = (struct timeline_point){ e->syncobj, e->point + 1 };
	res = stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &cmd, 1, &signal,
			    &point);
	if (res == CUDA_SUCCESS)
		e->point = signal.point;
	pthread_mutex_unlock(&e->lock);
	return res;
}

/* The number of the last recording, and whether the device reached it. */
static bool reached(const struct ipc_event *ie, uint64_t *target)
{
	uint64_t rec = __atomic_load_n(word(ie, RECORDED), __ATOMIC_ACQUIRE);
	uint64_t got = __atomic_load_n(word(ie, REACHED), __ATOMIC_ACQUIRE);

	if (target)
		*target = rec;
	return (int64_t)(got - rec) >= 0;
}

CUresult ipc_event_query(struct CUevent_st *e)
{
	return reached(e->ipc, NULL) ? ctx_check_fault(e->ctx)
				     : CUDA_ERROR_NOT_READY;
}

/*
 * The recording may be another process's: no syncobj of ours will tell,
 * so the page is polled, more slowly the longer it takes.
 */
static CUresult poll_reached(struct CUevent_st *e, uint64_t target)
{
	struct timespec nap = { 0, 20000 };

	while ((int64_t)(__atomic_load_n(word(e->ipc, REACHED),
					 __ATOMIC_ACQUIRE) - target) < 0) {
		CUresult res = ctx_check_fault(e->ctx);

		if (res != CUDA_SUCCESS)
			return res;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 2000000)
			nap.tv_nsec *= 2;
	}
	return ctx_check_fault(e->ctx);
}

CUresult ipc_event_synchronize(struct CUevent_st *e)
{
	uint64_t target;

	if (reached(e->ipc, &target))
		return ctx_check_fault(e->ctx);
	return poll_reached(e, target);
}

CUresult ipc_event_wait(struct CUstream_st *s, struct CUevent_st *e)
{
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_SEM_ACQUIRE,
		.flags = DRM_VCUDA_SEM_COND_GEQ | DRM_VCUDA_SEM_64BIT,
		.u.sem.addr = e->ipc->va + REACHED,
	};
	uint64_t target, point;

	if (reached(e->ipc, &target))
		return CUDA_SUCCESS;
	/* The page is bound in the event's context only. */
	if (s->ctx != e->ctx)
		return poll_reached(e, target);
	cmd.u.sem.value = target;
	return stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &cmd, 1, NULL, &point);
}

CUDA_EXPORT CUresult cuIpcGetEventHandle(CUipcEventHandle *handle, CUevent e)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!handle || !e)
		return CUDA_ERROR_INVALID_VALUE;
	/* An event made without CU_EVENT_INTERPROCESS: NVIDIA's answer. */
	if (!e->ipc)
		return CUDA_ERROR_INVALID_HANDLE;
	return ipc_export(e->ctx->dev, e->ipc->bo, IPC_TAG_EVENT, 0,
			  (struct ipc_wire *)handle);
}

CUDA_EXPORT CUresult cuIpcOpenEventHandle(CUevent *out, CUipcEventHandle handle)
{
	const struct ipc_wire *w = (const struct ipc_wire *)&handle;
	struct CUevent_st *e;
	struct CUctx_st *ctx;
	uint64_t size;
	uint32_t bo;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || w->tag != IPC_TAG_EVENT)
		return CUDA_ERROR_INVALID_VALUE;
	if (ipc_is_own(w))
		return CUDA_ERROR_INVALID_CONTEXT;
	res = event_new(ctx, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING,
			&e);
	if (res != CUDA_SUCCESS)
		return res;
	res = ipc_import(w, ctx->dev, &bo, &size, NULL);
	if (res == CUDA_SUCCESS && size < PAGE_SIZE) {
		gem_ref_put(ctx->dev, bo);
		res = CUDA_ERROR_INVALID_VALUE;
	}
	if (res == CUDA_SUCCESS)
		res = attach(e, bo);
	if (res != CUDA_SUCCESS) {
		event_free(e);
		return res;
	}
	*out = e;
	return CUDA_SUCCESS;
}
