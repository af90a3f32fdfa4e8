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
/* Every primary context handle the runtime has held, reset ones too. */
static CUcontext seen_primary[RT_MAX_DEVICES];

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
	if (res == CUDA_SUCCESS)
		seen_primary[device] = primary[device];
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

/* Whether @ctx is a primary context the runtime has held. */
static bool is_runtime_primary(CUcontext ctx)
{
	bool found = false;

	pthread_mutex_lock(&primary_lock);
	for (int d = 0; d < RT_MAX_DEVICES && !found; d++)
		found = ctx == seen_primary[d];
	pthread_mutex_unlock(&primary_lock);
	return found;
}

/* Whether @ctx is @dev's primary context, which the runtime may not hold. */
static bool is_primary(CUcontext ctx, CUdevice dev)
{
	unsigned int flags;
	CUcontext p;
	int active;
	bool yes;

	if (is_runtime_primary(ctx))
		return true;
	if (cuDevicePrimaryCtxGetState(dev, &flags, &active) != CUDA_SUCCESS ||
	    !active || cuDevicePrimaryCtxRetain(&p, dev) != CUDA_SUCCESS)
		return false;
	yes = p == ctx;
	cuDevicePrimaryCtxRelease(dev);
	return yes;
}

/*
 * A context the driver API created and made current is the runtime's too,
 * in place of the primary one (CUDA's "Interactions with the CUDA Driver
 * API"), and its device becomes the thread's. A primary context, held or
 * reset, takes the usual path, so that a reset one is retained again.
 */
static bool adopt_current(CUcontext *ctx)
{
	CUcontext now;
	CUdevice dev;

	if (cuCtxGetCurrent(&now) != CUDA_SUCCESS || !now ||
	    cuCtxGetDevice(&dev) != CUDA_SUCCESS || dev < 0 ||
	    dev >= RT_MAX_DEVICES || is_primary(now, dev))
		return false;
	current_device = dev;
	*ctx = now;
	return true;
}

bool rt_current_is_primary(void)
{
	CUcontext now;
	bool yes;

	if (cuCtxGetCurrent(&now) != CUDA_SUCCESS)
		return false;
	pthread_mutex_lock(&primary_lock);
	yes = now && now == primary[current_device];
	pthread_mutex_unlock(&primary_lock);
	return yes;
}

/* Makes the thread's device's primary context current. */
static cudaError_t enter_primary(CUcontext *ctx)
{
	CUcontext now;
	cudaError_t err = retain_primary(current_device, ctx);

	if (err != cudaSuccess)
		return err;
	if (cuCtxGetCurrent(&now) == CUDA_SUCCESS && now == *ctx)
		return cudaSuccess;
	return rt_error(cuCtxSetCurrent(*ctx));
}

cudaError_t rt_enter(CUcontext *ctx)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return err;
	if (adopt_current(ctx))
		return cudaSuccess;
	return enter_primary(ctx);
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
	/*
	 * cudaSetDevice initialises the device's primary context now and
	 * makes it current, in place of any driver API context.
	 */
	return rt_return(enter_primary(&ctx));
}

CUDART_EXPORT cudaError_t cudaGetDevice(int *device)
{
	CUcontext ctx;

	if (!device)
		return rt_return(cudaErrorInvalidValue);
	if (rt_init() == cudaSuccess)
		adopt_current(&ctx);	/* a driver API context's device */
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
	RT_CALL(cuCtxSynchronize());
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
