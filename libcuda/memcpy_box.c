// SPDX-License-Identifier: MIT
/*
 * Pitched 2D and 3D copies and 2D sets. Every such copy is first turned
 * into a box: first bytes, width in bytes, height, depth, and the pitches
 * between rows and slices on each side. A box between device-visible
 * ranges goes to the copy engine as one COPY command (asynchronous
 * calls); otherwise the CPU walks it row by row, after the stream is
 * idle (synchronous calls: what sync_call_wait waits for).
 */
#include <stdbool.h>
#include <string.h>

#include "api.h"
#include "array.h"
#include "context.h"
#include "ctx_limits.h"
#include "enqueue.h"
#include "memcpy.h"
#include "stream.h"
#include "sync_call.h"

struct copy_box {
	uint64_t src, dst;
	uint64_t width, height, depth;
	uint64_t src_pitch, dst_pitch;
	uint64_t src_slice, dst_slice;
};

/* One side of a copy, as CUDA_MEMCPY2D/3D describe it. */
struct side {
	CUmemorytype type;
	const void *host;
	CUdeviceptr device;
	CUarray array;
	size_t x, y, z;			/* x in bytes */
	size_t pitch, height;		/* ignored for arrays */
};

/* First byte, row pitch and slice pitch of a side. */
static CUresult resolve_side(const struct side *s, uint64_t *addr,
			     uint64_t *pitch, uint64_t *slice)
{
	uint64_t base;

	switch (s->type) {
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)s->host;
		break;
	case CU_MEMORYTYPE_DEVICE:
	case CU_MEMORYTYPE_UNIFIED:
		base = s->device;
		break;
	case CU_MEMORYTYPE_ARRAY:
		if (!s->array)
			return CUDA_ERROR_INVALID_VALUE;
		*pitch = s->array->pitch;
		*slice = s->array->slice_pitch;
		*addr = s->array->va + s->z * *slice + s->y * *pitch + s->x;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!base)
		return CUDA_ERROR_INVALID_VALUE;
	*pitch = s->pitch;
	*slice = s->pitch * s->height;
	*addr = base + s->z * *slice + s->y * *pitch + s->x;
	return CUDA_SUCCESS;
}

static CUresult check_box(const struct copy_box *b)
{
	if (b->height > 1 && (b->src_pitch < b->width || b->dst_pitch < b->width))
		return CUDA_ERROR_INVALID_VALUE;
	if (b->depth > 1 && (b->src_slice < b->src_pitch * b->height ||
			     b->dst_slice < b->dst_pitch * b->height))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* @n units from @start fit in @extent, without overflow. */
static bool fits(uint64_t start, uint64_t n, uint64_t extent)
{
	return start <= extent && n <= extent - start;
}

/* An array side must stay inside the array, as on a GPU. */
static CUresult check_array_extent(const struct side *s, size_t width,
				   size_t height, size_t depth)
{
	const struct CUarray_st *a = s->array;

	if (s->type != CU_MEMORYTYPE_ARRAY || !a)
		return CUDA_SUCCESS;
	if (!fits(s->x, width, a->desc.Width * a->texel_bytes) ||
	    !fits(s->y, height, a->rows) || !fits(s->z, depth, a->slices))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static CUresult make_box(const struct side *src, const struct side *dst,
			 size_t width, size_t height, size_t depth,
			 struct copy_box *b)
{
	CUresult res;

	memset(b, 0, sizeof(*b));
	res = check_array_extent(src, width, height, depth);
	if (res == CUDA_SUCCESS)
		res = check_array_extent(dst, width, height, depth);
	if (res == CUDA_SUCCESS)
		res = resolve_side(src, &b->src, &b->src_pitch, &b->src_slice);
	if (res == CUDA_SUCCESS)
		res = resolve_side(dst, &b->dst, &b->dst_pitch, &b->dst_slice);
	if (res != CUDA_SUCCESS)
		return res;
	b->width = width;
	b->height = height;
	b->depth = depth;
	return check_box(b);
}

static CUresult box_from_2d(const CUDA_MEMCPY2D *p, struct copy_box *b)
{
	struct side src, dst;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	src = (struct side){ p->srcMemoryType, p->srcHost, p->srcDevice,
			     p->srcArray, p->srcXInBytes, p->srcY, 0,
			     p->srcPitch, 0 };
	dst = (struct side){ p->dstMemoryType, p->dstHost, p->dstDevice,
			     p->dstArray, p->dstXInBytes, p->dstY, 0,
			     p->dstPitch, 0 };
	return make_box(&src, &dst, p->WidthInBytes, p->Height, 1, b);
}

static CUresult box_from_3d(const CUDA_MEMCPY3D *p, struct copy_box *b)
{
	struct side src, dst;

	if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	src = (struct side){ p->srcMemoryType, p->srcHost, p->srcDevice,
			     p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
			     p->srcPitch, p->srcHeight };
	dst = (struct side){ p->dstMemoryType, p->dstHost, p->dstDevice,
			     p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
			     p->dstPitch, p->dstHeight };
	return make_box(&src, &dst, p->WidthInBytes, p->Height, p->Depth, b);
}

/* Bytes from a side's first byte to one past its last. */
static uint64_t extent(uint64_t pitch, uint64_t slice, const struct copy_box *b)
{
	return (b->depth - 1) * slice + (b->height - 1) * pitch + b->width;
}

static void copy_box_cpu(const struct copy_box *b)
{
	for (uint64_t z = 0; z < b->depth; z++)
		for (uint64_t y = 0; y < b->height; y++)
			memmove((void *)(uintptr_t)(b->dst + z * b->dst_slice +
						    y * b->dst_pitch),
				(const void *)(uintptr_t)(b->src + z * b->src_slice +
							  y * b->src_pitch),
				b->width);
}

static int ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* A box to copy, with what run_box() learnt of its two sides. */
struct box_job {
	struct CUctx_st *ctx;
	CUstream on;		/* a sync call's stream (sync_call.h) */
	const struct copy_box *b;
	uint64_t slen, dlen;
	enum range_kind ks, kd;
};

/*
 * Copies on @s (asynchronously when @async: the copy engine if it can),
 * or after what a synchronous call on @j->on waits for, on the CPU
 * otherwise.
 */
static CUresult copy_box_now(const struct box_job *j, struct CUstream_st *s,
			     int async)
{
	const struct copy_box *b = j->b;
	uint64_t point;
	CUresult res;

	if (async && j->ks == RANGE_VISIBLE && j->kd == RANGE_VISIBLE &&
	    !ranges_overlap(b->src, j->slen, b->dst, j->dlen)) {
		struct drm_vcuda_cmd cmd = {
			.op = DRM_VCUDA_CMD_COPY,
			.u.copy = {
				.src = b->src, .dst = b->dst,
				.width = b->width, .height = b->height,
				.depth = b->depth,
				.src_pitch = b->height > 1 ? b->src_pitch : 0,
				.dst_pitch = b->height > 1 ? b->dst_pitch : 0,
				.src_slice_pitch = b->depth > 1 ? b->src_slice : 0,
				.dst_slice_pitch = b->depth > 1 ? b->dst_slice : 0,
			},
		};

		return stream_submit(s, DRM_VCUDA_ENGINE_COPY, &cmd, 1, NULL,
				     &point);
	}
	res = async ? stream_wait_idle(s) : sync_call_wait(j->ctx, j->on);
	if (!async)
		ctx_flush_printf(j->ctx);
	if (res == CUDA_SUCCESS)
		res = ctx_check_fault(j->ctx);
	if (res == CUDA_SUCCESS)
		copy_box_cpu(b);
	return res;
}

static CUresult submit_box(struct CUstream_st *s, const struct stream_op *op)
{
	return copy_box_now(op->arg, s, 1);
}

/*
 * Runs @b on @hstream: asynchronously when @async, else as a synchronous
 * call on it (sync_call.h).
 */
static CUresult run_box(const struct copy_box *b, CUstream hstream, int async)
{
	struct box_job job = { .b = b, .on = hstream };
	CUresult res = ctx_enter(&job.ctx);

	if (res != CUDA_SUCCESS || !b->width || !b->height || !b->depth)
		return res;
	job.slen = extent(b->src_pitch, b->src_slice, b);
	job.dlen = extent(b->dst_pitch, b->dst_slice, b);
	job.ks = classify(job.ctx, b->src, job.slen);
	job.kd = classify(job.ctx, b->dst, job.dlen);
	if (job.ks == RANGE_INVALID || job.kd == RANGE_INVALID)
		return CUDA_ERROR_INVALID_VALUE;
	if (!async)
		return copy_box_now(&job, NULL, 0);
	return stream_enqueue_handle(job.ctx, hstream, &(struct stream_op){
		.type = CU_GRAPH_NODE_TYPE_MEMCPY,
		.u.memcpy = {
			.srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = b->src,
			.srcPitch = b->src_pitch,
			.srcHeight = b->src_pitch ? b->src_slice / b->src_pitch : 0,
			.dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = b->dst,
			.dstPitch = b->dst_pitch,
			.dstHeight = b->dst_pitch ? b->dst_slice / b->dst_pitch : 0,
			.WidthInBytes = b->width, .Height = b->height,
			.Depth = b->depth,
		},
		.submit = submit_box, .arg = &job,
	});
}

CUresult memcpy_2d_on(const CUDA_MEMCPY2D *p, CUstream on)
{
	struct copy_box b;
	CUresult res = box_from_2d(p, &b);

	return res != CUDA_SUCCESS ? res : run_box(&b, on, 0);
}

CUDA_EXPORT CUresult cuMemcpy2D(const CUDA_MEMCPY2D *p)
{
	return memcpy_2d_on(p, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *p)
{
	return memcpy_2d_on(p, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *p, CUstream stream)
{
	struct copy_box b;
	CUresult res = box_from_2d(p, &b);

	return res != CUDA_SUCCESS ? res : run_box(&b, stream, 1);
}

CUresult memcpy_3d_on(const CUDA_MEMCPY3D *p, CUstream on)
{
	struct copy_box b;
	CUresult res = box_from_3d(p, &b);

	return res != CUDA_SUCCESS ? res : run_box(&b, on, 0);
}

CUDA_EXPORT CUresult cuMemcpy3D(const CUDA_MEMCPY3D *p)
{
	return memcpy_3d_on(p, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *p, CUstream stream)
{
	struct copy_box b;
	CUresult res = box_from_3d(p, &b);

	return res != CUDA_SUCCESS ? res : run_box(&b, stream, 1);
}

/* --- 2D sets --- */

static const uint32_t fill_2d_flags[] = {
	[1] = DRM_VCUDA_CMD_FILL_8,
	[2] = DRM_VCUDA_CMD_FILL_16,
	[4] = DRM_VCUDA_CMD_FILL_32,
};

static void fill_rows_cpu(uint64_t dst, size_t pitch, uint32_t value,
			  size_t elem, size_t width, size_t height)
{
	for (size_t y = 0; y < height; y++) {
		uint8_t *row = (uint8_t *)(uintptr_t)(dst + y * pitch);

		for (size_t x = 0; x < width; x++)
			memcpy(row + x * elem, &value, elem);	/* little endian */
	}
}

static CUresult submit_fill_2d(struct CUstream_st *s,
			      const struct stream_op *op)
{
	const CUDA_MEMSET_NODE_PARAMS *p = &op->u.memset;
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_FILL,
		.flags = fill_2d_flags[p->elementSize],
		.u.fill = { .dst = p->dst, .width = p->width,
			    .height = p->height,
			    .pitch = p->height > 1 ? p->pitch : 0,
			    .value = p->value },
	};
	uint64_t point;

	return stream_submit(s, DRM_VCUDA_ENGINE_COPY, &cmd, 1, NULL, &point);
}

/* A 2D set of @elem bytes per element, checked; @len its extent. */
static CUresult check_2d(CUdeviceptr dst, size_t pitch, size_t elem,
			 size_t width, size_t height, uint64_t *len)
{
	if (dst % elem || (height > 1 && (pitch < width * elem || pitch % elem)))
		return CUDA_ERROR_INVALID_VALUE;
	*len = (height - 1) * pitch + width * elem;
	return CUDA_SUCCESS;
}

CUresult memset_2d_on(CUdeviceptr dst, size_t pitch, uint32_t value,
		      size_t elem_size, size_t width, size_t height,
		      CUstream on)
{
	struct CUctx_st *ctx;
	uint64_t len;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS || !width || !height)
		return res;
	res = check_2d(dst, pitch, elem_size, width, height, &len);
	if (res == CUDA_SUCCESS && !device_target(ctx, NULL, dst, len))
		res = CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS)
		res = sync_call_wait(ctx, on);
	if (res == CUDA_SUCCESS)
		fill_rows_cpu(dst, pitch, value, elem_size, width, height);
	return res;
}

static CUresult memset_2d_async(CUdeviceptr dst, size_t pitch, uint32_t value,
				size_t elem, size_t width, size_t height,
				CUstream hstream)
{
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	uint64_t len;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS || !width || !height)
		return res;
	res = check_2d(dst, pitch, elem, width, height, &len);
	if (res != CUDA_SUCCESS)
		return res;
	/* Held: another thread may destroy the stream meanwhile. */
	s = stream_hold(ctx, hstream);
	if (!device_target(ctx, s, dst, len))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		res = stream_enqueue(s, &(struct stream_op){
			.type = CU_GRAPH_NODE_TYPE_MEMSET,
			.u.memset = {
				.dst = dst, .pitch = pitch, .value = value,
				.elementSize = (unsigned int)elem,
				.width = width, .height = height,
			},
			.submit = submit_fill_2d,
		});
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuMemsetD2D8(CUdeviceptr dst, size_t pitch,
				  unsigned char value, size_t width,
				  size_t height)
{
	return memset_2d_on(dst, pitch, value, 1, width, height,
			    CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemsetD2D16(CUdeviceptr dst, size_t pitch,
				   unsigned short value, size_t width,
				   size_t height)
{
	return memset_2d_on(dst, pitch, value, 2, width, height,
			    CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemsetD2D32(CUdeviceptr dst, size_t pitch,
				   unsigned int value, size_t width,
				   size_t height)
{
	return memset_2d_on(dst, pitch, value, 4, width, height,
			    CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch,
				       unsigned char value, size_t width,
				       size_t height, CUstream stream)
{
	return memset_2d_async(dst, pitch, value, 1, width, height, stream);
}

CUDA_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch,
					unsigned short value, size_t width,
					size_t height, CUstream stream)
{
	return memset_2d_async(dst, pitch, value, 2, width, height, stream);
}

CUDA_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch,
					unsigned int value, size_t width,
					size_t height, CUstream stream)
{
	return memset_2d_async(dst, pitch, value, 4, width, height, stream);
}
