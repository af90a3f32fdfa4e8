// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects. A CUDA resource (an array, linear or
 * pitched memory) and a sampling description become a ptx_texture_desc;
 * the executor keeps it and hands back the 64-bit handle kernels receive.
 * The descriptions as given are kept here too, for the query calls.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "array.h"
#include "context.h"
#include "mipmap.h"

/* Alignments the device reports (texture and texture-pitch alignment). */
#define LINEAR_ALIGNMENT 512
#define PITCH_ALIGNMENT 32

struct texobj_record {
	uint64_t handle;
	CUDA_RESOURCE_DESC resource;
	CUDA_TEXTURE_DESC texture;	/* zero for surfaces */
	struct texobj_record *next;
};

static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static struct texobj_record *records;

static CUresult remember(uint64_t handle, const CUDA_RESOURCE_DESC *res,
			 const CUDA_TEXTURE_DESC *tex)
{
	struct texobj_record *r = calloc(1, sizeof(*r));

	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r->handle = handle;
	r->resource = *res;
	if (tex)
		r->texture = *tex;
	pthread_mutex_lock(&records_lock);
	r->next = records;
	records = r;
	pthread_mutex_unlock(&records_lock);
	return CUDA_SUCCESS;
}

static int recall(uint64_t handle, struct texobj_record *out)
{
	int found = 0;

	pthread_mutex_lock(&records_lock);
	for (struct texobj_record *r = records; r && !found; r = r->next) {
		if (r->handle == handle) {
			*out = *r;
			found = 1;
		}
	}
	pthread_mutex_unlock(&records_lock);
	return found;
}

static void forget(uint64_t handle)
{
	pthread_mutex_lock(&records_lock);
	for (struct texobj_record **link = &records; *link; link = &(*link)->next) {
		if ((*link)->handle == handle) {
			struct texobj_record *gone = *link;

			*link = gone->next;
			free(gone);
			break;
		}
	}
	pthread_mutex_unlock(&records_lock);
}

/* The memory half of @desc, from a CUDA resource. */
static CUresult resource_desc(const CUDA_RESOURCE_DESC *r,
			      struct ptx_texture_desc *desc)
{
	uint32_t texel;

	if (r->flags)
		return CUDA_ERROR_INVALID_VALUE;
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		if (!r->res.array.hArray)
			return CUDA_ERROR_INVALID_HANDLE;
		array_texture_resource(r->res.array.hArray, desc);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_LINEAR:
		texel = format_channel_bytes(r->res.linear.format) *
			r->res.linear.numChannels;
		if (!texel || !r->res.linear.devPtr ||
		    r->res.linear.devPtr % LINEAR_ALIGNMENT ||
		    r->res.linear.sizeInBytes < texel)
			return CUDA_ERROR_INVALID_VALUE;
		*desc = (struct ptx_texture_desc){
			.format = r->res.linear.format,
			.channels = r->res.linear.numChannels,
			.shape = PTX_TEX_1D,
			.width = (uint32_t)(r->res.linear.sizeInBytes / texel),
			.height = 1, .depth = 1, .layers = 1, .num_levels = 1,
			.linear_memory = true,
		};
		desc->levels[0] = (struct ptx_tex_level){
			(const void *)(uintptr_t)r->res.linear.devPtr,
			r->res.linear.sizeInBytes, 0,
		};
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_PITCH2D:
		texel = format_channel_bytes(r->res.pitch2D.format) *
			r->res.pitch2D.numChannels;
		if (!texel || !r->res.pitch2D.devPtr ||
		    r->res.pitch2D.devPtr % PITCH_ALIGNMENT ||
		    r->res.pitch2D.pitchInBytes % PITCH_ALIGNMENT ||
		    r->res.pitch2D.pitchInBytes < r->res.pitch2D.width * texel)
			return CUDA_ERROR_INVALID_VALUE;
		*desc = (struct ptx_texture_desc){
			.format = r->res.pitch2D.format,
			.channels = r->res.pitch2D.numChannels,
			.shape = PTX_TEX_2D,
			.width = (uint32_t)r->res.pitch2D.width,
			.height = (uint32_t)r->res.pitch2D.height,
			.depth = 1, .layers = 1, .num_levels = 1,
		};
		desc->levels[0] = (struct ptx_tex_level){
			(const void *)(uintptr_t)r->res.pitch2D.devPtr,
			r->res.pitch2D.pitchInBytes, 0,
		};
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		if (!r->res.mipmap.hMipmappedArray)
			return CUDA_ERROR_INVALID_HANDLE;
		mipmap_texture_resource(r->res.mipmap.hMipmappedArray, desc);
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

static int integer_format(uint32_t format)
{
	return format != CU_AD_FORMAT_FLOAT && format != CU_AD_FORMAT_HALF;
}

/* The sampling half of @desc, from a CUDA texture description. */
static CUresult sampling_desc(const CUDA_TEXTURE_DESC *t,
			      struct ptx_texture_desc *desc)
{
	const unsigned int known = CU_TRSF_READ_AS_INTEGER |
				   CU_TRSF_NORMALIZED_COORDINATES |
				   CU_TRSF_SRGB |
				   CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION |
				   CU_TRSF_SEAMLESS_CUBEMAP;
	int as_integer = t->flags & CU_TRSF_READ_AS_INTEGER;

	if (t->flags & ~known)
		return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < 3; i++) {
		if (t->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
			return CUDA_ERROR_INVALID_VALUE;
		desc->address_mode[i] = (uint8_t)t->addressMode[i];
	}
	if (t->filterMode > CU_TR_FILTER_MODE_LINEAR ||
	    t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	/* Integers are normalized to floats unless read as integers; that
	 * exists for 8 and 16-bit channels only: 32-bit ones are always read
	 * as integers, flag or not (NVIDIA's runtime leaves it out), and
	 * filtering needs floats. */
	if (integer_format(desc->format) && format_channel_bytes(desc->format) == 4)
		as_integer = 1;
	if (integer_format(desc->format) && as_integer &&
	    t->filterMode == CU_TR_FILTER_MODE_LINEAR)
		return CUDA_ERROR_INVALID_VALUE;
	desc->filter_mode = (uint8_t)t->filterMode;
	desc->mipmap_filter_mode = (uint8_t)t->mipmapFilterMode;
	desc->read_normalized_float = integer_format(desc->format) && !as_integer;
	desc->normalized_coords = t->flags & CU_TRSF_NORMALIZED_COORDINATES;
	desc->srgb = t->flags & CU_TRSF_SRGB;
	desc->disable_trilinear_optimization =
		t->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
	memcpy(desc->border_color, t->borderColor, sizeof(desc->border_color));
	desc->mipmap_level_bias = t->mipmapLevelBias;
	desc->min_mipmap_level_clamp = t->minMipmapLevelClamp;
	desc->max_mipmap_level_clamp = t->maxMipmapLevelClamp;
	desc->max_anisotropy = t->maxAnisotropy;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuTexObjectCreate(CUtexObject *out,
				       const CUDA_RESOURCE_DESC *res,
				       const CUDA_TEXTURE_DESC *tex,
				       const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct ptx_texture_desc desc = { 0 };
	struct CUctx_st *ctx;
	CUresult r = ctx_enter(&ctx);
	uint64_t handle;

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !res || !tex)
		return CUDA_ERROR_INVALID_VALUE;
	if (view)
		return CUDA_ERROR_NOT_SUPPORTED;	/* resource views: not yet */
	r = resource_desc(res, &desc);
	if (r == CUDA_SUCCESS)
		r = sampling_desc(tex, &desc);
	if (r != CUDA_SUCCESS)
		return r;
	handle = ptx_texture_create(&desc);
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	r = remember(handle, res, tex);
	if (r != CUDA_SUCCESS) {
		ptx_texobj_destroy(handle);
		return r;
	}
	*out = handle;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *out,
					const CUDA_RESOURCE_DESC *res)
{
	struct ptx_texture_desc desc = { 0 };
	struct CUctx_st *ctx;
	CUresult r = ctx_enter(&ctx);
	uint64_t handle;

	if (r != CUDA_SUCCESS)
		return r;
	if (!out || !res)
		return CUDA_ERROR_INVALID_VALUE;
	/* Surfaces are arrays made for load/store. */
	if (res->resType != CU_RESOURCE_TYPE_ARRAY || !res->res.array.hArray ||
	    !(res->res.array.hArray->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST))
		return CUDA_ERROR_INVALID_VALUE;
	r = resource_desc(res, &desc);
	if (r != CUDA_SUCCESS)
		return r;
	handle = ptx_surface_create(&desc);
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	r = remember(handle, res, NULL);
	if (r != CUDA_SUCCESS) {
		ptx_texobj_destroy(handle);
		return r;
	}
	*out = handle;
	return CUDA_SUCCESS;
}

static CUresult destroy_object(uint64_t handle)
{
	if (!ptx_texobj_destroy(handle))
		return CUDA_ERROR_INVALID_VALUE;
	forget(handle);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuTexObjectDestroy(CUtexObject handle)
{
	return destroy_object(handle);
}

CUDA_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject handle)
{
	return destroy_object(handle);
}

CUDA_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *res,
						CUtexObject handle)
{
	struct texobj_record r;

	if (!res || !recall(handle, &r))
		return CUDA_ERROR_INVALID_VALUE;
	*res = r.resource;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *tex,
					       CUtexObject handle)
{
	struct texobj_record r;

	if (!tex || !recall(handle, &r))
		return CUDA_ERROR_INVALID_VALUE;
	*tex = r.texture;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *res,
						 CUsurfObject handle)
{
	return cuTexObjectGetResourceDesc(res, handle);
}
