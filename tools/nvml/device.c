// SPDX-License-Identifier: MIT
/*
 * NVML: device enumeration, handles (by index, UUID, PCI bus id) and the
 * static properties: name, UUID, PCI location, minor number, compute
 * capability, maximum clocks. The PCI location is the virtual one the module reports;
 * there are no PCI ids (pciDeviceId and pciSubSystemId are 0).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nvml_impl.h"

NVML_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (!deviceCount)
		return NVML_ERROR_INVALID_ARGUMENT;
	*deviceCount = (unsigned int)vnvml.count;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount)
{
	return nvmlDeviceGetCount_v2(deviceCount);
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
						    nvmlDevice_t *device)
{
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (!device || index >= (unsigned int)vnvml.count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*device = &vnvml.devs[index];
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index,
						 nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByIndex_v2(index, device);
}

/* Any string that names no device is NOT_FOUND, as with NVIDIA's NVML. */
NVML_API nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid,
						nvmlDevice_t *device)
{
	nvmlReturn_t ret = vnvml_ready();
	int i;

	if (ret)
		return ret;
	if (!uuid || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	for (i = 0; i < vnvml.count; i++) {
		if (vnvml.devs[i].dev.uuid[0] &&
		    !strcasecmp(uuid, vnvml.devs[i].dev.uuid)) {
			*device = &vnvml.devs[i];
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

/* "domain:bus:device.function", the domain optional, all hexadecimal. */
static bool parse_bus_id(const char *s, unsigned int *domain,
			 unsigned int *bus, unsigned int *dev)
{
	unsigned int fn;
	int end = 0;

	*domain = 0;
	if (sscanf(s, "%x:%x:%x.%x%n", domain, bus, dev, &fn, &end) == 4 &&
	    !s[end])
		return true;
	end = 0;
	*domain = 0;
	return sscanf(s, "%x:%x.%x%n", bus, dev, &fn, &end) == 3 && !s[end];
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId,
						       nvmlDevice_t *device)
{
	unsigned int domain, bus, dev;
	nvmlReturn_t ret = vnvml_ready();
	int i;

	if (ret)
		return ret;
	if (!pciBusId || !device || !parse_bus_id(pciBusId, &domain, &bus, &dev))
		return NVML_ERROR_INVALID_ARGUMENT;
	for (i = 0; i < vnvml.count; i++) {
		const struct vsmi_device *v = &vnvml.devs[i].dev;

		if (v->have_info && v->info.pci_domain == domain &&
		    (v->info.pci_bus & 0xff) == bus &&
		    (v->info.pci_device & 0x1f) == dev) {
			*device = &vnvml.devs[i];
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

NVML_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId,
						    nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByPciBusId_v2(pciBusId, device);
}

NVML_API nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device,
					 unsigned int *index)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!index)
		return NVML_ERROR_INVALID_ARGUMENT;
	*index = device->index;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name,
					unsigned int length)
{
	char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (vsmi_name(&device->dev, buf, sizeof(buf)))
		return NVML_ERROR_NOT_SUPPORTED;
	return vnvml_copy_string(name, length, buf);
}

NVML_API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid,
					unsigned int length)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!device->dev.uuid[0])
		return NVML_ERROR_NOT_SUPPORTED;
	return vnvml_copy_string(uuid, length, device->dev.uuid);
}

/* The render node's minor, which is what vcuda-smi -q shows as well. */
NVML_API nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device,
					       unsigned int *minorNumber)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!minorNumber)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (device->dev.render_minor < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	*minorNumber = (unsigned int)device->dev.render_minor;
	return NVML_SUCCESS;
}

/* v1 and v2 put the short "0000:bb:dd.0" in busId, v3 the long form. */
static nvmlReturn_t pci_info(nvmlDevice_t device, nvmlPciInfo_t *pci,
			     bool long_bus_id)
{
	const struct drm_vcuda_device_info *info = &device->dev.info;
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!pci)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!device->dev.have_info)
		return NVML_ERROR_NOT_SUPPORTED;
	memset(pci, 0, sizeof(*pci));
	pci->domain = info->pci_domain;
	pci->bus = info->pci_bus & 0xff;
	pci->device = info->pci_device & 0x1f;
	snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04X:%02X:%02X.0",
		 pci->domain & 0xffff, pci->bus, pci->device);
	if (long_bus_id)
		snprintf(pci->busId, sizeof(pci->busId), "%08X:%02X:%02X.0",
			 pci->domain, pci->bus, pci->device);
	else
		snprintf(pci->busId, sizeof(pci->busId), "%s", pci->busIdLegacy);
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device,
					      nvmlPciInfo_t *pci)
{
	return pci_info(device, pci, true);
}

NVML_API nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device,
					      nvmlPciInfo_t *pci)
{
	return pci_info(device, pci, false);
}

NVML_API nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device,
					   nvmlPciInfo_t *pci)
{
	return pci_info(device, pci, false);
}

NVML_API nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device,
							 int *major, int *minor)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!major || !minor)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!device->dev.have_info)
		return NVML_ERROR_NOT_SUPPORTED;
	*major = (int)device->dev.info.cc_major;
	*minor = (int)device->dev.info.cc_minor;
	return NVML_SUCCESS;
}

/*
 * The maxima are the clock rates the device reports to CUDA (the clockRate
 * and memoryClockRate attributes); there is no current clock
 * (nvmlDeviceGetClockInfo is a NOT_SUPPORTED stub), nor a video clock.
 */
NVML_API nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device,
						nvmlClockType_t type,
						unsigned int *clock)
{
	const struct drm_vcuda_device_info *info = &device->dev.info;
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!clock)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!device->dev.have_info)
		return NVML_ERROR_NOT_SUPPORTED;
	switch (type) {
	case NVML_CLOCK_GRAPHICS:
	case NVML_CLOCK_SM:
		*clock = info->clock_rate_khz / 1000;
		return NVML_SUCCESS;
	case NVML_CLOCK_MEM:
		*clock = info->memory_clock_rate_khz / 1000;
		return NVML_SUCCESS;
	case NVML_CLOCK_VIDEO:
		return NVML_ERROR_NOT_SUPPORTED;
	default:
		return NVML_ERROR_INVALID_ARGUMENT;
	}
}

/* A virtual GPU drives no display. */
static nvmlReturn_t no_display(nvmlDevice_t device, nvmlEnableState_t *state)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!state)
		return NVML_ERROR_INVALID_ARGUMENT;
	*state = NVML_FEATURE_DISABLED;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t device,
						 nvmlEnableState_t *isActive)
{
	return no_display(device, isActive);
}

NVML_API nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t device,
					       nvmlEnableState_t *display)
{
	return no_display(device, display);
}

/* No device has a serial number, so none is found by one. */
NVML_API nvmlReturn_t nvmlDeviceGetHandleBySerial(const char *serial,
						  nvmlDevice_t *device)
{
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (!serial || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	return NVML_ERROR_NOT_FOUND;
}

/* Not MIG capable: it can hold no MIG device ... */
NVML_API nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device,
						     unsigned int *count)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = 0;
	return NVML_SUCCESS;
}

/* ... and no handle is a MIG device's (nvmlDeviceGetMigMode and the
 * other MIG queries are NOT_SUPPORTED stubs). */
NVML_API nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device,
						  unsigned int *isMigDevice)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!isMigDevice)
		return NVML_ERROR_INVALID_ARGUMENT;
	*isMigDevice = 0;
	return NVML_SUCCESS;
}
