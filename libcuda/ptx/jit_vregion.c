// SPDX-License-Identifier: MIT
/*
 * The registers one region of the JIT's vector form touches: what its
 * code reads or writes, from where the region starts (the kernel's
 * entry, or past a barrier) to the barriers and exits that end it, and
 * what a group parting in it hands over (jit_slot_written). A region
 * restores from the save slots only these of the registers live at its
 * start: the others it neither reads nor changes, so they stay in
 * their slots for the next barrier or the scalar code. Scan's regions
 * of a few instructions thus load two registers, not the eleven live.
 */
#include "ir_live.h"
#include "jit_emit.h"

#include <stdlib.h>

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

/* Instructions @from.. of block @bi into @set; true when a barrier ends
 * the region there. */
static bool scan_block(struct emit *e, uint32_t bi, uint32_t from,
		       uint64_t *set)
{
	const struct ir_block *blk = &e->f->blocks[bi];
	for (uint32_t i = from; i < blk->first + blk->count; i++) {
		add_insn_regs(e, i, set);
		if (is_barrier(&e->f->insns[i]))
			return true;
	}
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

bool jit_vec_region_regs(struct emit *e, uint32_t bi, uint32_t from,
			 uint64_t *set)
{
	const struct ir_func *f = e->f;
	bool *seen = calloc(f->nblocks + 1, sizeof(*seen));
	uint32_t *queue = calloc(f->nblocks + 1, sizeof(*queue));
	uint32_t n = 0;
	if (!seen || !queue) {
		free(seen);
		free(queue);
		return jit_unsupported(e, "out of memory");
	}
	if (!scan_block(e, bi, from, set))
		queue_successors(f, bi, seen, queue, &n);
	for (uint32_t q = 0; q < n; q++)
		if (!scan_block(e, queue[q], f->blocks[queue[q]].first, set))
			queue_successors(f, queue[q], seen, queue, &n);
	free(seen);
	free(queue);
	return true;
}
