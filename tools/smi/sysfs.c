// SPDX-License-Identifier: MIT
/*
 * vsmi: reading and writing one-value sysfs attributes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsmi.h"

int vsmi_attr_read(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[VSMI_PATH_MAX * 2];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int vsmi_attr_u64(const char *dir, const char *attr, uint64_t *val)
{
	char buf[64], *end;
	int ret = vsmi_attr_read(dir, attr, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

int vsmi_attr_write(const char *dir, const char *attr, const char *value)
{
	char path[VSMI_PATH_MAX * 2];
	size_t len = strlen(value);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	if (close(fd))
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}
