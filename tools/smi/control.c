// SPDX-License-Identifier: MIT
/*
 * vsmi: what root may change: the compute mode and a device reset.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "kmd.h"
#include "vsmi.h"

/* A missing attribute means this module cannot do it. */
static int attr_write_op(const struct vsmi_device *dev, const char *attr,
			 const char *value)
{
	int ret = vsmi_attr_write(dev->sysfs, attr, value);

	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

int vsmi_set_compute_mode(const struct vsmi_device *dev, int mode)
{
	const char *name = vsmi_compute_mode_name(mode);

	if (!name)
		return -EINVAL;
	return attr_write_op(dev, "compute_mode", name);
}

/* DRM_IOCTL_VCUDA_DEVICE_RESET, for a module without the sysfs file. */
static int reset_ioctl(const struct vsmi_device *dev)
{
	int fd, ret;

	if (!dev->render[0])
		return -EOPNOTSUPP;
	fd = open(dev->render, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kmd_device_reset(fd);
	if (ret == -ENOTTY || ret == -EINVAL)
		ret = -EOPNOTSUPP;
	close(fd);
	return ret;
}

int vsmi_reset(const struct vsmi_device *dev)
{
	int ret = vsmi_attr_write(dev->sysfs, "reset", "1");

	if (ret == -ENOENT)
		return reset_ioctl(dev);
	return ret;
}
