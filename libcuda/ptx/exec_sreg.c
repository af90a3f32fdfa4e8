// SPDX-License-Identifier: MIT
/*
 * Special registers: each one a program uses gets a slot (32 lanes) in
 * every warp's special-register block; a warp's start fills the slots
 * its kernel reads; clocks and timers are re-read by x_refresh_sreg
 * before each use.
 */
#include "lower.h"

#include <stdlib.h>

uint32_t sreg_slot(struct ptx_program *prog, unsigned sreg, unsigned comp)
{
	for (uint32_t i = 0; i < prog->interp->nsreg_slots; i++)
		if (prog->interp->sreg_slots[i].sreg == sreg &&
		    prog->interp->sreg_slots[i].comp == comp)
			return i;
	if (prog->interp->nsreg_slots == prog->interp->sreg_slot_cap) {
		uint32_t cap = prog->interp->sreg_slot_cap ? prog->interp->sreg_slot_cap * 2 :
						     16;
		struct sreg_slot *s = realloc(prog->interp->sreg_slots,
					      cap * sizeof(*s));
		if (!s)
			return UINT32_MAX;
		prog->interp->sreg_slots = s;
		prog->interp->sreg_slot_cap = cap;
	}
	prog->interp->sreg_slots[prog->interp->nsreg_slots] =
		(struct sreg_slot){ (uint16_t)sreg, (uint16_t)comp };
	return prog->interp->nsreg_slots++;
}

bool sreg_is_dynamic(unsigned sreg)
{
	switch (sreg) {
	case SREG_CLOCK:
	case SREG_CLOCK_HI:
	case SREG_CLOCK64:
	case SREG_GLOBALTIMER:
	case SREG_GLOBALTIMER_LO:
	case SREG_GLOBALTIMER_HI:
		return true;
	default:
		return false;
	}
}

const struct xinsn *x_refresh_sreg(struct warp *w, const struct xinsn *ip)
{
	uint64_t *d = xr(w, ip->d);
	uint64_t v = rt_sreg_clock((unsigned)ip->imm);
	for (int l = 0; l < WARP_SIZE; l++)
		d[l] = v;
	return ip + 1;
}

static void fill_lanes(uint64_t *d, uint64_t v)
{
	for (int l = 0; l < WARP_SIZE; l++)
		d[l] = v;
}

/* %tid.x, .y or .z of each lane: counted up from the warp's first
 * thread, not divided out per lane. */
static void fill_tid(const struct warp *w, uint64_t *d, unsigned comp)
{
	const uint32_t *b = w->cta->rt.launch->block;
	uint32_t t = w->index * WARP_SIZE;
	uint32_t x = t % b[0], y = t / b[0] % b[1], z = t / (b[0] * b[1]);
	if (x + WARP_SIZE <= b[0]) {	/* the warp within one row */
		uint32_t v = comp == 1 ? y : z;
		for (uint32_t l = 0; l < WARP_SIZE; l++)
			d[l] = comp == 0 ? x + l : v;
		return;
	}
	for (uint32_t l = 0; l < WARP_SIZE; l++) {
		d[l] = comp == 0 ? x : comp == 1 ? y : z;
		if (++x < b[0])
			continue;
		x = 0;
		if (++y < b[1])
			continue;
		y = 0;
		z++;
	}
}

static void fill_lanemask(uint64_t *d, unsigned sreg)
{
	for (uint32_t l = 0; l < WARP_SIZE; l++) {
		uint32_t eq = 1u << l, lt = eq - 1, le = lt | eq;
		uint32_t v = sreg == SREG_LANEMASK_EQ ? eq :
			     sreg == SREG_LANEMASK_LT ? lt :
			     sreg == SREG_LANEMASK_LE ? le :
			     sreg == SREG_LANEMASK_GE ? ~lt :
							~le;
		d[l] = v;
	}
}

/* Fills the slots the kernel reads; clocks are read at each use. */
void sreg_fill(struct warp *w)
{
	const struct ptx_kernel *k = w->cta->rt.kernel;
	const struct sreg_slot *slots = k->prog->interp->sreg_slots;
	for (uint32_t i = 0; i < k->interp->nsreg_used; i++) {
		uint32_t slot = k->interp->sreg_used[i];
		uint64_t *d = (uint64_t *)(w->sregs + slot * LANE_BYTES);
		unsigned sreg = slots[slot].sreg, comp = slots[slot].comp;
		if (sreg == SREG_TID) {
			fill_tid(w, d, comp);
		} else if (sreg == SREG_LANEID) {
			for (uint32_t l = 0; l < WARP_SIZE; l++)
				d[l] = l;
		} else if (sreg >= SREG_LANEMASK_EQ &&
			   sreg <= SREG_LANEMASK_GT) {
			fill_lanemask(d, sreg);
		} else {
			fill_lanes(d, rt_sreg(&w->cta->rt,
						 warp_thread(w, 0), sreg, comp));
		}
	}
}
