// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: sysfs attributes of a virtual device.
 */

#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_usage.h"

/**
 * DOC: sysfs
 *
 * The platform device of each virtual GPU (``/sys/devices/platform/vcuda.N``,
 * also reachable as ``/sys/class/drm/renderD*\/device``) has the
 * attributes docs/admin-interface.md specifies, one value per file
 * followed by a newline:
 *
 * - ``index``: index of the device;
 * - ``uuid``: the device's UUID;
 * - ``name``: the marketing name, as the device query;
 * - ``vram_total``: device memory, bytes;
 * - ``vram_used``: bytes held by device buffer objects;
 * - ``host_pinned``: bytes held by host buffer objects;
 * - ``compute_mode`` (root may write): ``Default``,
 *   ``Exclusive_Process`` or ``Prohibited``; writing takes those names
 *   (in any case) or CUDA's numbers 0, 3 and 2;
 * - ``busy_compute_ns``, ``busy_copy_ns``: busy time of the compute
 *   engine and of the copy engines since load (vcuda_usage.c);
 * - ``utilization_compute``, ``utilization_copy``: percent busy of the
 *   last complete sampling window;
 * - ``utilization_window_ms``: the window;
 * - ``faults``: faults and time-outs (Xid events) since load;
 * - ``reset`` (root may write): writing 1 resets the device.
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

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_vcuda(dev)->info.name);
}
static DEVICE_ATTR_RO(name);

static const char *const vcuda_compute_mode_names[] = {
	[DRM_VCUDA_COMPUTE_MODE_DEFAULT] = "Default",
	[DRM_VCUDA_COMPUTE_MODE_PROHIBITED] = "Prohibited",
	[DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS] = "Exclusive_Process",
};

static ssize_t compute_mode_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	u32 mode = READ_ONCE(dev_to_vcuda(dev)->compute_mode);

	return sysfs_emit(buf, "%s\n", vcuda_compute_mode_names[mode]);
}

/* A compute mode by name or number, or -EINVAL. */
static int vcuda_parse_compute_mode(const char *buf)
{
	size_t len = strcspn(buf, "\n");
	unsigned int mode;

	for (mode = 0; mode < ARRAY_SIZE(vcuda_compute_mode_names); mode++) {
		const char *name = vcuda_compute_mode_names[mode];

		if (name && strlen(name) == len && !strncasecmp(buf, name, len))
			return mode;
	}
	if (kstrtouint(buf, 10, &mode) ||
	    mode >= ARRAY_SIZE(vcuda_compute_mode_names) ||
	    !vcuda_compute_mode_names[mode])
		return -EINVAL;
	return mode;
}

static ssize_t compute_mode_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct vcuda_device *vdev = dev_to_vcuda(dev);
	int mode = vcuda_parse_compute_mode(buf);

	if (mode < 0)
		return mode;

	mutex_lock(&vdev->ctx_lock);
	WRITE_ONCE(vdev->compute_mode, mode);
	mutex_unlock(&vdev->ctx_lock);
	return count;
}
static DEVICE_ATTR_RW(compute_mode);

static ssize_t busy_compute_ns_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct vcuda_busy *b = &dev_to_vcuda(dev)->busy[DRM_VCUDA_ENGINE_COMPUTE];

	return sysfs_emit(buf, "%llu\n", vcuda_busy_ns(b));
}
static DEVICE_ATTR_RO(busy_compute_ns);

static ssize_t busy_copy_ns_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct vcuda_busy *b = &dev_to_vcuda(dev)->busy[DRM_VCUDA_ENGINE_COPY];

	return sysfs_emit(buf, "%llu\n", vcuda_busy_ns(b));
}
static DEVICE_ATTR_RO(busy_copy_ns);

static ssize_t utilization_compute_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct vcuda_busy *b = &dev_to_vcuda(dev)->busy[DRM_VCUDA_ENGINE_COMPUTE];

	return sysfs_emit(buf, "%u\n", vcuda_busy_utilization(b));
}
static DEVICE_ATTR_RO(utilization_compute);

static ssize_t utilization_copy_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct vcuda_busy *b = &dev_to_vcuda(dev)->busy[DRM_VCUDA_ENGINE_COPY];

	return sysfs_emit(buf, "%u\n", vcuda_busy_utilization(b));
}
static DEVICE_ATTR_RO(utilization_copy);

static ssize_t utilization_window_ms_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	return sysfs_emit(buf, "%u\n", VCUDA_UTIL_WINDOW_MS);
}
static DEVICE_ATTR_RO(utilization_window_ms);

static ssize_t faults_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_vcuda(dev)->faults));
}
static DEVICE_ATTR_RO(faults);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int val;

	if (kstrtouint(buf, 10, &val) || val != 1)
		return -EINVAL;
	vcuda_device_reset(dev_to_vcuda(dev));
	return count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *vcuda_sysfs_attrs[] = {
	&dev_attr_index.attr,
	&dev_attr_uuid.attr,
	&dev_attr_name.attr,
	&dev_attr_vram_total.attr,
	&dev_attr_vram_used.attr,
	&dev_attr_host_pinned.attr,
	&dev_attr_compute_mode.attr,
	&dev_attr_busy_compute_ns.attr,
	&dev_attr_busy_copy_ns.attr,
	&dev_attr_utilization_compute.attr,
	&dev_attr_utilization_copy.attr,
	&dev_attr_utilization_window_ms.attr,
	&dev_attr_faults.attr,
	&dev_attr_reset.attr,
	NULL,
};

static const struct attribute_group vcuda_sysfs_group = {
	.attrs = vcuda_sysfs_attrs,
};

const struct attribute_group *vcuda_sysfs_groups[] = {
	&vcuda_sysfs_group,
	NULL,
};
