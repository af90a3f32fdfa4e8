// SPDX-License-Identifier: MIT
/*
 * CTA barrier accounting for every back end: arrivals (bar.sync,
 * bar.arrive, named barriers with thread counts) and the votes of
 * bar.red. Blocking and waking is the back end's: the interpreter parks
 * warps, compiled code would switch fibers.
 */
#include "rt.h"

void rt_barrier_reset(struct rt_barrier *b)
{
	*b = (struct rt_barrier){ .red_and = 1 };
}

void rt_barrier_arrive(struct rt_barrier *b, uint32_t threads,
		       uint32_t count)
{
	if (count)
		b->expected = count;
	b->arrived += threads;
}

void rt_barrier_vote(struct rt_barrier *b, uint32_t voters, uint32_t yes)
{
	b->red_popc += yes;
	b->red_and &= yes == voters;
	b->red_or |= yes != 0;
}

bool rt_barrier_complete(const struct rt_barrier *b, uint32_t live)
{
	return b->arrived && b->arrived >= (b->expected ? b->expected : live);
}
