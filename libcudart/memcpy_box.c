// SPDX-License-Identifier: MIT
/*
 * Pitched runtime copies and sets, over the driver's CUDA_MEMCPY2D/3D.
 * Arrays are not supported yet: copies naming one return
 * cudaErrorNotSupported from the driver.
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"

/* Memory types of a copy's sides, by the runtime's direction. */
static cudaError_t memory_types(enum cudaMemcpyKind kind, CUmemorytype *src,
				CUmemorytype *dst)
{
	switch (kind) {
	case cudaMemcpyHostToHost:
		*src = *dst = CU_MEMORYTYPE_HOST;
		return cudaSuccess;
	case cudaMemcpyHostToDevice:
		*src = CU_MEMORYTYPE_HOST;
		*dst = CU_MEMORYTYPE_DEVICE;
		return cudaSuccess;
	case cudaMemcpyDeviceToHost:
		*src = CU_MEMORYTYPE_DEVICE;
		*dst = CU_MEMORYTYPE_HOST;
		return cudaSuccess;
	case cudaMemcpyDeviceToDevice:
		*src = *dst = CU_MEMORYTYPE_DEVICE;
		return cudaSuccess;
	case cudaMemcpyDefault:
		*src = *dst = CU_MEMORYTYPE_UNIFIED;
		return cudaSuccess;
	default:
		return cudaErrorInvalidMemcpyDirection;
	}
}

/* Points one side of a driver copy at @ptr, whatever its memory type. */
static void set_side(CUmemorytype type, const void *ptr, CUmemorytype *t,
		     const void **host, CUdeviceptr *device)
{
	*t = type;
	if (type == CU_MEMORYTYPE_HOST)
		*host = ptr;
	else
		*device = (uintptr_t)ptr;
}

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src,
			   size_t spitch, size_t width, size_t height,
			   enum cudaMemcpyKind kind, cudaStream_t stream,
			   int async)
{
	CUDA_MEMCPY2D p;
	CUmemorytype st, dt;
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err == cudaSuccess)
		err = memory_types(kind, &st, &dt);
	/* The runtime names this error; the driver only says invalid value. */
	if (err == cudaSuccess && height > 1 && (spitch < width || dpitch < width))
		err = cudaErrorInvalidPitchValue;
	if (err != cudaSuccess)
		return rt_return(err);
	memset(&p, 0, sizeof(p));
	set_side(st, src, &p.srcMemoryType, &p.srcHost, &p.srcDevice);
	set_side(dt, dst, &p.dstMemoryType, (const void **)&p.dstHost,
		 &p.dstDevice);
	p.srcPitch = spitch;
	p.dstPitch = dpitch;
	p.WidthInBytes = width;
	p.Height = height;
	return rt_return(rt_error(async ? cuMemcpy2DAsync(&p, (CUstream)stream)
					: cuMemcpy2D(&p)));
}

CUDART_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch,
				       const void *src, size_t spitch,
				       size_t width, size_t height,
				       enum cudaMemcpyKind kind)
{
	return copy_2d(dst, dpitch, src, spitch, width, height, kind, NULL, 0);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
					    const void *src, size_t spitch,
					    size_t width, size_t height,
					    enum cudaMemcpyKind kind,
					    cudaStream_t stream)
{
	return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, 1);
}

static cudaError_t copy_3d(const struct cudaMemcpy3DParms *p,
			   cudaStream_t stream, int async)
{
	CUDA_MEMCPY3D d;
	CUmemorytype st, dt;
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err == cudaSuccess && !p)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess && (p->srcArray || p->dstArray))
		err = cudaErrorNotSupported;	/* arrays: not yet */
	if (err == cudaSuccess)
		err = memory_types(p->kind, &st, &dt);
	if (err == cudaSuccess && p->extent.height * p->extent.depth > 1 &&
	    (p->srcPtr.pitch < p->extent.width ||
	     p->dstPtr.pitch < p->extent.width))
		err = cudaErrorInvalidPitchValue;
	if (err != cudaSuccess)
		return rt_return(err);
	memset(&d, 0, sizeof(d));
	set_side(st, p->srcPtr.ptr, &d.srcMemoryType, &d.srcHost, &d.srcDevice);
	set_side(dt, p->dstPtr.ptr, &d.dstMemoryType, (const void **)&d.dstHost,
		 &d.dstDevice);
	d.srcXInBytes = p->srcPos.x;
	d.srcY = p->srcPos.y;
	d.srcZ = p->srcPos.z;
	d.srcPitch = p->srcPtr.pitch;
	d.srcHeight = p->srcPtr.ysize;
	d.dstXInBytes = p->dstPos.x;
	d.dstY = p->dstPos.y;
	d.dstZ = p->dstPos.z;
	d.dstPitch = p->dstPtr.pitch;
	d.dstHeight = p->dstPtr.ysize;
	d.WidthInBytes = p->extent.width;
	d.Height = p->extent.height;
	d.Depth = p->extent.depth;
	return rt_return(rt_error(async ? cuMemcpy3DAsync(&d, (CUstream)stream)
					: cuMemcpy3D(&d)));
}

CUDART_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return copy_3d(p, NULL, 0);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
					    cudaStream_t stream)
{
	return copy_3d(p, stream, 1);
}

CUDART_EXPORT cudaError_t cudaMallocPitch(void **ptr, size_t *pitch,
					  size_t width, size_t height)
{
	CUcontext ctx;
	CUdeviceptr d;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error(cuMemAllocPitch(&d, pitch, width, height, 4));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp,
				       struct cudaExtent extent)
{
	size_t pitch = 0;
	void *ptr = NULL;
	cudaError_t err;

	if (!pp)
		return rt_return(cudaErrorInvalidValue);
	err = cudaMallocPitch(&ptr, &pitch, extent.width,
			      extent.height * extent.depth);
	if (err == cudaSuccess)
		*pp = (struct cudaPitchedPtr){ ptr, pitch, extent.width,
					       extent.height };
	return err;
}

static cudaError_t set_2d(void *ptr, size_t pitch, int value, size_t width,
			  size_t height, cudaStream_t stream, int async)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);
	CUdeviceptr d = (uintptr_t)ptr;

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(
		async ? cuMemsetD2D8Async(d, pitch, (unsigned char)value, width,
					  height, (CUstream)stream)
		      : cuMemsetD2D8(d, pitch, (unsigned char)value, width,
				     height)));
}

CUDART_EXPORT cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value,
				       size_t width, size_t height)
{
	return set_2d(ptr, pitch, value, width, height, NULL, 0);
}

CUDART_EXPORT cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch,
					    int value, size_t width,
					    size_t height, cudaStream_t stream)
{
	return set_2d(ptr, pitch, value, width, height, stream, 1);
}

static cudaError_t set_3d(struct cudaPitchedPtr pp, int value,
			  struct cudaExtent extent, cudaStream_t stream,
			  int async)
{
	size_t slice = pp.pitch * pp.ysize;
	cudaError_t err = cudaSuccess;

	/* Slices are pitch * ysize apart: one 2D set each. */
	for (size_t z = 0; z < extent.depth && err == cudaSuccess; z++)
		err = set_2d((char *)pp.ptr + z * slice, pp.pitch, value,
			     extent.width, extent.height, stream, async);
	return err;
}

CUDART_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pp, int value,
				       struct cudaExtent extent)
{
	return set_3d(pp, value, extent, NULL, 0);
}

CUDART_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pp,
					    int value,
					    struct cudaExtent extent,
					    cudaStream_t stream)
{
	return set_3d(pp, value, extent, stream, 1);
}
