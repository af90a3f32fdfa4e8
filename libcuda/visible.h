/* SPDX-License-Identifier: MIT */
/*
 * CUDA_VISIBLE_DEVICES: which of the devices a process sees, and in which
 * order (visible.c).
 */
#ifndef VCUDA_VISIBLE_H
#define VCUDA_VISIBLE_H

#include <stdint.h>

/*
 * Reads @spec (the variable's value) against @count devices, whose UUIDs
 * are @uuids, into @order: the devices to show, by position in @uuids, in
 * the order to show them. Returns how many.
 */
int visible_devices(const char *spec, const uint8_t (*uuids)[16], int count,
		    int *order);

#endif
