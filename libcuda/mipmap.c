// SPDX-License-Identifier: MIT
/*
 * Mipmapped arrays (cuMipmappedArrayCreate, cuMipmappedArrayGetLevel,
 * cuMipmappedArrayDestroy). See mipmap.h.
 */
#include <stdlib.h>

#include "api.h"
#include "array.h"
#include "context.h"
#include "mipmap.h"

/* Levels a full chain of @d has: 1 + log2 of its largest extent. */
static unsigned int max_levels(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	size_t largest = d->Width;
	unsigned int levels = 1;

	if (d->Height > largest)
		largest = d->Height;
	if (!(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) &&
	    d->Depth > largest)
		largest = d->Depth;
	while (largest >>= 1)
		levels++;
	return levels;
}

static size_t shrink(size_t extent, unsigned int level)
{
	size_t e = extent >> level;

	return extent && !e ? 1 : e;
}

/* Level @i of @d: layers and cube faces stay, the rest halves. */
static CUDA_ARRAY3D_DESCRIPTOR level_desc(const CUDA_ARRAY3D_DESCRIPTOR *d,
					  unsigned int i)
{
	CUDA_ARRAY3D_DESCRIPTOR l = *d;
	int layers = d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);

	l.Width = shrink(d->Width, i);
	l.Height = shrink(d->Height, i);
	if (!layers)
		l.Depth = shrink(d->Depth, i);
	return l;
}

static void destroy_levels(struct CUmipmappedArray_st *m)
{
	for (unsigned int i = 0; i < m->num_levels; i++)
		if (m->level[i])
			array_destroy(m->level[i]);
	free(m);
}

CUDA_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray *out,
					    const CUDA_ARRAY3D_DESCRIPTOR *d,
					    unsigned int num_levels)
{
	struct CUmipmappedArray_st *m;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || !d || !d->Width)
		return CUDA_ERROR_INVALID_VALUE;
	/* As NVIDIA's driver: 0 levels make one, too many a full chain. */
	if (!num_levels)
		num_levels = 1;
	if (num_levels > max_levels(d))
		num_levels = max_levels(d);
	if (num_levels > PTX_TEX_MAX_LEVELS)
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->ctx = ctx;
	m->desc = *d;
	m->num_levels = num_levels;
	for (unsigned int i = 0; i < num_levels; i++) {
		CUDA_ARRAY3D_DESCRIPTOR l = level_desc(d, i);

		res = array_create(ctx, &l, &m->level[i]);
		if (res != CUDA_SUCCESS) {
			destroy_levels(m);
			return res;
		}
		m->level[i]->mipmap_level = true;
	}
	*out = m;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMipmappedArrayGetLevel(CUarray *out,
					      CUmipmappedArray m,
					      unsigned int level)
{
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!out || level >= m->num_levels)
		return CUDA_ERROR_INVALID_VALUE;
	*out = m->level[level];
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray m)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	/* Kernels may still sample it, as cuMemFree's memory. */
	res = ctx_synchronize(m->ctx);
	if (res != CUDA_SUCCESS)
		return res;
	destroy_levels(m);
	return CUDA_SUCCESS;
}

void mipmap_texture_resource(const struct CUmipmappedArray_st *m,
			     struct ptx_texture_desc *desc)
{
	array_texture_resource(m->level[0], desc);
	desc->num_levels = m->num_levels;
	for (unsigned int i = 1; i < m->num_levels; i++) {
		struct ptx_texture_desc l = { 0 };

		array_texture_resource(m->level[i], &l);
		desc->levels[i] = l.levels[0];
	}
}
