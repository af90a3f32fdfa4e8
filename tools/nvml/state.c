// SPDX-License-Identifier: MIT
/*
 * NVML: what changes while the device runs. Memory is the module's
 * vram_total and vram_used (nothing is reserved); utilization is the
 * module's last sampling window, "gpu" the compute engine and "memory" the
 * copy engines, as vcuda-smi shows them; compute mode is the module's.
 */
#include <errno.h>

#include "nvml_impl.h"

static nvmlReturn_t read_memory(nvmlDevice_t device, struct vsmi_memory *m)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	return vnvml_from_errno(vsmi_memory(&device->dev, m));
}

NVML_API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device,
					      nvmlMemory_t *memory)
{
	struct vsmi_memory m;
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!memory)
		return NVML_ERROR_INVALID_ARGUMENT;
	ret = read_memory(device, &m);
	if (ret)
		return ret;
	memory->total = m.total;
	memory->used = m.used;
	memory->free = m.total - m.used;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device,
						 nvmlMemory_v2_t *memory)
{
	struct vsmi_memory m;
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!memory)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (memory->version != nvmlMemory_v2)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	ret = read_memory(device, &m);
	if (ret)
		return ret;
	memory->total = m.total;
	memory->reserved = 0;
	memory->used = m.used;
	memory->free = m.total - m.used;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device,
						    nvmlUtilization_t *utilization)
{
	struct vsmi_util u;
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!utilization)
		return NVML_ERROR_INVALID_ARGUMENT;
	ret = vnvml_from_errno(vsmi_utilization(&device->dev, &u));
	if (ret)
		return ret;
	utilization->gpu = u.compute;
	utilization->memory = u.copy;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device,
					       nvmlComputeMode_t *mode)
{
	nvmlReturn_t ret = vnvml_check_device(device);
	int m;

	if (ret)
		return ret;
	if (!mode)
		return NVML_ERROR_INVALID_ARGUMENT;
	ret = vnvml_from_errno(vsmi_compute_mode(&device->dev, &m));
	if (ret)
		return ret;
	*mode = (nvmlComputeMode_t)m;
	return NVML_SUCCESS;
}

/* NVML's modes are CUDA's, which the module takes; the deprecated
 * exclusive-thread mode is not one of them. */
NVML_API nvmlReturn_t nvmlDeviceSetComputeMode(nvmlDevice_t device,
					       nvmlComputeMode_t mode)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (mode == NVML_COMPUTEMODE_EXCLUSIVE_THREAD)
		return NVML_ERROR_NOT_SUPPORTED;
	if (!vsmi_compute_mode_name((int)mode))
		return NVML_ERROR_INVALID_ARGUMENT;
	return vnvml_from_errno(vsmi_set_compute_mode(&device->dev, (int)mode));
}
