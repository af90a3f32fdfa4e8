// SPDX-License-Identifier: MIT
/*
 * Runtime streams: cudaStream_t is the driver's CUstream.
 */
#include "rt.h"

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream,
						       unsigned int flags,
						       int priority)
{
	RT_CALL(cuStreamCreateWithPriority((CUstream *)stream, flags,
					   priority));
}

CUDART_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream,
						    unsigned int flags)
{
	return cudaStreamCreateWithPriority(stream, flags, 0);
}

CUDART_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
	return cudaStreamCreateWithPriority(stream, cudaStreamDefault, 0);
}

CUDART_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	RT_CALL(cuStreamDestroy((CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	RT_CALL(cuStreamSynchronize((CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	cudaError_t err;

	RT_ENTER();
	err = rt_error(cuStreamQuery((CUstream)stream));
	/* Not ready is an answer, not an error to remember. */
	return err == cudaErrorNotReady ? err : rt_return(err);
}

CUDART_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream,
						int *priority)
{
	RT_CALL(cuStreamGetPriority((CUstream)stream, priority));
}

CUDART_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream,
					     unsigned int *flags)
{
	RT_CALL(cuStreamGetFlags((CUstream)stream, flags));
}

CUDART_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream,
					     cudaHostFn_t fn, void *data)
{
	RT_CALL(cuLaunchHostFunc((CUstream)stream, (CUhostFn)fn, data));
}

CUDART_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream,
						cudaStreamCallback_t callback,
						void *data, unsigned int flags)
{
	RT_ENTER();
	/*
	 * The runtime's callback type differs from the driver's only in
	 * naming the stream and the error by their runtime types, which are
	 * the same values.
	 */
	return rt_return(rt_error(cuStreamAddCallback(
		(CUstream)stream, (CUstreamCallback)(void (*)(void))callback,
		data, flags)));
}

/* A cudaLaunchAttributeValue is the driver's CUlaunchAttributeValue. */
CUDART_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t stream,
						 cudaStreamAttrID id,
						 const cudaStreamAttrValue *v)
{
	RT_CALL(cuStreamSetAttribute((CUstream)stream, (CUstreamAttrID)id,
				     (const CUstreamAttrValue *)v));
}

CUDART_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t stream,
						 cudaStreamAttrID id,
						 cudaStreamAttrValue *v)
{
	RT_CALL(cuStreamGetAttribute((CUstream)stream, (CUstreamAttrID)id,
				     (CUstreamAttrValue *)v));
}

CUDART_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t dst,
						   cudaStream_t src)
{
	RT_CALL(cuStreamCopyAttributes((CUstream)dst, (CUstream)src));
}

CUDART_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	RT_CALL(cuCtxResetPersistingL2Cache());
}
