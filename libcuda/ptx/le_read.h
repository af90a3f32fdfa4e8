/* SPDX-License-Identifier: MIT */
/*
 * Reads of little-endian integers at any alignment, for the readers of
 * binary images (fatbin.c, hostobj.c): the host is little endian, as
 * every format they read.
 */
#ifndef VCUDA_PTX_LE_READ_H
#define VCUDA_PTX_LE_READ_H

#include <stdint.h>
#include <string.h>

static inline uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
