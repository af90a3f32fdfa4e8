/* SPDX-License-Identifier: MIT */
/*
 * The process side of unified addressing: where a buffer object appears
 * in the process. Its address there is its device address too, so the
 * address space is shared by every device and every kind of memory;
 * ranges are kept (PROT_NONE) before objects are mapped into them.
 */
#ifndef VCUDA_HOSTMAP_H
#define VCUDA_HOSTMAP_H

#include <stdint.h>

#include <cuda.h>

struct vc_device;

/* A free range of @size bytes aligned to @align, reserved PROT_NONE. */
void *hostmap_reserve(uint64_t size, uint64_t align);
/* Maps object @bo of @dev over [va, va + size), inside a reserved range. */
CUresult hostmap_map_at(struct vc_device *dev, uint32_t bo, uint64_t va,
			uint64_t size);
/* Maps @bo at a new address (2 MiB-aligned from 2 MiB on). */
CUresult hostmap_map(struct vc_device *dev, uint32_t bo, uint64_t size,
		     uint64_t *va);
/* Turns [va, va + size) back into a reserved range (the object goes). */
void hostmap_unmap_keep(uint64_t va, uint64_t size);
/* Gives [va, va + size) back to the process. */
void hostmap_release(uint64_t va, uint64_t size);

#endif
