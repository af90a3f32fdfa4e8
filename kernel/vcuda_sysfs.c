// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: sysfs attributes of a virtual device.
 */

#include <linux/device.h>
#include <linux/sysfs.h>

#include "vcuda_drv.h"

/**
 * DOC: sysfs
 *
 * The platform device of each virtual GPU (``/sys/devices/platform/vcuda.N``,
 * also reachable as ``/sys/class/drm/renderD*\/device``) has read-only
 * attributes, all decimal numbers but the UUID:
 *
 * - ``vram_total``: device memory, bytes;
 * - ``vram_used``: bytes held by device buffer objects;
 * - ``host_pinned``: bytes held by host buffer objects;
 * - ``index``: index of the device;
 * - ``uuid``: the device's UUID.
 *
 * The driver core adds them once the device is probed and removes them
 * before it is unbound, so the driver data is valid while they exist.
 */

static struct vcuda_device *dev_to_vcuda(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t vram_total_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", dev_to_vcuda(dev)->vram_size);
}
static DEVICE_ATTR_RO(vram_total);

static ssize_t vram_used_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_vcuda(dev)->vram_used));
}
static DEVICE_ATTR_RO(vram_used);

static ssize_t host_pinned_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_vcuda(dev)->host_pinned));
}
static DEVICE_ATTR_RO(host_pinned);

static ssize_t index_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_vcuda(dev)->index);
}
static DEVICE_ATTR_RO(index);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pUb\n", &dev_to_vcuda(dev)->uuid);
}
static DEVICE_ATTR_RO(uuid);

static struct attribute *vcuda_sysfs_attrs[] = {
	&dev_attr_vram_total.attr,
	&dev_attr_vram_used.attr,
	&dev_attr_host_pinned.attr,
	&dev_attr_index.attr,
	&dev_attr_uuid.attr,
	NULL,
};

static const struct attribute_group vcuda_sysfs_group = {
	.attrs = vcuda_sysfs_attrs,
};

const struct attribute_group *vcuda_sysfs_groups[] = {
	&vcuda_sysfs_group,
	NULL,
};
