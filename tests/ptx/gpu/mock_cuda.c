// SPDX-License-Identifier: MIT
/*
 * mock_cuda: the few CUDA driver API functions tests/ptx/gpu/replay.c
 * calls, implemented over the PTX interpreter with host memory. Linking
 * replay against it (make replay-selftest) checks the record/replay
 * pipeline end to end without a GPU: the replayed outputs must equal the
 * interpreter's own results. Not a driver: no contexts, one thread, no
 * error checking beyond what replay needs.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

static size_t heap_limit = 8 << 20, printf_limit = 1 << 20;
static struct ptx_heap *heap;
static void *heap_mem;
static struct ptx_printf_fifo *fifo;
static struct ptx_worker *worker;

CUresult cuInit(unsigned flags)
{
	(void)flags;
	worker = ptx_worker_create();
	return worker ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	*d = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
	static char buf[32];
	snprintf(buf, sizeof(buf), "error %d", (int)r);
	*s = buf;
	return CUDA_SUCCESS;
}

static void reset(void)
{
	ptx_heap_destroy(heap);
	free(heap_mem);
	ptx_printf_fifo_destroy(fifo);
	heap_mem = calloc(1, heap_limit);
	heap = ptx_heap_create(heap_mem, heap_limit);
	fifo = ptx_printf_fifo_create(printf_limit);
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	(void)d;
	*c = (CUcontext)(uintptr_t)1;
	reset();
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
	(void)d;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice d)
{
	(void)d;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c)
{
	(void)c;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
	if (limit == CU_LIMIT_MALLOC_HEAP_SIZE)
		heap_limit = value;
	else if (limit == CU_LIMIT_PRINTF_FIFO_SIZE)
		printf_limit = value;
	reset();
	return CUDA_SUCCESS;
}

CUresult cuCtxGetLimit(size_t *value, CUlimit limit)
{
	*value = limit == CU_LIMIT_MALLOC_HEAP_SIZE ? heap_limit :
		 limit == CU_LIMIT_PRINTF_FIFO_SIZE ? printf_limit : 0;
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	ptx_printf_fifo_flush(fifo, NULL, NULL);
	return CUDA_SUCCESS;
}

/* ---- linking and modules ---- */

struct link {
	struct ptx_source src[16];
	int n;
};

CUresult cuLinkCreate(unsigned n, CUjit_option *o, void **v, CUlinkState *s)
{
	(void)n;
	(void)o;
	(void)v;
	*s = calloc(1, sizeof(struct link));
	return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState s, CUjitInputType t, void *data, size_t size,
		       const char *name, unsigned n, CUjit_option *o, void **v)
{
	struct link *l = (struct link *)s;
	(void)t;
	(void)n;
	(void)o;
	(void)v;
	char *copy = malloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = 0;
	l->src[l->n++] = (struct ptx_source){ copy, strlen(copy), strdup(name) };
	return CUDA_SUCCESS;
}

CUresult cuLinkComplete(CUlinkState s, void **cubin, size_t *size)
{
	*cubin = s;
	*size = 0;
	return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState s)
{
	(void)s;	/* the module keeps the texts */
	return CUDA_SUCCESS;
}

static void *alloc_var(void *user, size_t size, size_t align,
		       enum ptx_var_space space)
{
	(void)user;
	(void)space;
	void *p = aligned_alloc(align < 16 ? 16 : align,
				(size + 15) / 16 * 16 + 16);
	if (p)
		memset(p, 0, size);
	return p;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
	const struct link *l = image;
	struct ptx_program *p;
	char log[4096];
	if (ptx_program_build(l->src, (size_t)l->n, &p, log, sizeof(log)) ||
	    ptx_program_place_variables(p, alloc_var, NULL, log, sizeof(log))) {
		fprintf(stderr, "mock: %s\n", log);
		return CUDA_ERROR_INVALID_PTX;
	}
	*m = (CUmodule)p;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	const struct ptx_kernel *k = ptx_program_kernel((void *)m, name);
	*f = (CUfunction)k;
	return k ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	(void)f;
	(void)a;
	(void)v;
	return CUDA_SUCCESS;
}

/* ---- memory ---- */

CUresult cuMemAlloc(CUdeviceptr *p, size_t size)
{
	void *m = aligned_alloc(256, (size + 255) / 256 * 256);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memset(m, 0, size);
	*p = (CUdeviceptr)(uintptr_t)m;
	return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n)
{
	memcpy((void *)(uintptr_t)d, s, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n)
{
	memcpy(d, (const void *)(uintptr_t)s, n);
	return CUDA_SUCCESS;
}

/* ---- arrays: packed rows, slices one after another ---- */

struct array {
	CUDA_ARRAY3D_DESCRIPTOR d;
	uint8_t *data;
	size_t pitch, rows, slices;
};

static unsigned fmt_bytes(CUarray_format f)
{
	return f == CU_AD_FORMAT_UNSIGNED_INT8 ||
	       f == CU_AD_FORMAT_SIGNED_INT8 ? 1 :
	       f == CU_AD_FORMAT_UNSIGNED_INT16 ||
	       f == CU_AD_FORMAT_SIGNED_INT16 || f == CU_AD_FORMAT_HALF ? 2 : 4;
}

CUresult cuArray3DCreate(CUarray *a, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	struct array *x = calloc(1, sizeof(*x));
	x->d = *d;
	x->pitch = d->Width * fmt_bytes(d->Format) * d->NumChannels;
	x->rows = d->Height ? d->Height : 1;
	x->slices = d->Depth ? d->Depth : 1;
	x->data = calloc(1, x->pitch * x->rows * x->slices);
	*a = (CUarray)x;
	return CUDA_SUCCESS;
}

CUresult cuArrayDestroy(CUarray a)
{
	struct array *x = (struct array *)a;
	free(x->data);
	free(x);
	return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray *m,
				const CUDA_ARRAY3D_DESCRIPTOR *d,
				unsigned levels)
{
	CUarray *v = calloc(levels + 1, sizeof(*v));
	for (unsigned l = 0; l < levels; l++) {
		CUDA_ARRAY3D_DESCRIPTOR e = *d;
		e.Width = d->Width >> l ? d->Width >> l : 1;
		if (d->Height)
			e.Height = d->Height >> l ? d->Height >> l : 1;
		if (d->Depth && !(d->Flags & (CUDA_ARRAY3D_LAYERED |
					      CUDA_ARRAY3D_CUBEMAP)))
			e.Depth = d->Depth >> l ? d->Depth >> l : 1;
		cuArray3DCreate(&v[l], &e);
	}
	*m = (CUmipmappedArray)v;
	return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayGetLevel(CUarray *a, CUmipmappedArray m, unsigned l)
{
	*a = ((CUarray *)m)[l];
	return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray m)
{
	CUarray *v = (CUarray *)m;
	for (unsigned l = 0; v[l]; l++)
		cuArrayDestroy(v[l]);
	free(v);
	return CUDA_SUCCESS;
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D *c)
{
	bool to_array = c->dstMemoryType == CU_MEMORYTYPE_ARRAY;
	struct array *a = (struct array *)(to_array ? c->dstArray : c->srcArray);
	uint8_t *mem = (uint8_t *)(uintptr_t)(to_array ? c->srcDevice :
							  c->dstDevice);
	size_t pitch = to_array ? c->srcPitch : c->dstPitch;
	size_t height = to_array ? c->srcHeight : c->dstHeight;
	for (size_t z = 0; z < c->Depth; z++)
		for (size_t y = 0; y < c->Height; y++) {
			uint8_t *m = mem + (z * height + y) * pitch;
			uint8_t *x = a->data + (z * a->rows + y) * a->pitch;
			memcpy(to_array ? x : m, to_array ? m : x,
			       c->WidthInBytes);
		}
	return CUDA_SUCCESS;
}

/* ---- texture and surface objects ---- */

static enum ptx_tex_shape shape_of(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	bool layered = d->Flags & CUDA_ARRAY3D_LAYERED;
	if (d->Flags & CUDA_ARRAY3D_CUBEMAP)
		return layered ? PTX_TEX_CUBE_LAYERED : PTX_TEX_CUBE;
	if (layered)
		return d->Height ? PTX_TEX_2D_LAYERED : PTX_TEX_1D_LAYERED;
	return d->Depth ? PTX_TEX_3D : d->Height ? PTX_TEX_2D : PTX_TEX_1D;
}

static void array_level(struct ptx_texture_desc *t, unsigned l,
			const struct array *a)
{
	t->levels[l].data = a->data;
	t->levels[l].pitch = a->pitch;
	t->levels[l].slice_pitch = a->pitch * a->rows;
}

static void resource(const CUDA_RESOURCE_DESC *r, struct ptx_texture_desc *t)
{
	const struct array *a = NULL;
	memset(t, 0, sizeof(*t));
	if (r->resType == CU_RESOURCE_TYPE_LINEAR) {
		t->format = r->res.linear.format;
		t->channels = r->res.linear.numChannels;
		t->shape = PTX_TEX_1D;
		t->width = (uint32_t)(r->res.linear.sizeInBytes /
				      (fmt_bytes(r->res.linear.format) *
				       t->channels));
		t->levels[0].data = (void *)(uintptr_t)r->res.linear.devPtr;
		t->levels[0].pitch = r->res.linear.sizeInBytes;
		t->linear_memory = true;
		t->num_levels = 1;
		return;
	}
	if (r->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		CUarray *v = (CUarray *)r->res.mipmap.hMipmappedArray;
		for (unsigned l = 0; v[l]; l++) {
			array_level(t, l, (const struct array *)v[l]);
			t->num_levels = l + 1;
		}
		a = (const struct array *)v[0];
	} else {
		a = (const struct array *)r->res.array.hArray;
		array_level(t, 0, a);
		t->num_levels = 1;
	}
	t->format = a->d.Format;
	t->channels = a->d.NumChannels;
	t->shape = shape_of(&a->d);
	t->width = (uint32_t)a->d.Width;
	t->height = (uint32_t)(a->d.Height ? a->d.Height : 1);
	t->depth = t->shape == PTX_TEX_3D ? (uint32_t)a->d.Depth : 1;
	t->layers = t->shape == PTX_TEX_1D_LAYERED ||
		    t->shape == PTX_TEX_2D_LAYERED ? (uint32_t)a->d.Depth :
		    t->shape == PTX_TEX_CUBE_LAYERED ? (uint32_t)a->d.Depth / 6 :
						       1;
}

CUresult cuTexObjectCreate(CUtexObject *h, const CUDA_RESOURCE_DESC *r,
			   const CUDA_TEXTURE_DESC *td,
			   const CUDA_RESOURCE_VIEW_DESC *v)
{
	struct ptx_texture_desc t;
	(void)v;
	resource(r, &t);
	for (int i = 0; i < 3; i++)
		t.address_mode[i] = (uint8_t)td->addressMode[i];
	t.filter_mode = (uint8_t)td->filterMode;
	t.mipmap_filter_mode = (uint8_t)td->mipmapFilterMode;
	t.read_normalized_float = !(td->flags & CU_TRSF_READ_AS_INTEGER);
	t.normalized_coords = td->flags & CU_TRSF_NORMALIZED_COORDINATES;
	t.srgb = td->flags & CU_TRSF_SRGB;
	memcpy(t.border_color, td->borderColor, sizeof(t.border_color));
	t.mipmap_level_bias = td->mipmapLevelBias;
	t.min_mipmap_level_clamp = td->minMipmapLevelClamp;
	t.max_mipmap_level_clamp = td->maxMipmapLevelClamp;
	t.max_anisotropy = td->maxAnisotropy;
	*h = ptx_texture_create(&t);
	return *h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuSurfObjectCreate(CUsurfObject *h, const CUDA_RESOURCE_DESC *r)
{
	struct ptx_texture_desc t;
	resource(r, &t);
	*h = ptx_surface_create(&t);
	return *h ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuTexObjectDestroy(CUtexObject h)
{
	ptx_texobj_destroy(h);
	return CUDA_SUCCESS;
}

CUresult cuSurfObjectDestroy(CUsurfObject h)
{
	ptx_texobj_destroy(h);
	return CUDA_SUCCESS;
}

/* ---- launches ---- */

static CUresult launch(CUfunction f, const unsigned g[3], const unsigned b[3],
		       unsigned shared, const void *params, bool coop)
{
	struct ptx_launch l = { .kernel = (const struct ptx_kernel *)f,
				.dynamic_shared_size = shared,
				.params = params, .heap = heap,
				.printf_fifo = fifo, .sm_count = 1 };
	struct ptx_grid_workspace ws = { sizeof(ws), 0 };
	memcpy(l.grid, g, sizeof(l.grid));
	memcpy(l.block, b, sizeof(l.block));
	if (coop) {
		l.flags = PTX_LAUNCH_COOPERATIVE;
		l.envreg[1] = (uint32_t)((uintptr_t)&ws >> 32);
		l.envreg[2] = (uint32_t)(uintptr_t)&ws;
	}
	struct ptx_fault fault;
	uint64_t n = (uint64_t)g[0] * g[1] * g[2];
	if (!ptx_run_ctas(worker, &l, 0, n, &fault)) {
		fprintf(stderr, "mock: fault: %s\n", fault.message);
		return CUDA_ERROR_LAUNCH_FAILED;
	}
	return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
			unsigned bx, unsigned by, unsigned bz, unsigned shared,
			CUstream s, void **kp, void **extra)
{
	const unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
	(void)s;
	(void)kp;
	return launch(f, g, b, shared, extra[1], false);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy,
				   unsigned gz, unsigned bx, unsigned by,
				   unsigned bz, unsigned shared, CUstream s,
				   void **kp)
{
	const unsigned g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
	struct ptx_kernel_info info;
	(void)s;
	ptx_kernel_get_info((const struct ptx_kernel *)f, &info);
	uint8_t *buf = calloc(1, info.param_size + 8);
	for (uint32_t i = 0; i < info.param_count; i++)
		memcpy(buf + info.params[i].offset, kp[i], info.params[i].size);
	CUresult r = launch(f, g, b, shared, buf, true);
	free(buf);
	return r;
}
