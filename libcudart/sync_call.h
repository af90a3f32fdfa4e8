/* SPDX-License-Identifier: MIT */
/*
 * The runtime's synchronous copies and sets, each run as work of the
 * stream @on names: CU_STREAM_LEGACY for the plain entry points
 * (cudaMemcpy ...), CU_STREAM_PER_THREAD for their _ptds forms
 * (per_thread.c). On the per-thread stream they call the driver's _ptds
 * forms, which wait for the thread's per-thread stream instead of the
 * legacy stream's whole context.
 */
#ifndef VCUDA_RT_SYNC_CALL_H
#define VCUDA_RT_SYNC_CALL_H

#include <cuda.h>
#include <cuda_runtime_api.h>

/* @fn is the driver's full name (cuMemcpyHtoD_v2), @args its arguments. */
#define RT_SYNC_CALL(on, fn, args) \
	((on) == CU_STREAM_PER_THREAD ? fn##_ptds args : fn args)

__typeof__(cuMemcpyHtoD_v2) cuMemcpyHtoD_v2_ptds;
__typeof__(cuMemcpyDtoH_v2) cuMemcpyDtoH_v2_ptds;
__typeof__(cuMemcpyDtoD_v2) cuMemcpyDtoD_v2_ptds;
__typeof__(cuMemcpy) cuMemcpy_ptds;
__typeof__(cuMemcpy2D_v2) cuMemcpy2D_v2_ptds;
__typeof__(cuMemcpy3D_v2) cuMemcpy3D_v2_ptds;
__typeof__(cuMemsetD8_v2) cuMemsetD8_v2_ptds;
__typeof__(cuMemsetD2D8_v2) cuMemsetD2D8_v2_ptds;

/* memory.c */
cudaError_t rt_memcpy_on(void *dst, const void *src, size_t count,
			 enum cudaMemcpyKind kind, CUstream on);
cudaError_t rt_memcpy_to_symbol_on(const void *symbol, const void *src,
				   size_t count, size_t offset,
				   enum cudaMemcpyKind kind, CUstream on);
cudaError_t rt_memcpy_from_symbol_on(void *dst, const void *symbol,
				     size_t count, size_t offset,
				     enum cudaMemcpyKind kind, CUstream on);
cudaError_t rt_memset_on(void *ptr, int value, size_t count, CUstream on);

/* memcpy_box.c */
cudaError_t rt_memcpy_2d_on(void *dst, size_t dpitch, const void *src,
			    size_t spitch, size_t width, size_t height,
			    enum cudaMemcpyKind kind, CUstream on);
cudaError_t rt_memcpy_3d_on(const struct cudaMemcpy3DParms *p, CUstream on);
cudaError_t rt_memset_2d_on(void *ptr, size_t pitch, int value, size_t width,
			    size_t height, CUstream on);
cudaError_t rt_memset_3d_on(struct cudaPitchedPtr pp, int value,
			    struct cudaExtent extent, CUstream on);

/* texture.c */
cudaError_t rt_memcpy_2d_to_array_on(cudaArray_t dst, size_t w_offset,
				     size_t h_offset, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind,
				     CUstream on);
cudaError_t rt_memcpy_2d_from_array_on(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t w_offset,
				       size_t h_offset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       CUstream on);
cudaError_t rt_memcpy_to_array_on(cudaArray_t dst, size_t w_offset,
				  size_t h_offset, const void *src,
				  size_t count, enum cudaMemcpyKind kind,
				  CUstream on);
cudaError_t rt_memcpy_from_array_on(void *dst, cudaArray_const_t src,
				    size_t w_offset, size_t h_offset,
				    size_t count, enum cudaMemcpyKind kind,
				    CUstream on);

#endif
