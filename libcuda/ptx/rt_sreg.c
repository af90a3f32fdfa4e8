// SPDX-License-Identifier: MIT
/*
 * Special registers for every back end: thread and CTA coordinates,
 * lane masks, launch geometry, shared-memory sizes, clocks and timers.
 */
#include "rt.h"

#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t rt_sreg_clock(unsigned sreg)
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

/* Value of a special register that is the same for every thread of a
 * warp (@thread: any thread of it). */
static uint64_t warp_value(const struct rt_cta *cta, uint32_t thread,
			   unsigned sreg, unsigned comp)
{
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
		return thread / WARP_SIZE;
	case SREG_NWARPID:
		return 64;
	case SREG_NSMID:
		return l->sm_count ? l->sm_count : 1;
	case SREG_SMID:
		return cta->smid;
	case SREG_ENVREG:
		return comp < 32 ? l->envreg[comp] : 0;
	case SREG_GRIDID:
	case SREG_CLUSTER_NCTARANK:
		return 1;
	case SREG_TOTAL_SMEM:
		return rt_total_smem_size(cta);
	case SREG_AGGR_SMEM:	/* as an H200 gave it: the reserved 1 KiB too */
		return RESERVED_SMEM + cta->kernel->layout.dyn_shared_offset +
		       (uint64_t)l->dynamic_shared_size;
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

uint64_t rt_sreg(const struct rt_cta *c, uint32_t thread, unsigned sreg,
		 unsigned comp)
{
	const uint32_t *b = c->launch->block;
	uint32_t lane = thread % WARP_SIZE, eq = 1u << lane, lt = eq - 1;
	switch (sreg) {
	case SREG_TID:
		return comp == 0 ? thread % b[0] :
		       comp == 1 ? thread / b[0] % b[1] :
				   thread / (b[0] * b[1]);
	case SREG_LANEID:
		return lane;
	case SREG_LANEMASK_EQ:
		return eq;
	case SREG_LANEMASK_LT:
		return lt;
	case SREG_LANEMASK_LE:
		return lt | eq;
	case SREG_LANEMASK_GE:
		return (uint32_t)~lt;
	case SREG_LANEMASK_GT:
		return (uint32_t)~(lt | eq);
	case SREG_CLOCK:
	case SREG_CLOCK_HI:
	case SREG_CLOCK64:
	case SREG_GLOBALTIMER:
	case SREG_GLOBALTIMER_LO:
	case SREG_GLOBALTIMER_HI:
		return rt_sreg_clock(sreg);
	default:
		return warp_value(c, thread, sreg, comp);
	}
}
