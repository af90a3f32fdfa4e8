// SPDX-License-Identifier: MIT
/*
 * Liveness of the IR's registers for the JIT: at a barrier a thread
 * saves, and later restores, only the registers some path from the
 * barrier reads before writing; so does a vector group that parts ways
 * at a guarded instruction (jit_emit_vec.c), with the set before it.
 * The dataflow is the IR's (ir_live.c); here, the sets at those
 * instructions, tabled for the emitter's queries.
 */
#include "ir_live.h"
#include "jit_emit.h"

#include <stdlib.h>
#include <string.h>

struct jit_live {
	uint32_t words;		/* 64-bit words per set */
	uint32_t ninsns;
	uint64_t *after;	/* [insn][words], barriers only */
	uint64_t *before;	/* [insn][words], guarded ones only */
};

void jit_live_add_defs(const struct ir_func *f, const struct ir_insn *in,
		       uint64_t *set)
{
	if (ir_live_writes_first(in))
		ir_live_operand_regs(f, &in->opnd[0], set);
}

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

/* The set after each barrier and before each guarded instruction: each
 * block's live-out, walked back over it. */
static void record(const struct ir_func *f, struct jit_live *l,
		   const struct ir_live *live, uint64_t *tmp)
{
	uint32_t words = l->words;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		memcpy(tmp, ir_live_out(live, b), words * 8);
		for (uint32_t i = blk->count; i-- > 0;) {
			uint32_t at = blk->first + i;
			if (is_barrier(&f->insns[at]))
				memcpy(l->after + (size_t)at * words, tmp,
				       words * 8);
			ir_live_step(live, at, tmp);
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
	struct ir_live *live = ir_live_solve(f, NULL);
	uint32_t words = live ? ir_live_words(live) : 1;
	uint64_t *tmp = calloc(words, 8);
	if (l) {
		l->after = calloc((size_t)(f->ninsns + 1) * words, 8);
		l->before = calloc((size_t)(f->ninsns + 1) * words, 8);
	}
	bool ok = l && live && tmp && l->after && l->before;
	if (ok) {
		l->words = words;
		l->ninsns = f->ninsns;
		record(f, l, live, tmp);
	}
	ir_live_free(live);
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
