// SPDX-License-Identifier: MIT
/*
 * A software stride prefetcher for the vector form's global loads.
 *
 * A grid-stride loop (for (i = global id; i < n; i += grid size))
 * runs each group of lanes through all its iterations before the next
 * group starts, so a group's loads step by the whole grid's width: a
 * megabyte for a reduction over 1024 blocks of 256 floats, 64 KiB for
 * a histogram over 256 blocks of 256 bytes. The CPU's own prefetchers
 * stop at a page's edge, and addresses a power of two apart all fall
 * in one set of the L1 and L2 caches, so each load waits on the L3 or
 * on memory. Each load site therefore remembers lane 0's address of
 * its previous run and prefetches as far ahead again, times
 * PREFETCH_AHEAD (none on its first run). A prefetch never faults, so
 * a wrong guess (a new group) costs only the instruction. Only sites in a loop do
 * it: elsewhere a site runs once a group, consecutive groups read
 * consecutive memory, which the CPU's prefetchers follow (scan lost 7%
 * to the extra instructions).
 */
#include "jit_emit.h"

#define B (e->b)

/* Runs of a site ahead: its latency in memory over a loop trip's. */
#define PREFETCH_AHEAD 6

/*
 * In a loop whose groups take turns (jit_emit_vyield.c), fewer: a
 * turn's trips read lines a grid's width apart, a multiple of 64 KiB
 * for the benchmark's histogram and reduction, which all fall in one
 * set of the L2 (1024 or 2048 sets); its 16 trips and the lines
 * prefetched ahead must fit that set's ways (16 or 20) until the CTA's
 * other groups have read the rest of each line. Histogram over 16 M
 * bytes, JIT on one thread: 31.5 ms with 6, 27 ms with 2, 28 with 1,
 * 30 with 4; the reduction the same with 2 as with 6 to 16.
 */
#define TURN_AHEAD 2

/* An i64 alloca in the entry block, 0 at the start. */
static LLVMValueRef last_address_slot(struct emit *e)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(e->cx);
	LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(e->entry_bb));
	LLVMTypeRef i64 = e->scalar[4];
	LLVMValueRef slot = LLVMBuildAlloca(b, i64, "");
	LLVMBuildStore(b, LLVMConstInt(i64, 0, false), slot);
	LLVMDisposeBuilder(b);
	return slot;
}

/* @in lies on a cycle of blocks: between a backward branch's target and
 * the branch, in the IR's block order. */
static bool in_loop(const struct ir_func *f, const struct ir_insn *in)
{
	uint32_t at = (uint32_t)(in - f->insns);
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		for (uint32_t i = 0; i < blk->nsucc; i++) {
			uint32_t s = blk->succ[i];
			if (s < f->nblocks && s <= b &&
			    f->blocks[s].first <= at &&
			    at < blk->first + blk->count)
				return true;
		}
	}
	return false;
}

void jit_vec_prefetch(struct emit *e, const struct ir_insn *in,
		      LLVMValueRef lane0)
{
	if (!in_loop(e->f, in))	/* runs once a group: nothing to learn */
		return;
	e->stats.prefetch++;
	LLVMTypeRef i64 = e->scalar[4], i32 = e->scalar[3];
	LLVMValueRef slot = last_address_slot(e);
	LLVMValueRef last = LLVMBuildLoad2(B, i64, slot, "");
	LLVMValueRef zero = LLVMConstInt(i64, 0, false);
	/* no step before a first run: no prefetch at 7 x lane 0's address */
	LLVMValueRef step = LLVMBuildSelect(
		B, LLVMBuildICmp(B, LLVMIntEQ, last, zero, ""), zero,
		LLVMBuildSub(B, lane0, last, ""), "");
	LLVMBuildStore(B, lane0, slot);
	unsigned runs = jit_vyield_in_turns(e, in) ? TURN_AHEAD :
						      PREFETCH_AHEAD;
	LLVMValueRef ahead = LLVMBuildAdd(
		B, lane0, LLVMBuildMul(B, step, LLVMConstInt(i64, runs, false), ""),
		"");
	LLVMTypeRef p8 = LLVMPointerType(e->scalar[1], 0);
	LLVMValueRef args[4] = {
		LLVMBuildIntToPtr(B, ahead, p8, ""),
		LLVMConstInt(i32, 0, false),	/* a read */
		LLVMConstInt(i32, 3, false),	/* into every level */
		LLVMConstInt(i32, 1, false),	/* data */
	};
	jit_intrinsic(e, "llvm.prefetch", &p8, 1, args, 4);
}
