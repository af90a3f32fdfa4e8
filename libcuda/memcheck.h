/* SPDX-License-Identifier: MIT */
/*
 * VCUDA_MEMCHECK=1: exact bounds checking of kernels' global accesses,
 * as compute-sanitizer's memcheck does. By default a kernel may touch
 * the whole pages that back an allocation, as on a GPU (whose
 * allocations are rounded to pages too); with the mode on, the ranges a
 * launch may touch are the allocations' own bytes, so one element past
 * the end faults with CUDA_ERROR_ILLEGAL_ADDRESS.
 */
#ifndef VCUDA_MEMCHECK_H
#define VCUDA_MEMCHECK_H

#include <stdbool.h>

/* Read once per process, at the first call. */
bool memcheck_enabled(void);

#endif
