// SPDX-License-Identifier: MIT
/*
 * Copies and sets.
 *
 * Synchronous ones run on the legacy default stream, which orders them
 * after all earlier work of the context: once that work is done, the CPU
 * moves the bytes through the process's own mapping of device memory (the
 * same address the GPU uses).
 *
 * Asynchronous ones between device-visible memory (allocations of the
 * stream's context: device or pinned host memory) become COPY and FILL
 * commands on the stream's copy queue, run by the kernel's copy engine in
 * stream order. One that involves pageable host memory, which the device
 * cannot see, waits for the stream and is done by the CPU, as CUDA stages
 * pageable copies synchronously.
 */
#include <string.h>

#include "api.h"
#include "alloc_table.h"
#include "context.h"
#include "ctx_limits.h"
#include "enqueue.h"
#include "graph_mem.h"
#include "capture.h"
#include "memcpy.h"
#include "stream.h"
#include "sync_call.h"

/* Whether @addr lies in any known allocation (of any context). */
static bool alloc_known(uint64_t addr)
{
	struct vc_alloc alloc;

	return alloc_table_find(addr, &alloc);
}

/* CUDA_SUCCESS if [addr, addr + size) lies inside one known allocation. */
static CUresult check_device_range(uint64_t addr, size_t size)
{
	struct vc_alloc alloc;

	if (!alloc_table_find(addr, &alloc))
		return CUDA_ERROR_INVALID_VALUE;
	if (size > alloc.va + alloc.size - addr)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/*
 * A synchronous copy orders itself after the work of the contexts whose
 * memory it touches: the current one (the legacy default stream), and
 * another device's if @addr is its memory (unified addressing).
 */
static CUresult sync_owner(struct CUctx_st *ctx, uint64_t addr)
{
	struct vc_alloc alloc;

	if (!alloc_table_find(addr, &alloc) || !alloc.ctx || alloc.ctx == ctx ||
	    !ctx_is_live(alloc.ctx))
		return CUDA_SUCCESS;
	return ctx_synchronize(alloc.ctx);
}

/*
 * Waits for what a synchronous call on @on waits for (sync_call_wait),
 * the first step of every sync copy.
 */
static CUresult enter_sync_copy_ctx(CUstream on, struct CUctx_st **out)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	res = sync_call_wait(ctx, on);
	ctx_flush_printf(ctx);
	*out = ctx;
	return res;
}

/* ... and the contexts owning @dst and @src, for copies. */
static CUresult enter_sync_copy2(uint64_t dst, uint64_t src, CUstream on)
{
	struct CUctx_st *ctx;
	CUresult res = enter_sync_copy_ctx(on, &ctx);

	if (res == CUDA_SUCCESS)
		res = sync_owner(ctx, dst);
	if (res == CUDA_SUCCESS)
		res = sync_owner(ctx, src);
	return res;
}

CUresult memcpy_htod_on(CUdeviceptr dst, const void *src, size_t bytes,
			CUstream on)
{
	CUresult res = enter_sync_copy2(dst, 0, on);

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!src)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memcpy((void *)(uintptr_t)dst, src, bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src,
				  size_t bytes)
{
	return memcpy_htod_on(dst, src, bytes, CU_STREAM_LEGACY);
}

CUresult memcpy_dtoh_on(void *dst, CUdeviceptr src, size_t bytes, CUstream on)
{
	CUresult res = enter_sync_copy2(0, src, on);

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!dst)
		return CUDA_ERROR_INVALID_VALUE;
	res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS)
		memcpy(dst, (const void *)(uintptr_t)src, bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
	return memcpy_dtoh_on(dst, src, bytes, CU_STREAM_LEGACY);
}

CUresult memcpy_dtod_on(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			CUstream on)
{
	CUresult res = enter_sync_copy2(dst, src, on);

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS)
		res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src,
				  size_t bytes)
{
	return memcpy_dtod_on(dst, src, bytes, CU_STREAM_LEGACY);
}

/*
 * cuMemcpy with unified addressing: either side may be device or host
 * memory; unknown addresses are taken as pageable host memory.
 */
CUresult memcpy_unified_on(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			   CUstream on)
{
	CUresult res = enter_sync_copy2(dst, src, on);
	struct vc_alloc alloc;

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	if (alloc_table_find(src, &alloc))
		res = check_device_range(src, bytes);
	if (res == CUDA_SUCCESS && alloc_table_find(dst, &alloc))
		res = check_device_range(dst, bytes);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			bytes);
	return res;
}

CUDA_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
	return memcpy_unified_on(dst, src, bytes, CU_STREAM_LEGACY);
}

/* Writes @count elements of @elem_size bytes, each @pattern. */
CUresult memset_on(CUdeviceptr dst, uint32_t pattern, size_t elem_size,
		   size_t count, CUstream on)
{
	struct CUctx_st *ctx;
	CUresult res = enter_sync_copy_ctx(on, &ctx);

	if (res != CUDA_SUCCESS || count == 0)
		return res;
	/* Only memory the context's device can reach: not another device's. */
	if (dst % elem_size || count > SIZE_MAX / elem_size ||
	    classify(ctx, dst, count * elem_size) != RANGE_VISIBLE)
		return CUDA_ERROR_INVALID_VALUE;
	if (elem_size == 1) {
		memset((void *)(uintptr_t)dst, (int)pattern, count);
	} else if (elem_size == 2) {
		uint16_t *p = (uint16_t *)(uintptr_t)dst;

		for (size_t i = 0; i < count; i++)
			p[i] = (uint16_t)pattern;
	} else {
		uint32_t *p = (uint32_t *)(uintptr_t)dst;

		for (size_t i = 0; i < count; i++)
			p[i] = pattern;
	}
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n)
{
	return memset_on(dst, value, 1, n, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemsetD16(CUdeviceptr dst, unsigned short value,
				 size_t n)
{
	return memset_on(dst, value, 2, n, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n)
{
	return memset_on(dst, value, 4, n, CU_STREAM_LEGACY);
}

/* --- Asynchronous copies and sets --- */

enum range_kind classify(struct CUctx_st *ctx, uint64_t addr,
				size_t size)
{
	struct vc_alloc alloc;

	if (!alloc_table_find(addr, &alloc))
		return RANGE_PAGEABLE;
	if (size > alloc.va + alloc.size - addr)
		return RANGE_INVALID;
	/* Another context's memory is here only if bound (peers, VMM). */
	return alloc_visible_in(&alloc, ctx, addr, size) ? RANGE_VISIBLE
						       : RANGE_PAGEABLE;
}

/* A graph allocation that work captured on @s may name before a launch. */
static bool captured_graph_mem(struct CUstream_st *s, uint64_t addr,
			       size_t size)
{
	return stream_capturing(s) && graph_mem_reserved(addr, size);
}

bool device_target(struct CUctx_st *ctx, struct CUstream_st *s,
		   uint64_t addr, size_t size)
{
	return classify(ctx, addr, size) == RANGE_VISIBLE ||
	       captured_graph_mem(s, addr, size);
}

/* Requirements a copy direction puts on its sides. */
#define NEED_DEVICE_DST 1u
#define NEED_DEVICE_SRC 2u

/* What copy_async() learnt of the two sides, for doing the copy. */
struct copy_sides {
	struct CUctx_st *ctx;
	enum range_kind kd, ks;
};

static CUresult submit_copy(struct CUstream_st *s, const struct stream_op *op)
{
	const struct copy_sides *sides = op->arg;
	uint64_t dst = op->u.memcpy.dstDevice, src = op->u.memcpy.srcDevice;
	size_t bytes = op->u.memcpy.WidthInBytes;
	uint64_t point;
	CUresult res;

	if (sides->kd == RANGE_VISIBLE && sides->ks == RANGE_VISIBLE &&
	    (dst + bytes <= src || src + bytes <= dst)) {
		struct drm_vcuda_cmd cmd = {
			.op = DRM_VCUDA_CMD_COPY,
			.u.copy = {
				.src = src, .dst = dst, .width = bytes,
				.height = 1, .depth = 1,
			},
		};

		return stream_submit(s, DRM_VCUDA_ENGINE_COPY, &cmd, 1, NULL,
				     &point);
	}
	res = stream_wait_idle(s);
	if (res == CUDA_SUCCESS)
		res = ctx_check_fault(sides->ctx);
	if (res == CUDA_SUCCESS)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src,
			bytes);
	return res;
}

static CUresult copy_async(uint64_t dst, uint64_t src, size_t bytes,
			   CUstream hstream, unsigned int need)
{
	struct copy_sides sides;
	struct CUctx_st *ctx;
	struct CUstream_st *s;
	enum range_kind kd, ks;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS || bytes == 0)
		return res;
	if (!dst || !src)
		return CUDA_ERROR_INVALID_VALUE;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, hstream);
	kd = classify(ctx, dst, bytes);
	ks = classify(ctx, src, bytes);
	sides = (struct copy_sides){ ctx, kd, ks };
	if (kd == RANGE_INVALID || ks == RANGE_INVALID ||
	    ((need & NEED_DEVICE_DST) && kd != RANGE_VISIBLE &&
	     !alloc_known(dst) && !captured_graph_mem(s, dst, bytes)) ||
	    ((need & NEED_DEVICE_SRC) && ks != RANGE_VISIBLE &&
	     !alloc_known(src) && !captured_graph_mem(s, src, bytes)))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		res = stream_enqueue(s, &(struct stream_op){
			.type = CU_GRAPH_NODE_TYPE_MEMCPY,
			.u.memcpy = {
				.srcMemoryType = CU_MEMORYTYPE_UNIFIED,
				.srcDevice = src,
				.dstMemoryType = CU_MEMORYTYPE_UNIFIED,
				.dstDevice = dst,
				.WidthInBytes = bytes, .Height = 1, .Depth = 1,
			},
			.submit = submit_copy, .arg = &sides,
		});
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
				   size_t bytes, CUstream stream)
{
	return copy_async(dst, src, bytes, stream, 0);
}

CUDA_EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src,
				       size_t bytes, CUstream stream)
{
	return copy_async(dst, (uintptr_t)src, bytes, stream, NEED_DEVICE_DST);
}

CUDA_EXPORT CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src,
				       size_t bytes, CUstream stream)
{
	return copy_async((uintptr_t)dst, src, bytes, stream, NEED_DEVICE_SRC);
}

CUDA_EXPORT CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src,
				       size_t bytes, CUstream stream)
{
	return copy_async(dst, src, bytes, stream,
			  NEED_DEVICE_DST | NEED_DEVICE_SRC);
}

static const uint32_t fill_flags[] = {
	[1] = DRM_VCUDA_CMD_FILL_8,
	[2] = DRM_VCUDA_CMD_FILL_16,
	[4] = DRM_VCUDA_CMD_FILL_32,
};

static CUresult submit_memset(struct CUstream_st *s, const struct stream_op *op)
{
	const CUDA_MEMSET_NODE_PARAMS *p = &op->u.memset;
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_FILL,
		.flags = fill_flags[p->elementSize],
		.u.fill = { .dst = p->dst, .width = p->width, .height = 1,
			    .value = p->value },
	};
	uint64_t point;

	return stream_submit(s, DRM_VCUDA_ENGINE_COPY, &cmd, 1, NULL, &point);
}

static CUresult memset_async(CUdeviceptr dst, uint32_t pattern,
			     size_t elem_size, size_t count, CUstream hstream)
{
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS || count == 0)
		return res;
	if (dst % elem_size || count > SIZE_MAX / elem_size)
		return CUDA_ERROR_INVALID_VALUE;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, hstream);
	if (!device_target(ctx, s, dst, count * elem_size))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		res = stream_enqueue(s, &(struct stream_op){
			.type = CU_GRAPH_NODE_TYPE_MEMSET,
			.u.memset = {
				.dst = dst, .value = pattern,
				.elementSize = (unsigned int)elem_size,
				.width = count, .height = 1,
			},
			.submit = submit_memset,
		});
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value,
				     size_t n, CUstream stream)
{
	return memset_async(dst, value, 1, n, stream);
}

CUDA_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
				      size_t n, CUstream stream)
{
	return memset_async(dst, value, 2, n, stream);
}

CUDA_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value,
				      size_t n, CUstream stream)
{
	return memset_async(dst, value, 4, n, stream);
}

/* --- Copies between contexts --- */

/* A context named by a peer copy: NULL (found from the address) or live. */
static CUresult check_peer_ctx(CUcontext c)
{
	return !c || ctx_is_live(c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/*
 * Synchronous with all work of the current context and of both named
 * ones, as CUDA specifies; both sides are mapped in this process, so the
 * CPU moves the bytes.
 */
CUDA_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx,
				  CUdeviceptr src, CUcontext src_ctx,
				  size_t bytes)
{
	CUresult res = check_peer_ctx(dst_ctx);

	if (res == CUDA_SUCCESS)
		res = check_peer_ctx(src_ctx);
	if (res == CUDA_SUCCESS && dst_ctx)
		res = ctx_synchronize(dst_ctx);
	if (res == CUDA_SUCCESS && src_ctx)
		res = ctx_synchronize(src_ctx);
	if (res != CUDA_SUCCESS)
		return res;
	return memcpy_dtod_on(dst, src, bytes, CU_STREAM_LEGACY);
}

/*
 * Ordered on @stream only. The stream's copy engine does it when both
 * sides are in its context's address space (its own memory, and the
 * peer's once peer access is enabled); otherwise the CPU copies once the
 * stream has reached this point, as for pageable memory.
 */
CUDA_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx,
				       CUdeviceptr src, CUcontext src_ctx,
				       size_t bytes, CUstream stream)
{
	CUresult res = check_peer_ctx(dst_ctx);

	if (res == CUDA_SUCCESS)
		res = check_peer_ctx(src_ctx);
	if (res != CUDA_SUCCESS)
		return res;
	return copy_async(dst, src, bytes, stream,
			  NEED_DEVICE_DST | NEED_DEVICE_SRC);
}
