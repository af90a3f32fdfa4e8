// SPDX-License-Identifier: MIT
/*
 * Mapping buffer objects into the process: mmap() on the render node at
 * the object's fake offset, MAP_FIXED over a range reserved first, so
 * that the address can be chosen (aligned) before anything is mapped.
 */
#include <sys/mman.h>

#include "api.h"
#include "device.h"
#include "hostmap.h"
#include "kmd.h"

#define PAGE_SIZE DRM_VCUDA_PAGE_SIZE
#define LARGE_PAGE DRM_VCUDA_LARGE_PAGE_SIZE

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) & ~(to - 1);
}

void *hostmap_reserve(uint64_t size, uint64_t align)
{
	uint64_t span = size + align - PAGE_SIZE;
	uint8_t *base, *aligned;

	if (align < PAGE_SIZE || span < size)
		return NULL;
	base = mmap(NULL, span, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	aligned = (uint8_t *)round_up((uintptr_t)base, align);
	if (aligned > base)
		munmap(base, aligned - base);
	if (aligned + size < base + span)
		munmap(aligned + size, base + span - (aligned + size));
	return aligned;
}

CUresult hostmap_map_at(struct vc_device *dev, uint32_t bo, uint64_t va,
			uint64_t size)
{
	uint64_t offset;
	void *mapped;
	int err = kmd_bo_mmap_offset(dev->fd, bo, &offset);

	if (err)
		return result_from_errno(err);
	mapped = mmap((void *)(uintptr_t)va, size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_FIXED, dev->fd, offset);
	return mapped == MAP_FAILED ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

CUresult hostmap_map(struct vc_device *dev, uint32_t bo, uint64_t size,
		     uint64_t *va)
{
	void *where = hostmap_reserve(size, size >= LARGE_PAGE ? LARGE_PAGE
							       : PAGE_SIZE);
	CUresult res;

	if (!where)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = hostmap_map_at(dev, bo, (uintptr_t)where, size);
	if (res != CUDA_SUCCESS) {
		munmap(where, size);
		return res;
	}
	*va = (uintptr_t)where;
	return CUDA_SUCCESS;
}

void hostmap_unmap_keep(uint64_t va, uint64_t size)
{
	mmap((void *)(uintptr_t)va, size, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

void hostmap_release(uint64_t va, uint64_t size)
{
	munmap((void *)(uintptr_t)va, size);
}
