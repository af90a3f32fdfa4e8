/* SPDX-License-Identifier: MIT */
/*
 * Register liveness over the IR, for every back end: per block, the
 * registers some path from there reads before writing (live-in) and
 * those live at its end (live-out), one bit per register. The
 * interpreter uses it to zero at a warp's start only the registers live
 * at the entry (lower_frame.c); the JIT to save at a barrier, and at a
 * guarded instruction of the vector form, only the live ones
 * (jit_live.c).
 */
#ifndef VCUDA_PTX_IR_LIVE_H
#define VCUDA_PTX_IR_LIVE_H

#include "ir.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * Does @in's result write its destination registers in every lane that
 * may later read them? When not, the write does not end their liveness
 * (the interpreter says no for instructions touching other lanes).
 * NULL: every unguarded instruction with a result does.
 */
typedef bool (*ir_live_kills_fn)(const struct ir_insn *in);

struct ir_live;

/* Solves @f's liveness to a fixed point; NULL when out of memory. */
struct ir_live *ir_live_solve(const struct ir_func *f, ir_live_kills_fn kills);
void ir_live_free(struct ir_live *l);

/* 64-bit words in each set. */
uint32_t ir_live_words(const struct ir_live *l);
const uint64_t *ir_live_in(const struct ir_live *l, uint32_t block);
const uint64_t *ir_live_out(const struct ir_live *l, uint32_t block);

/* @set, live after instruction @insn, becomes the set live before it. */
void ir_live_step(const struct ir_live *l, uint32_t insn, uint64_t *set);

/* The registers live before instruction @insn, into @set (words long). */
void ir_live_before(const struct ir_live *l, uint32_t insn, uint64_t *set);

/* Adds the registers @o reads (a destination's too) to @set. */
void ir_live_operand_regs(const struct ir_func *f, const struct ir_operand *o,
			  uint64_t *set);

/* Does opnd[0] of @in receive a result? */
bool ir_live_writes_first(const struct ir_insn *in);

static inline bool ir_live_has(const uint64_t *set, uint32_t r)
{
	return set[r / 64] >> (r % 64) & 1;
}

#endif
