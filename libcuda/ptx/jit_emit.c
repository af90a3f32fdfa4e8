// SPDX-License-Identifier: MIT
/*
 * The JIT's code generator: one LLVM function per kernel,
 *
 *	int32_t kernel(struct jit_cta *cta, int32_t region)
 *
 * looping over the CTA's threads. Each thread starts at the kernel's
 * entry (region 0, registers zero, as the interpreter's) or, after a
 * barrier, restores its registers and continues where region r starts.
 * A barrier saves the thread's registers, notes the region, and moves on
 * to the next thread; exit marks the thread exited. Blocks of the IR are
 * LLVM blocks; a guarded instruction is a branch around it.
 */
#include "jit_emit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool jit_unsupported(struct emit *e, const char *what)
{
	if (e->why[0])
		return false;
	if (e->in)
		snprintf(e->why, e->whylen, "%s:%u: %s (%s)",
			 e->k->sym->module->name, e->in->line,
			 ptx_opcode_name(e->in->op), what);
	else
		snprintf(e->why, e->whylen, "%s", what);
	return false;
}

LLVMTypeRef jit_type(struct emit *e, unsigned t)
{
	if (t == PTX_T_PRED)
		return e->i1;
	if (t == PTX_T_F32)
		return e->f32;
	if (t == PTX_T_F64)
		return e->f64;
	switch (ptx_type_kind(t)) {
	case TK_BIT:
	case TK_UINT:
	case TK_SINT:
		break;
	default:
		return NULL;
	}
	switch (ptx_type_size(t)) {
	case 1:
		return e->i8;
	case 2:
		return e->i16;
	case 4:
		return e->i32;
	case 8:
		return e->i64;
	default:
		return NULL;
	}
}

LLVMValueRef jit_cint(LLVMTypeRef t, uint64_t v)
{
	if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
		return LLVMConstInt(t, v, false);
	unsigned n = LLVMGetVectorSize(t);
	LLVMValueRef el[64];
	el[0] = LLVMConstInt(LLVMGetElementType(t), v, false);
	for (unsigned i = 1; i < n && i < 64; i++)
		el[i] = el[0];
	return LLVMConstVector(el, n);
}

LLVMValueRef jit_const(struct emit *e, LLVMTypeRef t, uint64_t v)
{
	(void)e;
	return jit_cint(t, v);
}

unsigned jit_int_bits(LLVMTypeRef t)
{
	if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
		t = LLVMGetElementType(t);
	return LLVMGetIntTypeWidth(t);
}

LLVMTypeRef jit_int_like(struct emit *e, LLVMTypeRef t, unsigned bits)
{
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, bits);
	if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
		return LLVMVectorType(it, LLVMGetVectorSize(t));
	return it;
}

void jit_lanes(struct emit *e, unsigned lanes)
{
	LLVMTypeRef *v[7] = { &e->i1, &e->i8, &e->i16, &e->i32, &e->i64,
			      &e->f32, &e->f64 };
	e->lanes = lanes;
	for (int i = 0; i < 7; i++)
		*v[i] = lanes ? LLVMVectorType(e->scalar[i], lanes) :
				e->scalar[i];
}

LLVMValueRef jit_splat(struct emit *e, LLVMValueRef v)
{
	if (!e->lanes)
		return v;
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), e->lanes);
	LLVMValueRef zero = LLVMConstInt(e->scalar[3], 0, false);
	LLVMValueRef one = LLVMBuildInsertElement(e->b, LLVMGetUndef(vt), v,
						  zero, "");
	LLVMValueRef mask = LLVMConstNull(LLVMVectorType(e->scalar[3],
							 e->lanes));
	return LLVMBuildShuffleVector(e->b, one, LLVMGetUndef(vt), mask, "");
}

LLVMValueRef jit_intrinsic(struct emit *e, const char *name,
			   LLVMTypeRef *types, unsigned ntypes,
			   LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(e->mod, id, types,
						      ntypes);
	LLVMTypeRef fnty = LLVMIntrinsicGetType(e->cx, id, types, ntypes);
	return LLVMBuildCall2(e->b, fnty, fn, args, nargs, "");
}

/*
 * By name, not by address: the code is cached on disk (jit_cache.c) and
 * loaded by other processes, where the helpers live elsewhere; the
 * engine binds the names when it links the object.
 */
LLVMValueRef jit_call_c(struct emit *e, LLVMTypeRef fnty, const char *name,
			LLVMValueRef *args, unsigned nargs)
{
	LLVMValueRef fn = LLVMGetNamedFunction(e->mod, name);
	if (!fn)
		fn = LLVMAddFunction(e->mod, name, fnty);
	return LLVMBuildCall2(e->b, fnty, fn, args, nargs, "");
}

LLVMValueRef jit_entry_copy(struct emit *e, LLVMValueRef init_ptr)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(e->cx);
	LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(e->entry_bb));
	LLVMTypeRef i64 = e->scalar[4];
	LLVMValueRef slot = LLVMBuildAlloca(b, i64, "");
	LLVMBuildStore(b, LLVMBuildLoad2(b, i64, init_ptr, ""), slot);
	LLVMDisposeBuilder(b);
	return slot;
}

void jit_invariant(struct emit *e, LLVMValueRef load)
{
	unsigned kind = LLVMGetMDKindIDInContext(e->cx, "invariant.load", 14);
	LLVMSetMetadata(load, kind, LLVMMDNodeInContext(e->cx, NULL, 0));
}

/* ---- registers and operands ---- */

/* Bits of a register (i64) read as @t. */
static LLVMValueRef from_bits(struct emit *e, LLVMValueRef v, unsigned t)
{
	LLVMTypeRef ty = jit_type(e, t);
	if (!ty)
		return NULL;
	if (t == PTX_T_F32)
		return LLVMBuildBitCast(e->b, LLVMBuildTrunc(e->b, v, e->i32,
							     ""), ty, "");
	if (t == PTX_T_F64)
		return LLVMBuildBitCast(e->b, v, ty, "");
	if (t == PTX_T_PRED)
		return LLVMBuildICmp(e->b, LLVMIntNE, v,
				     jit_const(e, e->i64, 0), "");
	return ty == e->i64 ? v : LLVMBuildTrunc(e->b, v, ty, "");
}

bool jit_set_bits(struct emit *e, const struct ir_operand *o,
		  LLVMValueRef v, bool sign)
{
	if (o->kind == OPND_SINK)
		return true;
	if (o->kind != OPND_REG || o->comp)
		return jit_unsupported(e, "destination");
	const struct ir_reg *r = &e->f->regs[o->reg];
	LLVMTypeRef vt = LLVMTypeOf(v);
	if (r->type == PTX_T_PRED) {
		if (vt != e->i1)
			v = LLVMBuildICmp(e->b, LLVMIntNE, v,
					  jit_cint(vt, 0), "");
	} else if (vt == e->i1 || jit_int_bits(vt) < 64) {
		v = sign && vt != e->i1 ? LLVMBuildSExt(e->b, v, e->i64, "") :
					  LLVMBuildZExt(e->b, v, e->i64, "");
	}
	if (e->mask) {	/* a masked piece: the other lanes keep theirs */
		LLVMValueRef old = LLVMBuildLoad2(e->b, LLVMTypeOf(v),
						  e->regs[o->reg], "");
		v = LLVMBuildSelect(e->b, e->mask, v, old, "");
	}
	LLVMBuildStore(e->b, v, e->regs[o->reg]);
	return true;
}

bool jit_set(struct emit *e, const struct ir_operand *o, LLVMValueRef v,
	     unsigned t)
{
	if (t == PTX_T_F32)
		v = LLVMBuildBitCast(e->b, v, e->i32, "");
	else if (t == PTX_T_F64)
		v = LLVMBuildBitCast(e->b, v, e->i64, "");
	return jit_set_bits(e, o, v, ptx_type_is_signed(t));
}

/* %envreg<c>: the launch's (cooperative launches: the grid workspace's
 * address), read through jit_cta.rt, as the interpreter reads it. */
static LLVMValueRef envreg_value(struct emit *e, unsigned c)
{
	LLVMTypeRef i64 = e->scalar[4], i32 = e->scalar[3];
	if (c >= 32)
		return jit_const(e, e->i32, 0);
	LLVMValueRef rt = LLVMBuildLoad2(
		e->b, e->p8, jit_cta_field(e, offsetof(struct jit_cta, rt),
					   e->p8), "");
	LLVMValueRef idx = LLVMConstInt(i64, offsetof(struct rt_cta, launch),
					false);
	LLVMValueRef at = LLVMBuildGEP2(e->b, e->scalar[1], rt, &idx, 1, "");
	at = LLVMBuildBitCast(e->b, at, LLVMPointerType(e->p8, 0), "");
	LLVMValueRef l = LLVMBuildLoad2(e->b, e->p8, at, "");
	jit_invariant(e, l);
	idx = LLVMConstInt(i64, offsetof(struct ptx_launch, envreg) + 4 * c,
			   false);
	at = LLVMBuildGEP2(e->b, e->scalar[1], l, &idx, 1, "");
	at = LLVMBuildBitCast(e->b, at, LLVMPointerType(i32, 0), "");
	LLVMValueRef v = LLVMBuildLoad2(e->b, i32, at, "");
	jit_invariant(e, v);
	return jit_splat(e, v);
}

static LLVMValueRef sreg_value(struct emit *e, const struct ir_operand *o)
{
	unsigned c = o->comp;
	if (c > 2 && (o->reg == SREG_TID || o->reg == SREG_NTID ||
		      o->reg == SREG_CTAID || o->reg == SREG_NCTAID))
		return NULL;
	switch (o->reg) {
	case SREG_TID:
		return c == 0 ? e->tx : c == 1 ? e->ty : e->tz;
	case SREG_NTID:
		return e->ntid[c];
	case SREG_CTAID:
		return e->ctaid[c];
	case SREG_NCTAID:
		return e->nctaid[c];
	case SREG_LANEID:
		return LLVMBuildAnd(e->b, e->tid, jit_const(e, e->i32, 31), "");
	case SREG_WARPID:
		return LLVMBuildLShr(e->b, e->tid, jit_const(e, e->i32, 5), "");
	case SREG_NWARPID:
		return jit_const(e, e->i32, 64);
	case SREG_ENVREG:
		return envreg_value(e, c);
	default:
		return NULL;
	}
}

/*
 * A module variable's address, read from the CTA's table (jit_cta
 * .globals, by index in the program's variables) rather than made a
 * constant: where a process places variables is no part of the code,
 * which the disk cache shares between processes. NULL when @s is none.
 */
LLVMValueRef jit_variable_address(struct emit *e, const struct ir_sym *s)
{
	const struct ptx_program *p = e->k->prog;
	if (!p->placed)
		return NULL;
	for (uint32_t i = 0; i < p->nvars; i++) {
		if (p->vars[i] != s)
			continue;
		LLVMTypeRef i64 = e->scalar[4];
		LLVMValueRef idx = LLVMConstInt(i64, i, false);
		LLVMValueRef at = LLVMBuildGEP2(e->b, i64, e->globals, &idx, 1,
						"");
		LLVMValueRef v = LLVMBuildLoad2(e->b, i64, at, "");
		jit_invariant(e, v);
		return v;
	}
	return NULL;
}

/* The bits of an f32 register, its NaN made the GPU's 0x7fffffff. */
static LLVMValueRef canonical_nan(struct emit *e, LLVMValueRef v)
{
	LLVMValueRef mag = LLVMBuildAnd(e->b, v, jit_const(e, e->i64,
							   0x7fffffffu), "");
	LLVMValueRef nan = LLVMBuildICmp(e->b, LLVMIntUGT, mag,
					 jit_const(e, e->i64, 0x7f800000u), "");
	return LLVMBuildSelect(e->b, nan, jit_const(e, e->i64, 0x7fffffffu),
			       v, "");
}

/* The address a symbol operand stands for, as the interpreter sees it. */
static LLVMValueRef symbol_value(struct emit *e, const struct ir_operand *o)
{
	const struct ir_sym *s = o->sym ? o->sym->def : NULL;
	uint64_t off;
	LLVMValueRef base = NULL;
	if (!s || s->kind != SYM_VAR)
		return NULL;
	if (s->space == SPACE_GLOBAL || s->space == SPACE_CONST)
		base = jit_variable_address(e, s);
	if (base)
		base = jit_splat(e, base);
	else if (s->space == SPACE_SHARED && layout_offset(e->k, s, &off))
		base = jit_const(e, e->i64, off);
	return base ? LLVMBuildAdd(e->b, base,
				   jit_const(e, e->i64, (uint64_t)o->offset),
				   "") :
		      NULL;
}

LLVMValueRef jit_get(struct emit *e, const struct ir_operand *o, unsigned t)
{
	LLVMValueRef v = NULL;
	uint64_t bits;
	switch (o->kind) {
	case OPND_REG:
		if (o->comp || e->f->regs[o->reg].vec > 1)
			break;
		v = LLVMBuildLoad2(e->b, e->f->regs[o->reg].type ==
					 PTX_T_PRED ? e->i1 : e->i64,
				   e->regs[o->reg], "");
		if (e->lazy_nan[o->reg] && !jit_nan_blind(e->in))
			v = canonical_nan(e, v);
		if (e->f->regs[o->reg].type == PTX_T_PRED) {
			if (t != PTX_T_PRED)
				return jit_unsupported(e, "predicate as data"),
				       NULL;
			return o->neg ? LLVMBuildNot(e->b, v, "") : v;
		}
		return from_bits(e, v, t);
	case OPND_IMM:
		bits = ir_imm_value(o, t);
		if (t == PTX_T_PRED)
			return jit_cint(e->i1, bits != 0);
		return from_bits(e, jit_const(e, e->i64, bits), t);
	case OPND_SREG:
		v = sreg_value(e, o);
		if (!v || t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_PRED)
			break;
		return from_bits(e, LLVMBuildZExt(e->b, v, e->i64, ""), t);
	case OPND_SYM:
		if (t == PTX_T_PRED || !(v = symbol_value(e, o)))
			break;
		return from_bits(e, v, t);
	default:
		break;
	}
	jit_unsupported(e, "operand");
	return NULL;
}

/* ---- the thread loop ---- */

LLVMValueRef jit_cta_field(struct emit *e, size_t off, LLVMTypeRef t)
{
	LLVMValueRef idx = LLVMConstInt(e->scalar[4], off, false);
	LLVMValueRef p = LLVMBuildGEP2(e->b, e->scalar[1], e->cta, &idx, 1, "");
	return LLVMBuildBitCast(e->b, p, LLVMPointerType(t, 0), "");
}

static LLVMValueRef load_field(struct emit *e, size_t off, LLVMTypeRef t)
{
	return LLVMBuildLoad2(e->b, t, jit_cta_field(e, off, t), "");
}

/* In scalar mode: the fields every thread of the CTA shares. */
void jit_load_uniforms(struct emit *e)
{
	e->vstate = load_field(e, offsetof(struct jit_cta, vstate),
			       LLVMPointerType(e->i32, 0));
	e->dsave = load_field(e, offsetof(struct jit_cta, dsave),
			      LLVMPointerType(e->i64, 0));
	e->shared = load_field(e, offsetof(struct jit_cta, shared), e->p8);
	e->params = load_field(e, offsetof(struct jit_cta, params), e->p8);
	e->save = load_field(e, offsetof(struct jit_cta, save),
			     LLVMPointerType(e->i64, 0));
	e->exited = load_field(e, offsetof(struct jit_cta, exited), e->p8);
	e->globals = load_field(e, offsetof(struct jit_cta, globals),
				LLVMPointerType(e->i64, 0));
	jit_invariant(e, e->globals);
	e->sites = load_field(e, offsetof(struct jit_cta, sites),
			      LLVMPointerType(e->i64, 0));
	e->shared_size = load_field(e, offsetof(struct jit_cta, shared_size),
				    e->i64);
	e->nthreads = load_field(e, offsetof(struct jit_cta, nthreads), e->i32);
	for (int i = 0; i < 3; i++) {
		e->ntid[i] = load_field(e, offsetof(struct jit_cta, ntid) +
						   4 * i, e->i32);
		e->ctaid[i] = load_field(e, offsetof(struct jit_cta, ctaid) +
						    4 * i, e->i32);
		e->nctaid[i] = load_field(e, offsetof(struct jit_cta, nctaid) +
						     4 * i, e->i32);
	}
}

/*
 * Save slot @slot of this thread. A thread keeps, across a barrier,
 * only the registers live after it, each in its own slot (jit_slots.c):
 * registers never live at one barrier together share one, so a CTA's
 * saves stay small enough for the cache even at 1024 threads. Laid out
 * [slot][thread], so that a vector group (jit_emit_vec.c) saves a slot
 * in one store.
 */
static LLVMValueRef slot_of(struct emit *e, LLVMValueRef base, uint32_t slot)
{
	LLVMValueRef i = LLVMBuildAdd(
		e->b, LLVMBuildMul(e->b, LLVMBuildZExt(e->b, e->nthreads, e->i64,
						       ""),
				   jit_const(e, e->i64, slot), ""),
		LLVMBuildZExt(e->b, e->tid, e->i64, ""), "");
	return LLVMBuildGEP2(e->b, e->i64, base, &i, 1, "");
}

static LLVMValueRef save_slot(struct emit *e, uint32_t slot)
{
	return slot_of(e, e->save, slot);
}

/* The registers live after the barrier at instruction @at that the
 * region may have changed (jit_slots.c): the rest are in their slots. */
static void save_registers(struct emit *e, uint32_t at)
{
	for (uint32_t r = 0; r < e->f->nregs; r++) {
		if (!jit_slot_store(e->slots, at, r))
			continue;
		bool pred = e->f->regs[r].type == PTX_T_PRED;
		LLVMValueRef v = LLVMBuildLoad2(e->b, pred ? e->i1 : e->i64,
						e->regs[r], "");
		if (pred)
			v = LLVMBuildZExt(e->b, v, e->i64, "");
		LLVMBuildStore(e->b, v,
			       save_slot(e, jit_slot_of(e->slots, r)));
	}
}

/* Every register live after the barrier, from its slot. */
static void restore_registers(struct emit *e, uint32_t at)
{
	for (uint32_t r = 0; r < e->f->nregs; r++) {
		if (!jit_live_after(e->live, at, r))
			continue;
		bool pred = e->f->regs[r].type == PTX_T_PRED;
		LLVMValueRef v = LLVMBuildLoad2(
			e->b, e->i64, save_slot(e, jit_slot_of(e->slots, r)),
			"");
		if (pred)
			v = LLVMBuildICmp(e->b, LLVMIntNE, v,
					  jit_const(e, e->i64, 0), "");
		LLVMBuildStore(e->b, v, e->regs[r]);
	}
}

static void zero_registers(struct emit *e)
{
	for (uint32_t r = 0; r < e->f->nregs; r++) {
		bool pred = e->f->regs[r].type == PTX_T_PRED;
		LLVMBuildStore(e->b, jit_const(e, pred ? e->i1 : e->i64, 0),
			       e->regs[r]);
	}
}

LLVMBasicBlockRef jit_new_block(struct emit *e, const char *name)
{
	return LLVMAppendBasicBlockInContext(e->cx, e->fn, name);
}

#define new_block jit_new_block

bool jit_add_resume(struct emit *e, LLVMBasicBlockRef bb, uint32_t at)
{
	if (e->nresume == e->resume_cap) {
		uint32_t cap = e->resume_cap ? e->resume_cap * 2 : 8;
		LLVMBasicBlockRef *r = realloc(e->resume, cap * sizeof(*r));
		if (r)
			e->resume = r;
		uint32_t *ri = r ? realloc(e->resume_insn, cap * sizeof(*ri)) :
				   NULL;
		if (!ri)
			return jit_unsupported(e, "out of memory");
		e->resume_insn = ri;
		e->resume_cap = cap;
	}
	e->resume_insn[e->nresume] = at;
	e->resume[e->nresume++] = bb;
	return true;
}

/*
 * entry -> head (tid < nthreads?) -> dispatch (exited? region?) ->
 * init/restore -> the kernel's blocks ... -> next -> head; done: ret 0.
 */
struct loop_blocks {
	LLVMBasicBlockRef entry, head, dispatch, go, init, restore, done;
	LLVMBasicBlockRef vswitch;	/* resume where the group parted */
	LLVMValueRef phis[4], vstate;
};

/*
 * With a vector form, which ran first: a thread its group finished for
 * this region is skipped, one whose group parted ways resumes where it
 * did (vswitch). The vector form writes every whole group's state each
 * region; the rest stay 0.
 */
static void vector_handover(struct emit *e, struct loop_blocks *lb)
{
	LLVMTypeRef i32 = e->i32;
	LLVMValueRef idx = LLVMBuildZExt(e->b, e->tid, e->i64, "");
	LLVMValueRef at = LLVMBuildGEP2(e->b, i32, e->vstate, &idx, 1, "");
	LLVMBasicBlockRef own = new_block(e, "vnone");
	LLVMBasicBlockRef taken = new_block(e, "vtaken");
	lb->vswitch = new_block(e, "vswitch");
	lb->vstate = LLVMBuildLoad2(e->b, i32, at, "");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, lb->vstate,
					    jit_const(e, i32, 0), ""),
			own, taken);
	LLVMPositionBuilderAtEnd(e->b, taken);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, lb->vstate,
					    jit_const(e, i32, 1), ""),
			e->next_bb, lb->vswitch);
	LLVMPositionBuilderAtEnd(e->b, own);
}

/* dispatch: a thread that exited before this region's barrier stays out;
 * with no barrier there is one region, and nobody has exited yet. */
static void build_dispatch(struct emit *e, struct loop_blocks *lb)
{
	LLVMPositionBuilderAtEnd(e->b, lb->dispatch);
	if (e->vector)
		vector_handover(e, lb);
	if (!e->has_barrier) {
		LLVMBuildBr(e->b, lb->go);
		return;
	}
	LLVMValueRef idx = LLVMBuildZExt(e->b, e->tid, e->i64, "");
	LLVMValueRef ex = LLVMBuildLoad2(
		e->b, e->i8, LLVMBuildGEP2(e->b, e->i8, e->exited, &idx, 1, ""),
		"");
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, ex,
					    jit_const(e, e->i8, 0), ""),
			e->next_bb, lb->go);
}

static void build_head(struct emit *e, struct loop_blocks *lb)
{
	LLVMTypeRef i32 = e->i32;
	LLVMPositionBuilderAtEnd(e->b, lb->head);
	for (int i = 0; i < 4; i++)
		lb->phis[i] = LLVMBuildPhi(e->b, i32, "");
	e->tid = lb->phis[0];
	e->tx = lb->phis[1];
	e->ty = lb->phis[2];
	e->tz = lb->phis[3];
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntULT, e->tid,
					    e->nthreads, ""),
			lb->dispatch, lb->done);
	build_dispatch(e, lb);
	LLVMPositionBuilderAtEnd(e->b, lb->go);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, e->region,
					    jit_const(e, i32, 0), ""),
			lb->init, lb->restore);
}

/* next: the following thread, its coordinates stepped x, then y, z. */
static void build_next(struct emit *e, struct loop_blocks *lb)
{
	LLVMTypeRef i32 = e->i32;
	LLVMBuilderRef b = e->b;
	LLVMValueRef one = jit_const(e, i32, 1), zero = jit_const(e, i32, 0);
	LLVMPositionBuilderAtEnd(b, e->next_bb);
	LLVMValueRef tid = LLVMBuildAdd(b, e->tid, one, "");
	LLVMValueRef x1 = LLVMBuildAdd(b, e->tx, one, "");
	LLVMValueRef wx = LLVMBuildICmp(b, LLVMIntEQ, x1, e->ntid[0], "");
	LLVMValueRef x = LLVMBuildSelect(b, wx, zero, x1, "");
	LLVMValueRef y1 = LLVMBuildAdd(b, e->ty, LLVMBuildZExt(b, wx, i32, ""),
				       "");
	LLVMValueRef wy = LLVMBuildICmp(b, LLVMIntEQ, y1, e->ntid[1], "");
	LLVMValueRef y = LLVMBuildSelect(b, wy, zero, y1, "");
	LLVMValueRef z = LLVMBuildAdd(b, e->tz, LLVMBuildZExt(b, wy, i32, ""),
				      "");
	LLVMBuildBr(b, lb->head);
	LLVMValueRef from_entry[4] = { zero, zero, zero, zero };
	LLVMValueRef from_next[4] = { tid, x, y, z };
	for (int i = 0; i < 4; i++) {
		LLVMAddIncoming(lb->phis[i], &from_entry[i], &lb->entry, 1);
		LLVMAddIncoming(lb->phis[i], &from_next[i], &e->next_bb, 1);
	}
}

/* The vector form first, for whole groups: a fault there ends the CTA;
 * the thread loop runs only when it left threads (it returns 2). */
static void call_vector(struct emit *e, LLVMValueRef vfn,
			struct loop_blocks *lb)
{
	LLVMTypeRef args[2] = { e->p8, e->i32 };
	LLVMTypeRef fnty = LLVMFunctionType(e->i32, args, 2, false);
	LLVMValueRef av[2] = { e->cta, e->region };
	LLVMValueRef r = LLVMBuildCall2(e->b, fnty, vfn, av, 2, "");
	LLVMValueRef sw = LLVMBuildSwitch(e->b, r, lb->head, 2);
	LLVMAddCase(sw, jit_const(e, e->i32, 0), lb->done);
	LLVMAddCase(sw, jit_const(e, e->i32, 1), e->fault_bb);
}

static void build_skeleton(struct emit *e, struct loop_blocks *lb,
			   LLVMValueRef vfn)
{
	lb->entry = new_block(e, "entry");
	e->entry_bb = lb->entry;
	lb->head = new_block(e, "head");
	lb->dispatch = new_block(e, "dispatch");
	lb->go = new_block(e, "go");
	lb->init = new_block(e, "init");
	lb->restore = new_block(e, "restore");
	lb->done = new_block(e, "done");
	e->next_bb = new_block(e, "next");
	e->fault_bb = new_block(e, "fault");
	LLVMPositionBuilderAtEnd(e->b, lb->entry);
	for (uint32_t r = 0; r < e->f->nregs; r++)
		e->regs[r] = LLVMBuildAlloca(e->b, e->f->regs[r].type ==
					     PTX_T_PRED ? e->i1 : e->i64, "");
	jit_load_uniforms(e);
	if (vfn)
		call_vector(e, vfn, lb);
	else
		LLVMBuildBr(e->b, lb->head);
	build_head(e, lb);
	LLVMPositionBuilderAtEnd(e->b, lb->done);
	LLVMBuildRet(e->b, jit_const(e, e->i32, 0));
	LLVMPositionBuilderAtEnd(e->b, e->fault_bb);
	LLVMBuildRet(e->b, jit_const(e, e->i32, 1));
	for (uint32_t i = 0; i < e->f->nblocks; i++)
		e->blocks[i] = new_block(e, "b");
	LLVMPositionBuilderAtEnd(e->b, lb->init);
	zero_registers(e);
	LLVMBuildBr(e->b, e->blocks[0]);
}

/* Where the vector form's group parted ways before instruction @at:
 * the registers live there, from dsave[register][thread] where the
 * region may have written them, else from their save slots. */
static void restore_diverged(struct emit *e, uint32_t at)
{
	for (uint32_t r = 0; r < e->f->nregs; r++) {
		if (!jit_live_before(e->live, at, r))
			continue;
		bool pred = e->f->regs[r].type == PTX_T_PRED;
		LLVMValueRef p = jit_slot_written(e->slots, at, r) ?
			slot_of(e, e->dsave, r) :
			save_slot(e, jit_slot_of(e->slots, r));
		LLVMValueRef v = LLVMBuildLoad2(e->b, e->i64, p, "");
		if (pred)
			v = LLVMBuildICmp(e->b, LLVMIntNE, v,
					  jit_const(e, e->i64, 0), "");
		LLVMBuildStore(e->b, v, e->regs[r]);
	}
}

static void finish_handover(struct emit *e, struct loop_blocks *lb)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < e->f->ninsns; i++)
		n += e->dresume[i] != NULL;
	LLVMPositionBuilderAtEnd(e->b, lb->vswitch);
	LLVMValueRef sw = LLVMBuildSwitch(e->b, lb->vstate, e->fault_bb, n);
	for (uint32_t i = 0; i < e->f->ninsns; i++) {
		if (!e->dresume[i])
			continue;
		LLVMBasicBlockRef bb = new_block(e, "dcase");
		LLVMAddCase(sw, jit_const(e, e->i32, 2 + i), bb);
		LLVMPositionBuilderAtEnd(e->b, bb);
		restore_diverged(e, i);
		LLVMBuildBr(e->b, e->dresume[i]);
	}
}

/* After every block is emitted: to the region, restoring what it needs. */
static void finish_restore(struct emit *e, struct loop_blocks *lb)
{
	if (e->vector)
		finish_handover(e, lb);
	LLVMPositionBuilderAtEnd(e->b, lb->restore);
	LLVMValueRef sw = LLVMBuildSwitch(e->b, e->region, e->fault_bb,
					  e->nresume);
	for (uint32_t r = 0; r < e->nresume; r++) {
		LLVMBasicBlockRef bb = new_block(e, "restore_r");
		LLVMAddCase(sw, jit_const(e, e->i32, r + 1), bb);
		LLVMPositionBuilderAtEnd(e->b, bb);
		restore_registers(e, e->resume_insn[r]);
		LLVMBuildBr(e->b, e->resume[r]);
	}
	build_next(e, lb);
}

/* ---- control flow ---- */

/* Only a kernel with barriers runs again for a later region, where the
 * threads that exited must not. */
static void exit_thread(struct emit *e)
{
	if (!e->has_barrier) {
		LLVMBuildBr(e->b, e->next_bb);
		return;
	}
	LLVMValueRef idx = LLVMBuildZExt(e->b, e->tid, e->i64, "");
	LLVMBuildStore(e->b, jit_const(e, e->i8, 1),
		       LLVMBuildGEP2(e->b, e->i8, e->exited, &idx, 1, ""));
	LLVMBuildBr(e->b, e->next_bb);
}

LLVMBasicBlockRef jit_label_block(struct emit *e, const struct ir_operand *o)
{
	if (o->kind != OPND_LABEL || o->reg >= e->f->nlabels)
		return NULL;
	return jit_block(e, ir_label_block(e->f, o->reg));
}

LLVMBasicBlockRef jit_block(struct emit *e, uint32_t bi)
{
	if (!e->blocks[bi] && e->block_queue) {
		e->blocks[bi] = jit_new_block(e, "b");
		e->block_queue[e->nqueued++] = bi;
	}
	return e->blocks[bi];
}

/* The guard of @in as an i1. */
static LLVMValueRef guard_of(struct emit *e, const struct ir_insn *in)
{
	LLVMValueRef p = LLVMBuildLoad2(e->b, e->i1, e->regs[in->guard_reg],
					"");
	return in->guard_neg ? LLVMBuildNot(e->b, p, "") : p;
}

uint32_t jit_target_block(struct emit *e, const struct ir_operand *o)
{
	return ir_label_block(e->f, o->reg);
}

/*
 * The back-edge @br closes a loop that may wait for other threads: its
 * body (the blocks from its head to @br's, in program order) reads
 * memory with an ordered or volatile load or an atomic.
 */
static bool loop_may_spin(struct emit *e, const struct ir_insn *br)
{
	const struct ir_func *f = e->f;
	const struct ir_block *head = &f->blocks[jit_target_block(e,
							      &br->opnd[0])];
	const struct ir_block *tail = &f->blocks[br->block];
	for (uint32_t i = head->first; i < tail->first + tail->count; i++) {
		const struct ir_insn *in = &f->insns[i];
		bool ld = in->op == OP_LD || in->op == OP_LDU;
		if (in->op == OP_ATOM || (ld && jit_mem_ordered(in)))
			return true;
	}
	return false;
}

/*
 * A block that looks at the flag jit_cta.kill points to (.spin at the
 * back-edge of a loop that may spin, e->in), then goes to @to; when it
 * is set, jit_poll() says whether the launch was stopped (then the fault
 * block) or was a cooperative launch's turn to let another CTA run.
 */
LLVMBasicBlockRef jit_kill_check(struct emit *e, LLVMValueRef tid,
				 LLVMBasicBlockRef to)
{
	LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
	LLVMBasicBlockRef chk = new_block(e, "killchk");
	LLVMBasicBlockRef dead = new_block(e, "killed");
	bool spin = e->in && e->in->op == OP_BRA && loop_may_spin(e, e->in);
	LLVMPositionBuilderAtEnd(e->b, chk);
	LLVMTypeRef i8 = e->scalar[1];
	LLVMValueRef flag = LLVMBuildLoad2(
		e->b, i8, load_field(e, spin ? offsetof(struct jit_cta, spin) :
					       offsetof(struct jit_cta, kill),
				     e->p8),
		"");
	LLVMSetOrdering(flag, LLVMAtomicOrderingMonotonic);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, flag,
					    LLVMConstInt(i8, 0, false), ""),
			dead, to);
	LLVMPositionBuilderAtEnd(e->b, dead);
	LLVMTypeRef args[2] = { e->p8, e->scalar[3] };
	LLVMTypeRef fnty = LLVMFunctionType(e->scalar[3], args, 2, false);
	LLVMValueRef av[2] = { e->cta, tid };
	LLVMValueRef stop = jit_call_c(e, fnty, JIT_SYM_POLL, av, 2);
	LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, stop,
					    LLVMConstInt(e->scalar[3], 0, 0),
					    ""),
			e->fault_bb, to);
	LLVMPositionBuilderAtEnd(e->b, here);
	return chk;
}

static bool emit_branch(struct emit *e, const struct ir_insn *in)
{
	LLVMBasicBlockRef t = in->nopnds == 1 ?
				      jit_label_block(e, &in->opnd[0]) : NULL;
	if (!t)
		return jit_unsupported(e, "branch target");
	if (in->block >= jit_target_block(e, &in->opnd[0]))
		t = jit_kill_check(e, e->tid, t);	/* a back-edge: loops can be stopped */
	if (!in->guarded) {
		LLVMBuildBr(e->b, t);
		return true;
	}
	LLVMBasicBlockRef fall = new_block(e, "fall");
	LLVMBuildCondBr(e->b, guard_of(e, in), t, fall);
	LLVMPositionBuilderAtEnd(e->b, fall);
	return true;
}

/* bar.sync / barrier.sync of all the CTA's threads (any id, no count). */
bool jit_is_cta_barrier(const struct ir_insn *in)
{
	return in->mode != MOD_ARRIVE && in->mode != MOD_RED &&
	       !(in->flags & 1u << FL_WARP) &&
	       (!in->scope || in->scope == MOD_CTA) &&
	       (in->nopnds == 0 ||
		(in->nopnds == 1 && in->opnd[0].kind == OPND_IMM));
}

/* bar.sync: save, note region r (all threads must agree), next thread. */
static bool emit_barrier(struct emit *e, const struct ir_insn *in)
{
	if (!jit_is_cta_barrier(in) || in->guarded)
		return jit_unsupported(e, "only bar.sync of the whole CTA");
	LLVMBasicBlockRef bad = new_block(e, "diverged");
	LLVMBasicBlockRef note = new_block(e, "note");
	LLVMBasicBlockRef resume = new_block(e, "resume");
	uint32_t at = (uint32_t)(in - e->f->insns);
	if (!jit_add_resume(e, resume, at))
		return false;
	LLVMValueRef r = jit_const(e, e->i32, e->nresume);
	save_registers(e, at);
	LLVMValueRef slot = jit_cta_field(e, offsetof(struct jit_cta, next_region),
				      e->i32);
	LLVMValueRef cur = LLVMBuildLoad2(e->b, e->i32, slot, "");
	LLVMValueRef ok = LLVMBuildOr(
		e->b, LLVMBuildICmp(e->b, LLVMIntEQ, cur,
				    LLVMConstAllOnes(e->i32), ""),
		LLVMBuildICmp(e->b, LLVMIntEQ, cur, r, ""), "");
	LLVMBuildCondBr(e->b, ok, note, bad);
	LLVMPositionBuilderAtEnd(e->b, note);
	LLVMBuildStore(e->b, r, slot);
	LLVMBuildBr(e->b, e->next_bb);
	LLVMPositionBuilderAtEnd(e->b, bad);
	jit_barrier_fault_call(e, e->tid, in->line);
	LLVMPositionBuilderAtEnd(e->b, resume);
	return true;
}

/* Reports threads at different barriers, then the fault block. */
void jit_barrier_fault_call(struct emit *e, LLVMValueRef tid, unsigned line)
{
	LLVMTypeRef i32 = e->scalar[3];
	LLVMTypeRef args[3] = { e->p8, i32, i32 };
	LLVMTypeRef fnty = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), args,
					    3, false);
	LLVMValueRef av[3] = { e->cta, tid, LLVMConstInt(i32, line, false) };
	jit_call_c(e, fnty, JIT_SYM_BARRIER_FAULT, av, 3);
	LLVMBuildBr(e->b, e->fault_bb);
}

bool jit_emit_trap(struct emit *e, const struct ir_insn *in,
		   LLVMValueRef tid)
{
	LLVMTypeRef i32 = e->scalar[3];
	LLVMTypeRef args[4] = { e->p8, i32, i32, i32 };
	LLVMTypeRef fnty = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), args,
					    4, false);
	LLVMValueRef av[4] = { e->cta, tid, LLVMConstInt(i32, in->line, false),
			       LLVMConstInt(i32, in->op == OP_BRKPT, false) };
	jit_call_c(e, fnty, JIT_SYM_TRAP, av, 4);
	LLVMBuildBr(e->b, e->fault_bb);
	/* what follows in the IR's block is never reached */
	LLVMPositionBuilderAtEnd(e->b, new_block(e, "after_trap"));
	return true;
}

static bool emit_mov(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (in->nopnds != 2 || !jit_type(e, t))
		return jit_unsupported(e, "type or operands");
	LLVMValueRef v = jit_get(e, &in->opnd[1], t);
	return v && jit_set(e, &in->opnd[0], v, t);
}

static bool emit_control(struct emit *e, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_BRA:
		return emit_branch(e, in);
	case OP_RET:
	case OP_EXIT:
		exit_thread(e);
		return true;
	case OP_BAR:
	case OP_BARRIER:
		return emit_barrier(e, in);
	case OP_TRAP:
	case OP_BRKPT:	/* vector form: guarded ones where every lane's holds */
		return jit_emit_trap(e, in, e->lanes ? e->gtid : e->tid);
	case OP_MEMBAR:
	case OP_FENCE:
		if (in->has_raw || in->mode)
			return jit_unsupported(e, "fence kind");
		LLVMBuildFence(e->b, LLVMAtomicOrderingSequentiallyConsistent,
			       false, "");
		return true;
	default:
		return jit_unsupported(e, "instruction");
	}
}

bool jit_emit_plain(struct emit *e, const struct ir_insn *in)
{
	bool fl = in->ntypes && ptx_type_is_float(in->types[0]);
	if (e->lanes) {
		switch (in->op) {
		case OP_LD: case OP_LDU: case OP_ST: case OP_CVTA:
			return jit_vec_mem(e, in);
		case OP_ATOM: case OP_RED:
			return jit_vec_atom(e, in);
		case OP_BRA: case OP_RET: case OP_EXIT: case OP_BAR:
		case OP_BARRIER: case OP_MEMBAR: case OP_FENCE:
			return jit_vec_control(e, in);
		default:
			break;
		}
	}
	switch (in->op) {
	case OP_MOV:
		return emit_mov(e, in);
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV:
	case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX:
		return fl ? jit_emit_float(e, in) : jit_emit_int(e, in);
	case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN:
	case OP_COS: case OP_LG2: case OP_EX2: case OP_TANH:
		return jit_emit_float(e, in);
	case OP_REM: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
	case OP_CNOT: case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ:
	case OP_BREV:
		return jit_emit_int(e, in);
	case OP_BFI:
		return jit_emit_bfi(e, in);
	case OP_SETP: case OP_SELP:
		return jit_emit_cmp(e, in);
	case OP_CVT:
		return jit_emit_cvt(e, in);
	case OP_LD: case OP_LDU: case OP_ST: case OP_CVTA:
		return jit_emit_mem(e, in);
	case OP_ATOM: case OP_RED:
		return jit_emit_atom(e, in);
	default:
		return emit_control(e, in);
	}
}

static bool is_terminator(const struct ir_insn *in)
{
	return !in->guarded && (in->op == OP_BRA || in->op == OP_RET ||
				in->op == OP_EXIT);
}

/* The scalar code's entry where a vector group parted ways at @in. */
static void divergence_entry(struct emit *e, const struct ir_insn *in)
{
	LLVMBasicBlockRef at = new_block(e, "dresume");
	LLVMBuildBr(e->b, at);
	LLVMPositionBuilderAtEnd(e->b, at);
	e->dresume[in - e->f->insns] = at;
}

static bool emit_insn(struct emit *e, const struct ir_insn *in)
{
	e->in = in;
	if (in->guarded && e->vector)
		divergence_entry(e, in);
	if (!in->guarded || in->op == OP_BRA)
		return jit_emit_plain(e, in);
	LLVMBasicBlockRef then = new_block(e, "then");
	LLVMBasicBlockRef cont = new_block(e, "cont");
	LLVMBuildCondBr(e->b, guard_of(e, in), then, cont);
	LLVMPositionBuilderAtEnd(e->b, then);
	bool ok = jit_emit_plain(e, in);
	if (ok && in->op != OP_RET && in->op != OP_EXIT)
		LLVMBuildBr(e->b, cont);
	LLVMPositionBuilderAtEnd(e->b, cont);
	return ok;
}

static bool emit_blocks(struct emit *e)
{
	const struct ir_func *f = e->f;
	for (uint32_t bi = 0; bi < f->nblocks; bi++) {
		const struct ir_block *blk = &f->blocks[bi];
		bool ended = false;
		LLVMPositionBuilderAtEnd(e->b, e->blocks[bi]);
		for (uint32_t i = 0; i < blk->count; i++) {
			const struct ir_insn *in = &f->insns[blk->first + i];
			if (!emit_insn(e, in))
				return false;
			ended = is_terminator(in);
		}
		e->in = NULL;
		if (ended)
			continue;
		if (bi + 1 < f->nblocks)
			LLVMBuildBr(e->b, e->blocks[bi + 1]);
		else
			exit_thread(e);
	}
	return true;
}

/*
 * A thread that waits for another (spinning on a volatile or acquiring
 * load, or a lock taken with atom.cas/exch) would wait for ever when
 * threads run one after the other and the other is of its own CTA.
 */
static bool may_wait_for_others(const struct ir_insn *in)
{
	if (in->op == OP_LD || in->op == OP_LDU)
		return (in->flags >> FL_VOLATILE & 1) ||
		       (in->sem && in->sem != MOD_WEAK);
	return in->op == OP_ATOM && (in->mode == MOD_CAS ||
				     in->mode == MOD_EXCH);
}

bool jit_kernel_waits(const struct ptx_kernel *k)
{
	const struct ir_func *f = k->sym->func;
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (may_wait_for_others(&f->insns[i]))
			return true;
	return false;
}

/* Kernels the thread-loop model runs as the interpreter does. */
static bool kernel_fits(struct emit *e)
{
	const struct kernel_layout *lay = &e->k->layout;
	const struct ir_func *f = e->f;
	if (lay->nreach != 1 || lay->local_stride || lay->reserved_smem)
		return jit_unsupported(e, "calls or local memory");
	for (uint32_t r = 0; r < f->nregs; r++) {
		unsigned t = f->regs[r].type;
		if (f->regs[r].vec > 1 || (t != PTX_T_PRED &&
					   ptx_type_size(t) > 8))
			return jit_unsupported(e, "vector or 128-bit registers");
	}
	/* waits in shared memory are for threads of the CTA: the
	 * interpreter's; others only in cooperative launches (backend.c) */
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (may_wait_for_others(&f->insns[i]) &&
		    f->insns[i].space == SPACE_SHARED)
			return jit_unsupported(e, "may wait for other threads "
					       "of its CTA");
	return true;
}

static void init_types(struct emit *e)
{
	e->scalar[0] = LLVMInt1TypeInContext(e->cx);
	e->scalar[1] = LLVMInt8TypeInContext(e->cx);
	e->scalar[2] = LLVMInt16TypeInContext(e->cx);
	e->scalar[3] = LLVMInt32TypeInContext(e->cx);
	e->scalar[4] = LLVMInt64TypeInContext(e->cx);
	e->scalar[5] = LLVMFloatTypeInContext(e->cx);
	e->scalar[6] = LLVMDoubleTypeInContext(e->cx);
	jit_lanes(e, 0);
	e->p8 = LLVMPointerType(e->i8, 0);
}

static bool debug_enabled(void)
{
	const char *v = getenv("VCUDA_DEBUG");
	return v && *v && strcmp(v, "0");
}

/*
 * The one place that picks the vector form: where every instruction of
 * the kernel has one, at the width chosen for the kernel (e->width,
 * jit_vec_width(); 0, under VCUDA_JIT_LANES=0, turns it off, for
 * comparing). Emitted before the scalar function, which then gets
 * entries where vector groups hand threads over.
 */
static LLVMValueRef try_vector(struct emit *e, const char *name, char *why,
			       size_t len)
{
	char vname[160];
	LLVMValueRef vfn = NULL;
	if (e->width) {
		snprintf(vname, sizeof(vname), "%s_vec", name);
		vfn = jit_emit_vector(e, vname);
	}
	snprintf(why, len, "%s", e->width ? e->why : "VCUDA_JIT_LANES=0");
	e->why[0] = 0;
	e->in = NULL;
	e->nresume = 0;
	e->vector = vfn != NULL;
	if (!vfn)	/* counts of a vector form that was dropped */
		e->stats = (struct jit_stats){ 0 };
	e->stats.vector = e->vector;
	e->stats.width = e->vector ? (uint8_t)e->width : 0;
	jit_lanes(e, 0);
	return vfn;
}

static bool emit_function(struct emit *e, const char *name)
{
	LLVMTypeRef args[2] = { e->p8, e->i32 };
	LLVMTypeRef fnty = LLVMFunctionType(e->i32, args, 2, false);
	struct loop_blocks lb;
	char vwhy[200];
	for (uint32_t i = 0; i < e->f->ninsns; i++)
		if (e->f->insns[i].op == OP_BAR ||
		    e->f->insns[i].op == OP_BARRIER)
			e->has_barrier = true;
	e->live = jit_live_compute(e);
	if (!e->live)
		return false;
	e->slots = jit_slots_compute(e);
	if (!e->slots)
		return false;
	e->save_stride = jit_slots_stride(e->slots);
	LLVMValueRef vfn = try_vector(e, name, vwhy, sizeof(vwhy));
	e->fn = LLVMAddFunction(e->mod, name, fnty);
	e->cta = LLVMGetParam(e->fn, 0);
	e->region = LLVMGetParam(e->fn, 1);
	LLVMAddAttributeAtIndex(e->fn, 1, LLVMCreateEnumAttribute(
		e->cx, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
	build_skeleton(e, &lb, vfn);
	if (!emit_blocks(e))
		return false;
	finish_restore(e, &lb);
	if (debug_enabled() && vfn)
		fprintf(stderr, "vcuda: kernel %s: JIT vector form, %d lanes\n",
			e->k->sym->name, e->width);
	else if (debug_enabled())
		fprintf(stderr, "vcuda: kernel %s: JIT scalar form only: %s\n",
			e->k->sym->name, vwhy);
	return true;
}

bool jit_emit_kernel(const struct ptx_kernel *k, unsigned width,
		     LLVMModuleRef mod, const char *name,
		     struct jit_kernel *jk, char *whybuf, size_t whylen)
{
	struct emit e = { .k = k, .f = k->sym->func, .mod = mod,
			  .cx = LLVMGetModuleContext(mod), .why = whybuf,
			  .whylen = whylen, .width = width };
	whybuf[0] = 0;
	init_types(&e);
	if (!kernel_fits(&e))
		return false;
	e.regs = calloc(e.f->nregs + 1, sizeof(*e.regs));
	e.blocks = calloc(e.f->nblocks + 1, sizeof(*e.blocks));
	e.lazy_nan = jit_nan_lazy_registers(e.f);
	e.dresume = calloc(e.f->ninsns + 1, sizeof(*e.dresume));
	e.b = LLVMCreateBuilderInContext(e.cx);
	bool mem = e.regs && e.blocks && e.lazy_nan && e.dresume;
	bool ok = mem && emit_function(&e, name);
	if (!mem)
		jit_unsupported(&e, "out of memory");
	LLVMDisposeBuilder(e.b);
	free(e.regs);
	free(e.blocks);
	free(e.lazy_nan);
	free(e.dresume);
	free(e.resume);
	free(e.resume_insn);
	jit_live_free(e.live);
	jit_slots_free(e.slots);
	jk->nregs = e.save_stride;
	jk->nsites = e.nsites;
	jk->stats = e.stats;
	jk->stats.counted = ok;
	return ok;
}
