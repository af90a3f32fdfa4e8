// SPDX-License-Identifier: MIT
/*
 * What one region of the JIT's vector form reaches, from where it
 * starts (the kernel's entry, or past a barrier) to the barriers and
 * exits that end it, found by walking the IR's blocks:
 *
 * - the registers its code reads or writes, and those a group parting
 *   in it hands over (jit_slot_written). A region restores from the
 *   save slots only these of the registers live at its start: the
 *   others it neither reads nor changes, so they stay in their slots
 *   for the next barrier or the scalar code. Scan's regions of a few
 *   instructions thus load two registers, not the eleven live.
 * - the barriers that end it: where there is one, every group that
 *   arrives arrives there, and the region need not compare each
 *   group's barrier with the others'.
 * - whether it exits: a region that some path of regions from one that
 *   exits can reach must skip the groups with a thread gone; the others
 *   need not look.
 */
#include "ir_live.h"
#include "jit_emit.h"

#include <stdlib.h>
#include <string.h>

/* One region's walk: what it saw. */
struct walk {
	uint64_t *regs;		/* NULL: not asked */
	uint32_t *barriers;	/* the barriers it reached */
	uint32_t nbarriers;
	bool exits;
};

static void add_reg(uint64_t *set, uint32_t r)
{
	set[r / 64] |= 1ull << (r % 64);
}

static void add_insn_regs(struct emit *e, uint32_t at, uint64_t *set)
{
	const struct ir_func *f = e->f;
	const struct ir_insn *in = &f->insns[at];
	for (unsigned j = 0; j < in->nopnds; j++)
		ir_live_operand_regs(f, &in->opnd[j], set);
	if (!in->guarded)
		return;
	add_reg(set, in->guard_reg);
	for (uint32_t r = 0; r < f->nregs; r++)
		if (jit_live_before(e->live, at, r) &&
		    jit_slot_written(e->slots, at, r))
			add_reg(set, r);
}

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

static void saw_barrier(struct walk *w, uint32_t at)
{
	for (uint32_t i = 0; i < w->nbarriers; i++)
		if (w->barriers[i] == at)
			return;
	w->barriers[w->nbarriers++] = at;
}

/* Instructions @from.. of block @bi; true when a barrier ends the
 * region there. */
static bool scan_block(struct emit *e, uint32_t bi, uint32_t from,
		       struct walk *w)
{
	const struct ir_func *f = e->f;
	const struct ir_block *blk = &f->blocks[bi];
	for (uint32_t i = from; i < blk->first + blk->count; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (w->regs)
			add_insn_regs(e, i, w->regs);
		if (is_barrier(in)) {
			saw_barrier(w, i);
			return true;
		}
		w->exits |= in->op == OP_RET || in->op == OP_EXIT;
	}
	w->exits |= bi + 1 == f->nblocks;	/* falls off the end */
	return false;
}

static void queue_successors(const struct ir_func *f, uint32_t bi,
			     bool *seen, uint32_t *queue, uint32_t *n)
{
	const struct ir_block *blk = &f->blocks[bi];
	for (uint32_t k = 0; k < blk->nsucc; k++) {
		uint32_t s = blk->succ[k];
		if (s < f->nblocks && !seen[s]) {
			seen[s] = true;
			queue[(*n)++] = s;
		}
	}
}

/* The region that starts at instruction @from of block @bi. */
static bool walk_region(struct emit *e, uint32_t bi, uint32_t from,
			struct walk *w)
{
	const struct ir_func *f = e->f;
	bool *seen = calloc(f->nblocks + 1, sizeof(*seen));
	uint32_t *queue = calloc(f->nblocks + 1, sizeof(*queue));
	uint32_t n = 0;
	bool ok = seen && queue;
	if (ok && !scan_block(e, bi, from, w))
		queue_successors(f, bi, seen, queue, &n);
	for (uint32_t q = 0; ok && q < n; q++)
		if (!scan_block(e, queue[q], f->blocks[queue[q]].first, w))
			queue_successors(f, queue[q], seen, queue, &n);
	free(seen);
	free(queue);
	return ok || jit_unsupported(e, "out of memory");
}

/* Region @k's start: block and instruction (r->start[k] its barrier). */
static void region_start(struct emit *e, const struct jit_vregions *r,
			 uint32_t k, uint32_t *bi, uint32_t *from)
{
	*bi = k ? e->f->insns[r->start[k]].block : 0;
	*from = k ? r->start[k] + 1 : 0;
}

bool jit_vec_region_regs(struct emit *e, const struct jit_vregions *r,
			 uint32_t k, uint64_t *set)
{
	uint32_t *barriers = calloc(e->f->ninsns + 1, sizeof(*barriers));
	struct walk w = { .regs = set, .barriers = barriers };
	uint32_t bi, from;
	region_start(e, r, k, &bi, &from);
	bool ok = barriers ? walk_region(e, bi, from, &w) :
			     jit_unsupported(e, "out of memory");
	free(barriers);
	return ok;
}

/* Regions a thread may have exited before: from a region that exits,
 * through the barriers each reaches, to a fixed point. */
static void propagate_exits(struct jit_vregions *r, const bool *exits,
			    const struct emit *e, uint32_t *const *reach,
			    const uint32_t *nreach)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t j = 0; j < r->n; j++) {
			if (!exits[j] && !r->exited_before[j])
				continue;
			for (uint32_t i = 0; i < nreach[j]; i++) {
				uint32_t k = e->region_after[reach[j][i]];
				changed |= !r->exited_before[k];
				r->exited_before[k] = true;
			}
		}
	}
}

bool jit_vec_regions_reach(struct emit *e, struct jit_vregions *r)
{
	const struct ir_func *f = e->f;
	uint32_t **reach = calloc(r->n, sizeof(*reach));
	uint32_t *nreach = calloc(r->n, sizeof(*nreach));
	bool *exits = calloc(r->n, sizeof(*exits));
	bool ok = reach && nreach && exits;
	for (uint32_t k = 0; ok && k < r->n; k++) {
		struct walk w = { .barriers = calloc(f->ninsns + 1, 4) };
		uint32_t bi, from;
		region_start(e, r, k, &bi, &from);
		ok = w.barriers && walk_region(e, bi, from, &w);
		/* kept to the end: a few each, where a kernel has many */
		uint32_t *few = w.barriers ?
			realloc(w.barriers, (w.nbarriers + 1) * 4) : NULL;
		reach[k] = few ? few : w.barriers;
		nreach[k] = w.nbarriers;
		exits[k] = w.exits;
		r->one_barrier[k] = w.nbarriers == 1;
	}
	if (ok)
		propagate_exits(r, exits, e, reach, nreach);
	for (uint32_t k = 0; reach && k < r->n; k++)
		free(reach[k]);
	free(reach);
	free(nreach);
	free(exits);
	return ok || jit_unsupported(e, "out of memory");
}
