// SPDX-License-Identifier: MIT
/*
 * NVML: initialization, reference counted as NVIDIA's is (each successful
 * nvmlInit needs its nvmlShutdown), and the checks every query starts with.
 * The devices are read once, when the count goes from 0 to 1; a handle is
 * a slot of a static array, so it stays valid across shutdown and init.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvml_impl.h"

struct vnvml_state vnvml;

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int init_count;

nvmlReturn_t vnvml_ready(void)
{
	return atomic_load(&init_count) > 0 ? NVML_SUCCESS :
					       NVML_ERROR_UNINITIALIZED;
}

/* Compared as addresses: a stray pointer is refused, never followed. */
nvmlReturn_t vnvml_check_device(nvmlDevice_t d)
{
	uintptr_t p = (uintptr_t)d, first = (uintptr_t)vnvml.devs;
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (p < first || p >= (uintptr_t)(vnvml.devs + vnvml.count) ||
	    (p - first) % sizeof(*d))
		return NVML_ERROR_INVALID_ARGUMENT;
	return NVML_SUCCESS;
}

nvmlReturn_t vnvml_from_errno(int err)
{
	switch (err) {
	case 0:
		return NVML_SUCCESS;
	case -EPERM:
	case -EACCES:
		return NVML_ERROR_NO_PERMISSION;
	case -EINVAL:
		return NVML_ERROR_INVALID_ARGUMENT;
	case -ENOENT:
	case -EOPNOTSUPP:
		return NVML_ERROR_NOT_SUPPORTED;
	case -ENODEV:
		return NVML_ERROR_GPU_IS_LOST;
	case -ENOMEM:
		return NVML_ERROR_MEMORY;
	default:
		return NVML_ERROR_UNKNOWN;
	}
}

nvmlReturn_t vnvml_copy_string(char *buf, unsigned int len, const char *s)
{
	if (!buf)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (strlen(s) + 1 > len)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, s, strlen(s) + 1);
	return NVML_SUCCESS;
}

/*
 * Reads the module's devices into vnvml; called with init_lock held. The
 * module is loaded when its driver is registered: libkmod is not asked,
 * since every vcuda-smi run would pay for its index twice.
 */
static nvmlReturn_t load_devices(unsigned int flags)
{
	struct vsmi_device *devs;
	int i, n;

	if (vsmi_devices(&devs, &n)) {
		if (!(flags & NVML_INIT_FLAG_NO_GPUS))
			return NVML_ERROR_DRIVER_NOT_LOADED;
		vnvml.count = 0;
		strcpy(vnvml.driver_version, "N/A");
		return NVML_SUCCESS;
	}
	if (n > VNVML_MAX_DEVICES)
		n = VNVML_MAX_DEVICES;
	for (i = 0; i < n; i++) {
		vnvml.devs[i].dev = devs[i];
		vnvml.devs[i].index = (unsigned int)i;
	}
	vnvml.count = n;
	if (vsmi_driver_version(devs, n, NULL, vnvml.driver_version,
				sizeof(vnvml.driver_version)))
		strcpy(vnvml.driver_version, "N/A");
	free(devs);
	vnvml_processes_baseline();
	return NVML_SUCCESS;
}

/* Unknown flags are accepted, as NVIDIA's NVML accepts them. */
NVML_API nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
	nvmlReturn_t ret = NVML_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (atomic_load(&init_count) == 0)
		ret = load_devices(flags);
	if (ret == NVML_SUCCESS)
		atomic_fetch_add(&init_count, 1);
	pthread_mutex_unlock(&init_lock);
	return ret;
}

NVML_API nvmlReturn_t nvmlInit_v2(void)
{
	return nvmlInitWithFlags(0);
}

NVML_API nvmlReturn_t nvmlInit(void)
{
	return nvmlInitWithFlags(0);
}

NVML_API nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t ret = NVML_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (atomic_load(&init_count) == 0)
		ret = NVML_ERROR_UNINITIALIZED;
	else
		atomic_fetch_sub(&init_count, 1);
	pthread_mutex_unlock(&init_lock);
	return ret;
}
