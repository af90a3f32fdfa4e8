// SPDX-License-Identifier: MIT
/*
 * Address checks for every back end: each access is aligned, inside the
 * CTA's shared block, the thread's local stack or the parameter buffer,
 * or (global, const, generic) inside one of the launch's ranges. How
 * exact those ranges are is the driver's choice: whole mapped pages by
 * default, the allocations' own bytes under VCUDA_MEMCHECK=1.
 */
#include "cdp.h"
#include "rt.h"

static bool in_block(uint64_t addr, unsigned size, const void *base,
		     uint64_t len)
{
	uint64_t b = (uintptr_t)base;
	return addr >= b && addr - b + size <= len;
}

/* The launch range holding [addr, addr + size), or NULL. */
static const struct ptx_mem_range *find_range(const struct ptx_launch *l,
					      uint64_t addr, unsigned size)
{
	size_t lo = 0, hi = l->range_count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct ptx_mem_range *r = &l->ranges[mid];
		if (addr < r->start)
			hi = mid;
		else if (addr >= r->end)
			lo = mid + 1;
		else
			return addr + size <= r->end ? r : NULL;
	}
	return NULL;
}

static bool misaligned(struct rt_cta *c, uint32_t thread, uint64_t addr,
		       unsigned size)
{
	if (!(addr & (size - 1)))
		return false;
	return !rt_fault(c, PTX_FAULT_MISALIGNED, thread, addr,
			 "misaligned %u-byte access at 0x%llx", size,
			 (unsigned long long)addr);
}

/* Generic addresses of the CTA's own windows, and of the parameters. */
static bool own_memory(const struct rt_cta *c, uint64_t addr, unsigned size,
		       bool write)
{
	return in_block(addr, size, c->shared, c->shared_size) ||
	       in_block(addr, size, c->local, c->local_size) ||
	       (!write && in_block(addr, size, c->launch->params,
				   c->kernel->info.param_size));
}

uint8_t *rt_global(struct rt_cta *c, uint32_t thread, uint64_t addr,
		   unsigned size, bool write)
{
	const struct ptx_mem_range *r = c->last_range;
	if (misaligned(c, thread, addr, size))
		return NULL;
	if (!c->launch->ranges) {
		if (addr >= 4096)
			return (uint8_t *)(uintptr_t)addr;
		rt_fault(c, PTX_FAULT_UNMAPPED, thread, addr,
			 "null address 0x%llx", (unsigned long long)addr);
		return NULL;
	}
	if (r && addr >= r->start && addr + size <= r->end &&
	    (r->writable || !write))
		return (uint8_t *)(uintptr_t)addr;
	if (own_memory(c, addr, size, write))
		return (uint8_t *)(uintptr_t)addr;
	r = find_range(c->launch, addr, size);
	/* the parameter buffers of launches a kernel is preparing */
	if (!r && c->launch->cdp &&
	    (rt_cdp_param_window(c->launch, addr, size) ||
	     (!write && rt_cdp_text(addr, size))))
		return (uint8_t *)(uintptr_t)addr;
	if (!r) {
		rt_fault(c, PTX_FAULT_UNMAPPED, thread, addr,
			 "%s of %u bytes at unmapped 0x%llx",
			 write ? "write" : "read", size,
			 (unsigned long long)addr);
		return NULL;
	}
	if (write && !r->writable) {
		rt_fault(c, PTX_FAULT_READ_ONLY, thread, addr,
			 "write to read-only 0x%llx", (unsigned long long)addr);
		return NULL;
	}
	c->last_range = r;
	return (uint8_t *)(uintptr_t)addr;
}

const struct ptx_mem_range *rt_global_span(struct rt_cta *c, uint64_t lo,
					   uint64_t hi, unsigned size,
					   bool write)
{
	const struct ptx_mem_range *r = c->last_range;
	uint64_t end = hi + size;
	if (end < hi || !c->launch->ranges)
		return NULL;
	if (!r || lo < r->start || end > r->end) {
		r = find_range(c->launch, lo, 1);
		if (!r || end > r->end)
			return NULL;
	}
	if (write && !r->writable)
		return NULL;
	c->last_range = r;
	return r;
}

static uint8_t *window_fault(struct rt_cta *c, uint32_t thread,
			     uint64_t addr, const char *space, uint64_t limit)
{
	rt_fault(c, PTX_FAULT_UNMAPPED, thread, addr,
		 "%s address 0x%llx beyond 0x%llx", space,
		 (unsigned long long)addr, (unsigned long long)limit);
	return NULL;
}

#define SHARED_ALLOC_UNIT 128u

/* The kernel's static and dynamic shared bytes, the reserved region apart. */
static uint64_t shared_used(const struct rt_cta *c)
{
	const struct ptx_kernel *k = c->kernel;
	uint32_t dynamic = c->launch->dynamic_shared_size;

	return dynamic ? k->layout.dyn_shared_offset + (uint64_t)dynamic :
			 k->info.static_shared_size;
}

void rt_cta_shared_window(struct rt_cta *c)
{
	uint64_t end = shared_used(c);

	/* vcuda places the reserved region after the kernel's bytes. */
	if (c->kernel->layout.reserved_smem) {
		c->reserved_smem = ALIGN_UP(end, 16);
		end = c->reserved_smem + RESERVED_SMEM;
	}
	c->shared_size = ALIGN_UP(end, SHARED_ALLOC_UNIT);
}

uint64_t rt_total_smem_size(const struct rt_cta *c)
{
	return ALIGN_UP(shared_used(c), SHARED_ALLOC_UNIT);
}

uint8_t *rt_shared(struct rt_cta *c, uint32_t thread, uint64_t addr,
		   unsigned size)
{
	if (misaligned(c, thread, addr, size))
		return NULL;
	addr = (uint32_t)addr;
	if (addr + size > c->shared_size)
		return window_fault(c, thread, addr, "shared", c->shared_size);
	return c->shared + addr;
}

uint8_t *rt_local(struct rt_cta *c, uint32_t thread, uint64_t addr,
		  unsigned size)
{
	uint64_t stride = c->kernel->layout.local_stride;
	if (misaligned(c, thread, addr, size))
		return NULL;
	addr = (uint32_t)addr;
	if (addr + size > stride)
		return window_fault(c, thread, addr, "local", stride);
	return c->local + (uint64_t)thread * stride + addr;
}

uint8_t *rt_param(struct rt_cta *c, uint32_t thread, uint64_t addr,
		  unsigned size, bool write)
{
	uint32_t len = c->kernel->info.param_size;
	if (misaligned(c, thread, addr, size))
		return NULL;
	addr = (uint32_t)addr;
	if (write || addr + size > len)
		return window_fault(c, thread, addr, "parameter", len);
	return (uint8_t *)c->launch->params + addr;
}
