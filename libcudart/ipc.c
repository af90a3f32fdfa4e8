// SPDX-License-Identifier: MIT
/*
 * Interprocess memory and event handles: the runtime's handles are the
 * driver's, byte for byte.
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"

CUDART_EXPORT cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle,
					      void *ptr)
{
	RT_CALL(cuIpcGetMemHandle((CUipcMemHandle *)handle, (uintptr_t)ptr));
}

CUDART_EXPORT cudaError_t cudaIpcOpenMemHandle(void **ptr,
					       cudaIpcMemHandle_t handle,
					       unsigned int flags)
{
	CUipcMemHandle h;
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER();
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	/* cudaIpcMemLazyEnablePeerAccess is the driver's flag. */
	memcpy(&h, &handle, sizeof(h));
	err = rt_error(cuIpcOpenMemHandle(&d, h, flags));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)d;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaIpcCloseMemHandle(void *ptr)
{
	RT_CALL(cuIpcCloseMemHandle((uintptr_t)ptr));
}

CUDART_EXPORT cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
						cudaEvent_t event)
{
	RT_CALL(cuIpcGetEventHandle((CUipcEventHandle *)handle,
				    (CUevent)event));
}

CUDART_EXPORT cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event,
						 cudaIpcEventHandle_t handle)
{
	CUipcEventHandle h;

	memcpy(&h, &handle, sizeof(h));
	RT_CALL(cuIpcOpenEventHandle((CUevent *)event, h));
}
