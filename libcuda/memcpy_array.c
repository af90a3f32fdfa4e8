// SPDX-License-Identifier: MIT
/*
 * Copies to and from 1D CUDA arrays by byte offset (cuMemcpyHtoA and its
 * kin): one-row 2D copies with an array side, checked and run as
 * cuMemcpy2D does them (memcpy_box.c).
 */
#include "api.h"

/* A one-row copy of @bytes; the caller fills in the two sides. */
static CUDA_MEMCPY2D row_copy(size_t bytes)
{
	return (CUDA_MEMCPY2D){ .WidthInBytes = bytes, .Height = 1 };
}

static void array_side_dst(CUDA_MEMCPY2D *p, CUarray a, size_t offset)
{
	p->dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p->dstArray = a;
	p->dstXInBytes = offset;
}

static void array_side_src(CUDA_MEMCPY2D *p, CUarray a, size_t offset)
{
	p->srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p->srcArray = a;
	p->srcXInBytes = offset;
}

CUDA_EXPORT CUresult cuMemcpyHtoA(CUarray dst, size_t dst_offset,
				  const void *src, size_t bytes)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_dst(&p, dst, dst_offset);
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = src;
	return cuMemcpy2D(&p);
}

CUDA_EXPORT CUresult cuMemcpyHtoAAsync(CUarray dst, size_t dst_offset,
				       const void *src, size_t bytes,
				       CUstream stream)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_dst(&p, dst, dst_offset);
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = src;
	return cuMemcpy2DAsync(&p, stream);
}

CUDA_EXPORT CUresult cuMemcpyAtoH(void *dst, CUarray src, size_t src_offset,
				  size_t bytes)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_src(&p, src, src_offset);
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = dst;
	return cuMemcpy2D(&p);
}

CUDA_EXPORT CUresult cuMemcpyAtoHAsync(void *dst, CUarray src,
				       size_t src_offset, size_t bytes,
				       CUstream stream)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_src(&p, src, src_offset);
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = dst;
	return cuMemcpy2DAsync(&p, stream);
}

CUDA_EXPORT CUresult cuMemcpyDtoA(CUarray dst, size_t dst_offset,
				  CUdeviceptr src, size_t bytes)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_dst(&p, dst, dst_offset);
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = src;
	return cuMemcpy2D(&p);
}

CUDA_EXPORT CUresult cuMemcpyAtoD(CUdeviceptr dst, CUarray src,
				  size_t src_offset, size_t bytes)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_src(&p, src, src_offset);
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.dstDevice = dst;
	return cuMemcpy2D(&p);
}

CUDA_EXPORT CUresult cuMemcpyAtoA(CUarray dst, size_t dst_offset,
				  CUarray src, size_t src_offset, size_t bytes)
{
	CUDA_MEMCPY2D p = row_copy(bytes);

	array_side_dst(&p, dst, dst_offset);
	array_side_src(&p, src, src_offset);
	return cuMemcpy2D(&p);
}
