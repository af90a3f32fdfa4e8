// SPDX-License-Identifier: MIT
/*
 * Occupancy: how many blocks of a kernel fit on one SM at once, by the
 * limits the device reports (threads, blocks, registers and shared memory
 * per SM), computed the way CUDA's occupancy calculator does for a
 * compute-capability 8.x part: warps are the unit of threads, registers
 * are allocated per warp in units of 256, shared memory per block in
 * units of 128 bytes.
 */
#include "api.h"
#include "context.h"
#include "module.h"
#include "occupancy.h"

#define REG_ALLOC_UNIT 256
#define SHARED_ALLOC_UNIT 128

static uint64_t round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int occupancy_blocks_per_sm(const struct CUfunc_st *f, int block_size,
			    size_t dynamic_shared)
{
	const struct drm_vcuda_device_info *info = &f->module->ctx->dev->info;
	uint64_t warps = (block_size + info->warp_size - 1) / info->warp_size;
	uint64_t regs = round_up((uint64_t)f->info.num_regs * info->warp_size,
				 REG_ALLOC_UNIT) * warps;
	uint64_t shared = round_up(f->info.static_shared_size + dynamic_shared,
				   SHARED_ALLOC_UNIT);
	uint64_t limit = info->max_blocks_per_sm;

	limit = min_u64(limit, info->max_threads_per_sm /
			       (warps * info->warp_size));
	if (regs)
		limit = min_u64(limit, info->regs_per_sm / regs);
	if (shared)
		limit = min_u64(limit, info->shared_mem_per_sm / shared);
	return (int)limit;
}

static CUresult check_block(const struct CUfunc_st *f, int block_size,
			    size_t dynamic_shared)
{
	const struct drm_vcuda_device_info *info = &f->module->ctx->dev->info;
	uint32_t max_threads = f->info.max_threads ? f->info.max_threads
						   : info->max_threads_per_block;

	if (block_size <= 0 || (uint32_t)block_size > max_threads)
		return CUDA_ERROR_INVALID_VALUE;
	if (dynamic_shared > (size_t)f->max_dynamic_shared)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult
cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, CUfunction f,
						     int block_size,
						     size_t dynamic_shared,
						     unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!blocks || (flags & ~CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	f = function_resolve(f);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (block_size <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* A block the kernel cannot launch fits zero times. */
	*blocks = check_block(f, block_size, dynamic_shared) == CUDA_SUCCESS
		  ? occupancy_blocks_per_sm(f, block_size, dynamic_shared) : 0;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
	int *blocks, CUfunction f, int block_size, size_t dynamic_shared)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		blocks, f, block_size, dynamic_shared, 0);
}

CUDA_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
	int *min_grid, int *block_size, CUfunction f,
	CUoccupancyB2DSize shared_for_block, size_t dynamic_shared,
	int limit, unsigned int flags)
{
	const struct drm_vcuda_device_info *info;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	int best_size = 0, best_threads = 0, best_blocks = 0;
	int max_size;

	if (res != CUDA_SUCCESS)
		return res;
	if (!min_grid || !block_size ||
	    (flags & ~CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE))
		return CUDA_ERROR_INVALID_VALUE;
	f = function_resolve(f);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	info = &ctx->dev->info;
	max_size = f->info.max_threads ? (int)f->info.max_threads
				       : (int)info->max_threads_per_block;
	if (limit > 0 && limit < max_size)
		max_size = limit;
	/* The largest block size reaching the most threads per SM wins. */
	for (int size = max_size; size > 0; size -= (int)info->warp_size) {
		size_t shared = shared_for_block ? shared_for_block(size)
						 : dynamic_shared;
		int blocks;

		if (check_block(f, size, shared) != CUDA_SUCCESS)
			continue;
		blocks = occupancy_blocks_per_sm(f, size, shared);
		if (blocks * size > best_threads) {
			best_threads = blocks * size;
			best_size = size;
			best_blocks = blocks;
		}
	}
	*block_size = best_size;
	*min_grid = best_blocks * (int)info->sm_count;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(
	int *min_grid, int *block_size, CUfunction f,
	CUoccupancyB2DSize shared_for_block, size_t dynamic_shared, int limit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(
		min_grid, block_size, f, shared_for_block, dynamic_shared,
		limit, 0);
}

CUDA_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(
	size_t *dynamic_shared, CUfunction f, int blocks, int block_size)
{
	const struct drm_vcuda_device_info *info;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	uint64_t per_block;

	if (res != CUDA_SUCCESS)
		return res;
	if (!dynamic_shared || blocks <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	f = function_resolve(f);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	res = check_block(f, block_size, 0);
	if (res != CUDA_SUCCESS)
		return res;
	info = &ctx->dev->info;
	per_block = info->shared_mem_per_sm / (uint64_t)blocks;
	per_block = per_block / SHARED_ALLOC_UNIT * SHARED_ALLOC_UNIT;
	per_block = min_u64(per_block, info->shared_mem_per_block_optin);
	*dynamic_shared = per_block > f->info.static_shared_size
			  ? per_block - f->info.static_shared_size : 0;
	return CUDA_SUCCESS;
}
