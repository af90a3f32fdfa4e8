// SPDX-License-Identifier: MIT
/*
 * Copies to and from 1D CUDA arrays by byte offset (cuMemcpyHtoA and its
 * kin): one-row 2D copies with an array side, checked and run as
 * cuMemcpy2D does them (memcpy_box.c).
 */
#include <stdbool.h>

#include "api.h"
#include "sync_call.h"

/* One end of a one-row copy; @offset is in bytes, for arrays only. */
struct end {
	CUmemorytype type;
	const void *host;
	CUdeviceptr device;
	CUarray array;
	size_t offset;
};

#define HOST(p) ((struct end){ .type = CU_MEMORYTYPE_HOST, .host = (p) })
#define DEVICE(d) ((struct end){ .type = CU_MEMORYTYPE_DEVICE, .device = (d) })
#define ARRAY(a, off) \
	((struct end){ .type = CU_MEMORYTYPE_ARRAY, .array = (a), .offset = (off) })

/* On @stream: asynchronously when @async, else a synchronous call on it. */
static CUresult row_copy(struct end dst, struct end src, size_t bytes,
			 CUstream stream, bool async)
{
	CUDA_MEMCPY2D p = {
		.srcMemoryType = src.type, .srcHost = src.host,
		.srcDevice = src.device, .srcArray = src.array,
		.srcXInBytes = src.offset,
		.dstMemoryType = dst.type, .dstHost = (void *)dst.host,
		.dstDevice = dst.device, .dstArray = dst.array,
		.dstXInBytes = dst.offset,
		.WidthInBytes = bytes, .Height = 1,
	};

	return async ? cuMemcpy2DAsync(&p, stream) : memcpy_2d_on(&p, stream);
}

CUresult memcpy_htoa_on(CUarray dst, size_t dst_offset, const void *src,
			size_t bytes, CUstream on)
{
	return row_copy(ARRAY(dst, dst_offset), HOST(src), bytes, on, false);
}

CUDA_EXPORT CUresult cuMemcpyHtoA(CUarray dst, size_t dst_offset,
				  const void *src, size_t bytes)
{
	return memcpy_htoa_on(dst, dst_offset, src, bytes, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemcpyHtoAAsync(CUarray dst, size_t dst_offset,
				       const void *src, size_t bytes,
				       CUstream stream)
{
	return row_copy(ARRAY(dst, dst_offset), HOST(src), bytes, stream, true);
}

CUresult memcpy_atoh_on(void *dst, CUarray src, size_t src_offset,
			size_t bytes, CUstream on)
{
	return row_copy(HOST(dst), ARRAY(src, src_offset), bytes, on, false);
}

CUDA_EXPORT CUresult cuMemcpyAtoH(void *dst, CUarray src, size_t src_offset,
				  size_t bytes)
{
	return memcpy_atoh_on(dst, src, src_offset, bytes, CU_STREAM_LEGACY);
}

CUDA_EXPORT CUresult cuMemcpyAtoHAsync(void *dst, CUarray src,
				       size_t src_offset, size_t bytes,
				       CUstream stream)
{
	return row_copy(HOST(dst), ARRAY(src, src_offset), bytes, stream, true);
}

CUresult memcpy_dtoa_on(CUarray dst, size_t dst_offset, CUdeviceptr src,
			size_t bytes, CUstream on)
{
	return row_copy(ARRAY(dst, dst_offset), DEVICE(src), bytes, on, false);
}

CUDA_EXPORT CUresult cuMemcpyDtoA(CUarray dst, size_t dst_offset,
				  CUdeviceptr src, size_t bytes)
{
	return memcpy_dtoa_on(dst, dst_offset, src, bytes, CU_STREAM_LEGACY);
}

CUresult memcpy_atod_on(CUdeviceptr dst, CUarray src, size_t src_offset,
			size_t bytes, CUstream on)
{
	return row_copy(DEVICE(dst), ARRAY(src, src_offset), bytes, on, false);
}

CUDA_EXPORT CUresult cuMemcpyAtoD(CUdeviceptr dst, CUarray src,
				  size_t src_offset, size_t bytes)
{
	return memcpy_atod_on(dst, src, src_offset, bytes, CU_STREAM_LEGACY);
}

CUresult memcpy_atoa_on(CUarray dst, size_t dst_offset, CUarray src,
			size_t src_offset, size_t bytes, CUstream on)
{
	return row_copy(ARRAY(dst, dst_offset), ARRAY(src, src_offset), bytes,
			on, false);
}

CUDA_EXPORT CUresult cuMemcpyAtoA(CUarray dst, size_t dst_offset,
				  CUarray src, size_t src_offset, size_t bytes)
{
	return memcpy_atoa_on(dst, dst_offset, src, src_offset, bytes,
			      CU_STREAM_LEGACY);
}
