// SPDX-License-Identifier: MIT
/*
 * cuLaunchKernel: check the configuration against the device's limits,
 * pack the parameters, snapshot the memory the kernel may touch, and
 * queue the launch record on the stream. The record is the LAUNCH
 * command's descriptor; a dispatcher thread gets it back from the kernel.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "context.h"
#include "ctx_limits.h"
#include "enqueue.h"
#include "launch.h"
#include "launch_attr.h"
#include "launch_params.h"
#include "module.h"
#include "occupancy.h"
#include "slots.h"
#include "sm_pool.h"
#include "stream.h"

static CUresult check_dims(const struct drm_vcuda_device_info *info,
			   const struct CUfunc_st *f, const uint32_t grid[3],
			   const uint32_t block[3])
{
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];

	for (int i = 0; i < 3; i++) {
		if (!grid[i] || !block[i])
			return CUDA_ERROR_INVALID_VALUE;
		if (grid[i] > info->max_grid_dim[i] ||
		    block[i] > info->max_block_dim[i])
			return CUDA_ERROR_INVALID_VALUE;
	}
	if (threads > info->max_threads_per_block)
		return CUDA_ERROR_INVALID_VALUE;
	if (f->info.max_threads && threads > f->info.max_threads)
		return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 3; i++)
		if (f->info.reqntid[i] && block[i] != f->info.reqntid[i])
			return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/*
 * A cooperative grid must be resident at once: no more CTAs than the SM
 * threads can hold at the kernel's occupancy.
 */
static CUresult check_cooperative(struct CUctx_st *ctx,
				  const struct CUfunc_st *f,
				  const uint32_t grid[3], const uint32_t block[3],
				  unsigned int shared)
{
	uint64_t ctas = (uint64_t)grid[0] * grid[1] * grid[2];
	int per_sm = occupancy_blocks_per_sm(f, block[0] * block[1] * block[2],
					     shared);

	if (ctas > (uint64_t)per_sm * sm_pool_width(ctx->pool))
		return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
	return CUDA_SUCCESS;
}

/*
 * The grid workspace cooperative_groups reads through %envreg1:%envreg2
 * (high:low address halves): one slot per launch, so that concurrent
 * cooperative launches have their own barriers.
 */
static CUresult give_workspace(struct launch_record *rec)
{
	struct ptx_grid_workspace *ws;
	CUresult res = slot_alloc(rec->ctx, &rec->workspace);

	if (res != CUDA_SUCCESS)
		return res;
	ws = (struct ptx_grid_workspace *)(uintptr_t)rec->workspace;
	ws->size = sizeof(*ws);
	ws->barrier = 0;
	rec->launch.envreg[1] = (uint32_t)(rec->workspace >> 32);
	rec->launch.envreg[2] = (uint32_t)rec->workspace;
	return CUDA_SUCCESS;
}

/* Fills the launch (and its ranges) and queues the record on @s. */
static CUresult queue_record(struct CUctx_st *ctx, struct launch_record *rec,
			     struct CUstream_st *s)
{
	CUresult res = CUDA_SUCCESS;

	if (rec->launch.flags & PTX_LAUNCH_COOPERATIVE)
		res = give_workspace(rec);
	/* Snapshot last: the workspace and the heap must be in range. */
	if (res == CUDA_SUCCESS) {
		rec->ranges = alloc_table_snapshot(ctx);
		if (!rec->ranges)
			res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (res != CUDA_SUCCESS)
		return res;
	rec->launch.ranges = rec->ranges->ranges;
	rec->launch.range_count = rec->ranges->count;
	/*
	 * A first launch compiles its kernel here, not in the job, which
	 * its time-out would count; under VCUDA_JIT_ASYNC=1 it only starts
	 * the compile, which the job does not wait for.
	 */
	ptx_kernel_prepare_for(rec->launch.kernel, rec->launch.block);
	return stream_launch(s, rec);
}

/* Checks a launch configuration of @f in @ctx. */
static CUresult check_launch(struct CUctx_st *ctx, const struct CUfunc_st *f,
			     const uint32_t grid[3], const uint32_t block[3],
			     unsigned int shared, uint32_t flags)
{
	CUresult res;

	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (f->module->ctx != ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	res = check_dims(&ctx->dev->info, f, grid, block);
	if (res == CUDA_SUCCESS && shared > (unsigned int)f->max_dynamic_shared)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS && (flags & PTX_LAUNCH_COOPERATIVE))
		res = check_cooperative(ctx, f, grid, block, shared);
	return res;
}

CUresult launch_packed(struct CUfunc_st *f, const uint32_t grid[3],
		       const uint32_t block[3], unsigned int shared,
		       struct CUstream_st *s, const void *packed,
		       uint32_t flags)
{
	struct launch_record *rec;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS)
		res = check_launch(ctx, f, grid, block, shared, flags);
	if (res == CUDA_SUCCESS)
		res = ctx_launch_resources(ctx);
	if (res != CUDA_SUCCESS)
		return res;
	rec = calloc(1, sizeof(*rec) + f->info.param_size);
	if (!rec)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(rec->params, packed, f->info.param_size);
	rec->ctx = ctx;
	rec->kernel_name = f->info.name;
	rec->launch = (struct ptx_launch){
		.kernel = f->kernel,
		.grid = { grid[0], grid[1], grid[2] },
		.block = { block[0], block[1], block[2] },
		.dynamic_shared_size = shared,
		.params = rec->params,
		.flags = flags,
		.heap = ctx->heap,
		.printf_fifo = ctx->printf_fifo,
		.sm_count = ctx->dev->info.sm_count,
		.kill = &ctx->kill,
	};
	res = queue_record(ctx, rec, s);
	if (res != CUDA_SUCCESS)
		launch_record_free(rec);
	return res;
}

static CUresult submit_kernel(struct CUstream_st *s, const struct stream_op *op)
{
	const struct graph_kernel *k = &op->u.kernel;

	return launch_packed(k->func, k->grid, k->block, k->shared, s,
			     k->params, *(const uint32_t *)op->arg);
}

CUresult launch_enqueue(struct CUstream_st *s, const struct graph_kernel *k,
			uint32_t flags)
{
	struct stream_op op = {
		.type = CU_GRAPH_NODE_TYPE_KERNEL, .u.kernel = *k,
		.submit = submit_kernel, .arg = &flags,
	};

	return stream_enqueue(s, &op);
}

static CUresult launch_kernel(struct CUfunc_st *f, const uint32_t grid[3],
			      const uint32_t block[3], unsigned int shared,
			      CUstream stream, void **params, void **extra,
			      uint32_t flags)
{
	unsigned char *packed;
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	f = function_resolve(f);
	if (res == CUDA_SUCCESS)
		res = check_launch(ctx, f, grid, block, shared, flags);
	if (res == CUDA_SUCCESS)
		res = launch_pack_params(f, params, extra, &packed);
	if (res != CUDA_SUCCESS)
		return res;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, stream);
	res = launch_enqueue(s, &(struct graph_kernel){
				.func = f, .grid = { grid[0], grid[1], grid[2] },
				.block = { block[0], block[1], block[2] },
				.shared = shared, .params = packed,
			     }, flags);
	stream_put(s);
	free(packed);
	return res;
}

CUDA_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx,
				    unsigned int gy, unsigned int gz,
				    unsigned int bx, unsigned int by,
				    unsigned int bz, unsigned int shared_bytes,
				    CUstream stream, void **params,
				    void **extra)
{
	const uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };

	return launch_kernel(f, grid, block, shared_bytes, stream, params,
			     extra, 0);
}

CUDA_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx,
					       unsigned int gy,
					       unsigned int gz,
					       unsigned int bx,
					       unsigned int by,
					       unsigned int bz,
					       unsigned int shared_bytes,
					       CUstream stream, void **params)
{
	const uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };

	return launch_kernel(f, grid, block, shared_bytes, stream, params,
			     NULL, PTX_LAUNCH_COOPERATIVE);
}

/*
 * Launch flags from cuLaunchKernelEx attributes, or an error. Each is
 * checked as NVIDIA's driver checks it (launch_attr.c); hints without a
 * meaning here are accepted: the access policy window, priority,
 * memory synchronization domains, cluster scheduling, carveout, NVLink
 * scheduling, and programmatic stream serialization (leave to overlap
 * the previous kernel of the stream, not a duty: launches run in stream
 * order, which any PDL program allows; Thrust and CUB ask for it on
 * every launch).
 */
static CUresult flags_of_attributes(const CUlaunchConfig *config,
				    uint32_t *flags)
{
	bool cluster = false, preferred = false;
	CUresult res;

	*flags = 0;
	for (unsigned int i = 0; i < config->numAttrs; i++) {
		const CUlaunchAttribute *a = &config->attrs[i];

		res = launch_attr_check(LAUNCH_ATTR_LAUNCH, a->id, &a->value);
		if (res != CUDA_SUCCESS)
			return res;
		if (a->id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a->value.cooperative)
			*flags |= PTX_LAUNCH_COOPERATIVE;
		cluster |= a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
		preferred |= a->id == CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION;
	}
	/* A preferred cluster shape refines a cluster shape. */
	return preferred && !cluster ? CUDA_ERROR_INVALID_CLUSTER_SIZE
				     : CUDA_SUCCESS;
}

/*
 * The events a launch records: the programmatic event (all blocks
 * triggered) and the launch completion event (all blocks began) both
 * hold once the kernel has finished, which is when vcuda records them.
 */
static CUresult record_launch_events(const CUlaunchConfig *config)
{
	CUresult res = CUDA_SUCCESS;

	for (unsigned int i = 0; i < config->numAttrs && !res; i++) {
		const CUlaunchAttribute *a = &config->attrs[i];

		if (a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
			res = cuEventRecord(a->value.programmaticEvent.event,
					    config->hStream);
		else if (a->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
			res = cuEventRecord(a->value.launchCompletionEvent.event,
					    config->hStream);
	}
	return res;
}

CUDA_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
				      CUfunction f, void **params,
				      void **extra)
{
	uint32_t flags;
	CUresult res;

	if (!config || (config->numAttrs && !config->attrs))
		return CUDA_ERROR_INVALID_VALUE;
	res = flags_of_attributes(config, &flags);
	if (res != CUDA_SUCCESS)
		return res;
	res = launch_kernel(f, (const uint32_t[3]){ config->gridDimX,
						    config->gridDimY,
						    config->gridDimZ },
			    (const uint32_t[3]){ config->blockDimX,
						 config->blockDimY,
						 config->blockDimZ },
			    config->sharedMemBytes, config->hStream, params,
			    extra, flags);
	return res != CUDA_SUCCESS ? res : record_launch_events(config);
}

/* The per-thread form: its stream is inside the configuration. */
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
			       void **params, void **extra);
CUDA_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config,
					   CUfunction f, void **params,
					   void **extra)
{
	CUlaunchConfig own;

	if (!config || config->hStream)
		return cuLaunchKernelEx(config, f, params, extra);
	own = *config;
	own.hStream = CU_STREAM_PER_THREAD;
	return cuLaunchKernelEx(&own, f, params, extra);
}

CUDA_EXPORT CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attr,
					CUfunction f)
{
	f = function_checked(f);
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	switch (attr) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		*value = f->info.max_threads ? (int)f->info.max_threads
			 : (int)f->module->ctx->dev->info.max_threads_per_block;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
		*value = f->info.static_shared_size;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
		*value = (int)f->info.const_size;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
		*value = f->info.local_size;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_NUM_REGS:
		*value = f->info.num_regs;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PTX_VERSION:
		/*
		 * The virtual arch the PTX was written for, not the
		 * device's: CUB picks its tuning policy by an exact match
		 * with the archs it was compiled for, and fails with
		 * cudaErrorInvalidDeviceFunction otherwise.
		 */
		*value = (int)f->info.ptx_arch;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
		/* What a GPU JIT-compiles PTX to: the device's arch. */
		*value = f->module->ctx->dev->info.cc_major * 10 +
			 f->module->ctx->dev->info.cc_minor;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
		*value = 0;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		*value = f->max_dynamic_shared;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		*value = f->shared_carveout;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		/* No clusters before compute capability 9.0: none asked for. */
		*value = 0;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attr,
					int value)
{
	const struct drm_vcuda_device_info *info;

	f = function_checked(f);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	info = &f->module->ctx->dev->info;
	switch (attr) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (value < 0 || (uint64_t)value + f->info.static_shared_size >
				 info->shared_mem_per_block_optin)
			return CUDA_ERROR_INVALID_VALUE;
		f->max_dynamic_shared = value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return CUDA_ERROR_INVALID_VALUE;
		f->shared_carveout = value;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config)
{
	if (!function_checked(f))
		return CUDA_ERROR_INVALID_HANDLE;
	/* A preference only; there is no L1/shared split to configure. */
	return config <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS
						    : CUDA_ERROR_INVALID_VALUE;
}
