// SPDX-License-Identifier: MIT
/*
 * Interprocess memory and event handles: the runtime's handles are the
 * driver's, byte for byte.
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"

/* Binds the thread to its device's context, then calls through. */
#define IPC_CALL(call)							\
	do {								\
		CUcontext ctx_;						\
		cudaError_t err_ = rt_enter(&ctx_);			\
									\
		if (err_ != cudaSuccess)				\
			return rt_return(err_);				\
		return rt_return(rt_error(call));			\
	} while (0)

CUDART_EXPORT cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle,
					      void *ptr)
{
	IPC_CALL(cuIpcGetMemHandle((CUipcMemHandle *)handle, (uintptr_t)ptr));
}

CUDART_EXPORT cudaError_t cudaIpcOpenMemHandle(void **ptr,
					       cudaIpcMemHandle_t handle,
					       unsigned int flags)
{
	CUipcMemHandle h;
	CUdeviceptr d;
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
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
	IPC_CALL(cuIpcCloseMemHandle((uintptr_t)ptr));
}

CUDART_EXPORT cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
						cudaEvent_t event)
{
	IPC_CALL(cuIpcGetEventHandle((CUipcEventHandle *)handle,
				     (CUevent)event));
}

CUDART_EXPORT cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event,
						 cudaIpcEventHandle_t handle)
{
	CUipcEventHandle h;

	memcpy(&h, &handle, sizeof(h));
	IPC_CALL(cuIpcOpenEventHandle((CUevent *)event, h));
}
