// SPDX-License-Identifier: MIT
/*
 * What the vector form (jit_emit_vec.c) takes from the register shapes
 * of ir_shape.c: the address shapes that let memory accesses choose
 * their path at compile time (jit_emit_vmem.c), branches whose guard is
 * the same in every lane (no all-lanes test), and the condition the
 * shapes assume, checked once per CTA: a group of W threads lies in one
 * row (ntid.x % W == 0). Where it does not, the scalar loop runs the
 * CTA. VCUDA_JIT_DUMP_SHAPES=1 prints each kernel's shapes on stderr.
 */
#include "jit_emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B (e->b)

static bool dump_shapes(void)
{
	const char *v = getenv("VCUDA_JIT_DUMP_SHAPES");
	return v && *v && strcmp(v, "0");
}

/* Some branch skips a piece the vector form runs under a lane mask. */
static bool has_masked_piece(struct emit *e)
{
	for (uint32_t i = 0; i < e->f->ninsns; i++)
		if (jit_vmask_fits(e, &e->f->insns[i]))
			return true;
	return false;
}

bool jit_vec_shapes_begin(struct emit *e)
{
	/*
	 * Lockstep: where lanes part ways, the group goes to the scalar
	 * loop (jit_emit_vec.c's diverge) and never comes back, unless a
	 * barrier follows: the next region restores what the scalar loop
	 * computed per thread, so there the shapes are the masked ones.
	 * So they are where a piece runs under a lane mask
	 * (jit_emit_vmask.c): its writes keep the other lanes' values.
	 */
	bool lockstep = !e->has_barrier && !has_masked_piece(e);

	e->shapes = ir_shapes_compute(e->f, JIT_LANES, lockstep);
	if (!e->shapes)
		return jit_unsupported(e, "out of memory (shapes)");
	if (dump_shapes())
		ir_shapes_print(e->f, e->shapes, stderr);
	return true;
}

void jit_vec_shapes_end(struct emit *e)
{
	ir_shapes_free(e->shapes);
	e->shapes = NULL;
}

struct ir_shape jit_vec_address_shape(struct emit *e,
				      const struct ir_insn *in, unsigned i)
{
	struct ir_shape none = { .kind = SHAPE_VARYING };
	if (!e->shapes || i >= in->nopnds)
		return none;
	return ir_shape_operand(e->shapes, &in->opnd[i]);
}

LLVMValueRef jit_vec_uniform_guard(struct emit *e, const struct ir_insn *in,
				   LLVMValueRef g)
{
	if (!e->shapes || !in->guarded || in->guard_reg >= e->shapes->nregs ||
	    e->shapes->reg[in->guard_reg].kind != SHAPE_UNIFORM)
		return NULL;
	return LLVMBuildExtractElement(B, g, LLVMConstInt(e->scalar[3], 0,
							  false), "");
}

void jit_vec_rows_gate(struct emit *e, LLVMValueRef rows,
		       LLVMBasicBlockRef go)
{
	LLVMBasicBlockRef none = jit_new_block(e, "vnorows");
	LLVMBuildCondBr(B, rows, go, none);
	LLVMPositionBuilderAtEnd(B, none);
	/* 2: every thread to the scalar loop (vstate stays 0) */
	LLVMBuildRet(B, LLVMConstInt(e->scalar[3], 2, false));
}
