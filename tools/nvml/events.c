// SPDX-License-Identifier: MIT
/*
 * NVML: events. The one event a virtual GPU reports is the Xid-like
 * critical error: the module counts faults and time-outs per device (the
 * `faults` sysfs attribute), and each increase of that count is one
 * nvmlEventTypeXidCriticalError. The count does not say which kind of
 * fault it was, so the event's Xid is 999, NVML's "unknown Xid".
 * nvmlEventSetWait polls the counters of the set's devices.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvml_impl.h"

#define UNKNOWN_XID	999
#define POLL_MS		10

struct nvmlEventSet_st {
	unsigned long long types[VNVML_MAX_DEVICES];	/* registered */
	uint64_t faults[VNVML_MAX_DEVICES];	/* faults already reported */
};

#define SUPPORTED_EVENTS nvmlEventTypeXidCriticalError

NVML_API nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device,
						       unsigned long long *eventTypes)
{
	nvmlReturn_t ret = vnvml_check_device(device);
	uint64_t faults;

	if (ret)
		return ret;
	if (!eventTypes)
		return NVML_ERROR_INVALID_ARGUMENT;
	*eventTypes = vsmi_faults(&device->dev, &faults) ? 0 : SUPPORTED_EVENTS;
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
{
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	*set = calloc(1, sizeof(**set));
	return *set ? NVML_SUCCESS : NVML_ERROR_MEMORY;
}

NVML_API nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
{
	nvmlReturn_t ret = vnvml_ready();

	if (ret)
		return ret;
	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	free(set);
	return NVML_SUCCESS;
}

/* Events counted from now on: faults before registration are not news. */
NVML_API nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device,
					       unsigned long long eventTypes,
					       nvmlEventSet_t set)
{
	nvmlReturn_t ret = vnvml_check_device(device);
	unsigned int i;
	uint64_t faults;

	if (ret)
		return ret;
	if (!set)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (eventTypes & ~(unsigned long long)SUPPORTED_EVENTS ||
	    vsmi_faults(&device->dev, &faults))
		return NVML_ERROR_NOT_SUPPORTED;
	i = device->index;
	if (!set->types[i])
		set->faults[i] = faults;
	set->types[i] |= eventTypes;
	return NVML_SUCCESS;
}

/* One pending event of SET, if a registered device faulted. */
static bool pending(nvmlEventSet_t set, nvmlEventData_t *data)
{
	uint64_t faults;
	int i;

	for (i = 0; i < vnvml.count; i++) {
		if (!(set->types[i] & nvmlEventTypeXidCriticalError) ||
		    vsmi_faults(&vnvml.devs[i].dev, &faults) ||
		    faults <= set->faults[i])
			continue;
		set->faults[i]++;
		*data = (nvmlEventData_t){
			.device = &vnvml.devs[i],
			.eventType = nvmlEventTypeXidCriticalError,
			.eventData = UNKNOWN_XID,
			.gpuInstanceId = 0xFFFFFFFF,
			.computeInstanceId = 0xFFFFFFFF,
		};
		return true;
	}
	return false;
}

NVML_API nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set,
					  nvmlEventData_t *data,
					  unsigned int timeoutms)
{
	const struct timespec tick = { 0, POLL_MS * 1000000L };
	nvmlReturn_t ret = vnvml_ready();
	unsigned int waited = 0;

	if (ret)
		return ret;
	if (!set || !data)
		return NVML_ERROR_INVALID_ARGUMENT;
	for (;;) {
		if (pending(set, data))
			return NVML_SUCCESS;
		if (waited >= timeoutms)
			return NVML_ERROR_TIMEOUT;
		nanosleep(&tick, NULL);
		waited += POLL_MS;
	}
}

/* Version 1's nvmlEventData_t ends before the MIG instance ids. */
NVML_API nvmlReturn_t nvmlEventSetWait(nvmlEventSet_t set,
				       nvmlEventData_t *data,
				       unsigned int timeoutms)
{
	nvmlEventData_t full;
	nvmlReturn_t ret;

	if (!data)
		return vnvml_ready() ? vnvml_ready() : NVML_ERROR_INVALID_ARGUMENT;
	ret = nvmlEventSetWait_v2(set, &full, timeoutms);
	if (ret == NVML_SUCCESS)
		memcpy(data, &full, offsetof(nvmlEventData_t, gpuInstanceId));
	return ret;
}
