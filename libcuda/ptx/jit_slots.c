// SPDX-License-Identifier: MIT
/*
 * Where the JIT keeps a thread's registers across barriers. Every
 * register live after some barrier has one slot of its own, the same at
 * every barrier (registers live after the same barrier never share
 * one), so that a value a region did not change is still in its slot:
 * a barrier stores only the registers some path since the region began
 * (the kernel's entry or the previous barrier) may have written. Scan's
 * regions of a few instructions thus store one or two registers, not
 * the eleven they keep. The kernel's entry counts as writing them all
 * (region 0 restores nothing). Forward dataflow over the blocks, one bit
 * per register. The same sets before each guarded instruction tell a
 * vector group that parts ways there which registers to hand over: the
 * others are still in their slots.
 */
#include "jit_emit.h"

#include <stdlib.h>
#include <string.h>

struct jit_slots {
	uint32_t words;		/* 64-bit words per set */
	uint32_t stride;	/* slots per thread */
	uint32_t *slot;		/* per register */
	uint64_t *store;	/* [insn][words], barriers only */
	uint64_t *written;	/* [insn][words], guarded ones only */
};

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

static bool has_bit(const uint64_t *s, uint32_t r)
{
	return s[r / 64] >> (r % 64) & 1;
}

/* The lowest slot not in @taken (which has room for one more). */
static uint32_t first_free(const uint64_t *taken, uint32_t words)
{
	for (uint32_t w = 0; w < words; w++)
		if (~taken[w])
			return w * 64 + (uint32_t)__builtin_ctzll(~taken[w]);
	return words * 64;
}

/* Greedy: each register, in order, takes the lowest slot that no
 * register live after one of its barriers has taken; @used is
 * [insn][words], the slots taken at each barrier. */
static void assign_slots(struct emit *e, struct jit_slots *s, uint64_t *used,
			 uint64_t *taken)
{
	const struct ir_func *f = e->f;
	uint32_t words = s->words;
	for (uint32_t r = 0; r < f->nregs; r++) {
		bool kept = false;
		memset(taken, 0, words * 8);
		for (uint32_t i = 0; i < f->ninsns; i++) {
			if (!is_barrier(&f->insns[i]) ||
			    !jit_live_after(e->live, i, r))
				continue;
			kept = true;
			for (uint32_t w = 0; w < words; w++)
				taken[w] |= used[(size_t)i * words + w];
		}
		if (!kept)
			continue;
		uint32_t k = first_free(taken, words);
		s->slot[r] = k;
		s->stride = k + 1 > s->stride ? k + 1 : s->stride;
		for (uint32_t i = 0; i < f->ninsns; i++)
			if (is_barrier(&f->insns[i]) &&
			    jit_live_after(e->live, i, r))
				used[(size_t)i * words + k / 64] |=
					1ull << (k % 64);
	}
}

/*
 * Walks block @b from @state (the registers written since the region
 * began): a barrier records what it must store (when @record) and
 * starts the next region with nothing written.
 */
static void walk_block(struct emit *e, struct jit_slots *s, uint32_t b,
		       uint64_t *state, bool record)
{
	const struct ir_func *f = e->f;
	const struct ir_block *blk = &f->blocks[b];
	uint32_t words = s->words;
	for (uint32_t i = 0; i < blk->count; i++) {
		uint32_t at = blk->first + i;
		const struct ir_insn *in = &f->insns[at];
		if (record && in->guarded)
			memcpy(s->written + (size_t)at * words, state,
			       words * 8);
		if (!is_barrier(in)) {
			jit_live_add_defs(f, in, state);
			continue;
		}
		for (uint32_t r = 0; record && r < f->nregs; r++)
			if (has_bit(state, r) && jit_live_after(e->live, at, r))
				s->store[(size_t)at * words + r / 64] |=
					1ull << (r % 64);
		memset(state, 0, words * 8);
	}
}

/* written[@t] |= @state (@t past the blocks: the exit); grew? */
static bool join(uint64_t *written, uint32_t t, uint32_t nblocks,
		 const uint64_t *state, uint32_t words)
{
	bool grew = false;
	uint64_t *w = written + (size_t)t * words;
	for (uint32_t j = 0; t < nblocks && j < words; j++) {
		grew |= (w[j] | state[j]) != w[j];
		w[j] |= state[j];
	}
	return grew;
}

/* written[b]: the registers written since the region began, at block
 * b's start; to a fixed point. A block no edge reaches (or the entry)
 * starts with every register written. */
static void solve_written(struct emit *e, struct jit_slots *s,
			  uint64_t *written, uint64_t *state)
{
	const struct ir_func *f = e->f;
	uint32_t words = s->words;
	bool *reached = calloc(f->nblocks + 1, sizeof(*reached));
	for (uint32_t b = 0; reached && b < f->nblocks; b++)
		for (uint32_t k = 0; k < f->blocks[b].nsucc; k++)
			if (f->blocks[b].succ[k] < f->nblocks &&
			    f->blocks[b].succ[k] != 0)
				reached[f->blocks[b].succ[k]] = true;
	/* out of memory: every block, which is only slower */
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (!reached || !reached[b])
			memset(written + (size_t)b * words, 0xff, words * 8);
	free(reached);
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < f->nblocks; b++) {
			const struct ir_block *blk = &f->blocks[b];
			memcpy(state, written + (size_t)b * words, words * 8);
			walk_block(e, s, b, state, false);
			for (uint32_t k = 0; k < blk->nsucc; k++)
				changed |= join(written, blk->succ[k],
						f->nblocks, state, words);
		}
	}
}

static void record_stores(struct emit *e, struct jit_slots *s,
			  uint64_t *written, uint64_t *state)
{
	for (uint32_t b = 0; b < e->f->nblocks; b++) {
		memcpy(state, written + (size_t)b * s->words, s->words * 8);
		walk_block(e, s, b, state, true);
	}
}

struct jit_slots *jit_slots_compute(struct emit *e)
{
	const struct ir_func *f = e->f;
	struct jit_slots *s = calloc(1, sizeof(*s));
	uint32_t words = (f->nregs + 63) / 64 + 1;
	uint64_t *sets = calloc((size_t)(f->ninsns + f->nblocks + 1) * words,
				8);
	uint64_t *state = calloc(words, 8);
	if (s) {
		s->words = words;
		s->slot = calloc(f->nregs + 1, sizeof(*s->slot));
		s->store = calloc((size_t)(f->ninsns + 1) * words, 8);
		s->written = calloc((size_t)(f->ninsns + 1) * words, 8);
	}
	bool ok = s && sets && state && s->slot && s->store && s->written;
	if (ok) {
		assign_slots(e, s, sets, state);
		memset(sets, 0, (size_t)(f->nblocks + 1) * words * 8);
		solve_written(e, s, sets, state);
		record_stores(e, s, sets, state);
	}
	free(sets);
	free(state);
	if (!ok) {
		jit_slots_free(s);
		jit_unsupported(e, "out of memory");
		return NULL;
	}
	return s;
}

uint32_t jit_slot_of(const struct jit_slots *s, uint32_t r)
{
	return s->slot[r];
}

uint32_t jit_slots_stride(const struct jit_slots *s)
{
	return s->stride;
}

bool jit_slot_store(const struct jit_slots *s, uint32_t insn, uint32_t r)
{
	return has_bit(s->store + (size_t)insn * s->words, r);
}

bool jit_slot_written(const struct jit_slots *s, uint32_t insn, uint32_t r)
{
	return has_bit(s->written + (size_t)insn * s->words, r);
}

void jit_slots_free(struct jit_slots *s)
{
	if (s) {
		free(s->slot);
		free(s->store);
		free(s->written);
	}
	free(s);
}
