// SPDX-License-Identifier: MIT
/*
 * A host function runs between two points of its stream, as a GPU does
 * it with a memory semaphore. The stream gets two jobs: a gate (a NOP
 * that carries everything the stream's next work waits for: its earlier
 * work, events it was told to wait for, the legacy default stream) and a
 * job whose only command waits (SEM_ACQUIRE) for a slot to become 1. A
 * thread waits for the gate, calls the function, then writes the slot;
 * the second job completes, and the stream's later work may run.
 *
 * One thread per call keeps callbacks of different streams independent
 * (one may wait for work that another unblocks); callbacks are rare.
 */
#include <stdlib.h>

#include "api.h"
#include "context.h"
#include "context_hooks.h"
#include "ctx_limits.h"
#include "enqueue.h"
#include "kmd.h"
#include "slots.h"
#include "stream.h"

struct host_call {
	struct CUctx_st *ctx;
	CUstream handle;		/* as the caller named the stream */
	uint32_t syncobj;		/* the stream's timeline */
	uint64_t gate;			/* the gate job's point */
	uint64_t point;			/* the semaphore job's point */
	uint64_t sem_va;
	CUhostFn fn;			/* either this ... */
	CUstreamCallback callback;	/* ... or this */
	void *data;
};

static void retire(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&ctx->callbacks_lock);
	if (--ctx->callbacks_running == 0)
		pthread_cond_broadcast(&ctx->callbacks_done);
	pthread_mutex_unlock(&ctx->callbacks_lock);
}

static void *host_call_main(void *arg)
{
	struct host_call *hc = arg;
	int fd = hc->ctx->dev->fd;

	kmd_syncobj_wait(fd, hc->syncobj, hc->gate);
	ctx_flush_printf(hc->ctx);
	if (hc->fn)
		hc->fn(hc->data);
	else
		hc->callback(hc->handle, ctx_check_fault(hc->ctx), hc->data);
	__atomic_store_n((uint64_t *)(uintptr_t)hc->sem_va, 1, __ATOMIC_RELEASE);
	/* The job reads the slot until it completes. */
	kmd_syncobj_wait(fd, hc->syncobj, hc->point);
	slot_free(hc->ctx, hc->sem_va);
	retire(hc->ctx);
	free(hc);
	return NULL;
}

static CUresult start_thread(struct host_call *hc)
{
	pthread_attr_t attr;
	pthread_t thread;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&thread, &attr, host_call_main, hc);
	pthread_attr_destroy(&attr);
	return err ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

/* Queues @hc on @s, which the caller holds. */
static CUresult enqueue(struct host_call *hc, struct CUstream_st *s)
{
	const struct drm_vcuda_cmd nop = { .op = DRM_VCUDA_CMD_NOP };
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_SEM_ACQUIRE,
		.flags = DRM_VCUDA_SEM_COND_GEQ | DRM_VCUDA_SEM_64BIT,
	};
	CUresult res = slot_alloc(hc->ctx, &hc->sem_va);

	if (res != CUDA_SUCCESS)
		return res;
	cmd.u.sem.addr = hc->sem_va;
	cmd.u.sem.value = 1;
	hc->syncobj = s->syncobj;
	res = stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &nop, 1, NULL,
			    &hc->gate);
	if (res == CUDA_SUCCESS)
		res = stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &cmd, 1, NULL,
				    &hc->point);
	if (res != CUDA_SUCCESS) {
		slot_free(hc->ctx, hc->sem_va);
		return res;
	}
	pthread_mutex_lock(&hc->ctx->callbacks_lock);
	hc->ctx->callbacks_running++;
	pthread_mutex_unlock(&hc->ctx->callbacks_lock);
	res = start_thread(hc);
	if (res != CUDA_SUCCESS) {
		/* Unblock the stream anyway; the function is not called. */
		__atomic_store_n((uint64_t *)(uintptr_t)hc->sem_va, 1,
				 __ATOMIC_RELEASE);
		retire(hc->ctx);
	}
	return res;
}

/* Queues the host call @op->arg describes (a copy of it) on its stream. */
static CUresult submit_host_call(struct CUstream_st *s,
				 const struct stream_op *op)
{
	struct host_call *hc = malloc(sizeof(*hc));
	CUresult res;

	if (!hc)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*hc = *(const struct host_call *)op->arg;
	res = enqueue(hc, s);
	if (res != CUDA_SUCCESS)
		free(hc);
	return res;
}

static CUresult add_host_call(CUstream hstream, CUhostFn fn,
			      CUstreamCallback callback, void *data)
{
	struct host_call hc;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	hc = (struct host_call){
		.ctx = ctx, .handle = hstream, .fn = fn,
		.callback = callback, .data = data,
	};
	return stream_enqueue_handle(ctx, hstream, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_HOST,
		.u.host = { .fn = fn, .userData = data },
		.submit = submit_host_call, .arg = &hc,
	});
}

CUDA_EXPORT CUresult cuLaunchHostFunc(CUstream hstream, CUhostFn fn,
				      void *data)
{
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	return add_host_call(hstream, fn, NULL, data);
}

CUDA_EXPORT CUresult cuStreamAddCallback(CUstream hstream,
					 CUstreamCallback callback,
					 void *data, unsigned int flags)
{
	if (!callback || flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	return add_host_call(hstream, NULL, callback, data);
}

/* Host functions a context runs finish before what they use goes. */
static void callbacks_wait_all(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&ctx->callbacks_lock);
	while (ctx->callbacks_running)
		pthread_cond_wait(&ctx->callbacks_done, &ctx->callbacks_lock);
	pthread_mutex_unlock(&ctx->callbacks_lock);
}

static CUresult callbacks_ctx_init(struct CUctx_st *ctx)
{
	pthread_mutex_init(&ctx->callbacks_lock, NULL);
	pthread_cond_init(&ctx->callbacks_done, NULL);
	return CUDA_SUCCESS;
}

static void callbacks_ctx_release(struct CUctx_st *ctx)
{
	pthread_cond_destroy(&ctx->callbacks_done);
	pthread_mutex_destroy(&ctx->callbacks_lock);
}

static const struct ctx_hooks callbacks_hooks = {
	.name = "callbacks",
	.order = CTX_HOOKS_CALLBACKS,
	.init = callbacks_ctx_init,
	.teardown = callbacks_wait_all,
	.release = callbacks_ctx_release,
};
CTX_HOOKS_REGISTER(callbacks_hooks)
