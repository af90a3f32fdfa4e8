// SPDX-License-Identifier: MIT
/*
 * The synchronous copies and sets of per-thread builds (the _ptds forms
 * that nvcc --default-stream per-thread and NVIDIA's runtime call): each
 * is its plain form run on the calling thread's per-thread stream
 * (sync_call.h), so it waits for that stream and the legacy stream it
 * follows, not for the context's other streams (sync_call_wait). The
 * peer copies' forms stay their plain forms (per_thread.S): those wait
 * for both contexts' work, as CUDA specifies.
 */
#include <cuda.h>

#include "api.h"
#include "sync_call.h"

#define ON_PT CU_STREAM_PER_THREAD

/* Declares NAME with PLAIN's type and defines it as @call. */
#define PTDS(name, plain, params, call)					\
	__typeof__(plain) name;						\
	CUDA_EXPORT CUresult name params				\
	{								\
		return call;						\
	}

PTDS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD,
     (CUdeviceptr d, const void *s, size_t n), memcpy_htod_on(d, s, n, ON_PT))
PTDS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH,
     (void *d, CUdeviceptr s, size_t n), memcpy_dtoh_on(d, s, n, ON_PT))
PTDS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD,
     (CUdeviceptr d, CUdeviceptr s, size_t n), memcpy_dtod_on(d, s, n, ON_PT))
PTDS(cuMemcpy_ptds, cuMemcpy, (CUdeviceptr d, CUdeviceptr s, size_t n),
     memcpy_unified_on(d, s, n, ON_PT))
PTDS(cuMemcpyHtoA_v2_ptds, cuMemcpyHtoA,
     (CUarray d, size_t off, const void *s, size_t n),
     memcpy_htoa_on(d, off, s, n, ON_PT))
PTDS(cuMemcpyAtoH_v2_ptds, cuMemcpyAtoH,
     (void *d, CUarray s, size_t off, size_t n),
     memcpy_atoh_on(d, s, off, n, ON_PT))
PTDS(cuMemcpyDtoA_v2_ptds, cuMemcpyDtoA,
     (CUarray d, size_t off, CUdeviceptr s, size_t n),
     memcpy_dtoa_on(d, off, s, n, ON_PT))
PTDS(cuMemcpyAtoD_v2_ptds, cuMemcpyAtoD,
     (CUdeviceptr d, CUarray s, size_t off, size_t n),
     memcpy_atod_on(d, s, off, n, ON_PT))
PTDS(cuMemcpyAtoA_v2_ptds, cuMemcpyAtoA,
     (CUarray d, size_t doff, CUarray s, size_t soff, size_t n),
     memcpy_atoa_on(d, doff, s, soff, n, ON_PT))
PTDS(cuMemcpy2D_v2_ptds, cuMemcpy2D, (const CUDA_MEMCPY2D *p),
     memcpy_2d_on(p, ON_PT))
PTDS(cuMemcpy2DUnaligned_v2_ptds, cuMemcpy2DUnaligned,
     (const CUDA_MEMCPY2D *p), memcpy_2d_on(p, ON_PT))
PTDS(cuMemcpy3D_v2_ptds, cuMemcpy3D, (const CUDA_MEMCPY3D *p),
     memcpy_3d_on(p, ON_PT))
PTDS(cuMemsetD8_v2_ptds, cuMemsetD8, (CUdeviceptr d, unsigned char v, size_t n),
     memset_on(d, v, 1, n, ON_PT))
PTDS(cuMemsetD16_v2_ptds, cuMemsetD16,
     (CUdeviceptr d, unsigned short v, size_t n), memset_on(d, v, 2, n, ON_PT))
PTDS(cuMemsetD32_v2_ptds, cuMemsetD32,
     (CUdeviceptr d, unsigned int v, size_t n), memset_on(d, v, 4, n, ON_PT))
PTDS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8,
     (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h),
     memset_2d_on(d, p, v, 1, w, h, ON_PT))
PTDS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16,
     (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h),
     memset_2d_on(d, p, v, 2, w, h, ON_PT))
PTDS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32,
     (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h),
     memset_2d_on(d, p, v, 4, w, h, ON_PT))
