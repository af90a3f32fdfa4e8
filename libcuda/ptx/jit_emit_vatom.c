// SPDX-License-Identifier: MIT
/*
 * Shared-memory atomics in the JIT's vector form: one check of every
 * lane's address at once, then each lane's read-modify-write inline,
 * in lane order, with no check of its own.
 *
 * A CTA's threads all run on one worker thread and its shared memory
 * is that worker's alone (jit_emit_mem.c's plain_rmw), so the lanes'
 * operations are plain loads and stores one after the other; lanes
 * that hit one word see each other's results in lane order and return
 * the old values the interpreter returns. Should any lane's address be
 * out of the CTA's shared memory or misaligned, the group takes the
 * lane-by-lane path of jit_emit_vmem.c instead, whose checks do the
 * earlier lanes' operations and fault at the first bad lane, as the
 * interpreter does. A shared-memory histogram pays this per element:
 * eight checks became one.
 */
#include "jit_emit.h"

#define B (e->b)

/* Every lane's offset (<W x i64>) lies in the shared window, aligned to
 * @size: jit_in_window()'s rotate, lane by lane, then one test. */
static LLVMValueRef all_in_window(struct emit *e, LLVMValueRef off,
				  unsigned size)
{
	LLVMValueRef in = jit_in_window(e, off, e->shared_size, size);
	LLVMTypeRef it = LLVMTypeOf(in);
	return jit_intrinsic(e, "llvm.vector.reduce.and", &it, 1, &in, 1);
}

/* The lanes' operations, in lane order; their old values (<W x iN>). */
static LLVMValueRef each_lane(struct emit *e, const struct ir_insn *in,
			      const struct jit_atom_form *f, LLVMValueRef off,
			      LLVMValueRef b, LLVMValueRef c, LLVMTypeRef it)
{
	LLVMValueRef olds = LLVMGetUndef(LLVMVectorType(it, e->width));
	for (unsigned l = 0; l < e->width; l++) {
		LLVMValueRef lane = s32(e, l);
		LLVMValueRef o = LLVMBuildExtractElement(B, off, lane, "");
		LLVMValueRef p = LLVMBuildGEP2(B, e->scalar[1], e->shared, &o,
					       1, "");
		LLVMValueRef bl = LLVMBuildExtractElement(B, b, lane, "");
		LLVMValueRef cl = LLVMBuildExtractElement(B, c, lane, "");
		jit_lanes(e, 0);
		LLVMValueRef old = jit_atomic_op(e, in, p, bl, cl, f->kind, it);
		jit_lanes(e, e->width);
		olds = LLVMBuildInsertElement(B, olds, old, lane, "");
	}
	return olds;
}

bool jit_vec_shared_atom(struct emit *e, const struct ir_insn *in,
			 const struct jit_atom_form *f, LLVMValueRef addr,
			 LLVMValueRef b, LLVMValueRef c,
			 LLVMBasicBlockRef *done)
{
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, f->size * 8);
	LLVMValueRef off = LLVMBuildZExt(B, LLVMBuildTrunc(B, addr, e->i32, ""),
					 e->i64, "");
	LLVMBasicBlockRef fast = jit_new_block(e, "vsatom");
	LLVMBasicBlockRef slow = jit_new_block(e, "vsatomlanes");
	*done = jit_new_block(e, "vsatomed");
	LLVMBuildCondBr(B, all_in_window(e, off, f->size), fast, slow);
	LLVMPositionBuilderAtEnd(B, fast);
	e->stats.shared_atom++;
	LLVMValueRef olds = each_lane(e, in, f, off, b, c, it);
	if (!f->red && !jit_set_bits(e, &in->opnd[0], olds, false))
		return false;
	LLVMBuildBr(B, *done);
	LLVMPositionBuilderAtEnd(B, slow);
	return true;
}
