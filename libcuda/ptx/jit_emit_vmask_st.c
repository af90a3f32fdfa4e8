// SPDX-License-Identifier: MIT
/*
 * A store in a piece the vector form runs under a lane mask
 * (jit_emit_vmask.c): `if (tid == 255) sums[b] = s[255];` in a group.
 * The active lanes' addresses are checked inline, each against the
 * window (the site's cached range, or shared memory); where all pass,
 * one masked scatter writes the active lanes' elements, in lane order
 * where two lanes share an address (llvm.masked.scatter's order, as
 * the interpreter's and the scalar code's). Else the active lanes go
 * one by one through jit_lanes_access(), which learns the site's range
 * or faults in the first active lane whose access is bad, after the
 * active lanes before it have stored, as the interpreter does; a
 * masked-out lane neither stores nor faults.
 *
 * Single elements only (no .v2/.v4: a scatter per element would store
 * element-major) and not volatile (jit_vmask_fits).
 */
#include "jit_vmem.h"

#define B (e->b)

bool jit_vmask_store_fits(const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t);
	if (in->op != OP_ST || in->nopnds != 2 || in->ntypes != 1 ||
	    in->vec > 1 || !size || size > 8 || jit_mem_ordered(in))
		return false;
	return in->space == SPACE_GLOBAL || in->space == SPACE_SHARED ||
	       in->space == SPACE_NONE;
}

/* Every active lane's access passes the inline check (i1). */
static LLVMValueRef active_fine(struct emit *e, struct vaccess *v)
{
	LLVMValueRef lo = LLVMConstInt(e->scalar[4], 0, false);
	LLVMValueRef len = e->shared_size;
	if (v->kind == MK_GLOBAL) {
		lo = LLVMBuildLoad2(B, e->scalar[4], v->site.lo_slot, "");
		len = LLVMBuildLoad2(B, e->scalar[4], v->site.len_slot, "");
	}
	LLVMValueRef d = LLVMBuildSub(B, v->off, jit_splat(e, lo), "");
	LLVMValueRef fine = jit_in_window(e, d, len, v->size);
	fine = LLVMBuildOr(B, fine, LLVMBuildNot(B, e->mask, ""), "");
	LLVMTypeRef t = LLVMTypeOf(fine);
	return jit_intrinsic(e, "llvm.vector.reduce.and", &t, 1, &fine, 1);
}

/* The active lanes' elements, one masked scatter. */
static void scatter(struct emit *e, struct vaccess *v)
{
	LLVMTypeRef pvt = LLVMVectorType(LLVMPointerType(v->it, 0), e->width);
	LLVMValueRef p = v->kind == MK_SHARED ?
		LLVMBuildBitCast(B, LLVMBuildGEP2(B, e->scalar[1], e->shared,
						  &v->off, 1, ""),
				 pvt, "") :
		LLVMBuildIntToPtr(B, v->off, pvt, "");
	LLVMTypeRef types[2] = { LLVMTypeOf(v->data[0]), pvt };
	LLVMValueRef args[4] = { v->data[0], p, s32(e, v->size), e->mask };
	jit_intrinsic(e, "llvm.masked.scatter", types, 2, args, 4);
}

/* The mask as bits, lane l at bit l (i32). */
static LLVMValueRef mask_bits(struct emit *e)
{
	LLVMTypeRef bits = LLVMIntTypeInContext(e->cx, e->width);
	return LLVMBuildZExt(B, LLVMBuildBitCast(B, e->mask, bits, ""),
			     e->scalar[3], "");
}

bool jit_vmask_store(struct emit *e, const struct ir_insn *in)
{
	struct vaccess v;
	if (!jit_vmem_read(e, in, &v))
		return false;
	if (v.kind == MK_PARAM || v.n != 1)
		return jit_unsupported(e, "masked store");
	v.join = jit_new_block(e, "vmstjoin");
	LLVMBasicBlockRef go = jit_new_block(e, "vmst");
	LLVMBasicBlockRef lanes = jit_new_block(e, "vmstlanes");
	LLVMBuildCondBr(B, active_fine(e, &v), go, lanes);
	LLVMPositionBuilderAtEnd(B, go);
	e->stats.masked_store++;
	scatter(e, &v);
	LLVMBuildBr(B, v.join);
	LLVMPositionBuilderAtEnd(B, lanes);
	if (!jit_vmem_per_lane(e, &v, mask_bits(e)))
		return false;
	LLVMPositionBuilderAtEnd(B, v.join);
	return true;
}
