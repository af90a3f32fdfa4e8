/* SPDX-License-Identifier: MIT */
/*
 * One memory access of the JIT's vector form, shared by its paths:
 * jit_emit_vmem.c (contiguous, uniform, lane by lane) and
 * jit_emit_vstride.c (strided by a constant other than the element).
 */
#ifndef VCUDA_PTX_JIT_VMEM_H
#define VCUDA_PTX_JIT_VMEM_H

#include "jit_emit.h"

/* One memory instruction of the group, read before any path runs. */
struct vaccess {
	const struct ir_insn *in;
	enum jit_mem_kind kind;
	LLVMValueRef addr;		/* <W x i64> as the scalar code sees it */
	LLVMValueRef off;		/* its offset: shared is 32-bit */
	LLVMValueRef lane0;		/* off of lane 0 (i64) */
	unsigned size, n;		/* element size, elements */
	bool st, vol;
	LLVMTypeRef it;			/* iN of an element */
	const struct ir_operand *ops;	/* data operands */
	LLVMValueRef data[4];		/* st: <W x iN> per element */
	struct jit_site site;
	LLVMBasicBlockRef join;
};

/* The inline check that lane 0's element (at v->lane0) and the
 * element @last bytes after it lie in the access's window (the site's
 * cached range, or shared memory), each aligned to a lane's bytes;
 * @last a multiple of them (negative: before it). */
LLVMValueRef jit_vmem_ends_ok(struct emit *e, struct vaccess *v,
			      int64_t last);
/* The host pointer (i8*) of lane 0's element, after that check. */
LLVMValueRef jit_vmem_lane0_ptr(struct emit *e, struct vaccess *v);
/* The lane-major order of a store's n data vectors, one <W*n x iN>. */
LLVMValueRef jit_vmem_interleave(struct emit *e, struct vaccess *v);

/* Reads @in (ld or st, not ld.param's address) into @v: its address
 * and, for a store, its data; false after jit_unsupported. */
bool jit_vmem_read(struct emit *e, const struct ir_insn *in,
		   struct vaccess *v);
/* Lane by lane in lane order, the lanes of @active (i32, bit l: lane
 * l) only, through jit_lanes_access(); on to v->join, or to the fault
 * block. False after jit_unsupported. */
bool jit_vmem_per_lane(struct emit *e, struct vaccess *v,
		       LLVMValueRef active);

/* Lanes @stride bytes apart (a constant) take the strided path
 * (jit_emit_vstride.c): a multiple of a lane's bytes, not equal to
 * them, and not volatile. */
bool jit_vstride_fits(const struct vaccess *v, int64_t stride);
/* That path: one check of its ends, then inline, on to v->join; to
 * @slow (lane by lane) when the check fails. False after
 * jit_unsupported. */
bool jit_vstride_emit(struct emit *e, struct vaccess *v, int64_t stride,
		      LLVMBasicBlockRef slow);

#endif
