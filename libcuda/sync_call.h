/* SPDX-License-Identifier: MIT */
/*
 * The synchronous copies and sets, each run as work of the stream @on
 * names: CU_STREAM_LEGACY for the plain entry points (cuMemcpyHtoD ...),
 * CU_STREAM_PER_THREAD for their _ptds forms (sync_per_thread.c). What
 * each waits for before the CPU moves the bytes follows from @on
 * (sync_call_wait, stream.h).
 */
#ifndef VCUDA_SYNC_CALL_H
#define VCUDA_SYNC_CALL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* memcpy.c */
CUresult memcpy_htod_on(CUdeviceptr dst, const void *src, size_t bytes,
			CUstream on);
CUresult memcpy_dtoh_on(void *dst, CUdeviceptr src, size_t bytes, CUstream on);
CUresult memcpy_dtod_on(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			CUstream on);
/* cuMemcpy: either side host or device memory. */
CUresult memcpy_unified_on(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
			   CUstream on);
/* cuMemsetD8/16/32: @count elements of @elem_size bytes. */
CUresult memset_on(CUdeviceptr dst, uint32_t pattern, size_t elem_size,
		   size_t count, CUstream on);

/* memcpy_box.c */
CUresult memcpy_2d_on(const CUDA_MEMCPY2D *p, CUstream on);
CUresult memcpy_3d_on(const CUDA_MEMCPY3D *p, CUstream on);
/* cuMemsetD2D8/16/32 */
CUresult memset_2d_on(CUdeviceptr dst, size_t pitch, uint32_t value,
		      size_t elem_size, size_t width, size_t height,
		      CUstream on);

/* memcpy_array.c */
CUresult memcpy_htoa_on(CUarray dst, size_t dst_offset, const void *src,
			size_t bytes, CUstream on);
CUresult memcpy_atoh_on(void *dst, CUarray src, size_t src_offset,
			size_t bytes, CUstream on);
CUresult memcpy_dtoa_on(CUarray dst, size_t dst_offset, CUdeviceptr src,
			size_t bytes, CUstream on);
CUresult memcpy_atod_on(CUdeviceptr dst, CUarray src, size_t src_offset,
			size_t bytes, CUstream on);
CUresult memcpy_atoa_on(CUarray dst, size_t dst_offset, CUarray src,
			size_t src_offset, size_t bytes, CUstream on);

#endif
