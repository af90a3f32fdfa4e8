// SPDX-License-Identifier: MIT
/*
 * Running CTAs on compiled code: per-worker CTA memory, the region loop
 * (one call of the kernel's function per barrier interval), and the
 * helpers generated code calls when its inline checks do not pass.
 */
#include "interp.h"
#include "jit.h"
#include "whole_access.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Launches with more ranges than this learn their sites' ranges anew
 * at every ptx_run_ctas() call. */
#define SITES_KEY_RANGES 8

/* The kernel and the launch's ranges that a worker's sites' cached
 * ranges came from. */
struct sites_key {
	uint64_t kernel;	/* jit_kernel.serial */
	const uint64_t *sites;	/* where they are kept */
	uint32_t nranges;	/* 0: nothing learnt worth keeping */
	struct ptx_mem_range ranges[SITES_KEY_RANGES];
};

/* A worker's memory for one CTA, kept across launches. */
struct jit_worker {
	uint8_t *shared;
	uint64_t shared_cap;
	uint64_t *save;
	uint64_t save_cap;	/* elements */
	uint8_t *exited;
	uint32_t exited_cap;
	uint64_t *sites;
	uint64_t sites_cap;	/* elements */
	/* What the sites' ranges were learnt for: kept from one
	 * ptx_run_ctas() call to the next of a launch like it. */
	struct sites_key sites_key;
	uint32_t *vstate;	/* the vector form's hand-over */
	uint64_t vstate_cap;
	uint64_t *dsave;	/* [register][thread] where groups part */
	uint64_t dsave_cap;
	struct jit_fibers *fibers;	/* cooperative launches' CTAs */
};

void jit_cta_memory_free(struct jit_worker *j)
{
	if (!j)
		return;
	free(j->shared);
	free(j->save);
	free(j->exited);
	free(j->sites);
	free(j->vstate);
	free(j->dsave);
	jit_fibers_free(j->fibers);
	free(j);
}

struct jit_fibers **jit_worker_fibers(struct ptx_worker *wk)
{
	if (!wk->jit && !(wk->jit = calloc(1, sizeof(*wk->jit))))
		return NULL;
	return &wk->jit->fibers;
}

void jit_worker_free(struct ptx_worker *wk)
{
	jit_cta_memory_free(wk->jit);
	wk->jit = NULL;
}

/* @align: at least 64, a power of two (the kernel's .shared alignment) */
static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem,
		 uint32_t align)
{
	if (align < 64)
		align = 64;
	if (need <= *cap && !((uintptr_t)*p & (align - 1)))
		return true;
	void *q = aligned_alloc(align, ALIGN_UP(need * elem, align));
	if (!q)
		return false;
	free(*p);
	*p = q;
	*cap = need;
	return true;
}

static struct jit_worker *worker_memory(struct jit_worker **jp,
					uint64_t shared, uint32_t shared_align,
					uint64_t saves, uint32_t threads,
					uint32_t sites, uint32_t nregs)
{
	struct jit_worker *j = *jp;
	uint64_t ecap;
	if (!j && !(j = *jp = calloc(1, sizeof(*j))))
		return NULL;
	ecap = j->exited_cap;
	if (!grow((void **)&j->shared, &j->shared_cap, shared ? shared : 1,
		  1, shared_align) ||
	    !grow((void **)&j->save, &j->save_cap, saves ? saves : 1, 8, 64) ||
	    !grow((void **)&j->exited, &ecap, threads, 1, 64) ||
	    !grow((void **)&j->sites, &j->sites_cap, 2ull * sites + 2, 8, 64) ||
	    !grow((void **)&j->vstate, &j->vstate_cap, threads, 4, 64) ||
	    !grow((void **)&j->dsave, &j->dsave_cap,
		  (uint64_t)threads * (nregs ? nregs : 1), 8, 64))
		return NULL;
	j->exited_cap = (uint32_t)ecap;
	return j;
}

/* ---- helpers for generated code ---- */

/* Adds where the faulting instruction is, as the interpreter does. */
static void locate(struct jit_cta *c, uint32_t line)
{
	struct ptx_fault *f = c->rt->fault;
	const struct ir_sym *fn = c->rt->kernel->sym;
	size_t len = strnlen(f->message, sizeof(f->message));
	struct msgbuf m = { f->message, sizeof(f->message), len };
	if (line)
		msg_printf(&m, " (%s:%u, in %s)", fn->module->name, line,
			   fn->name);
}

uint8_t *jit_global(struct jit_cta *c, uint32_t thread, uint64_t addr,
		    uint32_t size, uint32_t write, uint32_t line,
		    uint32_t site)
{
	bool first = !c->rt->faulted;
	uint8_t *p = rt_global(c->rt, thread, addr, size, write);
	const struct ptx_mem_range *r = c->rt->last_range;
	if (!p) {
		if (first)
			locate(c, line);
		return NULL;
	}
	/* the range just used is this instruction's likely next one; the
	 * inline check (jit_emit_mem.c) needs its start aligned to size */
	if (r && r->writable && addr >= r->start && addr < r->end &&
	    !(r->start & (size - 1))) {	/* size: a power of two */
		c->sites[2 * site] = r->start;
		c->sites[2 * site + 1] = r->end - r->start;
	}
	return p;
}

void jit_shared_fault(struct jit_cta *c, uint32_t thread, uint64_t addr,
		      uint32_t size, uint32_t line)
{
	bool first = !c->rt->faulted;
	if (!rt_shared(c->rt, thread, addr, size) && first)
		locate(c, line);
}

void jit_barrier_fault(struct jit_cta *c, uint32_t thread, uint32_t line)
{
	bool first = !c->rt->faulted;
	rt_fault(c->rt, PTX_FAULT_ILLEGAL_INSTRUCTION, thread, 0,
		 "threads of a CTA wait at different barriers (the JIT "
		 "needs them to meet; VCUDA_EXECUTOR=interp runs this)");
	if (first)
		locate(c, line);
}

void jit_trap(struct jit_cta *c, uint32_t thread, uint32_t line,
	      uint32_t brkpt)
{
	bool first = !c->rt->faulted;
	rt_fault(c->rt, PTX_FAULT_TRAP, thread, 0, "%s",
		 brkpt ? "brkpt" : "trap");
	if (first)
		locate(c, line);
}

static uint64_t read_bits(const uint8_t *p, uint32_t size)
{
	uint8_t b8;
	uint16_t b16;
	uint32_t b32;
	uint64_t b64;
	switch (size) {
	case 1: memcpy(&b8, p, 1); return b8;
	case 2: memcpy(&b16, p, 2); return b16;
	case 4: memcpy(&b32, p, 4); return b32;
	default: memcpy(&b64, p, 8); return b64;
	}
}

static void write_bits(uint8_t *p, uint64_t v, uint32_t size)
{
	uint8_t b8 = (uint8_t)v;
	uint16_t b16 = (uint16_t)v;
	uint32_t b32 = (uint32_t)v;
	switch (size) {
	case 1: memcpy(p, &b8, 1); break;
	case 2: memcpy(p, &b16, 2); break;
	case 4: memcpy(p, &b32, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

/* The inline check of jit_emit_mem.c: @addr, aligned to @bytes (a power
 * of two), inside the writable range @site used last. */
static bool in_site_range(const struct jit_cta *c, uint32_t site,
			  uint64_t addr, uint32_t bytes)
{
	uint64_t lo = c->sites[2 * site], len = c->sites[2 * site + 1];
	return !(addr & (bytes - 1)) && addr >= lo && addr - lo < len &&
	       len - (addr - lo) >= bytes;
}

/* A lane's host pointer, checked as jit_emit_mem.c's inline code and
 * its helpers check; NULL after a fault. */
static uint8_t *lane_pointer(struct jit_cta *c, uint32_t thread,
			     uint64_t addr, uint32_t bytes, uint32_t flags,
			     uint32_t line, uint32_t site)
{
	if (!(flags & JIT_LANES_SHARED)) {
		if (in_site_range(c, site, addr, bytes))
			return (uint8_t *)(uintptr_t)addr;
		return jit_global(c, thread, addr, bytes,
				  flags & JIT_LANES_WRITE, line, site);
	}
	uint64_t off = (uint32_t)addr;
	if (off % bytes || off + bytes > c->shared_size) {
		jit_shared_fault(c, thread, addr, bytes, line);
		return NULL;
	}
	return c->shared + off;
}

/* Every lane's access passes the inline check (in_site_range, or the
 * shared window's): then no lane can fault. */
static bool lanes_all_fine(const struct jit_cta *c, uint32_t lanes,
			   const uint64_t *addr, uint32_t bytes,
			   uint32_t flags, uint32_t site)
{
	uint64_t lo = c->sites[2 * site], len = c->sites[2 * site + 1];
	uint64_t bad = 0;
	if (flags & JIT_LANES_SHARED) {
		lo = 0;
		len = c->shared_size;
	}
	/* no branch per lane: misaligned, below, or past the window */
	for (uint32_t l = 0; l < lanes; l++) {
		uint64_t a = flags & JIT_LANES_SHARED ? (uint32_t)addr[l] :
							addr[l];
		uint64_t d = a - lo;
		bad |= (a & (bytes - 1)) | (uint64_t)(a < lo) |
		       (uint64_t)(d >= len || len - d < bytes);
	}
	return !bad;
}

/* Lane @l's @n elements of @size bytes at @p, as one access when they
 * make 8 or 16 bytes (whole_access.h). */
static inline __attribute__((always_inline)) void
copy_lane(uint8_t *p, uint64_t *vals, uint32_t lanes, uint32_t l,
	  uint32_t size, uint32_t n, bool write)
{
	uint8_t buf[WHOLE_MAX] __attribute__((aligned(16)));
	if (n == 1) {
		if (write)
			write_bits(p, vals[l], size);
		else
			vals[l] = read_bits(p, size);
		return;
	}
	if (!write)
		whole_read(p, size * n, buf);
	for (uint32_t k = 0; k < n; k++) {
		if (write)
			write_bits(buf + k * size, vals[k * lanes + l], size);
		else
			vals[k * lanes + l] = read_bits(buf + k * size, size);
	}
	if (write)
		whole_write(p, size * n, buf);
}

/* The lanes' elements in lane order; @size a constant where inlined. */
static inline __attribute__((always_inline)) void
copy_lanes(uint8_t *base, bool shared, uint32_t lanes, const uint64_t *addr,
	   uint64_t *vals, uint32_t size, uint32_t n, bool write)
{
	for (uint32_t l = 0; l < lanes; l++) {
		uint8_t *p = shared ? base + (uint32_t)addr[l] :
				      (uint8_t *)(uintptr_t)addr[l];
		copy_lane(p, vals, lanes, l, size, n, write);
	}
}

/* The common case of jit_lanes_access(): a copy specialised by size. */
static void copy_fine_lanes(struct jit_cta *c, uint32_t lanes,
			    const uint64_t *addr, uint64_t *vals,
			    uint32_t size, uint32_t n, uint32_t flags)
{
	bool sh = flags & JIT_LANES_SHARED, wr = flags & JIT_LANES_WRITE;
	/* the usual: one int per lane */
	if (n == 1 && size == 4 && !sh) {
		if (wr)
			copy_lanes(NULL, false, lanes, addr, vals, 4, 1, true);
		else
			copy_lanes(NULL, false, lanes, addr, vals, 4, 1, false);
		return;
	}
	switch (size) {
	case 1: copy_lanes(c->shared, sh, lanes, addr, vals, 1, n, wr); break;
	case 2: copy_lanes(c->shared, sh, lanes, addr, vals, 2, n, wr); break;
	case 4: copy_lanes(c->shared, sh, lanes, addr, vals, 4, n, wr); break;
	default: copy_lanes(c->shared, sh, lanes, addr, vals, 8, n, wr); break;
	}
}

int32_t jit_lanes_access(struct jit_cta *c, uint32_t first, uint32_t lanes,
			 uint32_t active, const uint64_t *addr,
			 uint64_t *vals, uint32_t size, uint32_t n,
			 uint32_t flags, uint32_t line, uint32_t site)
{
	uint32_t all = lanes < 32 ? (1u << lanes) - 1 : ~0u;
	if (active == all &&
	    lanes_all_fine(c, lanes, addr, size * n, flags, site)) {
		copy_fine_lanes(c, lanes, addr, vals, size, n, flags);
		return 0;
	}
	for (uint32_t l = 0; l < lanes; l++) {
		if (!(active >> l & 1))
			continue;
		uint8_t *p = lane_pointer(c, first + l, addr[l], size * n, flags,
					  line, site);
		if (!p)
			return 1;
		copy_lane(p, vals, lanes, l, size, n, flags & JIT_LANES_WRITE);
	}
	return 0;
}

int32_t jit_poll(struct jit_cta *c, uint32_t thread)
{
	const atomic_bool *kill = c->rt->launch->kill;
	if (kill && atomic_load_explicit(kill, memory_order_relaxed)) {
		rt_fault(c->rt, PTX_FAULT_KILLED, thread, 0,
			 "launch stopped: its context faulted or is going "
			 "away");
		return 1;
	}
	/* not stopped: the flag is a cooperative launch's (jit_fiber.c) */
	jit_fiber_yield();
	return 0;
}

/* ---- CTAs ---- */

static bool same_range(const struct ptx_mem_range *a,
		       const struct ptx_mem_range *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->writable == b->writable;
}

/*
 * The sites' cached ranges were learnt by this kernel's code in a launch
 * with the same ranges as @l: each is still one of @l's writable ranges,
 * its start aligned for the site's access, so they are kept. A launch
 * runs its CTAs a few at a time (ptx_run_ctas), and learning them anew
 * at each call cost vectorAdd a lane-by-lane access per site per call.
 */
static bool sites_learnt_for(const struct sites_key *k,
			     const struct jit_kernel *jk,
			     const struct ptx_launch *l, const uint64_t *sites)
{
	if (!k->nranges || k->kernel != jk->serial || k->sites != sites ||
	    k->nranges != l->range_count)
		return false;
	for (uint32_t i = 0; i < k->nranges; i++)
		if (!same_range(&k->ranges[i], &l->ranges[i]))
			return false;
	return true;
}

static void remember_sites(struct sites_key *k, const struct jit_kernel *jk,
			   const struct ptx_launch *l, const uint64_t *sites)
{
	k->nranges = 0;
	if (!l->ranges || !l->range_count ||
	    l->range_count > SITES_KEY_RANGES)
		return;
	k->kernel = jk->serial;
	k->sites = sites;
	k->nranges = l->range_count;
	memcpy(k->ranges, l->ranges, l->range_count * sizeof(l->ranges[0]));
}

static void set_up(struct jit_cta *jc, struct rt_cta *rt,
		   const struct ptx_launch *l, struct jit_worker *j,
		   const struct jit_kernel *jk)
{
	memset(jc, 0, sizeof(*jc));
	jc->rt = rt;
	jc->shared = j->shared;
	jc->params = l->params;
	jc->save = j->save;
	jc->exited = j->exited;
	jc->vstate = j->vstate;
	jc->dsave = j->dsave;
	memcpy(jc->ntid, l->block, sizeof(jc->ntid));
	memcpy(jc->nctaid, l->grid, sizeof(jc->nctaid));
	jc->nthreads = rt->nthreads;
	jc->shared_size = rt->shared_size;
	jc->nregs = jk->nregs;
	jc->sites = j->sites;
	jc->globals = jk->globals;
	static const atomic_bool never;
	jc->kill = l->kill ? l->kill : &never;
	jc->spin = jc->kill;
	if (sites_learnt_for(&j->sites_key, jk, l, j->sites))
		return;
	for (uint32_t s = 0; s < jk->nsites; s++) {
		/* the host harness: any address past 4 KiB; else learnt */
		j->sites[2 * s] = l->ranges ? 0 : 4096;
		j->sites[2 * s + 1] = l->ranges ? 0 : UINT64_MAX - 4096;
	}
	remember_sites(&j->sites_key, jk, l, j->sites);
}

/* The coordinates of the CTA @linear: in a 1-D grid without the four
 * 64-bit divisions (vectorAdd runs 65536 CTAs of about 1000 cycles). */
static void cta_coords(const struct ptx_launch *l, uint64_t linear,
		       uint32_t id[3])
{
	if (l->grid[1] == 1 && l->grid[2] == 1) {
		id[0] = (uint32_t)linear;
		id[1] = id[2] = 0;
		return;
	}
	id[0] = (uint32_t)(linear % l->grid[0]);
	id[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
	id[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
}

bool jit_cta_run(struct jit_cta *jc, const struct jit_kernel *jk,
		 uint64_t linear)
{
	const struct ptx_launch *l = jc->rt->launch;
	cta_coords(l, linear, jc->ctaid);
	memcpy(jc->rt->ctaid, jc->ctaid, sizeof(jc->ctaid));
	if (jc->shared_size)
		memset(jc->shared, 0, jc->shared_size);
	memset(jc->exited, 0, jc->nthreads);
	memset(jc->vstate, 0, jc->nthreads * sizeof(*jc->vstate));
	int32_t region = 0;
	for (;;) {
		const atomic_bool *kill = l->kill;
		if (kill && atomic_load_explicit(kill, memory_order_relaxed))
			return rt_fault(jc->rt, PTX_FAULT_KILLED, 0, 0,
					 "launch stopped: its context faulted "
					 "or is going away");
		jc->next_region = -1;
		if (jk->entry(jc, region) || jc->rt->faulted)
			return false;
		if (jc->next_region < 0)
			return true;	/* every thread exited */
		region = jc->next_region;
	}
}

bool jit_cta_open(struct ptx_worker *wk, const struct ptx_launch *launch,
		  struct ptx_fault *fault, struct jit_worker **mem,
		  struct rt_cta *rt, struct jit_cta *jc)
{
	const struct ptx_kernel *k = launch->kernel;
	const struct jit_kernel *jk = k->jit;
	*rt = (struct rt_cta){ .launch = launch, .kernel = k, .worker = wk,
			       .smid = wk->smid, .fault = fault };
	rt->nthreads = launch->block[0] * launch->block[1] * launch->block[2];
	rt->nwarps = (rt->nthreads + WARP_SIZE - 1) / WARP_SIZE;
	rt_cta_shared_window(rt);
	struct jit_worker *j = worker_memory(mem, rt->shared_size,
					     k->layout.shared_align,
					     (uint64_t)rt->nthreads * jk->nregs,
					     rt->nthreads, jk->nsites,
					     k->sym->func->nregs);
	if (!j) {
		fault->kind = PTX_FAULT_OUT_OF_RESOURCES;
		strcpy(fault->message, "out of memory for a CTA");
		return false;
	}
	rt->shared = j->shared;
	set_up(jc, rt, launch, j, jk);
	return true;
}

bool jit_run_ctas(struct ptx_worker *wk, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault)
{
	if (!launch_is_valid(launch, fault))
		return false;
	memset(fault, 0, sizeof(*fault));
	struct rt_cta rt;
	struct jit_cta jc;
	if (!jit_cta_open(wk, launch, fault, &wk->jit, &rt, &jc))
		return false;
	for (uint64_t i = first; i < first + count; i++)
		if (!jit_cta_run(&jc, launch->kernel->jit, i))
			return false;
	return true;
}
