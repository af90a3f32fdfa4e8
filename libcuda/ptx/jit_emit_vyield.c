// SPDX-License-Identifier: MIT
/*
 * Groups take turns in a streaming loop: the vector form's yield at a
 * loop's back edge.
 *
 * A grid-stride loop (for (i = global id; i < n; i += grid size)) run
 * one group at a time reads, in each trip, a few bytes a grid's width
 * (a megabyte for a reduction over 1024 blocks of 256 floats) from the
 * trip before. The groups that read the rest of each cache line come
 * only after this group's last trip, by when the line has left the L1
 * and L2 caches: addresses a power of two apart fall in one set, which
 * holds 8 or 16 of them. So the CTA fetches every line twice or more
 * (a histogram of bytes: eight times), the second time from the L3.
 *
 * Here every group runs at most YIELD_TRIPS trips of such a loop, then
 * saves the registers live at the back edge in dsave[register][thread]
 * (where a group that parts ways saves them), notes YIELD_STATE in
 * vstate[] and lets the next group start. When every group has had its
 * turn, another pass resumes the groups that yielded, at the loop's
 * head, until none does; only then does the function return, so the
 * scalar loop never sees YIELD_STATE.
 *
 * The turns belong to the loop over the groups of the region that holds
 * the loop (jit_emit_vec.c has one per region, and a call runs one
 * region): a group resumes inside that region's loop, and another pass
 * runs that region's groups again. A region restores only the
 * registers it touches (jit_vregion.c), and a resumed group skips that
 * restore, so a turn saves and restores the registers live at the back
 * edge that the region touches, no others: those it never touches stay
 * in their save slots, untouched by the turns as by the region. In
 * region 0, which zeroes every register instead, a resumed group zeroes
 * the others again, as a barrier or a group parting there stores them
 * all. The CTA then walks its memory a
 * few trips at a time, all its groups together: each line is read from
 * memory once, by consecutive groups, and the CPU's prefetchers see
 * consecutive lines.
 *
 * Threads of a region are unordered on a GPU. Taking turns changes
 * only the order between groups, never within one: each thread's own
 * operations (a float sum's order) and its lanes' order stay. So only
 * a loop whose order between groups no program can see takes turns:
 * an innermost loop with arithmetic, loads, forward branches, and
 * integer atomics that commute (add, and, or, xor, min, max) whose old
 * value nobody reads, as a histogram's are; no stores, barriers, other
 * atomics or exits. Then the results are bit for bit those of the
 * interpreter, which runs each warp through the loop in turn. One
 * difference remains, in a kernel that faults: when threads of two
 * groups fault in such a loop, the one whose trip comes first reports.
 * Loops whose loads all read one address in every lane (n-body's) gain
 * nothing from taking turns and keep running through.
 *
 * Such a loop looks at the launch's kill flag once a turn, at the
 * yield, not at every trip (histogram: 3 loads and a branch of about
 * 50 instructions a trip): every group yields within YIELD_TRIPS trips,
 * so a loop that never ends is still stopped, or lets a cooperative
 * launch's other CTAs run (jit_kill_check).
 */
#include "ir_live.h"
#include "jit_emit.h"

#include <stdlib.h>

#define B (e->b)

/* Trips per turn: enough to pay for the registers' save and restore,
 * few enough that the lines a turn reads stay in the L2 (16 ways);
 * a reduction over 16 M floats took 20% less time than with none, 4
 * and 8 about half as much less (exec-bench). */
#define YIELD_TRIPS 16

/* vstate[] of a group that yielded: no instruction's 2 + index */
#define YIELD_STATE 0xffffffffu

static bool writes_unread(const struct ir_func *f, uint32_t reg)
{
	uint64_t *read = calloc((f->nregs + 63) / 64, 8);
	bool unread = read != NULL;
	for (uint32_t i = 0; unread && i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		for (uint32_t o = ir_live_writes_first(in); o < in->nopnds; o++)
			ir_live_operand_regs(f, &in->opnd[o], read);
		if (in->guarded && in->guard_reg == reg)
			unread = false;
	}
	unread = unread && !ir_live_has(read, reg);
	free(read);
	return unread;
}

/* An atomic whose order between threads no one can see: an integer
 * operation that commutes, its old value never read. */
static bool unseen_atomic(const struct ir_func *f, const struct ir_insn *in)
{
	if (!in->ntypes || ptx_type_is_float(in->types[0]) ||
	    in->mode == MOD_CAS || in->mode == MOD_EXCH)
		return false;
	switch (in->mode) {
	case MOD_ADD: case MOD_AND: case MOD_OR: case MOD_XOR: case MOD_MIN:
	case MOD_MAX:
		break;
	default:
		return false;
	}
	if (in->op == OP_RED)
		return true;
	return in->nopnds && in->opnd[0].kind == OPND_REG &&
	       writes_unread(f, in->opnd[0].reg);
}

/* @in may run in a loop that takes turns (the file's comment). */
static bool turn_safe(const struct ir_func *f, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_MOV: case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD:
	case OP_DIV: case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX:
	case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN:
	case OP_COS: case OP_LG2: case OP_EX2: case OP_TANH: case OP_REM:
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
	case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV:
	case OP_SETP: case OP_SELP: case OP_CVT: case OP_CVTA: case OP_LD:
	case OP_LDU:
		return true;
	case OP_BRA:	/* forward: the loop's own back edge is checked apart */
		return in->nopnds == 1 &&
		       ir_label_block(f, in->opnd[0].reg) > in->block;
	case OP_ATOM: case OP_RED:
		return unseen_atomic(f, in);
	default:
		return false;
	}
}

static bool global_load(const struct ir_insn *in)
{
	return (in->op == OP_LD || in->op == OP_LDU) &&
	       in->space == SPACE_GLOBAL;
}

/* A global load whose lanes read more than one address. */
static bool streams(void *emit, const struct ir_insn *in)
{
	struct emit *e = emit;

	return global_load(in) &&
	       jit_vec_address_shape(e, in, 1).kind != SHAPE_UNIFORM;
}

/* A global load, as far as the IR tells before shapes exist. */
static bool may_stream(void *unused, const struct ir_insn *in)
{
	(void)unused;
	return global_load(in);
}

typedef bool (*stream_test)(void *ctx, const struct ir_insn *in);

/* The loop from block @head to the back edge @at takes turns. */
static bool takes_turns(const struct ir_func *f, uint32_t head, uint32_t at,
			stream_test stream_fn, void *ctx)
{
	bool stream = false;

	for (uint32_t i = f->blocks[head].first; i < at; i++) {
		if (!turn_safe(f, &f->insns[i]))
			return false;
		stream = stream || stream_fn(ctx, &f->insns[i]);
	}
	return stream;
}

/*
 * The first guarded back edge of @f whose loop takes turns: a turn-safe
 * body with a load @stream_fn calls streaming. UINT32_MAX if none.
 */
static uint32_t find_turn_loop(const struct ir_func *f, stream_test stream_fn,
			       void *ctx)
{
	for (uint32_t at = 0; at < f->ninsns; at++) {
		const struct ir_insn *br = &f->insns[at];
		uint32_t head;

		if (br->op != OP_BRA || !br->guarded || br->nopnds != 1)
			continue;
		head = ir_label_block(f, br->opnd[0].reg);
		if (head <= br->block &&
		    takes_turns(f, head, at, stream_fn, ctx))
			return at;
	}
	return UINT32_MAX;
}

/*
 * Whether @f has a loop in which groups would take turns, judged on the
 * IR alone (before shapes, which need the width): a guarded back edge
 * whose body is turn-safe and loads global memory. Streaming loops run
 * faster 8 lanes wide: at 16, a turn's trips touch twice the lines
 * (reduce: 2.2x C at 8 lanes, 2.6x at 16).
 */
bool jit_vyield_likely(const struct ir_func *f)
{
	return find_turn_loop(f, may_stream, NULL) != UINT32_MAX;
}

void jit_vyield_plan(struct emit *e)
{
	e->yield_branch = find_turn_loop(e->f, streams, e);
	if (e->yield_branch == UINT32_MAX)
		return;
	LLVMTypeRef i32 = e->scalar[3], i1 = e->scalar[0];
	e->trips = LLVMBuildAlloca(B, i32, "trips");
	e->yielded = LLVMBuildAlloca(B, i1, "yielded");
	e->resuming = LLVMBuildAlloca(B, i1, "resuming");
	LLVMBuildStore(B, LLVMConstInt(i1, 0, false), e->yielded);
	LLVMBuildStore(B, LLVMConstInt(i1, 0, false), e->resuming);
}

bool jit_vyield_in_turns(struct emit *e, const struct ir_insn *in)
{
	uint32_t at = e->yield_branch, i = (uint32_t)(in - e->f->insns);
	if (at == UINT32_MAX)
		return false;
	uint32_t head = jit_target_block(e, &e->f->insns[at].opnd[0]);
	return e->f->blocks[head].first <= i && i < at;
}

/* Register @r is live at the back edge @at and the region being emitted
 * touches it: a turn saves and restores it. */
static bool turn_keeps(const struct emit *e, uint32_t at, uint32_t r)
{
	return jit_live_before(e->live, at, r) &&
	       (e->vtouched[r / 64] >> (r % 64) & 1);
}

/* A resumed group's registers: those a turn kept from dsave; in region
 * 0, the others zero, as region 0 starts them. */
static void resume_registers(struct emit *e, uint32_t at)
{
	const struct ir_func *f = e->f;
	for (uint32_t r = 0; r < f->nregs; r++) {
		LLVMTypeRef t = f->regs[r].type == PTX_T_PRED ? e->i1 : e->i64;
		if (turn_keeps(e, at, r))
			jit_vec_restore_lanes(e, r, e->dsave, r);
		else if (e->vregion == 0)
			LLVMBuildStore(B, jit_const(e, t, 0), e->regs[r]);
	}
}

/* The group's vstate[] entry. */
static LLVMValueRef group_state(struct emit *e)
{
	LLVMValueRef idx = LLVMBuildZExt(B, e->gtid, e->scalar[4], "");
	return LLVMBuildGEP2(B, e->scalar[3], e->vstate, &idx, 1, "");
}

LLVMBasicBlockRef jit_vyield_back_edge(struct emit *e,
				       const struct ir_insn *in,
				       LLVMBasicBlockRef to)
{
	uint32_t at = (uint32_t)(in - e->f->insns);
	if (at != e->yield_branch)
		return to;
	LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
	LLVMBasicBlockRef count = jit_new_block(e, "vturn");
	LLVMBasicBlockRef yield = jit_new_block(e, "vyield");
	LLVMTypeRef i32 = e->scalar[3];
	LLVMPositionBuilderAtEnd(B, count);
	LLVMValueRef n = LLVMBuildAdd(B, LLVMBuildLoad2(B, i32, e->trips, ""),
				      s32(e, 1), "");
	LLVMBuildStore(B, n, e->trips);
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGE, n, s32(e, YIELD_TRIPS),
					 ""), yield, to);
	e->yield_here = true;
	e->stats.turn_loops++;
	LLVMPositionBuilderAtEnd(B, yield);
	for (uint32_t r = 0; r < e->f->nregs; r++)
		if (turn_keeps(e, at, r))
			jit_vec_save_lanes(e, r, e->dsave, r);
	LLVMValueRef p = LLVMBuildBitCast(B, group_state(e),
					  LLVMPointerType(e->i32, 0), "");
	LLVMSetAlignment(LLVMBuildStore(B, jit_cint(e->i32, YIELD_STATE), p),
			 4);
	LLVMBuildStore(B, LLVMConstInt(e->scalar[0], 1, false), e->yielded);
	/* the group's state is saved: a stop here loses nothing */
	LLVMBuildBr(B, jit_kill_check(e, e->gtid, e->next_bb));
	LLVMPositionBuilderAtEnd(B, here);
	return count;
}

void jit_vyield_dispatch(struct emit *e, LLVMBasicBlockRef fresh)
{
	if (e->yield_branch == UINT32_MAX || !e->yield_here) {
		LLVMBuildBr(B, fresh);
		return;
	}
	const struct ir_func *f = e->f;
	uint32_t at = e->yield_branch;
	LLVMBasicBlockRef again = jit_new_block(e, "vagain");
	LLVMBasicBlockRef resume = jit_new_block(e, "vresumeturn");
	LLVMBuildStore(B, s32(e, 0), e->trips);
	LLVMBuildCondBr(B, LLVMBuildLoad2(B, e->scalar[0], e->resuming, ""),
			again, fresh);
	/* a later pass: only the groups that yielded go on */
	LLVMPositionBuilderAtEnd(B, again);
	LLVMValueRef st = LLVMBuildLoad2(B, e->scalar[3], group_state(e), "");
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, st,
					 s32(e, YIELD_STATE), ""),
			resume, e->next_bb);
	LLVMPositionBuilderAtEnd(B, resume);
	resume_registers(e, at);
	uint32_t head = jit_target_block(e, &f->insns[at].opnd[0]);
	LLVMBuildBr(B, jit_block(e, head));	/* this region's copy */
}

LLVMValueRef jit_vyield_another_pass(struct emit *e)
{
	if (e->yield_branch == UINT32_MAX || !e->yield_here)
		return NULL;
	LLVMTypeRef i1 = e->scalar[0];
	LLVMValueRef any = LLVMBuildLoad2(B, i1, e->yielded, "");
	LLVMBuildStore(B, LLVMConstInt(i1, 0, false), e->yielded);
	LLVMBuildStore(B, LLVMConstInt(i1, 1, false), e->resuming);
	return any;
}
