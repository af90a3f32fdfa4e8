/* SPDX-License-Identifier: MIT */
/*
 * Virtual memory management (cuMemCreate, cuMemMap, ...): physical
 * allocations are buffer objects, reservations are PROT_NONE ranges of
 * the process kept in every context too (MAP_SPARSE), and a mapping is
 * the object mapped over part of a reservation, bound in the contexts of
 * the devices given access (devmap.h).
 */
#ifndef VCUDA_VMM_H
#define VCUDA_VMM_H

#include <stdint.h>

#include <cuda.h>

/* Allocation granularity, minimum and recommended: a large page. */
#define VMM_GRANULARITY DRM_VCUDA_LARGE_PAGE_SIZE

#endif
