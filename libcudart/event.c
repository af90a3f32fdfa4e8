// SPDX-License-Identifier: MIT
/*
 * Runtime events: cudaEvent_t is the driver's CUevent.
 */
#include "rt.h"

CUDART_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
						   unsigned int flags)
{
	/* cudaEvent* flags are the driver's CU_EVENT_* values. */
	RT_CALL(cuEventCreate((CUevent *)event, flags));
}

CUDART_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

CUDART_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event,
					  cudaStream_t stream)
{
	RT_CALL(cuEventRecord((CUevent)event, (CUstream)stream));
}

CUDART_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
	cudaError_t err;

	RT_ENTER();
	err = rt_error(cuEventQuery((CUevent)event));
	/* Not ready is an answer, not an error to remember. */
	return err == cudaErrorNotReady ? err : rt_return(err);
}

CUDART_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	RT_CALL(cuEventSynchronize((CUevent)event));
}

CUDART_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
					       cudaEvent_t end)
{
	RT_CALL(cuEventElapsedTime(ms, (CUevent)start, (CUevent)end));
}

CUDART_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	RT_CALL(cuEventDestroy((CUevent)event));
}

CUDART_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
					      cudaEvent_t event,
					      unsigned int flags)
{
	RT_CALL(cuStreamWaitEvent((CUstream)stream, (CUevent)event, flags));
}
