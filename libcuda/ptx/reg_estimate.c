// SPDX-License-Identifier: MIT
/*
 * The registers live at once in a kernel: each function's blocks walked
 * backward from their live-out sets (ir_live.c), the live set counted in
 * 32-bit units before and after every instruction. A call adds the
 * callee's own peak to what is live across it, as ptxas must keep both;
 * an indirect call, the largest peak among the functions the kernel may
 * reach. A recursive call adds nothing more (the outer call counted it).
 */
#include "reg_estimate.h"

#include "ir_live.h"
#include "ptx_tables.h"

#include <stdlib.h>
#include <string.h>

/* A function whose liveness sets would pass 16 MiB is not analysed. */
enum { ESTIMATE_MAX_WORDS = 1u << 21 };

struct estimate {
	const struct ptx_kernel *k;
	uint32_t *peak;		/* by function id, once state is 2 */
	uint8_t *state;		/* by function id: 0 new, 1 on the call
				 * path, 2 done */
};

uint32_t reg_units(const struct ir_reg *r)
{
	if (r->type == PTX_T_PRED)
		return 0;
	uint32_t units = (ptx_type_size(r->type) + 3) / 4;
	return (units ? units : 1) * (r->vec > 1 ? r->vec : 1);
}

static uint32_t declared_units(const struct ir_func *f)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < f->nregs; r++)
		n += reg_units(&f->regs[r]);
	return n;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint32_t live_units(const uint8_t *units, const uint64_t *set,
			   uint32_t words)
{
	uint32_t n = 0;
	for (uint32_t w = 0; w < words; w++)
		for (uint64_t bits = set[w]; bits; bits &= bits - 1)
			n += units[w * 64 + (uint32_t)__builtin_ctzll(bits)];
	return n;
}

static uint32_t function_peak(struct estimate *e, const struct ir_sym *fn);

static uint32_t callee_peak(struct estimate *e, const struct ir_insn *in)
{
	bool indirect;
	const struct ir_sym *callee = layout_direct_callee(in, &indirect);
	if (callee)
		return function_peak(e, callee);
	uint32_t most = 0;
	for (uint32_t r = 0; indirect && r < e->k->layout.nreach; r++) {
		const struct ir_sym *fn = e->k->layout.reach[r];
		if (!fn->func->is_entry)
			most = max_u32(most, function_peak(e, fn));
	}
	return most;
}

/* The peak of @f's blocks, given its liveness @l and register sizes. */
static uint32_t walk_blocks(struct estimate *e, const struct ir_func *f,
			    const struct ir_live *l, const uint8_t *units,
			    uint64_t *set)
{
	uint32_t words = ir_live_words(l);
	uint32_t peak = 0;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		memcpy(set, ir_live_out(l, b), (size_t)words * 8);
		uint32_t live = live_units(units, set, words);
		peak = max_u32(peak, live);
		for (uint32_t i = blk->count; i-- > 0;) {
			const struct ir_insn *in = &f->insns[blk->first + i];
			if (in->op == OP_CALL)
				peak = max_u32(peak, live + callee_peak(e, in));
			ir_live_step(l, blk->first + i, set);
			live = live_units(units, set, words);
			peak = max_u32(peak, live);
		}
	}
	return peak;
}

static uint32_t walk_function(struct estimate *e, const struct ir_func *f)
{
	size_t words = (f->nregs + 63) / 64 + 1;
	if (!f->nblocks || (f->nblocks + 1) * words > ESTIMATE_MAX_WORDS)
		return declared_units(f);
	struct ir_live *l = ir_live_solve(f, NULL);
	uint8_t *units = calloc(words * 64, 1);
	uint64_t *set = malloc(words * 8);
	uint32_t peak;
	if (l && units && set) {
		for (uint32_t r = 0; r < f->nregs; r++)
			units[r] = (uint8_t)reg_units(&f->regs[r]);
		peak = walk_blocks(e, f, l, units, set);
	} else {
		peak = declared_units(f);
	}
	ir_live_free(l);
	free(units);
	free(set);
	return peak;
}

static uint32_t function_peak(struct estimate *e, const struct ir_sym *fn)
{
	uint32_t id = fn->id;
	if (e->state[id] == 1)
		return 0;
	if (e->state[id] == 0) {
		e->state[id] = 1;
		e->peak[id] = walk_function(e, fn->func);
		e->state[id] = 2;
	}
	return e->peak[id];
}

uint32_t reg_estimate_live(const struct ptx_kernel *k)
{
	uint32_t nfuncs = k->prog->nfuncs + 1;
	struct estimate e = { .k = k };
	e.peak = calloc(nfuncs, sizeof(*e.peak));
	e.state = calloc(nfuncs, 1);
	uint32_t peak = e.peak && e.state ? function_peak(&e, k->sym)
					  : declared_units(k->sym->func);
	free(e.peak);
	free(e.state);
	return peak;
}
