// SPDX-License-Identifier: MIT
/*
 * The JIT's memory instructions: ld, st (scalar and vector), cvta, atom
 * and red on shared, global, const, generic and kernel-parameter
 * memory. Every access is checked as the interpreter checks it: shared
 * offsets inline against the CTA's size, global addresses inline against
 * the launch range the same instruction used last (the common case), and
 * through the run-time helpers (rt_mem.c) otherwise, which also fault.
 */
#include "jit_emit.h"

#define B (e->b)

static LLVMValueRef c64(struct emit *e, uint64_t v)
{
	return LLVMConstInt(e->i64, v, false);
}

static LLVMValueRef index32(struct emit *e, unsigned i)
{
	return LLVMConstInt(LLVMInt32TypeInContext(e->cx), i, false);
}

static unsigned log2_of(unsigned size)
{
	return (unsigned)__builtin_ctz(size);
}

/*
 * The inline check of an access of @size bytes (a power of two) at
 * offset @d into a window of @len bytes: d aligned to size and
 * d + size <= len. For an aligned d that is d / size < len / size;
 * rotating d right by log2(size) does the division and, for a
 * misaligned d, moves the low bits to the top, past any len / size.
 * One rotate and one compare, which loops keep cheap.
 */
LLVMValueRef jit_in_window(struct emit *e, LLVMValueRef d, LLVMValueRef len,
			   unsigned size)
{
	LLVMTypeRef t = LLVMTypeOf(d);	/* i64, or <W x i64>: each lane */
	unsigned shift = log2_of(size);
	LLVMValueRef k = jit_cint(t, shift);
	LLVMValueRef args[3] = { d, d, k };
	LLVMValueRef rot = jit_intrinsic(e, "llvm.fshr", &t, 1, args, 3);
	LLVMValueRef units = LLVMBuildLShr(
		B, len, LLVMConstInt(LLVMTypeOf(len), shift, false), "");
	if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
		units = jit_splat(e, units);
	return LLVMBuildICmp(B, LLVMIntULT, rot, units, "");
}

/* The site's cached range, in SSA between slow paths. */
void jit_site_new(struct emit *e, struct jit_site *s)
{
	LLVMTypeRef i64 = e->scalar[4];
	s->index = e->nsites++;
	LLVMValueRef i0 = LLVMConstInt(i64, 2ull * s->index, false);
	LLVMValueRef i1 = LLVMConstInt(i64, 2ull * s->index + 1, false);
	LLVMBuilderRef eb = LLVMCreateBuilderInContext(e->cx);
	LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(e->entry_bb));
	s->lo_mem = LLVMBuildGEP2(eb, i64, e->sites, &i0, 1, "");
	s->len_mem = LLVMBuildGEP2(eb, i64, e->sites, &i1, 1, "");
	LLVMDisposeBuilder(eb);
	s->lo_slot = jit_entry_copy(e, s->lo_mem);
	s->len_slot = jit_entry_copy(e, s->len_mem);
}

/* Host address of a global access: the last good range, else rt_global. */
LLVMValueRef jit_global_ptr(struct emit *e, LLVMValueRef addr, unsigned size,
			    bool write, const struct jit_site *s)
{
	uint32_t site = s->index;
	LLVMValueRef lo_mem = s->lo_mem, len_mem = s->len_mem;
	LLVMValueRef lo_slot = s->lo_slot, len_slot = s->len_slot;
	LLVMValueRef lo = LLVMBuildLoad2(B, e->i64, lo_slot, "");
	LLVMValueRef len = LLVMBuildLoad2(B, e->i64, len_slot, "");
	/* jit_global() keeps only ranges whose start is aligned to size */
	LLVMValueRef ok = jit_in_window(e, LLVMBuildSub(B, addr, lo, ""), len,
					size);
	LLVMValueRef fast = LLVMBuildIntToPtr(B, addr, e->p8, "");
	LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(e->cx, e->fn, "gslow");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->cx, e->fn, "gok");
	LLVMBuildCondBr(B, ok, join, slow);
	LLVMPositionBuilderAtEnd(B, slow);
	LLVMTypeRef at[7] = { e->p8, e->i32, e->i64, e->i32, e->i32, e->i32,
			      e->i32 };
	LLVMTypeRef fnty = LLVMFunctionType(e->p8, at, 7, false);
	LLVMValueRef av[7] = { e->cta, e->tid, addr,
			       LLVMConstInt(e->i32, size, 0),
			       LLVMConstInt(e->i32, write, 0),
			       LLVMConstInt(e->i32, e->in->line, 0),
			       LLVMConstInt(e->i32, site, 0) };
	LLVMValueRef p = jit_call_c(e, fnty, JIT_SYM_GLOBAL, av, 7);
	LLVMBuildStore(B, LLVMBuildLoad2(B, e->i64, lo_mem, ""), lo_slot);
	LLVMBuildStore(B, LLVMBuildLoad2(B, e->i64, len_mem, ""), len_slot);
	LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(B);
	LLVMBuildCondBr(B, LLVMBuildIsNull(B, p, ""), e->fault_bb, join);
	LLVMPositionBuilderAtEnd(B, join);
	LLVMValueRef phi = LLVMBuildPhi(B, e->p8, "");
	LLVMValueRef vals[2] = { fast, p };
	LLVMBasicBlockRef from[2] = { here, slow_end };
	LLVMAddIncoming(phi, vals, from, 2);
	return phi;
}

/* Host address of a shared access: offsets are 32 bits. */
LLVMValueRef jit_shared_ptr(struct emit *e, LLVMValueRef addr, unsigned size)
{
	LLVMValueRef off = LLVMBuildZExt(B, LLVMBuildTrunc(B, addr, e->i32, ""),
					 e->i64, "");
	LLVMValueRef ok = jit_in_window(e, off, e->shared_size, size);
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(e->cx, e->fn, "sbad");
	LLVMBasicBlockRef good = LLVMAppendBasicBlockInContext(e->cx, e->fn, "sok");
	LLVMBuildCondBr(B, ok, good, bad);
	LLVMPositionBuilderAtEnd(B, bad);
	LLVMTypeRef at[5] = { e->p8, e->i32, e->i64, e->i32, e->i32 };
	LLVMTypeRef fnty = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), at, 5,
					    false);
	LLVMValueRef av[5] = { e->cta, e->tid, addr,
			       LLVMConstInt(e->i32, size, 0),
			       LLVMConstInt(e->i32, e->in->line, 0) };
	jit_call_c(e, fnty, JIT_SYM_SHARED_FAULT, av, 5);
	LLVMBuildBr(B, e->fault_bb);
	LLVMPositionBuilderAtEnd(B, good);
	return LLVMBuildGEP2(B, e->i8, e->shared, &off, 1, "");
}

bool jit_mem_kind(struct emit *e, unsigned space, enum jit_mem_kind *k)
{
	switch (space) {
	case SPACE_NONE:
	case SPACE_GLOBAL:
	case SPACE_CONST:
		*k = MK_GLOBAL;
		return true;
	case SPACE_SHARED:
		*k = MK_SHARED;
		return true;
	case SPACE_PARAM:
		if (!e->f->is_entry)
			break;
		*k = MK_PARAM;
		return true;
	default:
		break;
	}
	return jit_unsupported(e, "state space");
}

/* A kernel parameter at a constant offset: no check at run time. */
LLVMValueRef jit_param_ptr(struct emit *e, const struct ir_operand *o,
			   unsigned size)
{
	const struct ir_sym *s = o->sym ? o->sym->def : NULL;
	uint64_t off;
	if (o->addr_base != ADDR_SYM || !s || !is_kernel_param(s) ||
	    !layout_offset(e->k, s, &off))
		return jit_unsupported(e, "parameter address"), NULL;
	off += (uint64_t)o->offset;
	if (off + size > e->k->info.param_size || off % size)
		return jit_unsupported(e, "parameter offset"), NULL;
	LLVMValueRef idx = c64(e, off);
	return LLVMBuildGEP2(B, e->i8, e->params, &idx, 1, "");
}

static bool is_param_load(const struct ir_insn *in)
{
	return in->op != OP_ST && in->space == SPACE_PARAM;
}

/* The address operand as a 64-bit value (global or shared). */
LLVMValueRef jit_addr_value(struct emit *e, const struct ir_operand *o,
			    enum jit_mem_kind k)
{
	uint64_t base = 0;
	const struct ir_sym *s = o->sym ? o->sym->def : NULL;
	if (o->kind != OPND_ADDR)
		return jit_unsupported(e, "address"), NULL;
	if (o->addr_base == ADDR_REG) {
		struct ir_operand r = { .kind = OPND_REG, .reg = o->reg };
		LLVMValueRef v = jit_get(e, &r, PTX_T_U64);
		return v ? LLVMBuildAdd(B, v, jit_cint(e->i64,
						       (uint64_t)o->offset),
					"") :
			   NULL;
	}
	if (o->addr_base == ADDR_SYM) {
		bool shared = s && s->space == SPACE_SHARED;
		bool global = s && (s->space == SPACE_GLOBAL ||
				    s->space == SPACE_CONST);
		if (!s || (k == MK_SHARED) != shared || (!shared && !global))
			return jit_unsupported(e, "symbol address"), NULL;
		if (global) {
			LLVMValueRef v = jit_variable_address(e, s);
			if (!v)
				return jit_unsupported(e, "symbol address"),
				       NULL;
			return LLVMBuildAdd(B, jit_splat(e, v),
					    jit_cint(e->i64,
						     (uint64_t)o->offset), "");
		}
		if (!layout_offset(e->k, s, &base))
			return jit_unsupported(e, "symbol address"), NULL;
	}
	return jit_cint(e->i64, base + (uint64_t)o->offset);
}

static LLVMValueRef mem_ptr(struct emit *e, const struct ir_insn *in,
			    const struct ir_operand *o, unsigned size,
			    bool write)
{
	enum jit_mem_kind k = MK_GLOBAL;
	if (!jit_mem_kind(e, in->space, &k))
		return NULL;
	if (k == MK_PARAM)
		return write ? (jit_unsupported(e, "st.param"), NULL) :
			       jit_param_ptr(e, o, size);
	LLVMValueRef addr = jit_addr_value(e, o, k);
	if (!addr)
		return NULL;
	if (k == MK_SHARED)
		return jit_shared_ptr(e, addr, size);
	struct jit_site site;
	jit_site_new(e, &site);
	return jit_global_ptr(e, addr, size, write, &site);
}

/* The data operands of ld/st: one, or a vector's elements. */
const struct ir_operand *jit_data_ops(struct emit *e,
				      const struct ir_operand *o, unsigned *n)
{
	if (o->kind == OPND_VEC) {
		*n = o->reg2;
		return ir_vec_elems(e->f, o);
	}
	*n = 1;
	return o;
}

static LLVMValueRef elem_ptr(struct emit *e, LLVMValueRef p, unsigned i,
			     unsigned size, LLVMTypeRef it)
{
	LLVMValueRef idx = c64(e, (uint64_t)i * size);
	return LLVMBuildBitCast(B, LLVMBuildGEP2(B, e->i8, p, &idx, 1, ""),
				LLVMPointerType(it, 0), "");
}

bool jit_mem_ordered(const struct ir_insn *in)
{
	return (in->flags >> FL_VOLATILE & 1) ||
	       (in->sem && in->sem != MOD_WEAK);
}

void jit_mem_fence(struct emit *e, const struct ir_insn *in, bool after)
{
	if (after && in->sem == MOD_ACQUIRE)
		LLVMBuildFence(B, LLVMAtomicOrderingAcquire, false, "");
	else if (!after && in->sem == MOD_RELEASE)
		LLVMBuildFence(B, LLVMAtomicOrderingRelease, false, "");
}

/* Whether a vector of @n elements of @size bytes is one access: 8 or 16
 * bytes, single-copy atomic on the GPU (whole_access.h says why). */
bool jit_whole_vector(unsigned size, unsigned n)
{
	return n > 1 && (size * n == 8 || size * n == 16);
}

/*
 * Such a vector as one load or store of <n x iN>, aligned to its size
 * (not an i128, which x86 splits into two 8-byte moves), its elements
 * put in or taken out by element.
 */
static bool whole_ld_st(struct emit *e, const struct ir_insn *in,
			const struct ir_operand *ops, LLVMValueRef p,
			unsigned size, unsigned n)
{
	bool st = in->op == OP_ST;
	/* a strong access stays one access: LLVM may not split a volatile */
	bool vol = jit_mem_ordered(in);
	unsigned t = in->types[0];
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, size * 8);
	LLVMTypeRef vt = LLVMVectorType(it, n);
	LLVMValueRef vp = LLVMBuildBitCast(B, p, LLVMPointerType(vt, 0), "");
	LLVMValueRef x;
	if (st) {
		LLVMValueRef v = LLVMGetUndef(vt);
		for (unsigned i = 0; i < n; i++) {
			LLVMValueRef el = jit_get(e, &ops[i], t);
			if (!el)
				return false;
			if (LLVMTypeOf(el) != it)
				el = LLVMBuildBitCast(B, el, it, "");
			v = LLVMBuildInsertElement(B, v, el, index32(e, i), "");
		}
		x = LLVMBuildStore(B, v, vp);
	} else {
		x = LLVMBuildLoad2(B, vt, vp, "");
	}
	LLVMSetAlignment(x, size * n);
	LLVMSetVolatile(x, vol);
	if (st)
		return true;
	if (is_param_load(in))	/* parameters never change */
		jit_invariant(e, x);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef el = LLVMBuildExtractElement(B, x, index32(e, i),
							  "");
		if (!jit_set_bits(e, &ops[i], el, ptx_type_is_signed(t)))
			return false;
	}
	return true;
}

static bool emit_ld_st(struct emit *e, const struct ir_insn *in)
{
	bool st = in->op == OP_ST;
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t), n;
	if (in->nopnds != 2 || !size || size > 8 || in->ntypes != 1)
		return jit_unsupported(e, "type or operands");
	const struct ir_operand *ops = jit_data_ops(e, &in->opnd[st ? 1 : 0], &n);
	if (n != in->vec || n > 4 || n == 3)
		return jit_unsupported(e, "vector");
	LLVMValueRef p = mem_ptr(e, in, &in->opnd[st ? 0 : 1], size * n, st);
	if (!p)
		return false;
	jit_mem_fence(e, in, false);
	if (jit_whole_vector(size, n)) {
		if (!whole_ld_st(e, in, ops, p, size, n))
			return false;
		jit_mem_fence(e, in, true);
		return true;
	}
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, size * 8);
	bool vol = jit_mem_ordered(in);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef ep = elem_ptr(e, p, i, size, it), v;
		if (st) {
			v = jit_get(e, &ops[i], t);
			if (!v)
				return false;
			if (LLVMTypeOf(v) != it)
				v = LLVMBuildBitCast(B, v, it, "");
			LLVMValueRef s = LLVMBuildStore(B, v, ep);
			LLVMSetAlignment(s, i ? size : size * n);
			LLVMSetVolatile(s, vol);
			continue;
		}
		v = LLVMBuildLoad2(B, it, ep, "");
		LLVMSetAlignment(v, i ? size : size * n);
		LLVMSetVolatile(v, vol);
		if (is_param_load(in))	/* parameters never change */
			jit_invariant(e, v);
		if (!jit_set_bits(e, &ops[i], v, ptx_type_is_signed(t)))
			return false;
	}
	jit_mem_fence(e, in, true);
	return true;
}

/* cvta: generic <-> global is the same address; shared adds its base.
 * The same code for the vector form (jit_emit_vmem.c). */
bool jit_emit_cvta(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_U64;
	if (in->nopnds != 2 || (t != PTX_T_U64 && t != PTX_T_B64))
		return jit_unsupported(e, "type");
	LLVMValueRef a = jit_get(e, &in->opnd[1], PTX_T_U64);
	if (!a)
		return false;
	bool to = in->flags >> FL_TO & 1;
	if (in->space == SPACE_GLOBAL)
		return jit_set(e, &in->opnd[0], a, PTX_T_U64);
	if (in->space != SPACE_SHARED)
		return jit_unsupported(e, "state space");
	LLVMValueRef base = jit_splat(e, LLVMBuildPtrToInt(B, e->shared,
							   e->scalar[4], ""));
	LLVMValueRef r = to ? LLVMBuildSub(B, a, base, "") :
			      LLVMBuildAdd(B, LLVMBuildZExt(
						   B, LLVMBuildTrunc(B, a, e->i32, ""),
						   e->i64, ""), base, "");
	return jit_set(e, &in->opnd[0], r, PTX_T_U64);
}

bool jit_emit_mem(struct emit *e, const struct ir_insn *in)
{
	if (in->op == OP_CVTA)
		return jit_emit_cvta(e, in);
	return emit_ld_st(e, in);
}

/* ---- atom, red ---- */

/* The kinds compiled code handles; F16 forms stay on the interpreter. */
bool jit_atom_kind(unsigned t, unsigned *kind)
{
	return rt_atom_kind(t, kind) && *kind <= RT_ATOM_FLOAT;
}

/* Integer operations LLVM has as atomicrmw; others call rt_atomic. */
static bool native_rmw(unsigned op, unsigned kind, LLVMAtomicRMWBinOp *r)
{
	bool s = kind == RT_ATOM_SINT;
	if (kind == RT_ATOM_FLOAT)
		return false;
	switch (op) {
	case MOD_ADD: *r = LLVMAtomicRMWBinOpAdd; return true;
	case MOD_AND: *r = LLVMAtomicRMWBinOpAnd; return true;
	case MOD_OR: *r = LLVMAtomicRMWBinOpOr; return true;
	case MOD_XOR: *r = LLVMAtomicRMWBinOpXor; return true;
	case MOD_EXCH: *r = LLVMAtomicRMWBinOpXchg; return true;
	case MOD_MIN: *r = s ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
		return true;
	case MOD_MAX: *r = s ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
		return true;
	default: return false;
	}
}

/* The value a shared-memory operation @op of @kind (an integer one)
 * leaves in place of @old: rt_atomic.c's apply(), inline. */
static LLVMValueRef plain_new_value(struct emit *e, unsigned op, unsigned kind,
				    LLVMValueRef old, LLVMValueRef b)
{
	bool s = kind == RT_ATOM_SINT;
	LLVMTypeRef t = LLVMTypeOf(old);
	LLVMValueRef one = LLVMConstInt(t, 1, false);
	LLVMValueRef zero = LLVMConstInt(t, 0, false), wrap;
	switch (op) {
	case MOD_ADD: return LLVMBuildAdd(B, old, b, "");
	case MOD_AND: return LLVMBuildAnd(B, old, b, "");
	case MOD_OR: return LLVMBuildOr(B, old, b, "");
	case MOD_XOR: return LLVMBuildXor(B, old, b, "");
	case MOD_EXCH: return b;
	case MOD_MIN:
		return LLVMBuildSelect(B, LLVMBuildICmp(B, s ? LLVMIntSLT :
							LLVMIntULT, old, b, ""),
				       old, b, "");
	case MOD_MAX:
		return LLVMBuildSelect(B, LLVMBuildICmp(B, s ? LLVMIntSGT :
							LLVMIntUGT, old, b, ""),
				       old, b, "");
	case MOD_INC:	/* old >= b ? 0 : old + 1 */
		wrap = LLVMBuildICmp(B, LLVMIntUGE, old, b, "");
		return LLVMBuildSelect(B, wrap, zero,
				       LLVMBuildAdd(B, old, one, ""), "");
	case MOD_DEC:	/* old == 0 || old > b ? b : old - 1 */
		wrap = LLVMBuildICmp(B, LLVMIntEQ, old, zero, "");
		wrap = LLVMBuildOr(
			B, wrap, LLVMBuildICmp(B, LLVMIntUGT, old, b, ""), "");
		return LLVMBuildSelect(B, wrap, b,
				       LLVMBuildSub(B, old, one, ""), "");
	default:
		return NULL;
	}
}

/*
 * An integer atomic on shared memory as a plain read-modify-write: a
 * CTA's threads all run on one worker thread, one after the other, and
 * its shared memory is that worker's alone, so nothing can come between
 * the read and the write (a locked instruction costs some 20 cycles,
 * which a shared-memory histogram pays per element). NULL for an
 * operation it has no inline form of.
 */
static LLVMValueRef plain_rmw(struct emit *e, const struct ir_insn *in,
			      unsigned kind, LLVMValueRef ip, LLVMValueRef b,
			      LLVMTypeRef it)
{
	unsigned align = LLVMGetIntTypeWidth(it) / 8;
	LLVMValueRef old = LLVMBuildLoad2(B, it, ip, "");
	LLVMSetAlignment(old, align);
	LLVMValueRef v = plain_new_value(e, in->mode, kind, old, b);
	if (!v) {
		LLVMInstructionEraseFromParent(old);
		return NULL;
	}
	LLVMSetAlignment(LLVMBuildStore(B, v, ip), align);
	return old;
}

LLVMValueRef jit_atomic_op(struct emit *e, const struct ir_insn *in,
			   LLVMValueRef p, LLVMValueRef b, LLVMValueRef c,
			   unsigned kind, LLVMTypeRef it)
{
	LLVMAtomicOrdering sc = LLVMAtomicOrderingSequentiallyConsistent;
	LLVMAtomicRMWBinOp op;
	LLVMValueRef ip = LLVMBuildBitCast(B, p, LLVMPointerType(it, 0), "");
	LLVMValueRef old = in->space == SPACE_SHARED && kind != RT_ATOM_FLOAT ?
		plain_rmw(e, in, kind, ip, b, it) : NULL;
	if (old)
		return old;
	if (in->mode == MOD_CAS) {
		LLVMValueRef x = LLVMBuildAtomicCmpXchg(B, ip, b, c, sc, sc,
							false);
		return LLVMBuildExtractValue(B, x, 0, "");
	}
	if (native_rmw(in->mode, kind, &op))
		return LLVMBuildAtomicRMW(B, op, ip, b, sc, false);
	LLVMTypeRef at[6] = { e->p8, e->i32, e->i32, e->i32, e->i64, e->i64 };
	LLVMTypeRef fnty = LLVMFunctionType(e->i64, at, 6, false);
	LLVMValueRef av[6] = { p,
			       LLVMConstInt(e->i32, LLVMGetIntTypeWidth(it) / 8,
					    0),
			       LLVMConstInt(e->i32, in->mode, 0),
			       LLVMConstInt(e->i32, kind, 0),
			       LLVMBuildZExt(B, b, e->i64, ""),
			       LLVMBuildZExt(B, c, e->i64, "") };
	if (it == e->i64) {
		av[4] = b;
		av[5] = c;
	}
	LLVMValueRef r = jit_call_c(e, fnty, JIT_SYM_ATOMIC, av, 6);
	return it == e->i64 ? r : LLVMBuildTrunc(B, r, it, "");
}

bool jit_atom_form(struct emit *e, const struct ir_insn *in,
		   struct jit_atom_form *f)
{
	f->red = in->op == OP_RED;
	f->type = in->ntypes ? in->types[0] : PTX_T_NONE;
	f->size = ptx_type_size(f->type);
	f->first = f->red ? 0 : 1;
	f->nsrc = in->mode == MOD_CAS ? 2 : 1;
	if (!in->mode || !jit_atom_kind(f->type, &f->kind) ||
	    (f->size != 4 && f->size != 8) || in->vec > 1 ||
	    in->nopnds != f->first + 1 + f->nsrc)
		return jit_unsupported(e, "operation or type");
	return true;
}

bool jit_emit_atom(struct emit *e, const struct ir_insn *in)
{
	struct jit_atom_form f;
	if (!jit_atom_form(e, in, &f))
		return false;
	LLVMTypeRef it = LLVMIntTypeInContext(e->cx, f.size * 8);
	LLVMValueRef p = mem_ptr(e, in, &in->opnd[f.first], f.size, true);
	LLVMValueRef b = p ? jit_get(e, &in->opnd[f.first + 1], f.type) : NULL;
	LLVMValueRef c = f.nsrc > 1 && b ?
		jit_get(e, &in->opnd[f.first + 2], f.type) : b;
	if (!c)
		return false;
	if (LLVMTypeOf(b) != it) {	/* float operands: their bits */
		b = LLVMBuildBitCast(B, b, it, "");
		c = LLVMBuildBitCast(B, c, it, "");
	}
	LLVMValueRef old = jit_atomic_op(e, in, p, b, c, f.kind, it);
	return f.red || jit_set_bits(e, &in->opnd[0], old, false);
}
