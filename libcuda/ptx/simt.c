// SPDX-License-Identifier: MIT
/*
 * The SIMT stack of a warp: divergence, reconvergence, calls and the
 * removal of lanes that return or exit. See exec.h for the scheme.
 */
#include "interp.h"

#include <stdlib.h>

bool warp_push(struct warp *w, const struct stack_entry *e)
{
	if (w->depth == w->stack_cap) {
		uint32_t cap = w->stack_cap ? w->stack_cap * 2 : 64;
		struct stack_entry *s = realloc(w->stack, cap * sizeof(*s));
		if (!s)
			return false;
		w->stack = s;
		w->stack_cap = cap;
	}
	w->stack[w->depth++] = *e;
	return true;
}

/* Lanes leave every entry, or (@to_call) the entries of the current call. */
void warp_remove_lanes(struct warp *w, uint32_t lanes, bool to_call)
{
	for (uint32_t i = w->depth; i-- > 0;) {
		w->stack[i].mask &= ~lanes;
		if (to_call && w->stack[i].kind == ENTRY_CALL)
			break;
	}
}

static void restore_caller(struct warp *w, const struct stack_entry *e)
{
	w->func = e->caller;
	w->frame = e->caller_frame;
	w->base[SEL_FRAME] = (uintptr_t)(w->regs + w->frame);
	w->local_base = e->caller_local;
	w->calls--;
}

const struct xinsn *warp_resume(struct warp *w)
{
	while (w->depth && !w->stack[w->depth - 1].mask) {
		const struct stack_entry *e = &w->stack[--w->depth];
		if (e->kind == ENTRY_CALL)
			restore_caller(w, e);
	}
	if (!w->depth) {
		warp_finish(w);
		return NULL;
	}
	const struct stack_entry *top = &w->stack[w->depth - 1];
	w->active = top->mask;
	if (!top->pc)
		return xfault(w, NULL, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "lanes 0x%08x have no resume point", top->mask);
	return top->pc;
}

const struct xinsn *warp_diverge(struct warp *w, const struct xinsn *reconv,
				 const struct xinsn *const *targets,
				 const uint32_t *masks, uint32_t n)
{
	struct stack_entry *top = &w->stack[w->depth - 1];
	if (top->kind == ENTRY_NORMAL && top->rpc == reconv)
		w->depth--;	/* the paths replace it: same meeting point */
	else
		top->pc = reconv;
	const struct xinsn *first = NULL;
	uint32_t first_mask = 0;
	for (uint32_t i = n; i-- > 0;) {
		if (targets[i] == reconv && reconv)
			continue;	/* already there: waits below */
		struct stack_entry e = { .pc = targets[i], .rpc = reconv,
					 .mask = masks[i],
					 .kind = ENTRY_NORMAL };
		if (!warp_push(w, &e))
			return xfault(w, NULL, PTX_FAULT_ILLEGAL_INSTRUCTION,
				      0, 0, "out of memory for the SIMT "
					    "stack");
		first = targets[i];
		first_mask = masks[i];
	}
	if (!first)
		return warp_resume(w);
	w->active = first_mask;
	return first;
}
