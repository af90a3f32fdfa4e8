// SPDX-License-Identifier: MIT
/*
 * NVML: system queries. The driver version is vcuda.ko's; NVML's version
 * is, as NVIDIA's, the API version and the driver version ("13.1.0.0");
 * the CUDA version is the one libcuda reports.
 */
#include <stdio.h>
#include <string.h>

#include "nvml_impl.h"

NVML_API nvmlReturn_t nvmlSystemGetDriverVersion(char *version,
						 unsigned int length)
{
	nvmlReturn_t ret = vnvml_ready();

	return ret ? ret : vnvml_copy_string(version, length,
					     vnvml.driver_version);
}

NVML_API nvmlReturn_t nvmlSystemGetNVMLVersion(char *version,
					       unsigned int length)
{
	nvmlReturn_t ret = vnvml_ready();
	char buf[64];

	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "%s.%s", NVML_API_VERSION_STR,
		 vnvml.driver_version);
	return vnvml_copy_string(version, length, buf);
}

NVML_API nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion)
{
	if (!cudaDriverVersion)
		return NVML_ERROR_INVALID_ARGUMENT;
	*cudaDriverVersion = vsmi_cuda_version();
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion)
{
	return nvmlSystemGetCudaDriverVersion(cudaDriverVersion);
}

/* argv[0] as the process gave it, else its comm; cut to fit, as NVIDIA's. */
NVML_API nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name,
					       unsigned int length)
{
	char path[64], buf[VSMI_PROC_NAME_MAX] = "";
	nvmlReturn_t ret = vnvml_ready();
	size_t n = 0;
	FILE *f;

	if (ret)
		return ret;
	if (!name || !length)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	f = fopen(path, "re");
	if (!f)
		return NVML_ERROR_NOT_FOUND;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (!buf[0]) {
		snprintf(path, sizeof(path), "/proc/%u/comm", pid);
		f = fopen(path, "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		buf[strcspn(buf, "\n")] = 0;
	}
	snprintf(name, length, "%s", buf);
	return NVML_SUCCESS;
}
