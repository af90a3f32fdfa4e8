// SPDX-License-Identifier: MIT
/*
 * A host launch with the grids its kernels launch (dynamic parallelism):
 * the dispatcher runs the launch's CTAs on the SM pool, then the launch
 * tree's grids one after the other (ptx/cdp.c decides the order), each
 * on the whole pool, and only then reports the launch done: the host
 * sees a grid complete once all its descendants have.
 */
#include "compute_cdp.h"

#include "context.h"
#include "device.h"
#include "sm_pool.h"

struct pool_runner {
	struct sm_pool *pool;
	struct ptx_worker *worker;
};

static bool run_on_pool(void *user, const struct ptx_launch *launch,
			struct ptx_fault *fault)
{
	struct pool_runner *r = user;

	return sm_pool_run(r->pool, r->worker, launch, fault);
}

/* What the device runtime reports of @ctx (limits as they are now). */
static void cdp_config_of(struct CUctx_st *ctx, struct ptx_cdp_config *cf)
{
	const struct drm_vcuda_device_info *info = &ctx->dev->info;

	*cf = (struct ptx_cdp_config){
		.pending_limit = (uint32_t)
			ctx->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT],
		.stack_size = ctx->limits[CU_LIMIT_STACK_SIZE],
		.printf_fifo_size = ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE],
		.heap_size = ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE],
		.max_threads = info->max_threads_per_block,
		.max_shared = info->shared_mem_per_block,
		.device = ctx->dev->ordinal,
		.device_count = device_count(),
	};
	for (int i = 0; i < 3; i++) {
		cf->max_block[i] = info->max_block_dim[i];
		cf->max_grid[i] = info->max_grid_dim[i];
	}
}

bool compute_run_tree(struct CUctx_st *ctx, struct ptx_worker *worker,
		      const struct ptx_launch *host_launch,
		      struct ptx_fault *fault)
{
	struct pool_runner r = { ctx->pool, worker };
	struct ptx_launch launch = *host_launch;
	struct ptx_cdp_config cf;
	struct ptx_cdp_grid *root = NULL;
	bool ok;

	/* Most kernels launch nothing: no tree, nothing more per launch. */
	if (ptx_kernel_uses_cdp(launch.kernel)) {
		cdp_config_of(ctx, &cf);
		root = ptx_cdp_root(&launch, &cf);
	}
	if (launch.flags & PTX_LAUNCH_COOPERATIVE)
		ok = sm_pool_run_cooperative(ctx->pool, worker, &launch, fault);
	else
		ok = sm_pool_run(ctx->pool, worker, &launch, fault);
	if (root)
		ok = ptx_cdp_finish(root, ok, run_on_pool, &r, fault);
	return ok;
}
