/* SPDX-License-Identifier: MIT */
/*
 * Register shapes across the lanes of a group (ir_shape.c): what the
 * JIT's vector form can know at compile time about a register's value
 * in W consecutive threads that run side by side.
 *
 *  - uniform: the same bits in every lane;
 *  - strided: lane i holds lane 0's value + i * stride, for a constant
 *    stride; "exact" when that holds for the whole 64-bit register as
 *    the JIT keeps it (a narrow value extended by its type), else only
 *    for its low 32 bits (enough for a shared-memory offset, which is
 *    32-bit, behind the access's bounds check);
 *  - varying: anything else.
 *
 * The analysis assumes what the vector form guarantees before it runs
 * a group: the W threads are consecutive in x within one row of the
 * CTA, the first a multiple of W (ntid.x % W == 0). It is
 * flow-insensitive and conservative: a register's shape is the join of
 * the shapes of all its writes (and of its initial zero where a read
 * may come first); unless the lanes run in lockstep, a write under a
 * branch or guard that is not uniform makes it varying.
 */
#ifndef VCUDA_PTX_IR_SHAPE_H
#define VCUDA_PTX_IR_SHAPE_H

#include "ir.h"

enum ir_shape_kind {
	SHAPE_UNDEF = 0,	/* no write seen yet (analysis only) */
	SHAPE_UNIFORM,
	SHAPE_STRIDED,
	SHAPE_VARYING,
};

struct ir_shape {
	uint8_t kind;		/* enum ir_shape_kind */
	bool exact;		/* strided in all 64 bits, not only the low 32 */
	uint8_t tz;		/* lane 0's value is a multiple of 2^tz */
	int64_t stride;		/* strided: lane i = lane 0 + i * stride */
};

struct ir_shapes {
	uint32_t nregs, nblocks;
	struct ir_shape *reg;	/* per register */
	bool *divergent;	/* per block: under a branch that is not uniform */
};

/*
 * The shapes of @f's registers for groups of @lanes (a power of two,
 * dividing 32); NULL when out of memory. @lockstep: the group's lanes
 * run every instruction together or not at all (where they part ways
 * the group stops, as the vector form does today), so a write under a
 * branch or guard that is not uniform still yields its shape. Without
 * it (masked execution, where some lanes skip a write and keep their
 * old value) such writes make their register varying.
 */
struct ir_shapes *ir_shapes_compute(const struct ir_func *f, unsigned lanes,
				    bool lockstep);
/*
 * The shapes of a form whose lanes run in lockstep within a region (a
 * barrier interval) but may come to a region's start from code that
 * did not, as the vector form does: the registers in @carried (a bit
 * per register: live after some barrier, so restored from what any
 * code left) take the shapes of the analysis without lockstep; writes
 * in the blocks marked in @masked (run under a lane mask) are not in
 * lockstep; all others are. NULL when out of memory.
 */
struct ir_shapes *ir_shapes_compute_regions(const struct ir_func *f,
					    unsigned lanes,
					    const uint64_t *carried,
					    const bool *masked);
void ir_shapes_free(struct ir_shapes *s);

/* The shape of operand @o read as an address or a value: a register's,
 * plus an immediate offset; constants and symbols are uniform. */
struct ir_shape ir_shape_operand(const struct ir_shapes *s,
				 const struct ir_operand *o);

/* Writes one line per register ("%r3 strided 4 exact") and the
 * divergent blocks, for tests and VCUDA_JIT_DUMP_SHAPES. */
void ir_shapes_print(const struct ir_func *f, const struct ir_shapes *s,
		     FILE *out);

#endif
