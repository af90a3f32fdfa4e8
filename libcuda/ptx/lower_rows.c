// SPDX-License-Identifier: MIT
/*
 * Chains of shared loads through one address register. A whole warp's
 * scalar shared load sorts its lanes' addresses into row shapes
 * (exec_mem.c); the shapes depend only on the differences between the
 * lanes' addresses, so later loads through the same register, with
 * other offsets, can reuse them while the register is unchanged:
 * sgemm's unrolled k loop reads ta[ty][k] and tb[k][tx] sixteen times
 * each through two registers computed before the loop.
 *
 * A chain lives within one block, from its first load (the head) until
 * an instruction writes the register or touches other lanes (a call, a
 * barrier, a shuffle: the table is emptied). The head always runs
 * before its later loads in the same pass through the block and always
 * writes the warp's slot (the shapes, or "none" when it ran for only
 * some lanes); a later load reuses the slot only when it holds its
 * chain's tag. Chains share ROW_SLOTS slots: a new chain takes a free
 * one or the one used least recently, whose chain then ends.
 */
#include "ir_live.h"
#include "lower.h"

#include <string.h>

void lower_rows_reset(struct lower_ctx *c)
{
	memset(c->rows, 0, sizeof(c->rows));
}

static void end_chains_of(struct lower_ctx *c, const struct ir_operand *o)
{
	if (o->kind == OPND_VEC) {
		for (uint32_t i = 0; i < o->reg2; i++)
			end_chains_of(c, &ir_vec_elems(c->f, o)[i]);
		return;
	}
	if (o->kind != OPND_REG)
		return;
	for (uint32_t s = 0; s < ROW_SLOTS; s++)
		if (c->rows[s].tag && (c->rows[s].reg == o->reg ||
				       (o->pair && c->rows[s].reg == o->reg2)))
			c->rows[s].tag = 0;
}

void lower_rows_after(struct lower_ctx *c, const struct ir_insn *in)
{
	if (!insn_lane_local(in))
		lower_rows_reset(c);
	else if (ir_live_writes_first(in))
		end_chains_of(c, &in->opnd[0]);
}

void lower_rows_load(struct lower_ctx *c, const struct ir_insn *in,
		     struct xinsn *x, uint32_t reg, unsigned size)
{
	uint32_t pick = 0;
	c->rows_clock++;
	ik(c->kernel)->stats.row_loads++;
	for (uint32_t s = 0; s < ROW_SLOTS; s++) {
		struct row_chain *r = &c->rows[s];
		if (r->tag && r->reg == reg && r->size == size) {
			ik(c->kernel)->stats.row_reuses++;
			r->last_use = c->rows_clock;
			x->row_slot = (uint8_t)s;
			x->row_tag = r->tag;
			return;
		}
		if (!r->tag || (c->rows[pick].tag &&
				r->last_use < c->rows[pick].last_use))
			pick = s;
	}
	c->rows[pick] = (struct row_chain){
		.reg = reg, .size = (uint8_t)size,
		.tag = (uint32_t)(in - c->f->insns) + 1,
		.last_use = c->rows_clock,
	};
	x->row_slot = (uint8_t)pick;
	x->row_tag = c->rows[pick].tag;
	x->row_head = true;
}
