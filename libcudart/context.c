// SPDX-License-Identifier: MIT
/*
 * Per-thread runtime state: the current device, the last error, and the
 * binding of the thread to its device's primary context.
 */
#include <pthread.h>

#include "rt.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result;

/* Primary contexts the runtime retained, one per device, never released
 * except by cudaDeviceReset. */
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext primary[RT_MAX_DEVICES];

static _Thread_local int current_device;
static _Thread_local cudaError_t last_error = cudaSuccess;

static void driver_init(void)
{
	init_result = cuInit(0);
}

cudaError_t rt_init(void)
{
	pthread_once(&init_once, driver_init);
	return rt_error(init_result);
}

cudaError_t rt_return(cudaError_t err)
{
	if (err != cudaSuccess)
		last_error = err;
	return err;
}

int rt_current_device(void)
{
	return current_device;
}

static cudaError_t retain_primary(int device, CUcontext *ctx)
{
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&primary_lock);
	if (!primary[device])
		res = cuDevicePrimaryCtxRetain(&primary[device], device);
	*ctx = primary[device];
	pthread_mutex_unlock(&primary_lock);
	return rt_error(res);
}

cudaError_t rt_primary(int device, CUcontext *ctx)
{
	cudaError_t err = rt_init();
	int count = 0;

	if (err != cudaSuccess)
		return err;
	cuDeviceGetCount(&count);
	if (device < 0 || device >= count)
		return cudaErrorInvalidDevice;
	return retain_primary(device, ctx);
}

cudaError_t rt_enter(CUcontext *ctx)
{
	cudaError_t err = rt_init();
	CUcontext now;

	if (err != cudaSuccess)
		return err;
	err = retain_primary(current_device, ctx);
	if (err != cudaSuccess)
		return err;
	if (cuCtxGetCurrent(&now) == CUDA_SUCCESS && now == *ctx)
		return cudaSuccess;
	return rt_error(cuCtxSetCurrent(*ctx));
}

void rt_forget_device(int device)
{
	rt_fatbins_forget_device(device);
	pthread_mutex_lock(&primary_lock);
	if (primary[device]) {
		cuDevicePrimaryCtxReset(device);
		cuDevicePrimaryCtxRelease(device);
		primary[device] = NULL;
	}
	pthread_mutex_unlock(&primary_lock);
}

CUDART_EXPORT cudaError_t cudaGetLastError(void)
{
	cudaError_t err = last_error;

	last_error = cudaSuccess;
	return err;
}

CUDART_EXPORT cudaError_t cudaPeekAtLastError(void)
{
	return last_error;
}

CUDART_EXPORT cudaError_t cudaSetDevice(int device)
{
	cudaError_t err = rt_init();
	CUcontext ctx;
	int count;

	if (err != cudaSuccess)
		return rt_return(err);
	cuDeviceGetCount(&count);
	if (device < 0 || device >= count)
		return rt_return(cudaErrorInvalidDevice);
	current_device = device;
	/* cudaSetDevice initialises the device's primary context now. */
	return rt_return(rt_enter(&ctx));
}

CUDART_EXPORT cudaError_t cudaGetDevice(int *device)
{
	if (!device)
		return rt_return(cudaErrorInvalidValue);
	*device = current_device;
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
	cudaError_t err;

	if (!count)
		return rt_return(cudaErrorInvalidValue);
	err = rt_init();
	if (err != cudaSuccess) {
		*count = 0;
		return rt_return(err);
	}
	return rt_return(rt_error(cuDeviceGetCount(count)));
}

CUDART_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuCtxSynchronize()));
}

CUDART_EXPORT cudaError_t cudaDeviceReset(void)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	rt_forget_device(current_device);
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDriverGetVersion(int *version)
{
	if (!version)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_error(cuDriverGetVersion(version)));
}

CUDART_EXPORT cudaError_t cudaRuntimeGetVersion(int *version)
{
	if (!version)
		return rt_return(cudaErrorInvalidValue);
	*version = CUDART_VERSION;
	return cudaSuccess;
}
