// SPDX-License-Identifier: MIT
/*
 * Divergence without parting, in the JIT's vector form: a forward
 * branch whose guard differs across the group's lanes, around a short
 * piece of straight-line code (one block, falling through to the
 * branch's target, entered only from the branch), runs that piece in
 * the vector form under a lane mask instead of handing the group to the
 * scalar code. Scan's Hillis-Steele steps are such branches: `@p bra`
 * over one `ld.shared` of s[tid - off].
 *
 * The piece may hold only arithmetic, shared loads and stores (global
 * or shared, one element, after the piece's loads): no atomics,
 * barriers, branches or calls. Under the mask a register write keeps
 * the old value in the lanes the mask leaves out (jit_set_bits), a
 * shared load reads only in the active lanes (a masked gather; the
 * others read offset 0), and a store writes only theirs
 * (jit_emit_vmask_st.c). Should an active lane's load fail the inline
 * check, the group puts back the registers the piece wrote and parts at
 * the branch, as before: the scalar code then runs it thread by thread
 * and a fault names the thread it names on the interpreter. No store
 * has written by then: a store fails its check in place, lane by lane.
 */
#include "jit_emit.h"

#include <stdlib.h>

#define B (e->b)

/* Instructions in a masked piece at most: past that, parting is cheap
 * next to the piece. */
#define VMASK_MAX_INSNS 16

static LLVMValueRef any_of(struct emit *e, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	return jit_intrinsic(e, "llvm.vector.reduce.or", &t, 1, &v, 1);
}

/* A plain shared load of one element: what the mask can hold back. */
static bool shared_load(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t);
	if (in->op != OP_LD || in->nopnds != 2 || in->ntypes != 1 ||
	    in->vec > 1 || !size || size > 8 || jit_mem_ordered(in))
		return false;
	if (in->opnd[0].kind != OPND_REG || in->opnd[0].comp ||
	    e->f->regs[in->opnd[0].reg].type == PTX_T_PRED)
		return false;
	return in->space == SPACE_SHARED;
}

bool jit_vmask_pure(const struct ir_insn *in)
{
	if (in->guarded)
		return false;
	switch (in->op) {
	case OP_MOV: case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD:
	case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX: case OP_FMA:
	case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
	case OP_SHL: case OP_SHR: case OP_POPC: case OP_CLZ: case OP_BREV:
	case OP_SETP: case OP_SELP: case OP_CVT:
		return in->nopnds > 0;
	case OP_CVTA:	/* arithmetic on the address */
		return in->nopnds == 2;
	default:
		return false;
	}
}

/* No effect but its destination, and no trap in any lane's values;
 * or a load or store the mask holds back. */
static bool maskable(struct emit *e, const struct ir_insn *in)
{
	if (jit_vmask_pure(in))
		return true;
	if (in->guarded)
		return false;
	switch (in->op) {
	case OP_LD:
		return shared_load(e, in);
	case OP_ST:
		return jit_vmask_store_fits(in);
	default:
		return false;
	}
}

/* Block @b has no predecessor but @from. */
static bool only_entered_from(const struct ir_func *f, uint32_t b,
			      uint32_t from)
{
	for (uint32_t i = 0; i < f->nblocks; i++)
		for (uint32_t k = 0; k < f->blocks[i].nsucc; k++)
			if (f->blocks[i].succ[k] == b && i != from)
				return false;
	return true;
}

bool jit_vmask_fits(struct emit *e, const struct ir_insn *in)
{
	const struct ir_func *f = e->f;
	uint32_t b = in->block;
	if (in->op != OP_BRA || !in->guarded || in->nopnds != 1 ||
	    b + 2 >= f->nblocks || f->blocks[b].count == 0 ||
	    &f->insns[f->blocks[b].first + f->blocks[b].count - 1] != in ||
	    jit_target_block(e, &in->opnd[0]) != b + 2)
		return false;
	const struct ir_block *piece = &f->blocks[b + 1];
	if (!piece->count || piece->count > VMASK_MAX_INSNS ||
	    piece->nsucc != 1 || piece->succ[0] != b + 2 ||
	    !only_entered_from(f, b + 1, b))
		return false;
	/* a load that fails its check parts the group at the branch, to
	 * run the piece again thread by thread: never after a store */
	bool stored = false;
	for (uint32_t i = 0; i < piece->count; i++) {
		const struct ir_insn *p = &f->insns[piece->first + i];
		if (!maskable(e, p) || (stored && p->op == OP_LD))
			return false;
		stored |= p->op == OP_ST;
	}
	return true;
}

/* The lanes' offsets that pass the inline check of a @size-byte access,
 * or whose lane is masked out. */
static LLVMValueRef offsets_fine(struct emit *e, LLVMValueRef off,
				 unsigned size)
{
	LLVMValueRef len = jit_splat(e, e->shared_size);
	LLVMValueRef aligned = LLVMBuildICmp(
		B, LLVMIntEQ, LLVMBuildAnd(B, off, jit_cint(e->i64, size - 1),
					   ""),
		jit_cint(e->i64, 0), "");
	LLVMValueRef fits = LLVMBuildICmp(
		B, LLVMIntULE, LLVMBuildAdd(B, off, jit_cint(e->i64, size), ""),
		len, "");
	LLVMValueRef fine = LLVMBuildAnd(B, aligned, fits, "");
	return LLVMBuildOr(B, fine, LLVMBuildNot(B, e->mask, ""), "");
}

/* ld.shared under the mask: a gather of the active lanes; @bail when an
 * active lane's offset fails the check. */
static bool masked_load(struct emit *e, const struct ir_insn *in,
			LLVMBasicBlockRef bail)
{
	unsigned t = in->types[0], size = ptx_type_size(t);
	LLVMValueRef addr = jit_addr_value(e, &in->opnd[1], MK_SHARED);
	if (!addr)
		return false;
	LLVMValueRef off = LLVMBuildZExt(B, LLVMBuildTrunc(B, addr, e->i32, ""),
					 e->i64, "");
	LLVMValueRef fine = offsets_fine(e, off, size);
	LLVMValueRef bad = any_of(e, LLVMBuildNot(B, fine, ""));
	LLVMBasicBlockRef go = jit_new_block(e, "vmaskld");
	LLVMBuildCondBr(B, bad, bail, go);
	LLVMPositionBuilderAtEnd(B, go);
	off = LLVMBuildSelect(B, e->mask, off, jit_cint(e->i64, 0), "");
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, size * 8);
	LLVMTypeRef vt = LLVMVectorType(it, e->width);
	LLVMTypeRef pvt = LLVMVectorType(LLVMPointerType(it, 0), e->width);
	LLVMValueRef p = LLVMBuildGEP2(B, e->scalar[1], e->shared, &off, 1, "");
	p = LLVMBuildBitCast(B, p, pvt, "");
	LLVMTypeRef types[2] = { vt, pvt };
	LLVMValueRef args[4] = { p, s32(e, size), e->mask,
				 LLVMConstNull(vt) };
	LLVMValueRef x = jit_intrinsic(e, "llvm.masked.gather", types, 2,
				       args, 4);
	return jit_set_bits(e, &in->opnd[0], x, ptx_type_is_signed(t));
}

/* The registers the piece writes, so that a bail puts them back. */
struct vmask_undo {
	uint64_t *defs;
	LLVMValueRef *old;
};

static bool undo_take(struct emit *e, const struct ir_block *piece,
		      struct vmask_undo *u)
{
	const struct ir_func *f = e->f;
	u->defs = calloc((f->nregs + 63) / 64 + 1, 8);
	u->old = calloc(f->nregs + 1, sizeof(*u->old));
	if (!u->defs || !u->old)
		return jit_unsupported(e, "out of memory");
	for (uint32_t i = 0; i < piece->count; i++)
		jit_live_add_defs(f, &f->insns[piece->first + i], u->defs);
	for (uint32_t r = 0; r < f->nregs; r++)
		if (u->defs[r / 64] >> (r % 64) & 1)
			u->old[r] = LLVMBuildLoad2(
				B, f->regs[r].type == PTX_T_PRED ? e->i1 :
								   e->i64,
				e->regs[r], "");
	return true;
}

static void undo_put_back(struct emit *e, const struct vmask_undo *u)
{
	for (uint32_t r = 0; r < e->f->nregs; r++)
		if (u->old[r])
			LLVMBuildStore(B, u->old[r], e->regs[r]);
}

static bool piece_under_mask(struct emit *e, const struct ir_block *piece,
			     LLVMBasicBlockRef bail)
{
	for (uint32_t i = 0; i < piece->count; i++) {
		const struct ir_insn *in = &e->f->insns[piece->first + i];
		e->in = in;
		bool ok = in->op == OP_LD ? masked_load(e, in, bail) :
			  in->op == OP_ST ? jit_vmask_store(e, in) :
					    jit_emit_plain(e, in);
		if (!ok)
			return false;
	}
	return true;
}

bool jit_vmask_emit(struct emit *e, const struct ir_insn *br,
		    LLVMValueRef taken, LLVMBasicBlockRef target)
{
	const struct ir_block *piece = &e->f->blocks[br->block + 1];
	struct vmask_undo u = { 0 };
	LLVMBasicBlockRef bail = jit_new_block(e, "vmaskbail");
	bool ok = undo_take(e, piece, &u);
	e->mask = LLVMBuildNot(B, taken, "");
	ok = ok && piece_under_mask(e, piece, bail);
	e->mask = NULL;
	e->in = br;
	if (ok) {
		LLVMBuildBr(B, target);
		LLVMPositionBuilderAtEnd(B, bail);
		undo_put_back(e, &u);
		jit_vec_diverge(e, br);
	}
	free(u.defs);
	free(u.old);
	return ok;
}
