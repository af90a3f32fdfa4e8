// SPDX-License-Identifier: MIT
/*
 * Bit-field instructions of the JIT, scalar and vector alike: bfi, as the
 * interpreter computes it (exec_int.c): a's low len bits into b at pos;
 * b itself when len is 0 or pos past the register, len cut at its top;
 * the .b32 form reads pos and len modulo 256. nvcc's cooperative groups
 * build the grid workspace's address with it.
 */
#include "jit_emit.h"

#define B (e->b)

/* @n bits set at the bottom of a @t (@n at most its width). */
static LLVMValueRef low_mask(struct emit *e, LLVMTypeRef t, LLVMValueRef n,
			     unsigned bits)
{
	LLVMValueRef full = LLVMBuildICmp(B, LLVMIntUGE, n,
					  jit_const(e, t, bits), "");
	/* a shift by the width is poison: shift by 0 there instead */
	LLVMValueRef sh = LLVMBuildSelect(B, full, jit_const(e, t, 0), n, "");
	LLVMValueRef m = LLVMBuildSub(B, LLVMBuildShl(B, jit_const(e, t, 1),
						      sh, ""),
				      jit_const(e, t, 1), "");
	return LLVMBuildSelect(B, full, LLVMConstAllOnes(t), m, "");
}

bool jit_emit_bfi(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned bits = ptx_type_size(t) * 8;
	LLVMTypeRef it = jit_type(e, t);
	if (in->nopnds != 5 || (bits != 32 && bits != 64) || !it ||
	    ptx_type_is_float(t))
		return jit_unsupported(e, "type or operands");
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = a ? jit_get(e, &in->opnd[2], t) : NULL;
	LLVMValueRef pos = b ? jit_get(e, &in->opnd[3], PTX_T_U32) : NULL;
	LLVMValueRef len = pos ? jit_get(e, &in->opnd[4], PTX_T_U32) : NULL;
	if (!len)
		return false;
	if (bits == 32) {
		pos = LLVMBuildAnd(B, pos, jit_const(e, e->i32, 0xff), "");
		len = LLVMBuildAnd(B, len, jit_const(e, e->i32, 0xff), "");
	} else {
		pos = LLVMBuildZExt(B, pos, it, "");
		len = LLVMBuildZExt(B, len, it, "");
	}
	LLVMValueRef w = jit_const(e, it, bits);
	LLVMValueRef keep_b = LLVMBuildOr(
		B, LLVMBuildICmp(B, LLVMIntEQ, len, jit_const(e, it, 0), ""),
		LLVMBuildICmp(B, LLVMIntUGE, pos, w, ""), "");
	LLVMValueRef p = LLVMBuildSelect(B, keep_b, jit_const(e, it, 0), pos,
					 "");
	LLVMValueRef room = LLVMBuildSub(B, w, p, "");
	LLVMValueRef n = LLVMBuildSelect(
		B, LLVMBuildICmp(B, LLVMIntUGT, len, room, ""), room, len, "");
	LLVMValueRef mask = LLVMBuildShl(B, low_mask(e, it, n, bits), p, "");
	LLVMValueRef r = LLVMBuildOr(
		B, LLVMBuildAnd(B, b, LLVMBuildNot(B, mask, ""), ""),
		LLVMBuildAnd(B, LLVMBuildShl(B, a, p, ""), mask, ""), "");
	return jit_set(e, &in->opnd[0], LLVMBuildSelect(B, keep_b, b, r, ""),
		       t);
}
