// SPDX-License-Identifier: MIT
/*
 * Device discovery and the cuDevice* API.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "device.h"
#include "kmd.h"
#include "visible.h"

static struct vc_device devices[MAX_DEVICES];
static int ndevices;

static int by_index(const void *a, const void *b)
{
	const struct vc_device *da = a, *db = b;

	return (int)da->info.index - (int)db->info.index;
}

/*
 * Drops the devices CUDA_VISIBLE_DEVICES hides and orders the rest; false
 * when it lists a device twice.
 */
static bool keep_visible(void)
{
	const char *spec = getenv("CUDA_VISIBLE_DEVICES");
	static struct vc_device all[MAX_DEVICES];
	uint8_t uuids[MAX_DEVICES][16];
	int order[MAX_DEVICES], shown;
	bool kept[MAX_DEVICES] = { false }, order_ok;

	if (!spec)
		return true;
	memcpy(all, devices, sizeof(all));
	for (int i = 0; i < ndevices; i++)
		memcpy(uuids[i], all[i].info.uuid, 16);
	shown = visible_devices(spec, (const uint8_t (*)[16])uuids, ndevices,
				order);
	order_ok = shown >= 0;
	if (!order_ok)
		shown = 0;
	for (int i = 0; i < shown; i++) {
		devices[i] = all[order[i]];
		kept[order[i]] = true;
	}
	for (int i = 0; i < ndevices; i++)
		if (!kept[i])
			close(all[i].fd);
	ndevices = shown;
	return order_ok;
}

CUresult devices_discover(void)
{
	int fds[MAX_DEVICES];
	int found = kmd_open_all(fds, MAX_DEVICES);

	for (int i = 0; i < found; i++) {
		struct vc_device *dev = &devices[ndevices];

		if (kmd_device_info(fds[i], &dev->info)) {
			close(fds[i]);
			continue;
		}
		dev->fd = fds[i];
		ndevices++;
	}
	qsort(devices, ndevices, sizeof(devices[0]), by_index);
	if (!keep_visible())
		return CUDA_ERROR_INVALID_DEVICE;
	for (int i = 0; i < ndevices; i++) {
		devices[i].ordinal = i;
		pthread_mutex_init(&devices[i].primary_lock, NULL);
	}
	debug_log("%d device(s)", ndevices);
	return ndevices ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

int device_count(void)
{
	return ndevices;
}

struct vc_device *device_get(CUdevice dev)
{
	if (dev < 0 || dev >= ndevices)
		return NULL;
	return &devices[dev];
}

CUDA_EXPORT CUresult cuDeviceGetCount(int *count)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = ndevices;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_get(ordinal))
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

/* Common prologue of the per-device queries. */
static CUresult lookup(CUdevice dev, const void *out, struct vc_device **vd)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	*vd = device_get(dev);
	return *vd ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUDA_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = lookup(dev, name, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	if (len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	strncpy(name, vd->info.name, len - 1);
	name[len - 1] = '\0';
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = lookup(dev, uuid, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	memcpy(uuid->bytes, vd->info.uuid, sizeof(uuid->bytes));
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = lookup(dev, bytes, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	*bytes = vd->info.vram_size;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor,
					       CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = lookup(dev, major, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	if (!minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = vd->info.cc_major;
	*minor = vd->info.cc_minor;
	return CUDA_SUCCESS;
}

/*
 * Deprecated, but still in CUDA 13's cuda.h and looked up by programs that
 * load the driver with dlsym (cuda-samples' matrixMulDynlinkJIT): every
 * field is a device attribute.
 */
CUDA_EXPORT CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
	static const CUdevice_attribute attrs[] = {
		CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
		CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
		CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
		CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
		CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
		CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
		CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
		CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
		CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
		CU_DEVICE_ATTRIBUTE_WARP_SIZE,
		CU_DEVICE_ATTRIBUTE_MAX_PITCH,
		CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
		CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
		CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
	};
	int v[sizeof(attrs) / sizeof(attrs[0])];
	struct vc_device *vd;
	CUresult res = lookup(dev, prop, &vd);

	for (size_t i = 0; res == CUDA_SUCCESS && i < sizeof(v) / sizeof(v[0]);
	     i++)
		res = cuDeviceGetAttribute(&v[i], attrs[i], dev);
	if (res != CUDA_SUCCESS)
		return res;
	_Static_assert(sizeof(*prop) == sizeof(v), "CUdevprop is 14 ints");
	memcpy(prop, v, sizeof(v));
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr,
					  CUdevice dev)
{
	struct vc_device *vd;
	CUresult res = lookup(dev, value, &vd);

	if (res != CUDA_SUCCESS)
		return res;
	return device_attribute(vd, attr, value) ? CUDA_SUCCESS
						 : CUDA_ERROR_INVALID_VALUE;
}

/* The first form, before MIG: the same UUID on vcuda, which has no MIG. */
CUDA_EXPORT CUresult device_get_uuid_v1(CUuuid *uuid, CUdevice dev)
	__asm__("cuDeviceGetUuid");
CUresult device_get_uuid_v1(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid(uuid, dev);
}
