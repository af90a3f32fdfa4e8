// SPDX-License-Identifier: MIT
/*
 * vsmi: what changes while the device runs: memory, compute mode,
 * utilization, busy time, faults.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vsmi.h"

uint64_t vsmi_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int vsmi_memory(const struct vsmi_device *dev, struct vsmi_memory *mem)
{
	int ret;

	memset(mem, 0, sizeof(*mem));
	ret = vsmi_attr_u64(dev->sysfs, "vram_total", &mem->total);
	if (ret)
		return ret;
	ret = vsmi_attr_u64(dev->sysfs, "vram_used", &mem->used);
	if (ret)
		return ret;
	if (vsmi_attr_u64(dev->sysfs, "host_pinned", &mem->host_pinned))
		mem->host_pinned = 0;
	return 0;
}

static const struct {
	int mode;
	const char *name;
} compute_modes[] = {
	{ DRM_VCUDA_COMPUTE_MODE_DEFAULT, "Default" },
	{ DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS, "Exclusive_Process" },
	{ DRM_VCUDA_COMPUTE_MODE_PROHIBITED, "Prohibited" },
};

const char *vsmi_compute_mode_name(int mode)
{
	size_t i;

	for (i = 0; i < sizeof(compute_modes) / sizeof(compute_modes[0]); i++)
		if (compute_modes[i].mode == mode)
			return compute_modes[i].name;
	return NULL;
}

static int compute_mode_parse(const char *s, int *mode)
{
	size_t i;

	for (i = 0; i < sizeof(compute_modes) / sizeof(compute_modes[0]); i++) {
		char num[4];

		snprintf(num, sizeof(num), "%d", compute_modes[i].mode);
		if (!strcmp(s, compute_modes[i].name) || !strcmp(s, num)) {
			*mode = compute_modes[i].mode;
			return 0;
		}
	}
	return -EINVAL;
}

/* sysfs compute_mode, else the device query's value. */
int vsmi_compute_mode(const struct vsmi_device *dev, int *mode)
{
	char buf[32];

	if (!vsmi_attr_read(dev->sysfs, "compute_mode", buf, sizeof(buf)))
		return compute_mode_parse(buf, mode);
	if (!dev->have_info)
		return -ENOENT;
	*mode = (int)dev->info.compute_mode;
	return 0;
}

int vsmi_utilization(const struct vsmi_device *dev, struct vsmi_util *util)
{
	uint64_t compute, copy, window = 0;
	int ret;

	ret = vsmi_attr_u64(dev->sysfs, "utilization_compute", &compute);
	if (ret)
		return ret;
	ret = vsmi_attr_u64(dev->sysfs, "utilization_copy", &copy);
	if (ret)
		return ret;
	vsmi_attr_u64(dev->sysfs, "utilization_window_ms", &window);
	util->compute = compute > 100 ? 100 : (unsigned int)compute;
	util->copy = copy > 100 ? 100 : (unsigned int)copy;
	util->window_ms = (unsigned int)window;
	return 0;
}

int vsmi_busy(const struct vsmi_device *dev, struct vsmi_busy *busy)
{
	int ret;

	busy->when_ns = vsmi_now_ns();
	ret = vsmi_attr_u64(dev->sysfs, "busy_compute_ns", &busy->compute_ns);
	if (ret)
		return ret;
	return vsmi_attr_u64(dev->sysfs, "busy_copy_ns", &busy->copy_ns);
}

unsigned int vsmi_busy_percent(uint64_t busy0, uint64_t busy1,
			       uint64_t when0, uint64_t when1)
{
	uint64_t pct;

	if (when1 <= when0 || busy1 <= busy0)
		return 0;
	pct = ((busy1 - busy0) * 100 + (when1 - when0) / 2) / (when1 - when0);
	return pct > 100 ? 100 : (unsigned int)pct;
}

int vsmi_faults(const struct vsmi_device *dev, uint64_t *faults)
{
	return vsmi_attr_u64(dev->sysfs, "faults", faults);
}
