// SPDX-License-Identifier: MIT
/*
 * CUDA arrays (cuArrayCreate, cuArray3DCreate, ...). See array.h for the
 * layout.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "array.h"
#include "context.h"
#include "memory.h"

uint32_t format_channel_bytes(CUarray_format format)
{
	switch (format) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT8:
		return 1;
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		return 2;
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		return 4;
	default:
		return 0;
	}
}

/* Shape, rows and slices of a descriptor; CUDA_ERROR_INVALID_VALUE if bad. */
static CUresult layout_of(const CUDA_ARRAY3D_DESCRIPTOR *d, uint32_t *shape,
			  uint64_t *rows, uint64_t *slices)
{
	int layered = d->Flags & CUDA_ARRAY3D_LAYERED;
	int cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;

	*rows = d->Height ? d->Height : 1;
	*slices = d->Depth ? d->Depth : 1;
	if (cube) {
		if (d->Width != d->Height || !d->Depth ||
		    d->Depth % 6 || (!layered && d->Depth != 6))
			return CUDA_ERROR_INVALID_VALUE;
		*shape = layered ? PTX_TEX_CUBE_LAYERED : PTX_TEX_CUBE;
	} else if (layered) {
		if (!d->Depth)
			return CUDA_ERROR_INVALID_VALUE;
		*shape = d->Height ? PTX_TEX_2D_LAYERED : PTX_TEX_1D_LAYERED;
	} else {
		if (d->Depth && !d->Height)
			return CUDA_ERROR_INVALID_VALUE;
		*shape = d->Depth ? PTX_TEX_3D : d->Height ? PTX_TEX_2D
							   : PTX_TEX_1D;
	}
	return CUDA_SUCCESS;
}

static CUresult check_descriptor(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	const unsigned int known = CUDA_ARRAY3D_LAYERED |
				   CUDA_ARRAY3D_SURFACE_LDST |
				   CUDA_ARRAY3D_CUBEMAP |
				   CUDA_ARRAY3D_TEXTURE_GATHER;

	if (!d || !d->Width || (d->Flags & ~known))
		return CUDA_ERROR_INVALID_VALUE;
	if (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4)
		return CUDA_ERROR_INVALID_VALUE;
	if (!format_channel_bytes(d->Format))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult array_create(struct CUctx_st *ctx, const CUDA_ARRAY3D_DESCRIPTOR *d,
		      struct CUarray_st **out)
{
	struct CUarray_st *a;
	uint32_t shape;
	CUresult res = check_descriptor(d);

	if (res != CUDA_SUCCESS)
		return res;
	a = calloc(1, sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = layout_of(d, &shape, &a->rows, &a->slices);
	a->ctx = ctx;
	a->desc = *d;
	a->texel_bytes = format_channel_bytes(d->Format) * d->NumChannels;
	a->pitch = d->Width * a->texel_bytes;
	a->slice_pitch = a->pitch * a->rows;
	if (res == CUDA_SUCCESS)
		res = mem_alloc(ctx, a->slice_pitch * a->slices, ALLOC_DEVICE,
				0, &a->va);
	if (res != CUDA_SUCCESS) {
		free(a);
		return res;
	}
	*out = a;
	return CUDA_SUCCESS;
}

void array_destroy(struct CUarray_st *a)
{
	mem_free(a->va);
	free(a);
}

CUDA_EXPORT CUresult cuArray3DCreate(CUarray *out,
				     const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS && !out)
		res = CUDA_ERROR_INVALID_VALUE;
	if (res != CUDA_SUCCESS)
		return res;
	return array_create(ctx, d, out);
}

CUDA_EXPORT CUresult cuArrayCreate(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;

	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	d3 = (CUDA_ARRAY3D_DESCRIPTOR){
		.Width = d->Width, .Height = d->Height, .Depth = 0,
		.Format = d->Format, .NumChannels = d->NumChannels,
	};
	return cuArray3DCreate(out, &d3);
}

CUDA_EXPORT CUresult cuArrayDestroy(CUarray a)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!a)
		return CUDA_ERROR_INVALID_HANDLE;
	/* A mipmap level goes with its mipmapped array. */
	if (a->mipmap_level)
		return CUDA_ERROR_INVALID_VALUE;
	/* Kernels may still read it, as cuMemFree's memory. */
	res = ctx_synchronize(a->ctx);
	if (res != CUDA_SUCCESS)
		return res;
	array_destroy(a);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *d,
					    CUarray a)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (!a)
		return CUDA_ERROR_INVALID_HANDLE;
	*d = a->desc;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *d, CUarray a)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (!a)
		return CUDA_ERROR_INVALID_HANDLE;
	if (a->desc.Depth || a->desc.Flags)
		return CUDA_ERROR_INVALID_VALUE;	/* a 3D array */
	*d = (CUDA_ARRAY_DESCRIPTOR){
		.Width = a->desc.Width, .Height = a->desc.Height,
		.Format = a->desc.Format, .NumChannels = a->desc.NumChannels,
	};
	return CUDA_SUCCESS;
}

void array_texture_resource(const struct CUarray_st *a,
			    struct ptx_texture_desc *desc)
{
	uint32_t shape = PTX_TEX_1D;
	uint64_t rows, slices;

	layout_of(&a->desc, &shape, &rows, &slices);
	desc->format = a->desc.Format;
	desc->channels = a->desc.NumChannels;
	desc->shape = shape;
	desc->width = (uint32_t)a->desc.Width;
	desc->height = (uint32_t)rows;
	desc->depth = shape == PTX_TEX_3D ? (uint32_t)slices : 1;
	desc->layers = shape == PTX_TEX_1D_LAYERED || shape == PTX_TEX_2D_LAYERED
		       ? (uint32_t)slices
		       : shape == PTX_TEX_CUBE_LAYERED ? (uint32_t)slices / 6 : 1;
	desc->num_levels = 1;
	desc->levels[0] = (struct ptx_tex_level){
		.data = (const void *)(uintptr_t)a->va,
		.pitch = a->pitch,
		.slice_pitch = slices > 1 ? a->slice_pitch : 0,
	};
}
