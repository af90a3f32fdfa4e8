// SPDX-License-Identifier: MIT
/*
 * Pitched runtime copies and sets, over the driver's CUDA_MEMCPY2D/3D.
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"
#include "sync_call.h"

/* Memory types of a copy's sides, by the runtime's direction. */
cudaError_t rt_memory_types(enum cudaMemcpyKind kind, CUmemorytype *src,
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

/*
 * @stream: the stream of an asynchronous copy (@async), or the one a
 * synchronous copy runs as (CU_STREAM_LEGACY or CU_STREAM_PER_THREAD,
 * sync_call.h); the same for the sets below.
 */
static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src,
			   size_t spitch, size_t width, size_t height,
			   enum cudaMemcpyKind kind, CUstream stream,
			   int async)
{
	CUDA_MEMCPY2D p;
	CUmemorytype st = CU_MEMORYTYPE_UNIFIED, dt = CU_MEMORYTYPE_UNIFIED;
	cudaError_t err;

	RT_ENTER();
	err = rt_memory_types(kind, &st, &dt);
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
	return rt_return(rt_error(async ? cuMemcpy2DAsync(&p, stream)
					: RT_SYNC_CALL(stream, cuMemcpy2D_v2,
						       (&p))));
}

cudaError_t rt_memcpy_2d_on(void *dst, size_t dpitch, const void *src,
			    size_t spitch, size_t width, size_t height,
			    enum cudaMemcpyKind kind, CUstream on)
{
	return copy_2d(dst, dpitch, src, spitch, width, height, kind, on, 0);
}

CUDART_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch,
				       const void *src, size_t spitch,
				       size_t width, size_t height,
				       enum cudaMemcpyKind kind)
{
	return rt_memcpy_2d_on(dst, dpitch, src, spitch, width, height, kind,
			       CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
					    const void *src, size_t spitch,
					    size_t width, size_t height,
					    enum cudaMemcpyKind kind,
					    cudaStream_t stream)
{
	return copy_2d(dst, dpitch, src, spitch, width, height, kind,
		       (CUstream)stream, 1);
}

/* One side of a 3D copy: linear memory (pitched pointer) or an array. */
static void set_side_3d(CUmemorytype type, struct cudaPitchedPtr ptr,
			cudaArray_t array, struct cudaPos pos, size_t elem,
			CUmemorytype *t, const void **host, CUdeviceptr *device,
			CUarray *arr, size_t *x, size_t *y, size_t *z,
			size_t *pitch, size_t *height)
{
	if (array) {
		/* Array positions count elements. */
		*t = CU_MEMORYTYPE_ARRAY;
		*arr = (CUarray)array;
		*x = pos.x * elem;
	} else {
		set_side(type, ptr.ptr, t, host, device);
		*pitch = ptr.pitch;
		*height = ptr.ysize;
		*x = pos.x;
	}
	*y = pos.y;
	*z = pos.z;
}

cudaError_t rt_memcpy3d_params(const struct cudaMemcpy3DParms *p,
				CUDA_MEMCPY3D *d)
{
	CUmemorytype st = CU_MEMORYTYPE_UNIFIED, dt = CU_MEMORYTYPE_UNIFIED;
	size_t elem = 1;
	cudaError_t err = p ? rt_memory_types(p->kind, &st, &dt)
			    : cudaErrorInvalidValue;

	/* With an array involved, the extent's width counts elements. */
	if (err == cudaSuccess && (p->srcArray || p->dstArray)) {
		elem = rt_array_element_bytes(p->srcArray ? p->srcArray
							  : p->dstArray);
		if (!elem)
			err = cudaErrorInvalidResourceHandle;
	}
	if (err == cudaSuccess && p->extent.height * p->extent.depth > 1 &&
	    ((!p->srcArray && p->srcPtr.pitch < p->extent.width * elem) ||
	     (!p->dstArray && p->dstPtr.pitch < p->extent.width * elem)))
		err = cudaErrorInvalidPitchValue;
	if (err != cudaSuccess)
		return err;
	memset(d, 0, sizeof(*d));
	set_side_3d(st, p->srcPtr, p->srcArray, p->srcPos, elem,
		    &d->srcMemoryType, &d->srcHost, &d->srcDevice, &d->srcArray,
		    &d->srcXInBytes, &d->srcY, &d->srcZ, &d->srcPitch,
		    &d->srcHeight);
	set_side_3d(dt, p->dstPtr, p->dstArray, p->dstPos, elem,
		    &d->dstMemoryType, (const void **)&d->dstHost,
		    &d->dstDevice, &d->dstArray, &d->dstXInBytes, &d->dstY,
		    &d->dstZ, &d->dstPitch, &d->dstHeight);
	d->WidthInBytes = p->extent.width * elem;
	d->Height = p->extent.height;
	d->Depth = p->extent.depth;
	return cudaSuccess;
}

static cudaError_t copy_3d(const struct cudaMemcpy3DParms *p,
			   CUstream stream, int async)
{
	CUDA_MEMCPY3D d;
	cudaError_t err;

	RT_ENTER();
	err = rt_memcpy3d_params(p, &d);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(async ? cuMemcpy3DAsync(&d, stream)
					: RT_SYNC_CALL(stream, cuMemcpy3D_v2,
						       (&d))));
}

cudaError_t rt_memcpy_3d_on(const struct cudaMemcpy3DParms *p, CUstream on)
{
	return copy_3d(p, on, 0);
}

CUDART_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return rt_memcpy_3d_on(p, CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
					    cudaStream_t stream)
{
	return copy_3d(p, (CUstream)stream, 1);
}

CUDART_EXPORT cudaError_t cudaMallocPitch(void **ptr, size_t *pitch,
					  size_t width, size_t height)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER();
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
			  size_t height, CUstream stream, int async)
{
	CUdeviceptr d = (uintptr_t)ptr;

	RT_CALL(async ? cuMemsetD2D8Async(d, pitch, (unsigned char)value, width,
					  height, stream)
		      : RT_SYNC_CALL(stream, cuMemsetD2D8_v2,
				     (d, pitch, (unsigned char)value, width,
				      height)));
}

cudaError_t rt_memset_2d_on(void *ptr, size_t pitch, int value, size_t width,
			    size_t height, CUstream on)
{
	return set_2d(ptr, pitch, value, width, height, on, 0);
}

CUDART_EXPORT cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value,
				       size_t width, size_t height)
{
	return rt_memset_2d_on(ptr, pitch, value, width, height,
			       CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch,
					    int value, size_t width,
					    size_t height, cudaStream_t stream)
{
	return set_2d(ptr, pitch, value, width, height, (CUstream)stream, 1);
}

static cudaError_t set_3d(struct cudaPitchedPtr pp, int value,
			  struct cudaExtent extent, CUstream stream,
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

cudaError_t rt_memset_3d_on(struct cudaPitchedPtr pp, int value,
			    struct cudaExtent extent, CUstream on)
{
	return set_3d(pp, value, extent, on, 0);
}

CUDART_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pp, int value,
				       struct cudaExtent extent)
{
	return rt_memset_3d_on(pp, value, extent, CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pp,
					    int value,
					    struct cudaExtent extent,
					    cudaStream_t stream)
{
	return set_3d(pp, value, extent, (CUstream)stream, 1);
}
