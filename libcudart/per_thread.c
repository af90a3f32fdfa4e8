// SPDX-License-Identifier: MIT
/*
 * The runtime's per-thread default stream forms: what a program built
 * with nvcc --default-stream per-thread (CUDA_API_PER_THREAD_DEFAULT_STREAM)
 * calls instead of each stream function. Stream 0 then means the calling
 * thread's per-thread stream (cudaStreamPerThread, which the driver makes
 * per thread, libcuda/stream_per_thread.c). The synchronous copies and
 * sets (_ptds) run their plain forms' code on the per-thread stream
 * (the rt_*_on functions of sync_call.h, which call the driver's _ptds
 * forms): work of the thread's per-thread stream, which follows the
 * legacy stream and no other.
 */
#include "rt.h"
#include "sync_call.h"

#define PT(s) ((s) ? (s) : cudaStreamPerThread)

/* Declares NAME_SUFFIX with NAME's type. */
#define SAME_AS(name, suffix) __typeof__(name) name##suffix

/* Synchronous forms: @on_fn, the plain form's code, on the per-thread
 * stream. */
#define PTDS(name, on_fn, params, args)					\
	SAME_AS(name, _ptds);						\
	CUDART_EXPORT cudaError_t name##_ptds params			\
	{								\
		return on_fn args;					\
	}

#define ON_PT CU_STREAM_PER_THREAD

PTDS(cudaMemcpy, rt_memcpy_on, (void *d, const void *s, size_t n,
				enum cudaMemcpyKind k), (d, s, n, k, ON_PT))
PTDS(cudaMemcpyToSymbol, rt_memcpy_to_symbol_on,
     (const void *sym, const void *s, size_t n, size_t off,
      enum cudaMemcpyKind k), (sym, s, n, off, k, ON_PT))
PTDS(cudaMemcpyFromSymbol, rt_memcpy_from_symbol_on,
     (void *d, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k),
     (d, sym, n, off, k, ON_PT))
PTDS(cudaMemcpy2D, rt_memcpy_2d_on,
     (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
      enum cudaMemcpyKind k), (d, dp, s, sp, w, h, k, ON_PT))
/* Deprecated, still exported: programs built before call them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
PTDS(cudaMemcpyToArray, rt_memcpy_to_array_on,
     (cudaArray_t a, size_t x, size_t y, const void *s, size_t n,
      enum cudaMemcpyKind k), (a, x, y, s, n, k, ON_PT))
#pragma GCC diagnostic pop
PTDS(cudaMemcpy2DToArray, rt_memcpy_2d_to_array_on,
     (cudaArray_t a, size_t x, size_t y, const void *s, size_t sp, size_t w,
      size_t h, enum cudaMemcpyKind k), (a, x, y, s, sp, w, h, k, ON_PT))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
PTDS(cudaMemcpyFromArray, rt_memcpy_from_array_on,
     (void *d, cudaArray_const_t a, size_t x, size_t y, size_t n,
      enum cudaMemcpyKind k), (d, a, x, y, n, k, ON_PT))
#pragma GCC diagnostic pop
PTDS(cudaMemcpy2DFromArray, rt_memcpy_2d_from_array_on,
     (void *d, size_t dp, cudaArray_const_t a, size_t x, size_t y, size_t w,
      size_t h, enum cudaMemcpyKind k), (d, dp, a, x, y, w, h, k, ON_PT))
PTDS(cudaMemcpy3D, rt_memcpy_3d_on, (const struct cudaMemcpy3DParms *p),
     (p, ON_PT))
PTDS(cudaMemset, rt_memset_on, (void *d, int v, size_t n), (d, v, n, ON_PT))
PTDS(cudaMemset2D, rt_memset_2d_on,
     (void *d, size_t p, int v, size_t w, size_t h), (d, p, v, w, h, ON_PT))
PTDS(cudaMemset3D, rt_memset_3d_on,
     (struct cudaPitchedPtr p, int v, struct cudaExtent e), (p, v, e, ON_PT))

/* Stream forms: stream 0 is the thread's per-thread stream. */
#define PTSZ(name, params, args)					\
	SAME_AS(name, _ptsz);						\
	CUDART_EXPORT cudaError_t name##_ptsz params { return name args; }

PTSZ(cudaMemcpyAsync, (void *d, const void *s, size_t n, enum cudaMemcpyKind k,
		       cudaStream_t st), (d, s, n, k, PT(st)))
PTSZ(cudaMemcpy2DAsync, (void *d, size_t dp, const void *s, size_t sp,
			 size_t w, size_t h, enum cudaMemcpyKind k,
			 cudaStream_t st), (d, dp, s, sp, w, h, k, PT(st)))
PTSZ(cudaMemcpy3DAsync, (const struct cudaMemcpy3DParms *p, cudaStream_t st),
     (p, PT(st)))
PTSZ(cudaMemsetAsync, (void *d, int v, size_t n, cudaStream_t st),
     (d, v, n, PT(st)))
PTSZ(cudaMemset2DAsync, (void *d, size_t p, int v, size_t w, size_t h,
			 cudaStream_t st), (d, p, v, w, h, PT(st)))
PTSZ(cudaMemset3DAsync, (struct cudaPitchedPtr p, int v, struct cudaExtent e,
			 cudaStream_t st), (p, v, e, PT(st)))
PTSZ(cudaStreamQuery, (cudaStream_t st), (PT(st)))
PTSZ(cudaStreamSynchronize, (cudaStream_t st), (PT(st)))
PTSZ(cudaStreamGetFlags, (cudaStream_t st, unsigned int *f), (PT(st), f))
PTSZ(cudaStreamGetPriority, (cudaStream_t st, int *p), (PT(st), p))
PTSZ(cudaEventRecord, (cudaEvent_t e, cudaStream_t st), (e, PT(st)))
PTSZ(cudaStreamWaitEvent, (cudaStream_t st, cudaEvent_t e, unsigned int f),
     (PT(st), e, f))
PTSZ(cudaStreamAddCallback, (cudaStream_t st, cudaStreamCallback_t cb,
			     void *data, unsigned int f), (PT(st), cb, data, f))
PTSZ(cudaStreamAttachMemAsync, (cudaStream_t st, void *p, size_t n,
				unsigned int f), (PT(st), p, n, f))
PTSZ(cudaLaunchHostFunc, (cudaStream_t st, cudaHostFn_t fn, void *data),
     (PT(st), fn, data))
PTSZ(cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **args, size_t sh,
			cudaStream_t st), (f, g, b, args, sh, PT(st)))
PTSZ(cudaLaunchCooperativeKernel, (const void *f, dim3 g, dim3 b, void **args,
				   size_t sh, cudaStream_t st),
     (f, g, b, args, sh, PT(st)))
PTSZ(cudaMemPrefetchAsync, (const void *p, size_t n, struct cudaMemLocation l,
			    unsigned int f, cudaStream_t st),
     (p, n, l, f, PT(st)))
PTSZ(cudaMallocAsync, (void **p, size_t n, cudaStream_t st), (p, n, PT(st)))
PTSZ(cudaFreeAsync, (void *p, cudaStream_t st), (p, PT(st)))
PTSZ(cudaMallocFromPoolAsync, (void **p, size_t n, cudaMemPool_t pool,
			       cudaStream_t st), (p, n, pool, PT(st)))
PTSZ(cudaGraphLaunch, (cudaGraphExec_t g, cudaStream_t st), (g, PT(st)))
PTSZ(cudaGraphUpload, (cudaGraphExec_t g, cudaStream_t st), (g, PT(st)))
PTSZ(cudaStreamBeginCapture, (cudaStream_t st, enum cudaStreamCaptureMode m),
     (PT(st), m))
PTSZ(cudaStreamEndCapture, (cudaStream_t st, cudaGraph_t *g), (PT(st), g))
PTSZ(cudaStreamIsCapturing, (cudaStream_t st,
			     enum cudaStreamCaptureStatus *c), (PT(st), c))
PTSZ(cudaStreamGetCaptureInfo, (cudaStream_t st,
				enum cudaStreamCaptureStatus *c,
				unsigned long long *id, cudaGraph_t *g,
				const cudaGraphNode_t **deps,
				const cudaGraphEdgeData **edges, size_t *n),
     (PT(st), c, id, g, deps, edges, n))
PTSZ(cudaStreamUpdateCaptureDependencies, (cudaStream_t st,
					   cudaGraphNode_t *deps,
					   const cudaGraphEdgeData *edges,
					   size_t n, unsigned int f),
     (PT(st), deps, edges, n, f))
PTSZ(cudaStreamSetAttribute, (cudaStream_t st, cudaStreamAttrID id,
			      const cudaStreamAttrValue *v), (PT(st), id, v))
PTSZ(cudaStreamGetAttribute, (cudaStream_t st, cudaStreamAttrID id,
			      cudaStreamAttrValue *v), (PT(st), id, v))
PTSZ(cudaStreamCopyAttributes, (cudaStream_t d, cudaStream_t s),
     (PT(d), PT(s)))

/* The stream is inside the configuration. */
SAME_AS(cudaLaunchKernelExC, _ptsz);
CUDART_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(
	const cudaLaunchConfig_t *config, const void *f, void **args)
{
	cudaLaunchConfig_t own;

	if (!config || config->stream)
		return cudaLaunchKernelExC(config, f, args);
	own = *config;
	own.stream = cudaStreamPerThread;
	return cudaLaunchKernelExC(&own, f, args);
}
