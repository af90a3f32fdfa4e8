// SPDX-License-Identifier: MIT
/*
 * What the vector form (jit_emit_vec.c) takes from the register shapes
 * of ir_shape.c: the address shapes that let memory accesses choose
 * their path at compile time (jit_emit_vmem.c), branches whose guard is
 * the same in every lane (no all-lanes test), and the condition the
 * shapes assume, checked once per CTA: a group of W threads lies in one
 * row (ntid.x % W == 0). Where it does not, the scalar loop runs the
 * CTA. W is chosen per kernel (jit_vec_width): 16, two AVX2 vectors per
 * value (a chain of dependent FMAs such as SGEMM's runs as two
 * independent chains, and a region's per-group costs are paid half as
 * often), unless the kernel's blocks are known not to allow it, then 8.
 * VCUDA_JIT_DUMP_SHAPES=1 prints each kernel's shapes on stderr.
 */
#include "jit_emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B (e->b)

/* VCUDA_JIT_LANES: "0" no vector form, "8" or "16" that width; else
 * (unset or another value) -1, the width the blocks allow. */
static int lanes_setting(void)
{
	const char *v = getenv("VCUDA_JIT_LANES");
	if (!v || !*v)
		return -1;
	if (!strcmp(v, "0"))
		return 0;
	if (!strcmp(v, "8"))
		return JIT_LANES_NARROW;
	if (!strcmp(v, "16"))
		return JIT_LANES_MAX;
	return -1;
}

unsigned jit_vec_width(const struct ptx_kernel *k)
{
	int set = lanes_setting();
	if (set >= 0)
		return (unsigned)set;
	/* a kernel compiled before any launch (the blocks unknown) gets
	 * the wider form: blocks of 32 threads or a multiple are the rule */
	uint32_t x = k->info.reqntid[0];
	if (!x)
		x = __atomic_load_n(&k->jit_ntid_x, __ATOMIC_ACQUIRE);
	if (x % JIT_LANES_MAX || jit_vyield_likely(k->sym->func))
		return JIT_LANES_NARROW;
	return JIT_LANES_MAX;
}

static bool dump_shapes(void)
{
	const char *v = getenv("VCUDA_JIT_DUMP_SHAPES");
	return v && *v && strcmp(v, "0");
}

/* The registers live after some barrier: a region starts with what
 * the scalar loop may have left in them. */
static void carried_registers(struct emit *e, uint64_t *carried)
{
	const struct ir_func *f = e->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		if (f->insns[i].op != OP_BAR && f->insns[i].op != OP_BARRIER)
			continue;
		for (uint32_t r = 0; r < f->nregs; r++)
			if (jit_live_after(e->live, i, r))
				carried[r / 64] |= 1ull << (r % 64);
	}
}

/* The blocks a branch skips that run under a lane mask. */
static void masked_blocks(struct emit *e, bool *masked)
{
	const struct ir_func *f = e->f;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (!jit_vmask_fits(e, in))
			continue;
		uint32_t to = jit_target_block(e, &in->opnd[0]);
		for (uint32_t b = in->block + 1; b < to && b < f->nblocks; b++)
			masked[b] = true;
	}
}

bool jit_vec_shapes_begin(struct emit *e)
{
	/*
	 * Lockstep: where lanes part ways, the group goes to the scalar
	 * loop (jit_emit_vec.c's diverge) and never comes back in that
	 * region. A later region restores what the scalar loop computed
	 * per thread: the registers live after a barrier take the shapes
	 * without lockstep. So do writes in a piece run under a lane mask
	 * (jit_emit_vmask.c), which keep the other lanes' values.
	 */
	const struct ir_func *f = e->f;
	uint64_t *carried = calloc((f->nregs + 63) / 64 + 1, 8);
	bool *masked = calloc(f->nblocks + 1, sizeof(*masked));
	if (carried && masked) {
		carried_registers(e, carried);
		masked_blocks(e, masked);
		e->shapes = ir_shapes_compute_regions(f, e->width, carried,
						      masked);
	}
	free(carried);
	free(masked);
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
