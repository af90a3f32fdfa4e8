// SPDX-License-Identifier: MIT
/*
 * vsmi: finding the devices (the vcuda platform driver's sysfs directory)
 * and their static properties (sysfs, then the device query ioctl).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cuda.h>

#include "kmd.h"
#include "vsmi.h"

static bool is_device_entry(const char *name)
{
	return strncmp(name, "vcuda.", 6) == 0 && name[6] >= '0' &&
	       name[6] <= '9';
}

/* Each DRM node of the device: its dev_t, and which is the render node. */
static void device_nodes(struct vsmi_device *dev)
{
	char dir[VSMI_PATH_MAX + 8], buf[32];
	unsigned int maj, min;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/drm", dev->sysfs);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && dev->nnodes < VSMI_MAX_NODES) {
		char node[VSMI_PATH_MAX * 2];

		if (de->d_name[0] == '.')
			continue;
		snprintf(node, sizeof(node), "%s/%.64s", dir, de->d_name);
		if (vsmi_attr_read(node, "dev", buf, sizeof(buf)) ||
		    sscanf(buf, "%u:%u", &maj, &min) != 2)
			continue;
		dev->nodes[dev->nnodes++] = makedev(maj, min);
		if (!strncmp(de->d_name, "renderD", 7)) {
			dev->render_minor = (int)min;
			snprintf(dev->render, sizeof(dev->render),
				 "/dev/dri/%.20s", de->d_name);
		}
	}
	closedir(d);
}

/* The device query through the render node, if we may open it. */
static void device_query(struct vsmi_device *dev)
{
	int fd;

	if (!dev->render[0])
		return;
	fd = open(dev->render, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	dev->have_info = kmd_device_info(fd, &dev->info) == 0;
	close(fd);
}

static void device_fill(struct vsmi_device *dev, const char *entry)
{
	char uuid[64];
	uint64_t index;

	snprintf(dev->sysfs, sizeof(dev->sysfs),
		 "/sys/bus/platform/devices/%.64s", entry);
	dev->render_minor = -1;
	if (vsmi_attr_u64(dev->sysfs, "index", &index))
		index = strtoul(entry + 6, NULL, 10);
	dev->index = (unsigned int)index;
	if (!vsmi_attr_read(dev->sysfs, "uuid", uuid, sizeof(uuid)))
		snprintf(dev->uuid, sizeof(dev->uuid), "GPU-%.36s", uuid);
	device_nodes(dev);
	device_query(dev);
}

static int by_index(const void *a, const void *b)
{
	const struct vsmi_device *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Grows *devs by one zeroed element. */
static struct vsmi_device *device_add(struct vsmi_device **devs, int *count)
{
	struct vsmi_device *more;

	more = realloc(*devs, sizeof(**devs) * (size_t)(*count + 1));
	if (!more)
		return NULL;
	*devs = more;
	memset(&more[*count], 0, sizeof(*more));
	return &more[(*count)++];
}

int vsmi_devices(struct vsmi_device **devs, int *count)
{
	struct dirent *de;
	DIR *d = opendir(VSMI_DRIVER_DIR);

	*devs = NULL;
	*count = 0;
	if (!d)
		return -ENODEV;
	while ((de = readdir(d))) {
		struct vsmi_device *dev;

		if (!is_device_entry(de->d_name))
			continue;
		dev = device_add(devs, count);
		if (!dev) {
			closedir(d);
			return -ENOMEM;
		}
		device_fill(dev, de->d_name);
	}
	closedir(d);
	if (*count)
		qsort(*devs, (size_t)*count, sizeof(**devs), by_index);
	return 0;
}

int vsmi_name(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (!vsmi_attr_read(dev->sysfs, "name", buf, len))
		return 0;
	if (!dev->have_info)
		return -ENOENT;
	snprintf(buf, len, "%.*s", (int)sizeof(dev->info.name),
		 dev->info.name);
	return 0;
}

int vsmi_bus_id(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (!dev->have_info)
		return -ENOENT;
	snprintf(buf, len, "%08X:%02X:%02X.0", dev->info.pci_domain,
		 dev->info.pci_bus & 0xff, dev->info.pci_device & 0x1f);
	return 0;
}

int vsmi_driver_version(const struct vsmi_device *devs, int count,
			const struct vsmi_module *mod, char *buf, size_t len)
{
	int i;

	for (i = 0; i < count; i++) {
		uint32_t v = devs[i].info.driver_version;

		if (!devs[i].have_info)
			continue;
		snprintf(buf, len, "%u.%u.%u", v >> 16, (v >> 8) & 0xff,
			 v & 0xff);
		return 0;
	}
	if (mod && mod->version[0]) {
		snprintf(buf, len, "%s", mod->version);
		return 0;
	}
	return -ENOENT;
}

int vsmi_cuda_version(void)
{
	return CUDA_VERSION;
}
