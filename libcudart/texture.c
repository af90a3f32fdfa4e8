// SPDX-License-Identifier: MIT
/*
 * Arrays, array copies and texture/surface objects of the runtime, over
 * the driver's. A cudaArray_t is the driver's CUarray; texture and
 * surface objects are the driver's handles.
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"
#include "sync_call.h"

CUDART_EXPORT struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };

	return desc;
}

/* The driver's format and channel count of a runtime channel desc. */
static cudaError_t format_of(const struct cudaChannelFormatDesc *d,
			     CUarray_format *format, unsigned int *channels)
{
	int bits = d->x;

	*channels = (d->x > 0) + (d->y > 0) + (d->z > 0) + (d->w > 0);
	if (*channels == 3 || !*channels ||
	    (d->y && d->y != bits) || (d->z && d->z != bits) ||
	    (d->w && d->w != bits))
		return cudaErrorInvalidChannelDescriptor;
	switch (d->f) {
	case cudaChannelFormatKindSigned:
		*format = bits == 8 ? CU_AD_FORMAT_SIGNED_INT8 :
			  bits == 16 ? CU_AD_FORMAT_SIGNED_INT16 :
			  CU_AD_FORMAT_SIGNED_INT32;
		break;
	case cudaChannelFormatKindUnsigned:
		*format = bits == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 :
			  bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16 :
			  CU_AD_FORMAT_UNSIGNED_INT32;
		break;
	case cudaChannelFormatKindFloat:
		if (bits != 16 && bits != 32)
			return cudaErrorInvalidChannelDescriptor;
		*format = bits == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
		return cudaSuccess;
	default:
		return cudaErrorInvalidChannelDescriptor;
	}
	return bits == 8 || bits == 16 || bits == 32
	       ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
}

static cudaError_t make_array(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      size_t width, size_t height, size_t depth,
			      unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { .Width = width, .Height = height,
				      .Depth = depth, .Flags = flags };
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!array || !desc)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = format_of(desc, &d.Format, &d.NumChannels);
	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaArray* flags are the driver's CUDA_ARRAY3D_* values. */
	return rt_return(rt_error(cuArray3DCreate((CUarray *)array, &d)));
}

CUDART_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array,
					  const struct cudaChannelFormatDesc *desc,
					  size_t width, size_t height,
					  unsigned int flags)
{
	return make_array(array, desc, width, height, 0, flags);
}

CUDART_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array,
					    const struct cudaChannelFormatDesc *desc,
					    struct cudaExtent extent,
					    unsigned int flags)
{
	return make_array(array, desc, extent.width, extent.height,
			  extent.depth, flags);
}

CUDART_EXPORT cudaError_t cudaFreeArray(cudaArray_t array)
{
	RT_ENTER();
	if (!array)
		return rt_return(cudaSuccess);
	return rt_return(rt_error(cuArrayDestroy((CUarray)array)));
}

/* cudaMipmappedArray_t is the driver's CUmipmappedArray. */
CUDART_EXPORT cudaError_t cudaMallocMipmappedArray(
	cudaMipmappedArray_t *mipmap, const struct cudaChannelFormatDesc *desc,
	struct cudaExtent extent, unsigned int num_levels, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { .Width = extent.width,
				      .Height = extent.height,
				      .Depth = extent.depth, .Flags = flags };
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!mipmap || !desc)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = format_of(desc, &d.Format, &d.NumChannels);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuMipmappedArrayCreate(
		(CUmipmappedArray *)mipmap, &d, num_levels)));
}

CUDART_EXPORT cudaError_t cudaGetMipmappedArrayLevel(
	cudaArray_t *level, cudaMipmappedArray_const_t mipmap,
	unsigned int index)
{
	RT_CALL(cuMipmappedArrayGetLevel((CUarray *)level,
					 (CUmipmappedArray)mipmap, index));
}

CUDART_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmap)
{
	RT_ENTER();
	if (!mipmap)
		return rt_return(cudaSuccess);
	return rt_return(rt_error(cuMipmappedArrayDestroy(
		(CUmipmappedArray)mipmap)));
}

/* Bytes of one element of @array. */
size_t rt_array_element_bytes(cudaArray_t array)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	size_t channel;

	if (cuArray3DGetDescriptor(&d, (CUarray)array) != CUDA_SUCCESS)
		return 0;
	channel = d.Format == CU_AD_FORMAT_UNSIGNED_INT8 ||
		  d.Format == CU_AD_FORMAT_SIGNED_INT8 ? 1 :
		  d.Format == CU_AD_FORMAT_UNSIGNED_INT16 ||
		  d.Format == CU_AD_FORMAT_SIGNED_INT16 ||
		  d.Format == CU_AD_FORMAT_HALF ? 2 : 4;
	return channel * d.NumChannels;
}

static CUmemorytype host_or_device(enum cudaMemcpyKind kind, int src_side)
{
	if (kind == cudaMemcpyDefault)
		return CU_MEMORYTYPE_UNIFIED;
	if (src_side)
		return kind == cudaMemcpyHostToDevice ||
		       kind == cudaMemcpyHostToHost ? CU_MEMORYTYPE_HOST
						    : CU_MEMORYTYPE_DEVICE;
	return kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyHostToHost
	       ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
}

static void set_linear_side(CUmemorytype type, const void *ptr,
			    CUmemorytype *t, const void **host,
			    CUdeviceptr *device)
{
	*t = type;
	if (type == CU_MEMORYTYPE_HOST)
		*host = ptr;
	else
		*device = (uintptr_t)ptr;
}

/* A synchronous copy, run as work of @on (sync_call.h). */
static cudaError_t copy_array_2d(CUDA_MEMCPY2D *p, enum cudaMemcpyKind kind,
				 CUstream on)
{
	RT_ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return rt_return(cudaErrorInvalidMemcpyDirection);
	return rt_return(rt_error(RT_SYNC_CALL(on, cuMemcpy2D_v2, (p))));
}

cudaError_t rt_memcpy_2d_to_array_on(cudaArray_t dst, size_t w_offset,
				     size_t h_offset, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind,
				     CUstream on)
{
	CUDA_MEMCPY2D p;

	memset(&p, 0, sizeof(p));
	set_linear_side(host_or_device(kind, 1), src, &p.srcMemoryType,
			&p.srcHost, &p.srcDevice);
	p.srcPitch = spitch;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = (CUarray)dst;
	p.dstXInBytes = w_offset;
	p.dstY = h_offset;
	p.WidthInBytes = width;
	p.Height = height;
	return copy_array_2d(&p, kind, on);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset,
					      size_t h_offset, const void *src,
					      size_t spitch, size_t width,
					      size_t height,
					      enum cudaMemcpyKind kind)
{
	return rt_memcpy_2d_to_array_on(dst, w_offset, h_offset, src, spitch,
					width, height, kind, CU_STREAM_LEGACY);
}

cudaError_t rt_memcpy_2d_from_array_on(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t w_offset,
				       size_t h_offset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       CUstream on)
{
	CUDA_MEMCPY2D p;

	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = (CUarray)src;
	p.srcXInBytes = w_offset;
	p.srcY = h_offset;
	set_linear_side(host_or_device(kind, 0), dst, &p.dstMemoryType,
			(const void **)&p.dstHost, &p.dstDevice);
	p.dstPitch = dpitch;
	p.WidthInBytes = width;
	p.Height = height;
	return copy_array_2d(&p, kind, on);
}

CUDART_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
						cudaArray_const_t src,
						size_t w_offset,
						size_t h_offset, size_t width,
						size_t height,
						enum cudaMemcpyKind kind)
{
	return rt_memcpy_2d_from_array_on(dst, dpitch, src, w_offset, h_offset,
					  width, height, kind,
					  CU_STREAM_LEGACY);
}

/*
 * The deprecated linear copies into and out of an array: the array's rows
 * taken one after the other, from (w_offset bytes, h_offset rows).
 */
static cudaError_t copy_linear_array(cudaArray_t array, size_t w_offset,
				     size_t h_offset, void *host_side,
				     size_t count, enum cudaMemcpyKind kind,
				     int to_array, CUstream on)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	size_t row;

	if (cuArray3DGetDescriptor(&d, (CUarray)array) != CUDA_SUCCESS)
		return rt_return(cudaErrorInvalidValue);
	row = d.Width * rt_array_element_bytes(array);
	/* Whole rows (and a first partial one) as a 2D copy of one row each. */
	if (w_offset + count <= row) {
		return to_array
		       ? rt_memcpy_2d_to_array_on(array, w_offset, h_offset,
						  host_side, count, count, 1,
						  kind, on)
		       : rt_memcpy_2d_from_array_on(host_side, count, array,
						    w_offset, h_offset, count,
						    1, kind, on);
	}
	if (w_offset || count % row)
		return rt_return(cudaErrorInvalidValue);
	return to_array
	       ? rt_memcpy_2d_to_array_on(array, 0, h_offset, host_side, row,
					  row, count / row, kind, on)
	       : rt_memcpy_2d_from_array_on(host_side, row, array, 0, h_offset,
					    row, count / row, kind, on);
}

cudaError_t rt_memcpy_to_array_on(cudaArray_t dst, size_t w_offset,
				  size_t h_offset, const void *src,
				  size_t count, enum cudaMemcpyKind kind,
				  CUstream on)
{
	return copy_linear_array(dst, w_offset, h_offset, (void *)src, count,
				 kind, 1, on);
}

CUDART_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset,
					    size_t h_offset, const void *src,
					    size_t count,
					    enum cudaMemcpyKind kind)
{
	return rt_memcpy_to_array_on(dst, w_offset, h_offset, src, count, kind,
				     CU_STREAM_LEGACY);
}

cudaError_t rt_memcpy_from_array_on(void *dst, cudaArray_const_t src,
				    size_t w_offset, size_t h_offset,
				    size_t count, enum cudaMemcpyKind kind,
				    CUstream on)
{
	return copy_linear_array((cudaArray_t)src, w_offset, h_offset, dst,
				 count, kind, 0, on);
}

CUDART_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
					      size_t w_offset, size_t h_offset,
					      size_t count,
					      enum cudaMemcpyKind kind)
{
	return rt_memcpy_from_array_on(dst, src, w_offset, h_offset, count,
				       kind, CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
					     cudaArray_const_t array)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	int bits;
	enum cudaChannelFormatKind kind;

	if (!desc)
		return rt_return(cudaErrorInvalidValue);
	if (cuArray3DGetDescriptor(&d, (CUarray)array) != CUDA_SUCCESS)
		return rt_return(cudaErrorInvalidResourceHandle);
	bits = (int)rt_array_element_bytes((cudaArray_t)array) / (int)d.NumChannels * 8;
	kind = d.Format == CU_AD_FORMAT_FLOAT || d.Format == CU_AD_FORMAT_HALF
	       ? cudaChannelFormatKindFloat
	       : d.Format == CU_AD_FORMAT_SIGNED_INT8 ||
		 d.Format == CU_AD_FORMAT_SIGNED_INT16 ||
		 d.Format == CU_AD_FORMAT_SIGNED_INT32
	       ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned;
	*desc = cudaCreateChannelDesc(bits, d.NumChannels > 1 ? bits : 0,
				      d.NumChannels > 2 ? bits : 0,
				      d.NumChannels > 3 ? bits : 0, kind);
	return cudaSuccess;
}

/* --- Texture and surface objects --- */

static cudaError_t driver_resource(const struct cudaResourceDesc *r,
				   CUDA_RESOURCE_DESC *d)
{
	memset(d, 0, sizeof(*d));
	switch (r->resType) {
	case cudaResourceTypeArray:
		d->resType = CU_RESOURCE_TYPE_ARRAY;
		d->res.array.hArray = (CUarray)r->res.array.array;
		return cudaSuccess;
	case cudaResourceTypeLinear:
		d->resType = CU_RESOURCE_TYPE_LINEAR;
		d->res.linear.devPtr = (uintptr_t)r->res.linear.devPtr;
		d->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
		return format_of(&r->res.linear.desc, &d->res.linear.format,
				 &d->res.linear.numChannels);
	case cudaResourceTypePitch2D:
		d->resType = CU_RESOURCE_TYPE_PITCH2D;
		d->res.pitch2D.devPtr = (uintptr_t)r->res.pitch2D.devPtr;
		d->res.pitch2D.width = r->res.pitch2D.width;
		d->res.pitch2D.height = r->res.pitch2D.height;
		d->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
		return format_of(&r->res.pitch2D.desc, &d->res.pitch2D.format,
				 &d->res.pitch2D.numChannels);
	case cudaResourceTypeMipmappedArray:
		d->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		d->res.mipmap.hMipmappedArray =
			(CUmipmappedArray)r->res.mipmap.mipmap;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

static void driver_texture(const struct cudaTextureDesc *t,
			   CUDA_TEXTURE_DESC *d)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < 3; i++)
		d->addressMode[i] = (CUaddress_mode)t->addressMode[i];
	d->filterMode = (CUfilter_mode)t->filterMode;
	d->flags = (t->readMode == cudaReadModeElementType
		    ? CU_TRSF_READ_AS_INTEGER : 0) |
		   (t->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
		   (t->sRGB ? CU_TRSF_SRGB : 0) |
		   (t->disableTrilinearOptimization
		    ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
		   (t->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
	d->maxAnisotropy = t->maxAnisotropy;
	d->mipmapFilterMode = (CUfilter_mode)t->mipmapFilterMode;
	d->mipmapLevelBias = t->mipmapLevelBias;
	d->minMipmapLevelClamp = t->minMipmapLevelClamp;
	d->maxMipmapLevelClamp = t->maxMipmapLevelClamp;
	memcpy(d->borderColor, t->borderColor, sizeof(d->borderColor));
}

CUDART_EXPORT cudaError_t cudaCreateTextureObject(
	cudaTextureObject_t *out, const struct cudaResourceDesc *res,
	const struct cudaTextureDesc *tex,
	const struct cudaResourceViewDesc *view)
{
	CUDA_RESOURCE_DESC r;
	CUDA_TEXTURE_DESC t;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!out || !res || !tex)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess && view)
		err = cudaErrorNotSupported;	/* resource views: not yet */
	if (err == cudaSuccess)
		err = driver_resource(res, &r);
	if (err != cudaSuccess)
		return rt_return(err);
	driver_texture(tex, &t);
	return rt_return(rt_error(cuTexObjectCreate((CUtexObject *)out, &r, &t,
						    NULL)));
}

CUDART_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj)
{
	return rt_return(rt_error(cuTexObjectDestroy(obj)));
}

CUDART_EXPORT cudaError_t cudaCreateSurfaceObject(
	cudaSurfaceObject_t *out, const struct cudaResourceDesc *res)
{
	CUDA_RESOURCE_DESC r;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!out || !res)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = driver_resource(res, &r);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuSurfObjectCreate((CUsurfObject *)out, &r)));
}

CUDART_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj)
{
	return rt_return(rt_error(cuSurfObjectDestroy(obj)));
}
