// SPDX-License-Identifier: MIT
/*
 * The JIT's vector form: a second function per kernel,
 *
 *	int32_t kernel_vec(struct jit_cta *cta, int32_t region)
 *
 * which runs the CTA's threads e->width at a time, a group of
 * consecutive linear thread ids side by side: each PTX register is a
 * <W x i64> (<W x i1> for a predicate), and the arithmetic is the
 * scalar emitter's own (jit_emit_ops.c, jit_emit_cvt.c), given vector
 * types (jit_lanes). The scalar function calls it first, then runs
 * whatever it left: the threads past the last whole group, groups with
 * a thread that exited, and groups whose lanes parted ways.
 *
 * The lanes must take the same branches, but for a forward branch over
 * a short piece of arithmetic, shared loads and stores, which runs
 * under a lane mask (jit_emit_vmask.c). Where another guard is not the same in every
 * lane, the group stops: it stores the registers live there in
 * dsave[register][thread], notes "resume before instruction i" in
 * vstate[thread], and the scalar loop runs each of its threads from
 * that instruction to the region's end (a barrier or exit), as it runs
 * any thread. A group that reaches a barrier saves in the scalar code's
 * layout, save[slot][thread], so either form can take the next region.
 * Threads of a region are unordered on a GPU; lanes keep thread order
 * among themselves (memory accesses lane by lane, faults naming the
 * first faulting lane).
 *
 * Each region (the code from the kernel's entry, or from a barrier, to
 * the barriers and exits that end it) has a loop over the groups of its
 * own, chosen once per call rather than once per group: it holds only
 * the blocks the region reaches, made on first use (jit_block), so a
 * block that two regions run (a loop around a barrier) is emitted in
 * each. A region restores only the registers it touches
 * (jit_vregion.c). Regions are numbered by their barriers' order in the
 * kernel, as the scalar function numbers them.
 */
#include "jit_emit.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define B (e->b)

/* <0, 1, .., W-1> */
static LLVMValueRef lane_ids(struct emit *e)
{
	LLVMValueRef el[JIT_LANES_MAX];
	for (unsigned i = 0; i < e->width; i++)
		el[i] = s32(e, i);
	return LLVMConstVector(el, e->width);
}

static LLVMValueRef reduce(struct emit *e, const char *name, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	return jit_intrinsic(e, name, &t, 1, &v, 1);
}

static LLVMValueRef all_of(struct emit *e, LLVMValueRef v)
{
	return reduce(e, "llvm.vector.reduce.and", v);
}

static LLVMValueRef any_of(struct emit *e, LLVMValueRef v)
{
	return reduce(e, "llvm.vector.reduce.or", v);
}

/* The group's lanes of @slot in a [slot][thread] array of i64: one
 * vector (jit_emit.c's save_slot() is the scalar side). */
static LLVMValueRef group_slot(struct emit *e, LLVMValueRef base,
			       uint32_t slot)
{
	LLVMTypeRef i64 = e->scalar[4];
	LLVMValueRef i = LLVMBuildAdd(
		B, LLVMBuildMul(B, s64(e, slot),
				LLVMBuildZExt(B, e->nthreads, i64, ""), ""),
		LLVMBuildZExt(B, e->gtid, i64, ""), "");
	LLVMValueRef p = LLVMBuildGEP2(B, i64, base, &i, 1, "");
	return LLVMBuildBitCast(B, p, LLVMPointerType(e->i64, 0), "");
}

/* Stores register @r of every lane at its thread's @slot. */
static void save_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
		       uint32_t slot)
{
	bool pred = e->f->regs[r].type == PTX_T_PRED;
	LLVMValueRef v = LLVMBuildLoad2(B, pred ? e->i1 : e->i64, e->regs[r],
					"");
	if (pred)
		v = LLVMBuildZExt(B, v, e->i64, "");
	LLVMSetAlignment(LLVMBuildStore(B, v, group_slot(e, base, slot)), 8);
}

static void restore_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
			  uint32_t slot)
{
	bool pred = e->f->regs[r].type == PTX_T_PRED;
	LLVMValueRef v = LLVMBuildLoad2(B, e->i64, group_slot(e, base, slot),
					"");
	LLVMSetAlignment(v, 8);
	if (pred)
		v = LLVMBuildICmp(B, LLVMIntNE, v, jit_const(e, e->i64, 0), "");
	LLVMBuildStore(B, v, e->regs[r]);
}

/* For jit_emit_vyield.c: a register's lanes saved and restored. */
void jit_vec_save_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
			uint32_t slot)
{
	save_lanes(e, r, base, slot);
}

void jit_vec_restore_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
			   uint32_t slot)
{
	restore_lanes(e, r, base, slot);
}

/* The group's threads' vstate[] = @state: the scalar loop's orders
 * (written for every whole group, every region); any but 1 leaves it
 * work. */
static void hand_over(struct emit *e, uint32_t state)
{
	LLVMValueRef idx = LLVMBuildZExt(B, e->gtid, e->scalar[4], "");
	LLVMValueRef p = LLVMBuildGEP2(B, e->scalar[3], e->vstate, &idx, 1, "");
	p = LLVMBuildBitCast(B, p, LLVMPointerType(e->i32, 0), "");
	LLVMSetAlignment(LLVMBuildStore(B, jit_const(e, e->i32, state), p), 4);
	if (state != 1)
		LLVMBuildStore(B, s32(e, 1), e->leftover);
	LLVMBuildBr(B, e->next_bb);
}

/* The group's lanes part ways before @in: the scalar loop goes on,
 * with the live registers the region may have written (the others it
 * finds in their slots). */
void jit_vec_diverge(struct emit *e, const struct ir_insn *in)
{
	uint32_t at = (uint32_t)(in - e->f->insns);
	for (uint32_t r = 0; r < e->f->nregs; r++)
		if (jit_live_before(e->live, at, r) &&
		    jit_slot_written(e->slots, at, r))
			save_lanes(e, r, e->dsave, r);
	hand_over(e, 2 + at);
}

/* @g (a guard of every lane) holds in all lanes -> @all, in some ->
 * @some, in none -> @none. */
static void split_lanes(struct emit *e, LLVMValueRef g, LLVMBasicBlockRef all,
			LLVMBasicBlockRef some, LLVMBasicBlockRef none)
{
	LLVMBasicBlockRef not_all = jit_new_block(e, "vnotall");
	LLVMBuildCondBr(B, all_of(e, g), all, not_all);
	LLVMPositionBuilderAtEnd(B, not_all);
	LLVMBuildCondBr(B, any_of(e, g), some, none);
}

/* @g (a guard of every lane): all -> @yes, none -> @no, else parting. */
static void branch3(struct emit *e, const struct ir_insn *in, LLVMValueRef g,
		    LLVMBasicBlockRef yes, LLVMBasicBlockRef no)
{
	LLVMValueRef same = jit_vec_uniform_guard(e, in, g);
	if (same) {	/* the same in every lane: no parting */
		LLVMBuildCondBr(B, same, yes, no);
		return;
	}
	LLVMBasicBlockRef part = jit_new_block(e, "vpart");
	split_lanes(e, g, yes, part, no);
	LLVMPositionBuilderAtEnd(B, part);
	jit_vec_diverge(e, in);
}

static LLVMValueRef guard_vec(struct emit *e, const struct ir_insn *in)
{
	LLVMValueRef p = LLVMBuildLoad2(B, e->i1, e->regs[in->guard_reg], "");
	return in->guard_neg ? LLVMBuildNot(B, p, "") : p;
}

/* The group's exited flags (jit_cta.exited), as one <W x i8>. */
static LLVMValueRef group_exited_flags(struct emit *e, LLVMTypeRef v8)
{
	LLVMValueRef idx = LLVMBuildZExt(B, e->gtid, e->scalar[4], "");
	LLVMValueRef p = LLVMBuildGEP2(B, e->scalar[1], e->exited, &idx, 1, "");
	return LLVMBuildBitCast(B, p, LLVMPointerType(v8, 0), "");
}

static void exit_group(struct emit *e)
{
	if (e->has_barrier) {
		LLVMTypeRef v8 = LLVMVectorType(e->scalar[1], e->width);
		LLVMValueRef p = group_exited_flags(e, v8);
		LLVMSetAlignment(LLVMBuildStore(B, jit_cint(v8, 1), p), 1);
	}
	hand_over(e, 1);
}

static bool vec_branch(struct emit *e, const struct ir_insn *in)
{
	LLVMBasicBlockRef t = in->nopnds == 1 ?
				      jit_label_block(e, &in->opnd[0]) : NULL;
	if (!t)
		return jit_unsupported(e, "branch target");
	if (in->block >= jit_target_block(e, &in->opnd[0])) {
		/* a loop that takes turns looks at the kill flag per turn */
		LLVMBasicBlockRef turn = jit_vyield_back_edge(e, in, t);
		t = turn != t ? turn : jit_kill_check(e, e->gtid, t);
	}
	if (!in->guarded) {
		LLVMBuildBr(B, t);
		return true;
	}
	LLVMBasicBlockRef fall = jit_new_block(e, "vfall");
	LLVMValueRef g = guard_vec(e, in);
	if (!jit_vmask_fits(e, in)) {
		branch3(e, in, g, t, fall);
		LLVMPositionBuilderAtEnd(B, fall);
		return true;
	}
	/* all lanes jump, none does (the piece as it is), or some: the
	 * piece under a mask */
	LLVMBasicBlockRef mixed = jit_new_block(e, "vmixed");
	split_lanes(e, g, t, mixed, fall);
	LLVMPositionBuilderAtEnd(B, mixed);
	bool ok = jit_vmask_emit(e, in, g, t);
	LLVMPositionBuilderAtEnd(B, fall);
	return ok;
}

/* bar.sync: every lane saves, the region that follows is noted (the
 * same for every group: where the region reaches other barriers too,
 * checked), the next group. */
static bool vec_barrier(struct emit *e, const struct ir_insn *in)
{
	if (!jit_is_cta_barrier(in) || in->guarded)
		return jit_unsupported(e, "only bar.sync of the whole CTA");
	uint32_t at = (uint32_t)(in - e->f->insns);
	for (uint32_t r = 0; r < e->f->nregs; r++)
		if (jit_slot_store(e->slots, at, r))
			save_lanes(e, r, e->save, jit_slot_of(e->slots, r));
	LLVMValueRef rv = s32(e, e->region_after[at]);
	LLVMValueRef field = jit_cta_field(e, offsetof(struct jit_cta,
						       next_region),
					   e->scalar[3]);
	if (e->vregions->one_barrier[e->vregion]) {	/* nothing to compare */
		LLVMBuildStore(B, rv, field);
		hand_over(e, 1);
		return true;
	}
	LLVMValueRef cur = LLVMBuildLoad2(B, e->scalar[3], field, "");
	LLVMValueRef ok = LLVMBuildOr(
		B, LLVMBuildICmp(B, LLVMIntEQ, cur,
				 LLVMConstAllOnes(e->scalar[3]), ""),
		LLVMBuildICmp(B, LLVMIntEQ, cur, rv, ""), "");
	LLVMBasicBlockRef bad = jit_new_block(e, "vdiverged");
	LLVMBasicBlockRef note = jit_new_block(e, "vnote");
	LLVMBuildCondBr(B, ok, note, bad);
	LLVMPositionBuilderAtEnd(B, note);
	LLVMBuildStore(B, rv, field);
	hand_over(e, 1);
	LLVMPositionBuilderAtEnd(B, bad);
	jit_barrier_fault_call(e, e->gtid, in->line);
	return true;
}

bool jit_vec_control(struct emit *e, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_BRA:
		return vec_branch(e, in);
	case OP_RET:
	case OP_EXIT:
		exit_group(e);
		return true;
	case OP_BAR:
	case OP_BARRIER:
		return vec_barrier(e, in);
	case OP_MEMBAR:
	case OP_FENCE:
		if (in->has_raw || in->mode)
			return jit_unsupported(e, "fence kind");
		LLVMBuildFence(B, LLVMAtomicOrderingSequentiallyConsistent,
			       false, "");
		return true;
	default:
		return jit_unsupported(e, "instruction");
	}
}

LLVMValueRef jit_vec_call1(struct emit *e, LLVMTypeRef t, const char *fn,
			   LLVMValueRef a)
{
	LLVMTypeRef et = LLVMGetElementType(t);
	LLVMTypeRef fnty = LLVMFunctionType(et, &et, 1, false);
	LLVMValueRef r = LLVMGetUndef(t);
	for (unsigned l = 0; l < e->width; l++) {
		LLVMValueRef x = LLVMBuildExtractElement(B, a, s32(e, l), "");
		r = LLVMBuildInsertElement(B, r, jit_call_c(e, fnty, fn, &x, 1),
					   s32(e, l), "");
	}
	return r;
}

/* A guarded instruction other than a branch: done where every lane's
 * guard holds, skipped where none does, else the group parts. */
static bool vec_insn(struct emit *e, const struct ir_insn *in)
{
	e->in = in;
	if (!in->guarded || in->op == OP_BRA)
		return jit_emit_plain(e, in);
	LLVMBasicBlockRef then = jit_new_block(e, "vthen");
	LLVMBasicBlockRef cont = jit_new_block(e, "vcont");
	branch3(e, in, guard_vec(e, in), then, cont);
	LLVMPositionBuilderAtEnd(B, then);
	bool ok = jit_emit_plain(e, in);
	if (ok && in->op != OP_RET && in->op != OP_EXIT)
		LLVMBuildBr(B, cont);
	LLVMPositionBuilderAtEnd(B, cont);
	return ok;
}

static bool ends_block(const struct ir_insn *in)
{
	return !in->guarded && (in->op == OP_BRA || in->op == OP_RET ||
				in->op == OP_EXIT);
}

/* Instructions [@from, @to) of block @bi; at the block's end, on to
 * the next block (made on first use, jit_block) or the group's exit,
 * unless the last one branched. */
static bool vec_run(struct emit *e, uint32_t bi, uint32_t from, uint32_t to)
{
	const struct ir_func *f = e->f;
	const struct ir_block *blk = &f->blocks[bi];
	bool ended = false;
	for (uint32_t i = from; i < to; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (!vec_insn(e, in))
			return false;
		ended = ends_block(in);
	}
	e->in = NULL;
	if (to < blk->first + blk->count || ended)
		return true;
	if (bi + 1 < f->nblocks)
		LLVMBuildBr(B, jit_block(e, bi + 1));
	else
		exit_group(e);
	return true;
}

/* The stretch [@from, @to) of block @bi (up to a barrier or the block's
 * end); from its test on, twice where the test lets one copy skip its
 * shared accesses' checks (jit_emit_vproof.c), the other keeping them. */
static bool vec_stretch(struct emit *e, uint32_t bi, uint32_t from,
			uint32_t to)
{
	struct jit_vproof *p = jit_vproof_plan(e, from, to);
	if (!p)
		return vec_run(e, bi, from, to);
	if (!vec_run(e, bi, from, jit_vproof_first(p))) {	/* once */
		jit_vproof_free(p);
		return false;
	}
	from = jit_vproof_first(p);
	const struct ir_block *blk = &e->f->blocks[bi];
	bool at_end = to == blk->first + blk->count;
	LLVMBasicBlockRef fast = jit_new_block(e, "vproven");
	LLVMBasicBlockRef slow = jit_new_block(e, "vchecked");
	LLVMBasicBlockRef join = at_end ? NULL : jit_new_block(e, "vstretch");
	LLVMBuildCondBr(B, jit_vproof_test(e, p), fast, slow);
	LLVMPositionBuilderAtEnd(B, fast);
	e->proof = p;
	bool ok = vec_run(e, bi, from, to);
	e->proof = NULL;
	if (ok && join)
		LLVMBuildBr(B, join);
	LLVMPositionBuilderAtEnd(B, slow);
	ok = ok && vec_run(e, bi, from, to);
	if (ok && join) {
		LLVMBuildBr(B, join);
		LLVMPositionBuilderAtEnd(B, join);
	}
	jit_vproof_free(p);
	return ok;
}

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

/* Instructions @from.. of IR block @bi, at the builder, as one stretch
 * (vec_stretch): up to a barrier (the region's end) or the block's end,
 * falling through to the next. */
static bool vec_block_from(struct emit *e, uint32_t bi, uint32_t from)
{
	const struct ir_func *f = e->f;
	const struct ir_block *blk = &f->blocks[bi];
	uint32_t end = blk->first + blk->count;
	uint32_t to = jit_vproof_stretch_end(f, from, end);
	if (!vec_stretch(e, bi, from, to))
		return false;
	if (to == end)
		return true;
	bool ok = vec_insn(e, &f->insns[to]);	/* the barrier */
	e->in = NULL;
	return ok;
}

/* Region @k's code, from where it starts (the kernel's entry, or past
 * its barrier) to the barriers and exits that end it: only the blocks
 * it reaches, each made on first use (jit_block). */
static bool vec_region_code(struct emit *e, uint32_t k)
{
	const struct ir_func *f = e->f;
	uint32_t at = e->vregions->start[k];
	memset(e->blocks, 0, f->nblocks * sizeof(*e->blocks));
	e->nqueued = 0;
	e->vregion = k;
	bool ok = true;
	if (k == 0)
		LLVMBuildBr(B, jit_block(e, 0));
	else
		ok = vec_block_from(e, f->insns[at].block, at + 1);
	for (uint32_t q = 0; ok && q < e->nqueued; q++) {
		uint32_t bi = e->block_queue[q];
		LLVMPositionBuilderAtEnd(B, e->blocks[bi]);
		ok = vec_block_from(e, bi, f->blocks[bi].first);
	}
	return ok;
}

struct vloop {
	LLVMBasicBlockRef head, body, fresh, go, done;
	LLVMValueRef g, xyz[3];		/* lane 0's thread: id, coordinates */
	LLVMValueRef nx, ny;		/* ntid.x, ntid.y */
};

/*
 * The thread coordinates of the group's lanes. The vector form runs
 * only where ntid.x is a multiple of W (jit_vec_rows_gate()), so a group
 * lies in one row: lane 0's coordinates, stepped along with the group,
 * plus the lane in x.
 */
static void lane_coordinates(struct emit *e, struct vloop *v)
{
	e->tid = LLVMBuildAdd(B, jit_splat(e, e->gtid), lane_ids(e), "");
	e->tx = LLVMBuildAdd(B, jit_splat(e, v->xyz[0]), lane_ids(e), "");
	e->ty = jit_splat(e, v->xyz[1]);
	e->tz = jit_splat(e, v->xyz[2]);
}

/* Lane 0's coordinates for the next group. */
static void step_coordinates(struct emit *e, struct vloop *v,
			     LLVMValueRef next[3])
{
	LLVMValueRef one = s32(e, 1), zero = s32(e, 0);
	LLVMValueRef x = LLVMBuildAdd(B, v->xyz[0], s32(e, e->width), "");
	LLVMValueRef wx = LLVMBuildICmp(B, LLVMIntUGE, x, v->nx, "");
	LLVMValueRef y = LLVMBuildAdd(B, v->xyz[1],
				      LLVMBuildZExt(B, wx, e->scalar[3], ""), "");
	LLVMValueRef wy = LLVMBuildICmp(B, LLVMIntUGE, y, v->ny, "");
	next[0] = LLVMBuildSelect(B, wx, zero, x, "");
	next[1] = LLVMBuildSelect(B, wy, zero, y, "");
	next[2] = LLVMBuildAdd(B, v->xyz[2], LLVMBuildSelect(B, wy, one, zero,
							     ""), "");
}

/* A group with a thread that exited (in an earlier region: where none
 * can have, no need to look) is left to the scalar loop; the others go
 * on. */
static void skip_exited(struct emit *e, struct vloop *v, uint32_t k)
{
	if (!e->has_barrier || !e->vregions->exited_before[k]) {
		LLVMBuildBr(B, v->go);
		return;
	}
	LLVMTypeRef v8 = LLVMVectorType(e->scalar[1], e->width);
	LLVMValueRef ex = LLVMBuildLoad2(B, v8, group_exited_flags(e, v8), "");
	LLVMSetAlignment(ex, 1);
	LLVMValueRef any = any_of(e, LLVMBuildICmp(B, LLVMIntNE, ex,
						   jit_cint(v8, 0), ""));
	LLVMBasicBlockRef skip = jit_new_block(e, "vskip");
	LLVMBuildCondBr(B, any, skip, v->go);
	LLVMPositionBuilderAtEnd(B, skip);
	hand_over(e, 0);
}

/* Groups that yielded in the region's streaming loop
 * (jit_emit_vyield.c) go on: the region's loop over the groups runs
 * again from the first group. */
static void another_pass(struct emit *e, struct vloop *v)
{
	LLVMValueRef again = jit_vyield_another_pass(e);
	if (!again)
		return;
	LLVMBasicBlockRef pass = jit_new_block(e, "vpass");
	LLVMBasicBlockRef fin = jit_new_block(e, "vfin");
	LLVMBuildCondBr(B, again, pass, fin);
	LLVMPositionBuilderAtEnd(B, pass);
	LLVMBuildBr(B, v->head);
	LLVMValueRef zero = s32(e, 0);
	LLVMAddIncoming(v->g, &zero, &pass, 1);
	for (int i = 0; i < 3; i++)
		LLVMAddIncoming(v->xyz[i], &zero, &pass, 1);
	LLVMPositionBuilderAtEnd(B, fin);
}

/* Region @k's registers: zero at the kernel's entry, else those live
 * past its barrier that it touches (e->vtouched), from their slots. */
static void region_registers(struct emit *e, uint32_t k)
{
	const struct ir_func *f = e->f;
	uint32_t at = e->vregions->start[k];
	for (uint32_t r = 0; r < f->nregs; r++) {
		LLVMTypeRef t = f->regs[r].type == PTX_T_PRED ? e->i1 : e->i64;
		if (k == 0)
			LLVMBuildStore(B, jit_const(e, t, 0), e->regs[r]);
		else if (jit_live_after(e->live, at, r) &&
			 e->vtouched[r / 64] >> (r % 64) & 1)
			restore_lanes(e, r, e->save, jit_slot_of(e->slots, r));
	}
}

/* head (a whole group left?) -> body -> [turns] -> fresh -> go
 * (registers) -> region code; next -> head. The body's end and done
 * wait for the code (region_loop_close). */
static void region_loop_open(struct emit *e, struct vloop *v,
			     LLVMBasicBlockRef from, uint32_t k)
{
	v->head = jit_new_block(e, "vhead");
	v->body = jit_new_block(e, "vbody");
	v->fresh = jit_new_block(e, "vfresh");
	v->go = jit_new_block(e, "vgo");
	v->done = jit_new_block(e, "vdone");
	e->next_bb = jit_new_block(e, "vnext");
	LLVMBuildBr(B, v->head);
	LLVMPositionBuilderAtEnd(B, v->head);
	v->g = LLVMBuildPhi(B, e->scalar[3], "");
	for (int i = 0; i < 3; i++)
		v->xyz[i] = LLVMBuildPhi(B, e->scalar[3], "");
	e->gtid = v->g;
	LLVMValueRef end = LLVMBuildAdd(B, v->g, s32(e, e->width), "");
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULE, end, e->nthreads, ""),
			v->body, v->done);
	LLVMPositionBuilderAtEnd(B, v->body);
	lane_coordinates(e, v);
	LLVMPositionBuilderAtEnd(B, v->fresh);
	skip_exited(e, v, k);
	LLVMPositionBuilderAtEnd(B, v->go);
	region_registers(e, k);
	LLVMPositionBuilderAtEnd(B, e->next_bb);
	LLVMValueRef next[3];
	step_coordinates(e, v, next);
	LLVMBuildBr(B, v->head);
	LLVMValueRef zero = s32(e, 0);
	LLVMAddIncoming(v->g, &zero, &from, 1);
	LLVMAddIncoming(v->g, &end, &e->next_bb, 1);
	for (int i = 0; i < 3; i++) {
		LLVMAddIncoming(v->xyz[i], &zero, &from, 1);
		LLVMAddIncoming(v->xyz[i], &next[i], &e->next_bb, 1);
	}
	LLVMPositionBuilderAtEnd(B, v->go);
}

/* After the region's code, which tells whether it holds the loop whose
 * groups take turns: a group's start resumes a group that yielded
 * there (jit_vyield_dispatch), and done runs the region's groups again
 * while one yielded, then returns 2 when the scalar loop has threads
 * to run, else 0. */
static void region_loop_close(struct emit *e, struct vloop *v)
{
	LLVMPositionBuilderAtEnd(B, v->body);
	jit_vyield_dispatch(e, v->fresh);
	LLVMPositionBuilderAtEnd(B, v->done);
	another_pass(e, v);
	LLVMValueRef tail = LLVMBuildICmp(B, LLVMIntULT, v->g, e->nthreads, "");
	LLVMValueRef left = LLVMBuildICmp(
		B, LLVMIntNE, LLVMBuildLoad2(B, e->scalar[3], e->leftover, ""),
		s32(e, 0), "");
	LLVMBuildRet(B, LLVMBuildSelect(B, LLVMBuildOr(B, tail, left, ""),
					s32(e, 2), s32(e, 0), ""));
}

/* Region @k: a loop of its own over the groups, entered from @from,
 * with the registers the region touches (jit_vregion.c) at hand for
 * its restore and its turns. */
static bool vec_region(struct emit *e, struct vloop *v, LLVMBasicBlockRef from,
		       uint32_t k)
{
	uint64_t *touched = calloc((e->f->nregs + 63) / 64 + 1, 8);
	if (!touched)
		return jit_unsupported(e, "out of memory");
	bool ok = jit_vec_region_regs(e, e->vregions, k, touched);
	e->vtouched = touched;
	e->yield_here = false;
	if (ok) {
		LLVMPositionBuilderAtEnd(B, from);
		region_loop_open(e, v, from, k);
		ok = vec_region_code(e, k);
	}
	if (ok)
		region_loop_close(e, v);
	e->vtouched = NULL;
	free(touched);
	return ok;
}

/* Numbers the regions: region k begins after the k-th barrier, in
 * instruction order, as the scalar function numbers them. */
static void number_regions(struct emit *e, struct jit_vregions *r)
{
	r->n = 1;
	for (uint32_t i = 0; i < e->f->ninsns; i++)
		if (is_barrier(&e->f->insns[i])) {
			e->region_after[i] = r->n;
			r->start[r->n++] = i;
		}
}

/*
 * entry -> the region's own loop over the groups (region_loop_open),
 * chosen once per call rather than once per group; each loop holds
 * only the code its region reaches, so LLVM keeps its values in
 * registers instead of across every region's code.
 */
static bool vec_regions(struct emit *e, struct vloop *v)
{
	const struct ir_func *f = e->f;
	struct jit_vregions r = { 0 };
	size_t n = f->ninsns + 1;
	r.start = calloc(n, sizeof(*r.start));
	r.one_barrier = calloc(n, sizeof(*r.one_barrier));
	r.exited_before = calloc(n, sizeof(*r.exited_before));
	e->region_after = calloc(n, sizeof(*e->region_after));
	e->block_queue = calloc(f->nblocks + 1, sizeof(*e->block_queue));
	e->vregions = &r;
	bool ok = r.start && r.one_barrier && r.exited_before &&
		  e->region_after && e->block_queue;
	if (!ok)
		jit_unsupported(e, "out of memory");
	if (ok)
		number_regions(e, &r);
	ok = ok && jit_vec_regions_reach(e, &r);
	LLVMValueRef sw = ok ? LLVMBuildSwitch(B, e->region, e->fault_bb, r.n) :
			       NULL;
	for (uint32_t k = 0; ok && k < r.n; k++) {
		LLVMBasicBlockRef from = jit_new_block(e, "vregion");
		LLVMAddCase(sw, s32(e, k), from);
		ok = vec_region(e, v, from, k);
	}
	free(r.start);
	free(r.one_barrier);
	free(r.exited_before);
	free(e->region_after);
	free(e->block_queue);
	e->vregions = NULL;
	e->region_after = NULL;
	e->block_queue = NULL;
	memset(e->blocks, 0, f->nblocks * sizeof(*e->blocks));
	return ok;
}

/* The function's entry: register allocas, the CTA's uniforms, the rows
 * gate; leaves the builder where the regions are chosen. */
static void vec_entry(struct emit *e, struct vloop *v)
{
	LLVMBasicBlockRef entry = jit_new_block(e, "entry");
	LLVMBasicBlockRef dispatch = jit_new_block(e, "vdispatch");
	e->entry_bb = entry;
	e->fault_bb = jit_new_block(e, "vfault");
	LLVMPositionBuilderAtEnd(B, entry);
	jit_lanes(e, e->width);
	for (uint32_t r = 0; r < e->f->nregs; r++)
		e->regs[r] = LLVMBuildAlloca(B, e->f->regs[r].type ==
					     PTX_T_PRED ? e->i1 : e->i64, "");
	jit_lanes(e, 0);
	e->leftover = LLVMBuildAlloca(B, e->scalar[3], "");
	LLVMBuildStore(B, s32(e, 0), e->leftover);
	jit_vyield_plan(e);
	jit_load_uniforms(e);
	v->nx = e->ntid[0];
	v->ny = e->ntid[1];
	LLVMValueRef rows = LLVMBuildICmp(
		B, LLVMIntEQ, LLVMBuildURem(B, v->nx, s32(e, e->width), ""),
		s32(e, 0), "");
	jit_lanes(e, e->width);
	for (int i = 0; i < 3; i++) {
		e->ntid[i] = jit_splat(e, e->ntid[i]);
		e->ctaid[i] = jit_splat(e, e->ctaid[i]);
		e->nctaid[i] = jit_splat(e, e->nctaid[i]);
	}
	jit_vec_rows_gate(e, rows, dispatch);
	LLVMPositionBuilderAtEnd(B, e->fault_bb);
	LLVMBuildRet(B, s32(e, 1));
	LLVMPositionBuilderAtEnd(B, dispatch);
}
/*
 * The engine compiles modules of up to 20000 instructions (a limit on
 * compile time); the vector form may take some 60% of that, leaving
 * the rest to the scalar function, which every kernel has.
 */
#define JIT_VEC_MAX_INSTRUCTIONS 12000

static unsigned long instructions(LLVMValueRef fn)
{
	unsigned long n = 0;
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
	     b = LLVMGetNextBasicBlock(b))
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
		     i = LLVMGetNextInstruction(i))
			n++;
	return n;
}

LLVMValueRef jit_emit_vector(struct emit *e, const char *name)
{
	LLVMTypeRef args[2] = { e->p8, e->scalar[3] };
	LLVMTypeRef fnty = LLVMFunctionType(e->scalar[3], args, 2, false);
	struct vloop v;
	e->fn = LLVMAddFunction(e->mod, name, fnty);
	LLVMSetLinkage(e->fn, LLVMInternalLinkage);
	e->cta = LLVMGetParam(e->fn, 0);
	e->region = LLVMGetParam(e->fn, 1);
	LLVMAddAttributeAtIndex(e->fn, 1, LLVMCreateEnumAttribute(
		e->cx, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
	e->lane_addr = e->lane_vals = NULL;
	if (!jit_vec_shapes_begin(e)) {
		LLVMDeleteFunction(e->fn);
		return NULL;
	}
	vec_entry(e, &v);
	bool ok = vec_regions(e, &v);
	jit_vrun_free(e);
	jit_vec_shapes_end(e);
	LLVMValueRef fn = e->fn;
	jit_lanes(e, 0);
	if (ok && instructions(fn) > JIT_VEC_MAX_INSTRUCTIONS)
		ok = jit_unsupported(e, "vector form too large");
	if (!ok) {
		LLVMDeleteFunction(fn);
		return NULL;
	}
	return fn;
}
