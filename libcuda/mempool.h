/* SPDX-License-Identifier: MIT */
/*
 * The stream-ordered allocator: memory pools of a device, each a set of
 * blocks (a buffer object each, mapped at its own address and bound in
 * the contexts of the devices with access, see devmap.h). A block freed
 * with cuMemFreeAsync remembers the point of the freeing stream's
 * timeline; it is given out again at once on that stream, on another
 * once that point has passed (or after the allocating stream is made to
 * wait for it), and returned to the device at synchronizations once the
 * pool holds more than its release threshold.
 */
#ifndef VCUDA_MEMPOOL_H
#define VCUDA_MEMPOOL_H

#include <stdint.h>

#include <cuda.h>

struct CUstream_st;
struct vc_alloc;

/* Allocates @size bytes from @pool in the order of @stream. */
CUresult mempool_alloc(CUmemoryPool pool, uint64_t size,
		       struct CUstream_st *stream, uint64_t *va);
/* Frees pool memory @alloc in the order of @stream (NULL: at once). */
CUresult mempool_free(const struct vc_alloc *alloc, struct CUstream_st *stream);

/* cuMemFree of pool memory: at once (see mempool.c for its accounting). */
CUresult mempool_free_sync(const struct vc_alloc *alloc);
/* Unmaps memory imported from another process's pool (mempool_ipc.c). */
CUresult mempool_free_import(const struct vc_alloc *alloc,
			     struct CUstream_st *stream);

/* The device's current pool (cuDeviceGetMemPool). */
CUmemoryPool mempool_current(int ordinal);

/* A synchronization happened: pools over their threshold give memory back. */
void mempool_release_idle(void);
/* A stream goes: what it freed is free for everyone (it has finished). */
void mempool_stream_gone(struct CUstream_st *stream);

#endif
