// SPDX-License-Identifier: MIT
/*
 * What arrays, texture objects and surface objects say about themselves:
 * cudaArrayGetInfo and the cudaGet*Object*Desc queries, the driver's
 * descriptions turned back into the runtime's.
 */
#include <string.h>

#include "rt.h"

/* The runtime's channel description of a driver format. */
static struct cudaChannelFormatDesc channel_desc_of(CUarray_format format,
						    unsigned int channels)
{
	int bits;
	enum cudaChannelFormatKind kind;

	switch (format) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
		bits = 8;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		bits = 16;
		break;
	default:
		bits = 32;
	}
	kind = format == CU_AD_FORMAT_FLOAT || format == CU_AD_FORMAT_HALF
	       ? cudaChannelFormatKindFloat
	       : format == CU_AD_FORMAT_SIGNED_INT8 ||
		 format == CU_AD_FORMAT_SIGNED_INT16 ||
		 format == CU_AD_FORMAT_SIGNED_INT32
	       ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned;
	return cudaCreateChannelDesc(bits, channels > 1 ? bits : 0,
				     channels > 2 ? bits : 0,
				     channels > 3 ? bits : 0, kind);
}

CUDART_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
					   struct cudaExtent *extent,
					   unsigned int *flags,
					   cudaArray_t array)
{
	CUDA_ARRAY3D_DESCRIPTOR d;

	RT_ENTER();
	if (!array || cuArray3DGetDescriptor(&d, (CUarray)array) != CUDA_SUCCESS)
		return rt_return(cudaErrorInvalidResourceHandle);
	if (desc)
		*desc = channel_desc_of(d.Format, d.NumChannels);
	if (extent)
		*extent = (struct cudaExtent){ d.Width, d.Height, d.Depth };
	if (flags)
		*flags = d.Flags;
	return cudaSuccess;
}

/* A driver resource description as the runtime's. */
static cudaError_t runtime_resource(const CUDA_RESOURCE_DESC *d,
				    struct cudaResourceDesc *r)
{
	memset(r, 0, sizeof(*r));
	switch (d->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		r->resType = cudaResourceTypeArray;
		r->res.array.array = (cudaArray_t)d->res.array.hArray;
		return cudaSuccess;
	case CU_RESOURCE_TYPE_LINEAR:
		r->resType = cudaResourceTypeLinear;
		r->res.linear.devPtr = (void *)(uintptr_t)d->res.linear.devPtr;
		r->res.linear.sizeInBytes = d->res.linear.sizeInBytes;
		r->res.linear.desc = channel_desc_of(d->res.linear.format,
						     d->res.linear.numChannels);
		return cudaSuccess;
	case CU_RESOURCE_TYPE_PITCH2D:
		r->resType = cudaResourceTypePitch2D;
		r->res.pitch2D.devPtr = (void *)(uintptr_t)d->res.pitch2D.devPtr;
		r->res.pitch2D.width = d->res.pitch2D.width;
		r->res.pitch2D.height = d->res.pitch2D.height;
		r->res.pitch2D.pitchInBytes = d->res.pitch2D.pitchInBytes;
		r->res.pitch2D.desc = channel_desc_of(d->res.pitch2D.format,
						      d->res.pitch2D.numChannels);
		return cudaSuccess;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		r->resType = cudaResourceTypeMipmappedArray;
		r->res.mipmap.mipmap =
			(cudaMipmappedArray_t)d->res.mipmap.hMipmappedArray;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(
	struct cudaResourceDesc *res, cudaTextureObject_t obj)
{
	CUDA_RESOURCE_DESC d;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!res)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = rt_error(cuTexObjectGetResourceDesc(&d, obj));
	if (err == cudaSuccess)
		err = runtime_resource(&d, res);
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(
	struct cudaResourceDesc *res, cudaSurfaceObject_t obj)
{
	return cudaGetTextureObjectResourceDesc(res, obj);
}

CUDART_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(
	struct cudaTextureDesc *tex, cudaTextureObject_t obj)
{
	CUDA_TEXTURE_DESC d;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!tex)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = rt_error(cuTexObjectGetTextureDesc(&d, obj));
	if (err != cudaSuccess)
		return rt_return(err);
	memset(tex, 0, sizeof(*tex));
	for (int i = 0; i < 3; i++)
		tex->addressMode[i] = (enum cudaTextureAddressMode)d.addressMode[i];
	tex->filterMode = (enum cudaTextureFilterMode)d.filterMode;
	/* cudaCreateTextureObject asks the driver for integers when the
	 * runtime reads elements as they are. */
	tex->readMode = d.flags & CU_TRSF_READ_AS_INTEGER
			? cudaReadModeElementType : cudaReadModeNormalizedFloat;
	tex->normalizedCoords = !!(d.flags & CU_TRSF_NORMALIZED_COORDINATES);
	tex->sRGB = !!(d.flags & CU_TRSF_SRGB);
	tex->disableTrilinearOptimization =
		!!(d.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
	tex->seamlessCubemap = !!(d.flags & CU_TRSF_SEAMLESS_CUBEMAP);
	tex->maxAnisotropy = d.maxAnisotropy;
	tex->mipmapFilterMode = (enum cudaTextureFilterMode)d.mipmapFilterMode;
	tex->mipmapLevelBias = d.mipmapLevelBias;
	tex->minMipmapLevelClamp = d.minMipmapLevelClamp;
	tex->maxMipmapLevelClamp = d.maxMipmapLevelClamp;
	memcpy(tex->borderColor, d.borderColor, sizeof(tex->borderColor));
	return cudaSuccess;
}
