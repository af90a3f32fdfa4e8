// SPDX-License-Identifier: MIT
/*
 * Special registers: each one a program uses gets a slot (32 lanes) in
 * every warp's special-register block, filled when the warp starts;
 * clocks and timers are re-read by x_refresh_sreg before each use.
 */
#include "exec.h"
#include "layout.h"

#include <stdlib.h>
#include <time.h>

uint32_t sreg_slot(struct ptx_program *prog, unsigned sreg, unsigned comp)
{
	for (uint32_t i = 0; i < prog->nsreg_slots; i++)
		if (prog->sreg_slots[i].sreg == sreg &&
		    prog->sreg_slots[i].comp == comp)
			return i;
	if (prog->nsreg_slots == prog->sreg_slot_cap) {
		uint32_t cap = prog->sreg_slot_cap ? prog->sreg_slot_cap * 2 :
						     16;
		struct sreg_slot *s = realloc(prog->sreg_slots,
					      cap * sizeof(*s));
		if (!s)
			return UINT32_MAX;
		prog->sreg_slots = s;
		prog->sreg_slot_cap = cap;
	}
	prog->sreg_slots[prog->nsreg_slots] =
		(struct sreg_slot){ (uint16_t)sreg, (uint16_t)comp };
	return prog->nsreg_slots++;
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

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t dynamic_value(unsigned sreg)
{
	uint64_t t = now_ns();
	switch (sreg) {
	case SREG_CLOCK:
	case SREG_GLOBALTIMER_LO:
		return (uint32_t)t;
	case SREG_CLOCK_HI:
	case SREG_GLOBALTIMER_HI:
		return t >> 32;
	default:
		return t;
	}
}

const struct xinsn *x_refresh_sreg(struct warp *w, const struct xinsn *ip)
{
	uint64_t *d = xr(w, ip->d);
	uint64_t v = dynamic_value((unsigned)ip->imm);
	for (int l = 0; l < WARP_SIZE; l++)
		d[l] = v;
	return ip + 1;
}

static void fill_lanes(uint64_t *d, uint64_t v)
{
	for (int l = 0; l < WARP_SIZE; l++)
		d[l] = v;
}

static void fill_tid(const struct warp *w, uint64_t *d, unsigned comp)
{
	const uint32_t *b = w->cta->launch->block;
	for (uint32_t l = 0; l < WARP_SIZE; l++) {
		uint32_t t = w->index * WARP_SIZE + l;
		uint32_t v = comp == 0 ? t % b[0] :
			     comp == 1 ? t / b[0] % b[1] :
					 t / (b[0] * b[1]);
		d[l] = v;
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

/* Value of a uniform special register of @w's CTA. */
static uint64_t uniform_value(const struct warp *w, unsigned sreg,
			      unsigned comp)
{
	const struct cta *cta = w->cta;
	const struct ptx_launch *l = cta->launch;
	switch (sreg) {
	case SREG_NTID:
		return l->block[comp];
	case SREG_CTAID:
	case SREG_CLUSTERID:
		return cta->ctaid[comp];
	case SREG_NCTAID:
	case SREG_NCLUSTERID:
		return l->grid[comp];
	case SREG_CLUSTER_NCTAID:
		return 1;
	case SREG_WARPID:
		return w->index;
	case SREG_NWARPID:
		return 64;
	case SREG_NSMID:
		return l->sm_count ? l->sm_count : 1;
	case SREG_SMID:
		return cta->worker->smid;
	case SREG_ENVREG:
		return comp < 32 ? l->envreg[comp] : 0;
	case SREG_GRIDID:
	case SREG_CLUSTER_NCTARANK:
		return 1;
	case SREG_TOTAL_SMEM:
	case SREG_AGGR_SMEM:
		return cta->shared_size;
	case SREG_DYNAMIC_SMEM:
		return l->dynamic_shared_size;
	case SREG_RSMEM_BEGIN:
		return cta->reserved_smem;
	case SREG_RSMEM_END:
		return cta->reserved_smem + RESERVED_SMEM;
	case SREG_RSMEM_CAP:
		return RESERVED_SMEM;
	case SREG_RSMEM_2:	/* _0 and _1: two halves of the region */
		return cta->reserved_smem + comp * (RESERVED_SMEM / 2);
	default:
		return 0;	/* counters, cluster ranks */
	}
}

void sreg_fill(struct warp *w)
{
	const struct ptx_program *prog = w->cta->kernel->prog;
	for (uint32_t i = 0; i < prog->nsreg_slots; i++) {
		uint64_t *d = (uint64_t *)(w->sregs + i * LANE_BYTES);
		unsigned sreg = prog->sreg_slots[i].sreg;
		unsigned comp = prog->sreg_slots[i].comp;
		if (sreg == SREG_TID) {
			fill_tid(w, d, comp);
		} else if (sreg == SREG_LANEID) {
			for (uint32_t l = 0; l < WARP_SIZE; l++)
				d[l] = l;
		} else if (sreg >= SREG_LANEMASK_EQ &&
			   sreg <= SREG_LANEMASK_GT) {
			fill_lanemask(d, sreg);
		} else if (sreg_is_dynamic(sreg)) {
			fill_lanes(d, dynamic_value(sreg));
		} else {
			fill_lanes(d, uniform_value(w, sreg, comp));
		}
	}
}
