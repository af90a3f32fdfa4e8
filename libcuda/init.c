// SPDX-License-Identifier: MIT
/*
 * cuInit and driver-wide state: which devices exist, set once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "device.h"
#include "warn_once.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result = CUDA_ERROR_NOT_INITIALIZED;

/*
 * A child forked after cuInit has none of the parent's driver threads and
 * shares its device file: every call that needs the driver fails there
 * with CUDA_ERROR_NOT_INITIALIZED, cuInit included, as NVIDIA's driver
 * does (numba-cuda detects a fork by it). The checks already read
 * init_result, so this costs nothing on any path.
 */
static void forked_child(void)
{
	if (init_result == CUDA_SUCCESS)
		init_result = CUDA_ERROR_NOT_INITIALIZED;
}

static void driver_init(void)
{
	init_result = devices_discover();
	if (init_result == CUDA_SUCCESS &&
	    pthread_atfork(NULL, NULL, forked_child) != 0)
		init_result = CUDA_ERROR_OUT_OF_MEMORY;
}

CUDA_EXPORT CUresult cuInit(unsigned int flags)
{
	if (flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&init_once, driver_init);
	return init_result;
}

CUresult driver_check_init(void)
{
	/* Racy reads are fine: the value only moves once, under the once. */
	return init_result;
}

CUDA_EXPORT CUresult cuDriverGetVersion(int *version)
{
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	*version = CUDA_VERSION;
	return CUDA_SUCCESS;
}

CUresult result_from_errno(int err)
{
	switch (-err) {
	case 0:
		return CUDA_SUCCESS;
	case ENOMEM:
	case ENOSPC:	/* a per-process limit of the kernel module */
		return CUDA_ERROR_OUT_OF_MEMORY;
	case ENOENT:
		return CUDA_ERROR_INVALID_HANDLE;
	case EOPNOTSUPP:
		return CUDA_ERROR_NOT_SUPPORTED;
	case EPERM:
	case EBUSY:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	case ENODEV:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	case EINVAL:
		return CUDA_ERROR_INVALID_VALUE;
	default:
		return CUDA_ERROR_UNKNOWN;
	}
}

void debug_log(const char *fmt, ...)
{
	static int enabled = -1;
	va_list args;

	if (enabled < 0)
		enabled = getenv("VCUDA_DEBUG") != NULL;
	if (!enabled)
		return;
	fputs("vcuda: ", stderr);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

/* For unsupported.c: every unsupported entry point ends here. */
int driver_not_supported(const char *name);

int driver_not_supported(const char *name)
{
	warn_unsupported_once(name);
	return CUDA_ERROR_NOT_SUPPORTED;
}
