// SPDX-License-Identifier: MIT
/*
 * The synchronous copies and sets of per-thread builds (the _ptds forms
 * that nvcc --default-stream per-thread and NVIDIA's runtime call): each
 * is its plain form run as work of the calling thread's per-thread
 * stream. The plain form waits for what the thread is marked to wait for
 * (sync_call_wait, stream_per_thread.c): the per-thread stream and the
 * legacy stream it follows, not the context's other streams. The peer
 * copies' forms stay their plain forms (per_thread.S): those wait for
 * both contexts' work, as CUDA specifies.
 */
#include <cuda.h>

#include "api.h"
#include "stream.h"

/* Declares NAME with PLAIN's type and defines it as PLAIN on the thread's
 * per-thread stream. */
#define PTDS(name, plain, params, args)					\
	__typeof__(plain) name;						\
	CUDA_EXPORT CUresult name params				\
	{								\
		bool was = per_thread_sync_begin();			\
		CUresult res = plain args;				\
									\
		per_thread_sync_end(was);				\
		return res;						\
	}

PTDS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD,
     (CUdeviceptr d, const void *s, size_t n), (d, s, n))
PTDS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH,
     (void *d, CUdeviceptr s, size_t n), (d, s, n))
PTDS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD,
     (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n))
PTDS(cuMemcpy_ptds, cuMemcpy, (CUdeviceptr d, CUdeviceptr s, size_t n),
     (d, s, n))
PTDS(cuMemcpyHtoA_v2_ptds, cuMemcpyHtoA,
     (CUarray d, size_t off, const void *s, size_t n), (d, off, s, n))
PTDS(cuMemcpyAtoH_v2_ptds, cuMemcpyAtoH,
     (void *d, CUarray s, size_t off, size_t n), (d, s, off, n))
PTDS(cuMemcpyDtoA_v2_ptds, cuMemcpyDtoA,
     (CUarray d, size_t off, CUdeviceptr s, size_t n), (d, off, s, n))
PTDS(cuMemcpyAtoD_v2_ptds, cuMemcpyAtoD,
     (CUdeviceptr d, CUarray s, size_t off, size_t n), (d, s, off, n))
PTDS(cuMemcpyAtoA_v2_ptds, cuMemcpyAtoA,
     (CUarray d, size_t doff, CUarray s, size_t soff, size_t n),
     (d, doff, s, soff, n))
PTDS(cuMemcpy2D_v2_ptds, cuMemcpy2D, (const CUDA_MEMCPY2D *p), (p))
PTDS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned,
     (const CUDA_MEMCPY2D *p), (p))
PTDS(cuMemcpy3D_v2_ptds, cuMemcpy3D, (const CUDA_MEMCPY3D *p), (p))
PTDS(cuMemsetD8_v2_ptds, cuMemsetD8, (CUdeviceptr d, unsigned char v, size_t n),
     (d, v, n))
PTDS(cuMemsetD16_v2_ptds, cuMemsetD16,
     (CUdeviceptr d, unsigned short v, size_t n), (d, v, n))
PTDS(cuMemsetD32_v2_ptds, cuMemsetD32,
     (CUdeviceptr d, unsigned int v, size_t n), (d, v, n))
PTDS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8,
     (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h),
     (d, p, v, w, h))
PTDS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16,
     (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h),
     (d, p, v, w, h))
PTDS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32,
     (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h),
     (d, p, v, w, h))
