// SPDX-License-Identifier: MIT
/*
 * Naming and reading back dma-bufs: "vcuda-dev<index>", index being the
 * kernel's device index, which is the same for every process.
 */
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "api.h"
#include "device.h"
#include "dmabuf.h"
#include "kmd.h"

#define NAME_PREFIX "vcuda-dev"

CUresult dmabuf_export(struct vc_device *dev, uint32_t bo, int *fd)
{
	char name[32];
	int err = kmd_prime_export(dev->fd, bo, fd);

	if (err)
		return result_from_errno(err);
	snprintf(name, sizeof(name), NAME_PREFIX "%u", dev->info.index);
	if (ioctl(*fd, DMA_BUF_SET_NAME_B, name)) {
		close(*fd);
		return CUDA_ERROR_UNKNOWN;
	}
	return CUDA_SUCCESS;
}

/* The "name:" line of @fd's fdinfo, if it has one. */
static int read_name(int fd, char *name, size_t len)
{
	char path[64], line[128];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "name:", 5) == 0) {
			found = sscanf(line + 5, "%31s", name) == 1;
			name[len - 1] = '\0';
		}
	}
	fclose(f);
	return found;
}

struct vc_device *dmabuf_device(int fd)
{
	char name[32];
	unsigned int index;

	if (!read_name(fd, name, sizeof(name)) ||
	    sscanf(name, NAME_PREFIX "%u", &index) != 1)
		return NULL;
	for (int i = 0; i < device_count(); i++)
		if (device_get(i)->info.index == index)
			return device_get(i);
	return NULL;
}

uint64_t dmabuf_size(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);

	return end > 0 ? (uint64_t)end : 0;
}
