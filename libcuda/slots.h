/* SPDX-License-Identifier: MIT */
/*
 * 8-byte slots of device-visible memory for the device to write and the
 * CPU to read (event timestamps) or the CPU to write and the device to
 * wait on (host-callback semaphores). Carved from one page at a time.
 */
#ifndef VCUDA_SLOTS_H
#define VCUDA_SLOTS_H

#include <cuda.h>
#include <stdint.h>

struct CUctx_st;
struct slot_page;

/* A zeroed slot of @ctx; its address is the same for CPU and device. */
CUresult slot_alloc(struct CUctx_st *ctx, uint64_t *va);
void slot_free(struct CUctx_st *ctx, uint64_t va);
/* Forgets the pages (their memory goes with the context's allocations). */

#endif
