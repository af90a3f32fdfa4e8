// SPDX-License-Identifier: MIT
/*
 * Lazy NaN canonicalisation for the JIT. The H100 (and so the
 * interpreter) writes one NaN, 0x7fffffff, for every f32 NaN result.
 * Doing that after each operation costs a compare and a select in the
 * hottest loops (an FMA chain), so compiled code does it where the bits
 * can be seen: a register whose every write is an f32 arithmetic result
 * keeps whatever NaN the CPU made, and jit_get() makes the canonical NaN
 * when an instruction that can tell NaNs apart (a store, a move, a
 * conversion, integer arithmetic, an atomic) reads it. Arithmetic and
 * comparisons cannot: a NaN in gives a NaN out (or, for min/max and
 * setp, the same choice for every NaN), whose bits are made canonical
 * in turn where they are seen. So every value that leaves the registers
 * is the one the interpreter has.
 */
#include "jit_emit.h"

#include <stdlib.h>

/* The f32 operations jit_emit_float() compiles. */
static bool is_f32_arith(const struct ir_insn *in)
{
	if (!in->ntypes || in->types[0] != PTX_T_F32)
		return false;
	switch (in->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV:
	case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX: case OP_FMA:
	case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS:
	case OP_LG2: case OP_EX2: case OP_TANH:
		return true;
	default:
		return false;
	}
}

/*
 * A move of an immediate whose bits a lazy register may hold: not an
 * f32 NaN, or the canonical one. Making the register's NaNs canonical
 * where they are read then changes none of that value's bits; an
 * accumulator set to 0.0f before its loop (a reduction's, SGEMM's)
 * stays lazy, with no compare and select in the loop.
 */
static bool canonical_imm_move(const struct ir_insn *in)
{
	if (in->op != OP_MOV || in->nopnds != 2 || !in->ntypes ||
	    in->opnd[0].kind != OPND_REG || in->opnd[1].kind != OPND_IMM)
		return false;
	unsigned t = in->types[0];
	if (t != PTX_T_F32 && t != PTX_T_B32 && t != PTX_T_U32 &&
	    t != PTX_T_S32)
		return false;
	uint32_t bits = (uint32_t)ir_imm_value(&in->opnd[1], t);
	bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
	return !nan || bits == 0x7fffffffu;
}

bool jit_nan_blind(const struct ir_insn *in)
{
	if (!in)
		return false;
	if (in->op == OP_SETP)
		return in->ntypes && in->types[in->ntypes - 1] == PTX_T_F32;
	return is_f32_arith(in);
}

/* Registers @o names, as a destination: none of them may stay lazy. */
static void exclude(const struct ir_func *f, const struct ir_operand *o,
		    uint8_t *lazy)
{
	if (o->kind == OPND_REG) {
		lazy[o->reg] = 0;
		if (o->pair)
			lazy[o->reg2] = 0;
	} else if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
		const struct ir_operand *el = ir_vec_elems(f, o);
		for (uint32_t i = 0; i < o->reg2; i++)
			exclude(f, &el[i], lazy);
	}
}

uint8_t *jit_nan_lazy_registers(const struct ir_func *f)
{
	uint8_t *lazy = calloc(f->nregs + 1, 1);
	if (!lazy)
		return NULL;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (is_f32_arith(in) && in->nopnds &&
		    in->opnd[0].kind == OPND_REG && !in->opnd[0].pair)
			lazy[in->opnd[0].reg] = 1;
	}
	/* any other write (a move, a load, a conversion) keeps its bits,
	 * but for a move of canonical bits */
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (is_f32_arith(in) || canonical_imm_move(in) || !in->nopnds)
			continue;
		exclude(f, &in->opnd[0], lazy);
	}
	return lazy;
}
