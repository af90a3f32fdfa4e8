// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: values as every report spells them, read through NVML.
 */
#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "vcuda-smi.h"

/* "Sun Nov 22 04:18:49 2026", as the view and -q print it. */
void smi_timestamp_long(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%a %b %d %H:%M:%S %Y", &tm);
}

/* "2026/11/22 04:18:49.123", as --query-* print it. */
void smi_timestamp_csv(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char date[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y/%m/%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03ld", date, (long)(tv.tv_usec / 1000));
}

unsigned long long smi_mib(uint64_t bytes)
{
	return (unsigned long long)(bytes >> 20);
}

/* NVML's handle of DEV (NULL, which every NVML call refuses, if none). */
nvmlDevice_t smi_handle(const struct vsmi_device *dev)
{
	nvmlDevice_t h;

	if (nvmlDeviceGetHandleByUUID(dev->uuid, &h) != NVML_SUCCESS)
		return NULL;
	return h;
}

/* NVML's answer as the negative errno the reports already tell apart. */
int smi_nvml_errno(nvmlReturn_t ret)
{
	switch (ret) {
	case NVML_SUCCESS:
		return 0;
	case NVML_ERROR_NO_PERMISSION:
		return -EPERM;
	case NVML_ERROR_INVALID_ARGUMENT:
		return -EINVAL;
	case NVML_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* 13000 -> "13.0" */
void smi_cuda_version(char *buf, size_t len)
{
	int v;

	if (nvmlSystemGetCudaDriverVersion(&v) != NVML_SUCCESS) {
		snprintf(buf, len, NA);
		return;
	}
	snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

int smi_dev_memory(const struct vsmi_device *dev, struct vsmi_memory *m)
{
	nvmlMemory_t mem;
	nvmlReturn_t ret = nvmlDeviceGetMemoryInfo(smi_handle(dev), &mem);

	if (ret)
		return smi_nvml_errno(ret);
	m->total = mem.total;
	m->used = mem.used;
	m->host_pinned = 0;
	return 0;
}

int smi_name(const struct vsmi_device *dev, char *buf, size_t len)
{
	return smi_nvml_errno(nvmlDeviceGetName(smi_handle(dev), buf,
						(unsigned int)len));
}

int smi_uuid(const struct vsmi_device *dev, char *buf, size_t len)
{
	return smi_nvml_errno(nvmlDeviceGetUUID(smi_handle(dev), buf,
						(unsigned int)len));
}

int smi_bus_id(const struct vsmi_device *dev, char *buf, size_t len)
{
	nvmlPciInfo_t pci;
	nvmlReturn_t ret = nvmlDeviceGetPciInfo_v3(smi_handle(dev), &pci);

	if (ret)
		return smi_nvml_errno(ret);
	snprintf(buf, len, "%s", pci.busId);
	return 0;
}

void smi_dev_name(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (smi_name(dev, buf, len))
		snprintf(buf, len, NA);
}

void smi_dev_bus_id(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (smi_bus_id(dev, buf, len))
		snprintf(buf, len, NA);
}

/*
 * Utilization of the kernel's last window: "GPU" is the compute engine,
 * "memory" the copy engines (the device's memory traffic that is not a
 * kernel's own).
 */
int smi_dev_util(const struct vsmi_device *dev, unsigned int *gpu,
		 unsigned int *mem)
{
	nvmlUtilization_t u;
	nvmlReturn_t ret = nvmlDeviceGetUtilizationRates(smi_handle(dev), &u);

	if (ret)
		return smi_nvml_errno(ret);
	*gpu = u.gpu;
	*mem = u.memory;
	return 0;
}

const char *smi_compute_mode_str(const struct vsmi_device *dev)
{
	nvmlComputeMode_t mode;

	if (nvmlDeviceGetComputeMode(smi_handle(dev), &mode))
		return NULL;
	return vsmi_compute_mode_name((int)mode);
}

void smi_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}
