// SPDX-License-Identifier: MIT
/*
 * Dispatchers: the threads through which the kernel's compute engine
 * reaches this process. Each waits in the kernel for a launch of its
 * context, runs the launch's CTAs together with the SM pool, and reports
 * completion or the first fault. The kernel signals the job's fence after
 * the report, which is what stream synchronization waits for.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "compute_cdp.h"
#include "context.h"
#include "context_hooks.h"
#include "ctx_limits.h"
#include "kmd.h"
#include "launch_record.h"
#include "sm_pool.h"

static uint32_t kernel_fault_kind(enum ptx_fault_kind kind)
{
	switch (kind) {
	case PTX_FAULT_NONE:
		return DRM_VCUDA_FAULT_NONE;
	case PTX_FAULT_UNMAPPED:
		return DRM_VCUDA_FAULT_UNMAPPED;
	case PTX_FAULT_READ_ONLY:
		return DRM_VCUDA_FAULT_READ_ONLY;
	case PTX_FAULT_MISALIGNED:
		return DRM_VCUDA_FAULT_MISALIGNED;
	case PTX_FAULT_TRAP:
		return DRM_VCUDA_FAULT_TRAP;
	case PTX_FAULT_ASSERT:
		return DRM_VCUDA_FAULT_ASSERT;
	case PTX_FAULT_OUT_OF_RESOURCES:
		return DRM_VCUDA_FAULT_RESOURCES;
	case PTX_FAULT_ILLEGAL_INSTRUCTION:
	default:
		return DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION;
	}
}

static void report_fault(struct CUctx_st *ctx, const struct launch_record *rec,
			 const struct ptx_fault *fault, uint32_t kind)
{
	char message[sizeof(ctx->fault_message)];

	snprintf(message, sizeof(message),
		 "%s, block (%u,%u,%u) thread (%u,%u,%u), address 0x%llx: %s",
		 rec->kernel_name, fault->cta[0], fault->cta[1], fault->cta[2],
		 fault->thread[0], fault->thread[1], fault->thread[2],
		 (unsigned long long)fault->addr, fault->message);
	ctx_set_fault(ctx, fault_kind_result(kind), message);
}

/* Runs one launch taken from the kernel and reports its outcome. */
static void run_launch(struct CUctx_st *ctx, struct ptx_worker *worker,
		       const struct drm_vcuda_compute_wait *taken)
{
	const struct launch_record *rec =
		(const struct launch_record *)(uintptr_t)taken->descriptor;
	struct ptx_fault fault = { 0 };
	uint32_t kind = DRM_VCUDA_FAULT_NONE;
	bool ok;

	/* What earlier launches printed comes out first, as in CUDA. */
	if (rec->launch.printf_fifo)
		ctx_flush_printf(ctx);
	ok = compute_run_tree(ctx, worker, &rec->launch, &fault);
	/*
	 * A killed launch is not reported: its context has faulted or is
	 * being destroyed, which withdraws the launch in the kernel anyway,
	 * and a report would race with the fault that killed it.
	 */
	if (!ok && fault.kind == PTX_FAULT_KILLED)
		return;
	if (!ok) {
		kind = kernel_fault_kind(fault.kind);
		report_fault(ctx, rec, &fault, kind);
	}
	kmd_compute_done(ctx->dev->fd, ctx->ctx_id, taken->launch_id, kind,
			 kind == DRM_VCUDA_FAULT_NONE ? 0 : fault.addr);
}

/* Counts a launch as running, unless the context's launches are killed. */
static bool launch_begin(struct CUctx_st *ctx)
{
	bool run;

	pthread_mutex_lock(&ctx->running_lock);
	run = !atomic_load(&ctx->kill);
	if (run && !ctx->running++)
		pthread_cond_broadcast(&ctx->running_changed);
	pthread_mutex_unlock(&ctx->running_lock);
	return run;
}

static void launch_end(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&ctx->running_lock);
	if (!--ctx->running)
		pthread_cond_broadcast(&ctx->running_changed);
	pthread_mutex_unlock(&ctx->running_lock);
}

/* How often the watchdog asks the kernel about a context running kernels. */
#define WATCHDOG_INTERVAL_NS 100000000L

static void watchdog_sleep(struct CUctx_st *ctx)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += WATCHDOG_INTERVAL_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&ctx->running_changed, &ctx->running_lock,
			       &until);
}

/*
 * While the context runs kernels, reads the kernel's fault state every
 * WATCHDOG_INTERVAL_NS: when every dispatcher is busy (endless kernels
 * on several streams) and the application does not synchronize, no one
 * else would learn that their jobs timed out, and they would run on.
 * ctx_check_fault() sets the kill flag once it finds a fault.
 */
static void *watchdog_main(void *arg)
{
	struct CUctx_st *ctx = arg;

	block_signals();
	pthread_mutex_lock(&ctx->running_lock);
	while (!ctx->watchdog_stop) {
		if (!ctx->running || atomic_load(&ctx->kill)) {
			pthread_cond_wait(&ctx->running_changed,
					  &ctx->running_lock);
			continue;
		}
		watchdog_sleep(ctx);
		if (ctx->watchdog_stop || !ctx->running)
			continue;
		pthread_mutex_unlock(&ctx->running_lock);
		ctx_check_fault(ctx);
		pthread_mutex_lock(&ctx->running_lock);
	}
	pthread_mutex_unlock(&ctx->running_lock);
	return NULL;
}

static void *dispatcher_main(void *arg)
{
	struct CUctx_st *ctx = arg;
	struct ptx_worker *worker = ptx_worker_create();

	block_signals();
	while (worker) {
		struct drm_vcuda_compute_wait taken;
		int err = kmd_compute_wait(ctx->dev->fd, ctx->ctx_id, 0, &taken);

		if (err == -EINTR || err == -ETIMEDOUT)
			continue;
		if (err) {
			/*
			 * -EIO: the context faulted (or timed out), so the
			 * launches other dispatchers run are void; -ENOENT:
			 * it is gone. Either way they stop.
			 */
			atomic_store(&ctx->kill, true);
			break;
		}
		/* Killed: left unreported, as run_launch() says why. */
		if (!launch_begin(ctx))
			continue;
		run_launch(ctx, worker, &taken);
		launch_end(ctx);
	}
	if (worker)
		ptx_worker_destroy(worker);
	return NULL;
}

/* Starts the context's SM pool and dispatchers. */
static CUresult compute_start(struct CUctx_st *ctx)
{
	unsigned int sms = ctx->dev->info.sm_count;

	atomic_init(&ctx->kill, false);
	pthread_mutex_init(&ctx->running_lock, NULL);
	pthread_cond_init(&ctx->running_changed, NULL);
	ctx->running = 0;
	ctx->watchdog_stop = false;
	ctx->watchdog_started = false;

	/* Dispatchers run CTAs too, so one SM thread fewer. */
	ctx->pool = sm_pool_create(sms > 1 ? sms - 1 : 0);
	if (!ctx->pool)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (int i = 0; i < CTX_DISPATCHERS; i++) {
		/* On failure the context unwinds through compute_stop(). */
		if (pthread_create(&ctx->dispatchers[i], NULL, dispatcher_main,
				   ctx))
			return CUDA_ERROR_OUT_OF_MEMORY;
		ctx->ndispatchers++;
	}
	if (pthread_create(&ctx->watchdog, NULL, watchdog_main, ctx))
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx->watchdog_started = true;
	return CUDA_SUCCESS;
}

/*
 * Stops the context's launches: those running stop at their next warp
 * switch (every so many backward branches, a barrier), none starts any
 * more; returns once no dispatcher runs one. A faulted context's
 * synchronize returns while its kernels may still run (one that timed
 * out, say): they stop here, before their code and memory go.
 */
static void compute_kill(struct CUctx_st *ctx)
{
	pthread_mutex_lock(&ctx->running_lock);
	atomic_store(&ctx->kill, true);
	while (ctx->running)
		pthread_cond_wait(&ctx->running_changed, &ctx->running_lock);
	pthread_mutex_unlock(&ctx->running_lock);
}

/* Joins them; the kernel context is gone already (that woke them). */
static void compute_stop(struct CUctx_st *ctx)
{
	if (ctx->watchdog_started) {
		pthread_mutex_lock(&ctx->running_lock);
		ctx->watchdog_stop = true;
		pthread_cond_broadcast(&ctx->running_changed);
		pthread_mutex_unlock(&ctx->running_lock);
		pthread_join(ctx->watchdog, NULL);
		ctx->watchdog_started = false;
	}
	for (int i = 0; i < ctx->ndispatchers; i++)
		pthread_join(ctx->dispatchers[i], NULL);
	ctx->ndispatchers = 0;
	sm_pool_destroy(ctx->pool);
	ctx->pool = NULL;
	pthread_cond_destroy(&ctx->running_changed);
	pthread_mutex_destroy(&ctx->running_lock);
}

/*
 * Last in the order: its teardown runs first (no kernel runs while the
 * rest goes), its release right after the kernel context is destroyed.
 */
static const struct ctx_hooks compute_hooks = {
	.name = "compute",
	.order = CTX_HOOKS_COMPUTE,
	.init = compute_start,
	.teardown = compute_kill,
	.release = compute_stop,
};
CTX_HOOKS_REGISTER(compute_hooks)
