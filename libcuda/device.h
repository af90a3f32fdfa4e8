/* SPDX-License-Identifier: MIT */
/*
 * The vcuda devices of this process: one open render node each, found by
 * cuInit, ordered by the module's device index.
 */
#ifndef VCUDA_DEVICE_H
#define VCUDA_DEVICE_H

#include <pthread.h>

#include <cuda.h>

#include "vcuda_drm.h"

#define MAX_DEVICES 64

struct vc_device {
	int ordinal;
	int fd;				/* render node, open for the process */
	struct drm_vcuda_device_info info;

	/* The primary context, created on first retain. */
	pthread_mutex_t primary_lock;
	struct CUctx_st *primary;
	unsigned int primary_refs;
	unsigned int primary_flags;
};

/* Finds the devices (called once, by cuInit). */
CUresult devices_discover(void);

int device_count(void);

/* The device of ordinal @dev, or NULL (also before cuInit). */
struct vc_device *device_get(CUdevice dev);

/* Device attribute by CUDA's enum; false for an unknown attribute. */
int device_attribute(const struct vc_device *dev, CUdevice_attribute attr,
		     int *value);

#endif
