// SPDX-License-Identifier: MIT
/*
 * Register liveness: backward dataflow over the blocks, one bit per
 * register. An instruction's uses are every operand but its result;
 * its result kills the registers it names only when it writes them
 * whole, unguarded (a guarded write may not happen; a write to one
 * element of a vector register leaves the others), and when the user's
 * kills() agrees.
 */
#include "ir_live.h"

#include <stdlib.h>
#include <string.h>

struct ir_live {
	const struct ir_func *f;
	ir_live_kills_fn kills;
	uint32_t words;		/* 64-bit words per set */
	uint64_t *in, *out;	/* [block][words] */
};

static void set_bit(uint64_t *s, uint32_t r)
{
	s[r / 64] |= 1ull << (r % 64);
}

static void clear_bit(uint64_t *s, uint32_t r)
{
	s[r / 64] &= ~(1ull << (r % 64));
}

void ir_live_operand_regs(const struct ir_func *f, const struct ir_operand *o,
			  uint64_t *set)
{
	switch (o->kind) {
	case OPND_REG:
		set_bit(set, o->reg);
		if (o->pair)
			set_bit(set, o->reg2);
		break;
	case OPND_ADDR:
		if (o->addr_base == ADDR_REG)
			set_bit(set, o->reg);
		break;
	case OPND_VEC:
	case OPND_LIST:
		for (uint32_t i = 0; i < o->reg2; i++)
			ir_live_operand_regs(f, &ir_vec_elems(f, o)[i], set);
		break;
	default:
		break;
	}
}

/* Whole registers a result operand writes. */
static void kill_regs(const struct ir_func *f, const struct ir_operand *o,
		      uint64_t *set)
{
	if (o->kind == OPND_REG && !o->comp) {
		clear_bit(set, o->reg);
		if (o->pair)
			clear_bit(set, o->reg2);
	} else if (o->kind == OPND_VEC) {
		for (uint32_t i = 0; i < o->reg2; i++)
			kill_regs(f, &ir_vec_elems(f, o)[i], set);
	}
}

bool ir_live_writes_first(const struct ir_insn *in)
{
	switch (in->op) {
	case OP_ST: case OP_RED: case OP_BRA: case OP_RET: case OP_EXIT:
	case OP_BAR: case OP_BARRIER: case OP_MEMBAR: case OP_FENCE:
		return false;
	default:
		return in->nopnds > 0;
	}
}

void ir_live_step(const struct ir_live *l, uint32_t insn, uint64_t *set)
{
	const struct ir_func *f = l->f;
	const struct ir_insn *in = &f->insns[insn];
	bool def = ir_live_writes_first(in);
	if (def && !in->guarded && (!l->kills || l->kills(in)))
		kill_regs(f, &in->opnd[0], set);
	for (uint32_t k = def ? 1 : 0; k < in->nopnds; k++)
		ir_live_operand_regs(f, &in->opnd[k], set);
	if (in->guarded)
		set_bit(set, in->guard_reg);
}

/* live_out[b] = union of the successors' live_in; live_in[b] = live_out[b]
 * walked back over b; to a fixed point. */
static void solve(struct ir_live *l)
{
	const struct ir_func *f = l->f;
	uint32_t words = l->words;
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = f->nblocks; b-- > 0;) {
			const struct ir_block *blk = &f->blocks[b];
			uint64_t *o = l->out + (size_t)b * words;
			uint64_t *i = l->in + (size_t)b * words;
			for (uint32_t s = 0; s < blk->nsucc; s++) {
				uint32_t t = blk->succ[s];
				for (uint32_t w = 0; t < f->nblocks && w < words;
				     w++)
					o[w] |= l->in[(size_t)t * words + w];
			}
			/* @i only grows: or-ing the new set in says whether
			 * it did */
			uint64_t *tmp = l->in + (size_t)f->nblocks * words;
			memcpy(tmp, o, words * 8);
			for (uint32_t k = blk->count; k-- > 0;)
				ir_live_step(l, blk->first + k, tmp);
			for (uint32_t w = 0; w < words; w++) {
				changed |= (tmp[w] & ~i[w]) != 0;
				i[w] |= tmp[w];
			}
		}
	}
}

struct ir_live *ir_live_solve(const struct ir_func *f, ir_live_kills_fn kills)
{
	struct ir_live *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->f = f;
	l->kills = kills;
	l->words = (f->nregs + 63) / 64 + 1;
	/* one set more: the solver's scratch */
	l->in = calloc((size_t)(f->nblocks + 1) * l->words, 8);
	l->out = calloc((size_t)(f->nblocks + 1) * l->words, 8);
	if (!l->in || !l->out) {
		ir_live_free(l);
		return NULL;
	}
	solve(l);
	return l;
}

void ir_live_free(struct ir_live *l)
{
	if (l) {
		free(l->in);
		free(l->out);
	}
	free(l);
}

uint32_t ir_live_words(const struct ir_live *l)
{
	return l->words;
}

const uint64_t *ir_live_in(const struct ir_live *l, uint32_t block)
{
	return l->in + (size_t)block * l->words;
}

const uint64_t *ir_live_out(const struct ir_live *l, uint32_t block)
{
	return l->out + (size_t)block * l->words;
}

void ir_live_before(const struct ir_live *l, uint32_t insn, uint64_t *set)
{
	const struct ir_block *blk = &l->f->blocks[l->f->insns[insn].block];
	memcpy(set, ir_live_out(l, l->f->insns[insn].block), l->words * 8);
	for (uint32_t k = blk->first + blk->count; k-- > insn;)
		ir_live_step(l, k, set);
}
