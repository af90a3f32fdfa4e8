// SPDX-License-Identifier: MIT
/*
 * Runtime events: cudaEvent_t is the driver's CUevent.
 */
#include "rt.h"

/* Common prologue: bind the thread to its context, then call through. */
#define EVENT_CALL(call)						\
	do {								\
		CUcontext ctx_;						\
		cudaError_t err_ = rt_enter(&ctx_);			\
									\
		if (err_ != cudaSuccess)				\
			return rt_return(err_);				\
		return rt_return(rt_error(call));			\
	} while (0)

CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
						   unsigned int flags)
{
	/* cudaEvent* flags are the driver's CU_EVENT_* values. */
	EVENT_CALL(cuEventCreate((CUevent *)event, flags));
}

CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event,
					  cudaStream_t stream)
{
	EVENT_CALL(cuEventRecord((CUevent)event, (CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	err = rt_error(cuEventQuery((CUevent)event));
	/* Not ready is an answer, not an error to remember. */
	return err == cudaErrorNotReady ? err : rt_return(err);
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	EVENT_CALL(cuEventSynchronize((CUevent)event));
}

CUDART_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
					       cudaEvent_t end)
{
	EVENT_CALL(cuEventElapsedTime(ms, (CUevent)start, (CUevent)end));
}

CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	EVENT_CALL(cuEventDestroy((CUevent)event));
}

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
					      cudaEvent_t event,
					      unsigned int flags)
{
	EVENT_CALL(cuStreamWaitEvent((CUstream)stream, (CUevent)event, flags));
}
