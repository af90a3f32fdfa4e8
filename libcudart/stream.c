// SPDX-License-Identifier: MIT
/*
 * Runtime streams: cudaStream_t is the driver's CUstream.
 */
#include "rt.h"

CUDART_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream,
						       unsigned int flags,
						       int priority)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuStreamCreateWithPriority(
		(CUstream *)stream, flags, priority)));
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
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuStreamDestroy((CUstream)stream)));
}

CUDART_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuStreamSynchronize((CUstream)stream)));
}

CUDART_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	err = rt_error(cuStreamQuery((CUstream)stream));
	/* Not ready is an answer, not an error to remember. */
	return err == cudaErrorNotReady ? err : rt_return(err);
}

CUDART_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream,
						int *priority)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuStreamGetPriority((CUstream)stream,
						      priority)));
}

CUDART_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream,
					     unsigned int *flags)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuStreamGetFlags((CUstream)stream, flags)));
}

CUDART_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream,
					     cudaHostFn_t fn, void *data)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuLaunchHostFunc((CUstream)stream,
						   (CUhostFn)fn, data)));
}

CUDART_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream,
						cudaStreamCallback_t callback,
						void *data, unsigned int flags)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	/*
	 * The runtime's callback type differs from the driver's only in
	 * naming the stream and the error by their runtime types, which are
	 * the same values.
	 */
	return rt_return(rt_error(cuStreamAddCallback(
		(CUstream)stream, (CUstreamCallback)(void (*)(void))callback,
		data, flags)));
}
