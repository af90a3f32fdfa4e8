// SPDX-License-Identifier: MIT
/*
 * NVML: nvmlErrorString. The texts are NVIDIA's NVML's, as recorded on an
 * H100 (tests/nvml/nvml-probe-h100.tsv), since clients print them.
 */
#include "nvml_impl.h"

static const char *const error_texts[] = {
	[NVML_SUCCESS] = "Success",
	[NVML_ERROR_UNINITIALIZED] = "Uninitialized",
	[NVML_ERROR_INVALID_ARGUMENT] = "Invalid Argument",
	[NVML_ERROR_NOT_SUPPORTED] = "Not Supported",
	[NVML_ERROR_NO_PERMISSION] = "Insufficient Permissions",
	[NVML_ERROR_ALREADY_INITIALIZED] = "Already Initialized",
	[NVML_ERROR_NOT_FOUND] = "Not Found",
	[NVML_ERROR_INSUFFICIENT_SIZE] = "Insufficient Size",
	[NVML_ERROR_INSUFFICIENT_POWER] = "Insufficient External Power",
	[NVML_ERROR_DRIVER_NOT_LOADED] = "Driver Not Loaded",
	[NVML_ERROR_TIMEOUT] = "Timeout",
	[NVML_ERROR_IRQ_ISSUE] = "Interrupt Request Issue",
	[NVML_ERROR_LIBRARY_NOT_FOUND] = "NVML Shared Library Not Found",
	[NVML_ERROR_FUNCTION_NOT_FOUND] = "Function Not Found",
	[NVML_ERROR_CORRUPTED_INFOROM] = "Corrupted infoROM",
	[NVML_ERROR_GPU_IS_LOST] = "GPU is lost",
	[NVML_ERROR_RESET_REQUIRED] = "GPU requires reset",
	[NVML_ERROR_OPERATING_SYSTEM] =
		"GPU access blocked by the operating system",
	[NVML_ERROR_LIB_RM_VERSION_MISMATCH] =
		"Driver/library version mismatch",
	[NVML_ERROR_IN_USE] = "In use by another client",
	[NVML_ERROR_MEMORY] = "Insufficient Memory",
	[NVML_ERROR_NO_DATA] = "No data",
	[NVML_ERROR_VGPU_ECC_NOT_SUPPORTED] = "vGPU ECC not supported",
	[NVML_ERROR_INSUFFICIENT_RESOURCES] = "Insufficient Resources",
	[NVML_ERROR_FREQ_NOT_SUPPORTED] = "Invalid Frequency",
	[NVML_ERROR_ARGUMENT_VERSION_MISMATCH] = "Argument version mismatch",
	[NVML_ERROR_DEPRECATED] = "Requested functionality has been deprecated",
	[NVML_ERROR_NOT_READY] = "System is not in ready state",
	[NVML_ERROR_GPU_NOT_FOUND] = "No supported GPUs were found",
	[NVML_ERROR_INVALID_STATE] =
		"Resource not in correct state to perform requested operation",
};

NVML_API const char *nvmlErrorString(nvmlReturn_t result)
{
	unsigned int i = (unsigned int)result;

	if (i < sizeof(error_texts) / sizeof(error_texts[0]) && error_texts[i])
		return error_texts[i];
	return "Unknown Error";
}
