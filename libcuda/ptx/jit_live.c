// SPDX-License-Identifier: MIT
/*
 * Liveness of the IR's registers for the JIT: at a barrier a thread
 * saves, and later restores, only the registers some path from the
 * barrier reads before writing; so does a vector group that parts ways
 * at a guarded instruction (jit_emit_vec.c), with the set before it. Backward dataflow over the blocks, with
 * one bit per register; a guarded write does not kill (it may not
 * happen). Only the instructions the JIT compiles are looked at: for
 * any other the kernel is not compiled anyway.
 */
#include "jit_emit.h"

#include <stdlib.h>
#include <string.h>

struct jit_live {
	uint32_t words;		/* 64-bit words per set */
	uint32_t ninsns;
	uint64_t *after;	/* [insn][words], barriers only */
	uint64_t *before;	/* [insn][words], guarded ones only */
};

static void set_bit(uint64_t *s, uint32_t r)
{
	s[r / 64] |= 1ull << (r % 64);
}

static void clear_bit(uint64_t *s, uint32_t r)
{
	s[r / 64] &= ~(1ull << (r % 64));
}

static void use_operand(const struct ir_func *f, const struct ir_operand *o,
			uint64_t *live)
{
	if (o->kind == OPND_REG ||
	    (o->kind == OPND_ADDR && o->addr_base == ADDR_REG)) {
		set_bit(live, o->reg);
	} else if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
		const struct ir_operand *el = ir_vec_elems(f, o);
		for (uint32_t i = 0; i < o->reg2; i++)
			use_operand(f, &el[i], live);
	}
}

/* Does opnd[0] of @in receive a result? */
static bool writes_first(const struct ir_insn *in)
{
	switch (in->op) {
	case OP_ST: case OP_RED: case OP_BRA: case OP_RET: case OP_EXIT:
	case OP_BAR: case OP_BARRIER: case OP_MEMBAR: case OP_FENCE:
		return false;
	default:
		return in->nopnds > 0;
	}
}

static void kill_operand(const struct ir_func *f, const struct ir_operand *o,
			 uint64_t *live)
{
	if (o->kind == OPND_REG) {
		clear_bit(live, o->reg);
		if (o->pair)
			clear_bit(live, o->reg2);
	} else if (o->kind == OPND_VEC) {
		const struct ir_operand *el = ir_vec_elems(f, o);
		for (uint32_t i = 0; i < o->reg2; i++)
			kill_operand(f, &el[i], live);
	}
}

static void def_operand(const struct ir_func *f, const struct ir_operand *o,
			uint64_t *set)
{
	if (o->kind == OPND_REG) {
		set_bit(set, o->reg);
		if (o->pair)
			set_bit(set, o->reg2);
	} else if (o->kind == OPND_VEC) {
		const struct ir_operand *el = ir_vec_elems(f, o);
		for (uint32_t i = 0; i < o->reg2; i++)
			def_operand(f, &el[i], set);
	}
}

void jit_live_add_defs(const struct ir_func *f, const struct ir_insn *in,
		       uint64_t *set)
{
	if (writes_first(in))
		def_operand(f, &in->opnd[0], set);
}

/* live = (live - defs) + uses, walking @in backwards. */
static void step(const struct ir_func *f, const struct ir_insn *in,
		 uint64_t *live)
{
	bool def = writes_first(in);
	if (def && !in->guarded)
		kill_operand(f, &in->opnd[0], live);
	for (uint32_t k = def ? 1 : 0; k < in->nopnds; k++)
		use_operand(f, &in->opnd[k], live);
	if (in->guarded)
		set_bit(live, in->guard_reg);
}

static void block_in(const struct ir_func *f, uint32_t b, const uint64_t *out,
		     uint64_t *in, uint32_t words)
{
	memcpy(in, out, words * 8);
	const struct ir_block *blk = &f->blocks[b];
	for (uint32_t i = blk->count; i-- > 0;)
		step(f, &f->insns[blk->first + i], in);
}

/* live_out[b] = union of live_in of the successors, to a fixed point. */
static void solve(const struct ir_func *f, uint64_t *out, uint64_t *in,
		  uint32_t words)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = f->nblocks; b-- > 0;) {
			const struct ir_block *blk = &f->blocks[b];
			uint64_t *o = out + (size_t)b * words;
			for (uint32_t s = 0; s < blk->nsucc; s++) {
				uint32_t t = blk->succ[s];
				if (t >= f->nblocks)
					continue;
				for (uint32_t w = 0; w < words; w++) {
					uint64_t v = o[w] | in[(size_t)t * words + w];
					changed |= v != o[w];
					o[w] = v;
				}
			}
			block_in(f, b, o, in + (size_t)b * words, words);
		}
	}
}

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

/* The set after each barrier: the block's live-out, walked back to it. */
static void record(const struct ir_func *f, struct jit_live *l,
		   const uint64_t *out, uint64_t *tmp)
{
	uint32_t words = l->words;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		memcpy(tmp, out + (size_t)b * words, words * 8);
		for (uint32_t i = blk->count; i-- > 0;) {
			uint32_t at = blk->first + i;
			if (is_barrier(&f->insns[at]))
				memcpy(l->after + (size_t)at * words, tmp,
				       words * 8);
			step(f, &f->insns[at], tmp);
			if (f->insns[at].guarded)
				memcpy(l->before + (size_t)at * words, tmp,
				       words * 8);
		}
	}
}

struct jit_live *jit_live_compute(struct emit *e)
{
	const struct ir_func *f = e->f;
	struct jit_live *l = calloc(1, sizeof(*l));
	uint32_t words = (f->nregs + 63) / 64 + 1;
	uint64_t *out = calloc((size_t)(f->nblocks + 1) * words, 8);
	uint64_t *in = calloc((size_t)(f->nblocks + 1) * words, 8);
	uint64_t *tmp = calloc(words, 8);
	if (l) {
		l->after = calloc((size_t)(f->ninsns + 1) * words, 8);
		l->before = calloc((size_t)(f->ninsns + 1) * words, 8);
	}
	bool ok = l && out && in && tmp && l->after && l->before;
	if (ok) {
		l->words = words;
		l->ninsns = f->ninsns;
		solve(f, out, in, words);
		record(f, l, out, tmp);
	}
	free(out);
	free(in);
	free(tmp);
	if (!ok) {
		jit_live_free(l);
		jit_unsupported(e, "out of memory");
		return NULL;
	}
	return l;
}

bool jit_live_after(const struct jit_live *l, uint32_t insn, uint32_t r)
{
	return l->after[(size_t)insn * l->words + r / 64] >> (r % 64) & 1;
}

bool jit_live_before(const struct jit_live *l, uint32_t insn, uint32_t r)
{
	return l->before[(size_t)insn * l->words + r / 64] >> (r % 64) & 1;
}

void jit_live_free(struct jit_live *l)
{
	if (l) {
		free(l->after);
		free(l->before);
	}
	free(l);
}
