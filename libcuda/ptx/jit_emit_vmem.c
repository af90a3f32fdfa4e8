// SPDX-License-Identifier: MIT
/*
 * Memory in the JIT's vector form (jit_emit_vec.c): ld, st, cvta, atom
 * and red for a group of lanes, each with its own address. At run time
 * an access is
 *  - contiguous (lane i at lane 0's address + i * size): one check of
 *    the first and the last lane's element, one vector load or store;
 *  - uniform, for loads (every lane at one address): one scalar load,
 *    its value in every lane;
 *  - else lane by lane, in lane order, through the scalar code's checks
 *    (jit_emit_mem.c), so a fault names the thread the scalar code
 *    would. Atomics always go lane by lane.
 * A failed inline check of a contiguous access also goes lane by lane,
 * which updates the site's cached range or faults.
 *
 * Where the address's shape is known at compile time (ir_shape.c:
 * uniform, or strided by a constant), the path is chosen then, with no
 * comparison of the lanes' addresses at run time (static_paths); a
 * uniform store checks once and writes the last lane's data, and a
 * .v2/.v4 access strided by its whole size is one vector access too,
 * its elements dealt out to (or gathered from) the registers by
 * shuffles.
 */
#include "jit_vmem.h"

#define B (e->b)

static LLVMValueRef all_of(struct emit *e, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	return jit_intrinsic(e, "llvm.vector.reduce.and", &t, 1, &v, 1);
}

/* The host pointer of lane @lane (scalar i32 thread @tid) at @a;
 * unchecked where the stretch's proof covers the access. */
static LLVMValueRef lane_ptr(struct emit *e, struct vaccess *v,
			     LLVMValueRef a, LLVMValueRef tid, bool write)
{
	if (v->kind == MK_SHARED && jit_vproof_covers(e, v->in)) {
		LLVMValueRef off = LLVMBuildAnd(
			B, a, LLVMConstInt(e->scalar[4], 0xffffffffu, false),
			"");
		return LLVMBuildGEP2(B, e->scalar[1], e->shared, &off, 1, "");
	}
	LLVMValueRef save = e->tid;
	e->tid = tid;
	jit_lanes(e, 0);
	LLVMValueRef p = v->kind == MK_SHARED ?
				 jit_shared_ptr(e, a, v->size * v->n) :
				 jit_global_ptr(e, a, v->size * v->n, write,
						&v->site);
	jit_lanes(e, e->width);
	e->tid = save;
	return p;
}

static LLVMValueRef elem_ptr(struct emit *e, LLVMValueRef p, unsigned i,
			     unsigned size, LLVMTypeRef t)
{
	LLVMValueRef idx = s64(e, (uint64_t)i * size);
	return LLVMBuildBitCast(B, LLVMBuildGEP2(B, e->scalar[1], p, &idx, 1,
						 ""),
				LLVMPointerType(t, 0), "");
}

/* Writes scalar @x (iN) into lane @lane of register operand @o. */
static bool set_lane(struct emit *e, const struct ir_operand *o,
		     LLVMValueRef x, LLVMValueRef lane, bool sign)
{
	if (o->kind == OPND_SINK)
		return true;
	if (o->kind != OPND_REG || o->comp ||
	    e->f->regs[o->reg].type == PTX_T_PRED)
		return jit_unsupported(e, "destination");
	LLVMTypeRef i64 = e->scalar[4];
	if (jit_int_bits(LLVMTypeOf(x)) < 64)
		x = sign ? LLVMBuildSExt(B, x, i64, "") :
			   LLVMBuildZExt(B, x, i64, "");
	LLVMValueRef cur = LLVMBuildLoad2(B, e->i64, e->regs[o->reg], "");
	LLVMBuildStore(B, LLVMBuildInsertElement(B, cur, x, lane, ""),
		       e->regs[o->reg]);
	return true;
}

/* The buffers jit_lanes_access() reads and fills, in the entry block. */
static void lane_buffers(struct emit *e)
{
	if (e->lane_addr)
		return;
	LLVMBuilderRef eb = LLVMCreateBuilderInContext(e->cx);
	LLVMPositionBuilderBefore(eb, LLVMGetBasicBlockTerminator(e->entry_bb));
	e->lane_addr = LLVMBuildAlloca(eb, e->i64, "");
	e->lane_vals = LLVMBuildAlloca(eb, LLVMArrayType(e->scalar[4],
							 4 * e->width), "");
	LLVMDisposeBuilder(eb);
}

/* Element @k of the value buffer, as <W x i64>. */
static LLVMValueRef vals_at(struct emit *e, unsigned k)
{
	LLVMValueRef idx[2] = { s64(e, 0), s64(e, (uint64_t)k * e->width) };
	LLVMValueRef p = LLVMBuildGEP2(B, LLVMArrayType(e->scalar[4],
							4 * e->width),
				       e->lane_vals, idx, 2, "");
	return LLVMBuildBitCast(B, p, LLVMPointerType(e->i64, 0), "");
}

/* Lane by lane, in lane order, out of line (jit_lanes_access): the
 * rare path, kept small. */
static bool per_lane(struct emit *e, struct vaccess *v)
{
	return jit_vmem_per_lane(e, v, s32(e, (1u << e->width) - 1));
}

bool jit_vmem_per_lane(struct emit *e, struct vaccess *v,
		       LLVMValueRef active)
{
	lane_buffers(e);
	LLVMTypeRef i32 = e->scalar[3], i64 = e->scalar[4];
	LLVMSetAlignment(LLVMBuildStore(B, v->addr, e->lane_addr), 8);
	for (unsigned k = 0; v->st && k < v->n; k++)
		LLVMSetAlignment(LLVMBuildStore(B, LLVMBuildZExt(B, v->data[k],
								 e->i64, ""),
						vals_at(e, k)), 8);
	LLVMTypeRef at[11] = { e->p8, i32, i32, i32, LLVMPointerType(i64, 0),
			       LLVMPointerType(i64, 0), i32, i32, i32, i32,
			       i32 };
	uint32_t flags = (v->st ? JIT_LANES_WRITE : 0) |
			 (v->kind == MK_SHARED ? JIT_LANES_SHARED : 0);
	LLVMValueRef av[11] = {
		e->cta, e->gtid, s32(e, e->width), active,
		LLVMBuildBitCast(B, e->lane_addr, LLVMPointerType(i64, 0), ""),
		LLVMBuildBitCast(B, e->lane_vals, LLVMPointerType(i64, 0), ""),
		s32(e, v->size), s32(e, v->n), s32(e, flags),
		s32(e, v->in->line),
		s32(e, v->kind == MK_SHARED ? 0 : v->site.index) };
	LLVMValueRef r = jit_call_c(e, LLVMFunctionType(i32, at, 11, false),
				    JIT_SYM_LANES, av, 11);
	if (v->kind == MK_GLOBAL) {	/* the range it may have learnt */
		LLVMBuildStore(B, LLVMBuildLoad2(B, i64, v->site.lo_mem, ""),
			       v->site.lo_slot);
		LLVMBuildStore(B, LLVMBuildLoad2(B, i64, v->site.len_mem, ""),
			       v->site.len_slot);
	}
	LLVMBasicBlockRef ok = jit_new_block(e, "vlanesok");
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, r, s32(e, 0), ""),
			e->fault_bb, ok);
	LLVMPositionBuilderAtEnd(B, ok);
	LLVMTypeRef vt = LLVMVectorType(v->it, e->width);
	for (unsigned k = 0; !v->st && k < v->n; k++) {
		LLVMValueRef x = LLVMBuildLoad2(B, e->i64, vals_at(e, k), "");
		LLVMSetAlignment(x, 8);
		if (!jit_set_bits(e, &v->ops[k], LLVMBuildTrunc(B, x, vt, ""),
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	LLVMBuildBr(B, v->join);
	return true;
}

/* A vector of 8 or 16 bytes at @p as one access (jit_whole_vector):
 * <n x iN>, aligned to its size. */
static LLVMValueRef whole_access(struct emit *e, struct vaccess *v,
				 LLVMValueRef p, LLVMValueRef x)
{
	LLVMTypeRef vt = LLVMVectorType(v->it, v->n);
	p = LLVMBuildBitCast(B, p, LLVMPointerType(vt, 0), "");
	LLVMValueRef r = x ? LLVMBuildStore(B, x, p) :
			     LLVMBuildLoad2(B, vt, p, "");
	LLVMSetAlignment(r, v->size * v->n);
	LLVMSetVolatile(r, v->vol || (v->in->sem && v->in->sem != MOD_WEAK));
	return r;
}

/* Every lane loads one whole vector (jit_whole_vector), once. */
static bool uniform_whole_load(struct emit *e, struct vaccess *v,
			       LLVMValueRef p)
{
	LLVMValueRef x = whole_access(e, v, p, NULL);
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef el = LLVMBuildExtractElement(B, x, s32(e, k), "");
		if (!jit_set_bits(e, &v->ops[k], jit_splat(e, el),
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	LLVMBuildBr(B, v->join);
	return true;
}

/* Every lane at one address: one scalar load, its value in each lane. */
static bool uniform_load(struct emit *e, struct vaccess *v)
{
	LLVMValueRef a = LLVMBuildExtractElement(B, v->addr, s32(e, 0), "");
	LLVMValueRef p = lane_ptr(e, v, a, e->gtid, false);
	if (jit_whole_vector(v->size, v->n))
		return uniform_whole_load(e, v, p);
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef x = LLVMBuildLoad2(B, v->it,
						elem_ptr(e, p, k, v->size, v->it),
						"");
		LLVMSetAlignment(x, k ? v->size : v->size * v->n);
		LLVMSetVolatile(x, v->vol);
		if (!jit_set_bits(e, &v->ops[k], jit_splat(e, x),
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	LLVMBuildBr(B, v->join);
	return true;
}

/*
 * The inline check of a group's two ends, lane 0's element and the one
 * @last bytes from it (a multiple of a lane's bytes, either sign): the
 * lower end aligned and within the window less the span's bytes (none
 * left if the span is longer). One check, where checking both ends took
 * two; a failing one takes the lane-by-lane path, which finds any fault
 * exactly.
 */
LLVMValueRef jit_vmem_ends_ok(struct emit *e, struct vaccess *v,
			      int64_t last)
{
	LLVMValueRef lo = s64(e, 0), len = e->shared_size;
	if (v->kind == MK_SHARED && jit_vproof_covers(e, v->in))
		return LLVMConstInt(e->scalar[0], 1, false);
	if (v->kind == MK_GLOBAL) {
		lo = LLVMBuildLoad2(B, e->scalar[4], v->site.lo_slot, "");
		len = LLVMBuildLoad2(B, e->scalar[4], v->site.len_slot, "");
	}
	unsigned unit = v->size * v->n;	/* a lane's bytes */
	uint64_t span = last < 0 ? -(uint64_t)last : (uint64_t)last;
	jit_lanes(e, 0);
	LLVMValueRef low = LLVMBuildSub(B, v->lane0, lo, "");
	if (last < 0)
		low = LLVMBuildSub(B, low, s64(e, span), "");
	LLVMValueRef args[2] = { len, s64(e, span) };
	LLVMValueRef rest = jit_intrinsic(e, "llvm.usub.sat", &e->scalar[4],
					  1, args, 2);
	LLVMValueRef ok = jit_in_window(e, low, rest, unit);
	jit_lanes(e, e->width);
	return ok;
}

/* The inline check of the first and the last lane's element. */
static LLVMValueRef contiguous_ok(struct emit *e, struct vaccess *v)
{
	return jit_vmem_ends_ok(e, v,
				(int64_t)(e->width - 1) * v->size * v->n);
}

LLVMValueRef jit_vmem_lane0_ptr(struct emit *e, struct vaccess *v)
{
	if (v->kind == MK_SHARED)
		return LLVMBuildGEP2(B, e->scalar[1], e->shared, &v->lane0, 1,
				     "");
	return LLVMBuildIntToPtr(B, v->lane0, e->p8, "");
}

/* Lane-major order of n <W x iN> vectors: element lane * n + k of the
 * result is lane "lane" of vector k, i.e. element k * W + lane of the
 * vectors laid end to end (@deal: the inverse, for loads). */
static LLVMValueRef interleave_mask(struct emit *e, unsigned n, bool deal,
				    unsigned k)
{
	LLVMValueRef el[4 * JIT_LANES_MAX];
	unsigned count = deal ? e->width : n * e->width;
	for (unsigned j = 0; j < count; j++)
		el[j] = s32(e, deal ? j * n + k :
				      (j % n) * e->width + j / n);
	return LLVMConstVector(el, count);
}

LLVMValueRef jit_vmem_interleave(struct emit *e, struct vaccess *v)
{
	if (v->n == 1)
		return v->data[0];
	LLVMValueRef a = v->data[0], b = v->data[1];
	if (v->n == 4) {	/* ends joined first: <2W> each */
		LLVMValueRef el[2 * JIT_LANES_MAX];
		for (unsigned j = 0; j < 2 * e->width; j++)
			el[j] = s32(e, j);
		LLVMValueRef ends = LLVMConstVector(el, 2 * e->width);
		a = LLVMBuildShuffleVector(B, v->data[0], v->data[1], ends, "");
		b = LLVMBuildShuffleVector(B, v->data[2], v->data[3], ends, "");
	}
	return LLVMBuildShuffleVector(B, a, b,
				      interleave_mask(e, v->n, false, 0), "");
}

/* One vector load or store of the lanes' n elements each, side by side
 * (lane-major); @slow when the check does not pass. */
static bool contiguous(struct emit *e, struct vaccess *v,
		       LLVMBasicBlockRef slow)
{
	LLVMBasicBlockRef go = jit_new_block(e, "vcontig");
	LLVMBuildCondBr(B, contiguous_ok(e, v), go, slow);
	LLVMPositionBuilderAtEnd(B, go);
	LLVMValueRef p = jit_vmem_lane0_ptr(e, v);
	LLVMTypeRef vt = LLVMVectorType(v->it, e->width * v->n);
	p = LLVMBuildBitCast(B, p, LLVMPointerType(vt, 0), "");
	LLVMValueRef x = v->st ? LLVMBuildStore(B, jit_vmem_interleave(e, v), p) :
				 LLVMBuildLoad2(B, vt, p, "");
	LLVMSetAlignment(x, v->size);
	LLVMSetVolatile(x, v->vol);
	for (unsigned k = 0; !v->st && k < v->n; k++) {
		LLVMValueRef el = v->n == 1 ? x :
			LLVMBuildShuffleVector(B, x, LLVMGetUndef(vt),
					       interleave_mask(e, v->n, true, k),
					       "");
		if (!jit_set_bits(e, &v->ops[k], el,
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	LLVMBuildBr(B, v->join);
	return true;
}

/* off == lane0 + i * @step in every lane i */
static LLVMValueRef strided(struct emit *e, struct vaccess *v, uint64_t step)
{
	LLVMValueRef el[JIT_LANES_MAX];
	for (unsigned i = 0; i < e->width; i++)
		el[i] = s64(e, i * step);
	LLVMValueRef want = LLVMBuildAdd(B, jit_splat(e, v->lane0),
					 LLVMConstVector(el, e->width), "");
	return all_of(e, LLVMBuildICmp(B, LLVMIntEQ, v->off, want, ""));
}

/* Every lane stores at one address: one check, then the lanes' data
 * in lane order (the last lane's stays; a volatile store writes each). */
static bool uniform_store(struct emit *e, struct vaccess *v)
{
	LLVMValueRef a = LLVMBuildExtractElement(B, v->addr, s32(e, 0), "");
	LLVMValueRef p = lane_ptr(e, v, a, e->gtid, true);
	bool whole = jit_whole_vector(v->size, v->n);
	for (unsigned l = v->vol ? 0 : e->width - 1; l < e->width; l++) {
		LLVMValueRef x = LLVMGetUndef(LLVMVectorType(v->it, v->n));
		for (unsigned k = 0; whole && k < v->n; k++)
			x = LLVMBuildInsertElement(
				B, x, LLVMBuildExtractElement(B, v->data[k],
							      s32(e, l), ""),
				s32(e, k), "");
		if (whole)
			whole_access(e, v, p, x);
		for (unsigned k = 0; !whole && k < v->n; k++) {
			LLVMValueRef x = LLVMBuildExtractElement(
				B, v->data[k], s32(e, l), "");
			LLVMValueRef st = LLVMBuildStore(
				B, x, elem_ptr(e, p, k, v->size, v->it));
			LLVMSetAlignment(st, k ? v->size : v->size * v->n);
			LLVMSetVolatile(st, v->vol);
		}
	}
	LLVMBuildBr(B, v->join);
	return true;
}

/* A strong (volatile, relaxed, acquire or release) vector of 8 or 16
 * bytes: each lane's must be one access, which the wide loads, shuffles
 * and gathers of the other paths are not. */
static bool strong_whole(const struct vaccess *v)
{
	return jit_whole_vector(v->size, v->n) &&
	       (v->vol || (v->in->sem && v->in->sem != MOD_WEAK));
}

/*
 * The paths the address's shape (ir_shape.h) decides at compile time:
 * uniform, one scalar access; strided by the element size, the
 * contiguous access (lane by lane where its check fails); by another
 * multiple of a lane's bytes, the strided one (jit_emit_vstride.c);
 * any other stride, lane by lane. A strided global address must be strided in
 * all 64 bits; a shared one is a 32-bit offset, checked in full.
 */
static int static_paths(struct emit *e, struct vaccess *v)
{
	struct ir_shape sh = jit_vec_address_shape(e, v->in, v->st ? 0 : 1);
	bool lin = sh.kind == SHAPE_STRIDED &&
		   (sh.exact || v->kind == MK_SHARED);
	if (sh.kind != SHAPE_UNIFORM && !lin)
		return -1;
	v->join = jit_new_block(e, "vjoin");
	v->lane0 = LLVMBuildExtractElement(B, v->off, s32(e, 0), "");
	if (sh.kind == SHAPE_UNIFORM) {
		e->stats.uniform++;
		if (!(v->st ? uniform_store(e, v) : uniform_load(e, v)))
			return 0;
		LLVMPositionBuilderAtEnd(B, v->join);
		return 1;
	}
	LLVMBasicBlockRef lanes = jit_new_block(e, "vlanes");
	bool ok;
	if (strong_whole(v)) {	/* one access per lane, out of line */
		e->stats.lanes_only++;
		LLVMBuildBr(B, lanes);
		ok = true;
	} else if (sh.stride == (int64_t)(v->size * v->n)) {
		e->stats.contiguous++;
		ok = contiguous(e, v, lanes);
	} else if (jit_vstride_fits(v, sh.stride)) {
		ok = jit_vstride_emit(e, v, sh.stride, lanes);
	} else {
		e->stats.lanes_only++;
		LLVMBuildBr(B, lanes);
		ok = true;
	}
	LLVMPositionBuilderAtEnd(B, lanes);
	if (!ok || !per_lane(e, v))
		return 0;
	LLVMPositionBuilderAtEnd(B, v->join);
	return 1;
}

/* The paths, chosen by the lanes' addresses at run time. */
static bool access_paths(struct emit *e, struct vaccess *v)
{
	int known = static_paths(e, v);
	if (known >= 0)
		return known;
	e->stats.by_shape++;
	LLVMBasicBlockRef lanes = jit_new_block(e, "vlanes");
	v->join = jit_new_block(e, "vjoin");
	v->lane0 = LLVMBuildExtractElement(B, v->off, s32(e, 0), "");
	if (!v->st) {
		LLVMBasicBlockRef uni = jit_new_block(e, "vuni");
		LLVMBasicBlockRef other = jit_new_block(e, "vother");
		LLVMBuildCondBr(B, strided(e, v, 0), uni, other);
		LLVMPositionBuilderAtEnd(B, uni);
		if (!uniform_load(e, v))
			return false;
		LLVMPositionBuilderAtEnd(B, other);
	}
	if (v->n == 1) {
		LLVMBasicBlockRef con = jit_new_block(e, "vcon");
		LLVMBuildCondBr(B, strided(e, v, v->size), con, lanes);
		LLVMPositionBuilderAtEnd(B, con);
		if (!contiguous(e, v, lanes))
			return false;
	} else {
		LLVMBuildBr(B, lanes);
	}
	LLVMPositionBuilderAtEnd(B, lanes);
	if (!per_lane(e, v))
		return false;
	LLVMPositionBuilderAtEnd(B, v->join);
	return true;
}

/* ld.param: one scalar load for the group. */
static bool param_load(struct emit *e, struct vaccess *v,
		       const struct ir_operand *ao)
{
	jit_lanes(e, 0);
	LLVMValueRef p = jit_param_ptr(e, ao, v->size * v->n);
	jit_lanes(e, e->width);
	if (!p)
		return false;
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef x = LLVMBuildLoad2(B, v->it,
						elem_ptr(e, p, k, v->size, v->it),
						"");
		LLVMSetAlignment(x, k ? v->size : v->size * v->n);
		jit_invariant(e, x);
		if (!jit_set_bits(e, &v->ops[k], jit_splat(e, x),
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	return true;
}

/* Store data, <W x iN> per element, read before any path. */
static bool read_data(struct emit *e, struct vaccess *v)
{
	unsigned t = v->in->types[0];
	LLVMTypeRef vt = LLVMVectorType(v->it, e->width);
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef x = jit_get(e, &v->ops[k], t);
		if (!x)
			return false;
		if (LLVMTypeOf(x) != vt)
			x = LLVMBuildBitCast(B, x, vt, "");
		v->data[k] = x;
	}
	return true;
}

bool jit_vmem_read(struct emit *e, const struct ir_insn *in,
		   struct vaccess *v)
{
	*v = (struct vaccess){ .in = in, .st = in->op == OP_ST };
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	v->size = ptx_type_size(t);
	if (in->nopnds != 2 || !v->size || v->size > 8 || in->ntypes != 1)
		return jit_unsupported(e, "type or operands");
	v->ops = jit_data_ops(e, &in->opnd[v->st ? 1 : 0], &v->n);
	if (v->n != in->vec || v->n > 4 || v->n == 3)
		return jit_unsupported(e, "vector");
	v->it = LLVMIntTypeInContext(e->cx, v->size * 8);
	v->vol = jit_mem_ordered(in);
	if (!jit_mem_kind(e, in->space, &v->kind))
		return false;
	if (v->kind == MK_PARAM)
		return v->st ? jit_unsupported(e, "st.param") : true;
	v->addr = jit_addr_value(e, &in->opnd[v->st ? 0 : 1], v->kind);
	if (!v->addr || (v->st && !read_data(e, v)))
		return false;
	v->off = v->addr;
	if (v->kind == MK_SHARED)
		v->off = LLVMBuildZExt(B, LLVMBuildTrunc(B, v->addr, e->i32,
							 ""),
				       e->i64, "");
	else
		jit_site_new(e, &v->site);
	return true;
}

static bool vec_ld_st(struct emit *e, const struct ir_insn *in)
{
	struct vaccess v;
	if (!jit_vmem_read(e, in, &v))
		return false;
	if (v.kind == MK_PARAM)
		return param_load(e, &v, &in->opnd[1]);
	if (v.kind == MK_GLOBAL && !v.st && !v.vol)
		jit_vec_prefetch(e, in, LLVMBuildExtractElement(B, v.off,
								s32(e, 0), ""));
	jit_mem_fence(e, in, false);
	if (!access_paths(e, &v))
		return false;
	jit_mem_fence(e, in, true);
	return true;
}

bool jit_vec_mem(struct emit *e, const struct ir_insn *in)
{
	if (in->op == OP_CVTA)
		return jit_emit_cvta(e, in);
	int run = jit_vrun(e, in);
	if (run >= 0)
		return run;
	return vec_ld_st(e, in);
}

/* atom, red: lane by lane, in lane order (shared memory: all lanes
 * checked at once first, jit_emit_vatom.c). */
bool jit_vec_atom(struct emit *e, const struct ir_insn *in)
{
	struct jit_atom_form f;
	if (!jit_atom_form(e, in, &f))
		return false;
	struct vaccess v = { .in = in, .size = f.size, .n = 1, .st = true };
	v.it = LLVMIntTypeInContext(e->cx, f.size * 8);
	LLVMTypeRef vt = LLVMVectorType(v.it, e->width);
	if (!jit_mem_kind(e, in->space, &v.kind) || v.kind == MK_PARAM)
		return v.kind == MK_PARAM ? jit_unsupported(e, "state space") :
					    false;
	v.addr = jit_addr_value(e, &in->opnd[f.first], v.kind);
	LLVMValueRef b = v.addr ? jit_get(e, &in->opnd[f.first + 1], f.type) :
				  NULL;
	LLVMValueRef c = f.nsrc > 1 && b ?
		jit_get(e, &in->opnd[f.first + 2], f.type) : b;
	if (!c)
		return false;
	if (LLVMTypeOf(b) != vt) {
		b = LLVMBuildBitCast(B, b, vt, "");
		c = LLVMBuildBitCast(B, c, vt, "");
	}
	LLVMBasicBlockRef checked = NULL;
	if (v.kind == MK_GLOBAL)
		jit_site_new(e, &v.site);
	else if (!jit_vec_shared_atom(e, in, &f, v.addr, b, c, &checked))
		return false;
	LLVMBasicBlockRef from = LLVMGetInsertBlock(B);
	LLVMBasicBlockRef loop = jit_new_block(e, "vatom");
	v.join = checked ? checked : jit_new_block(e, "vatomed");
	LLVMBuildBr(B, loop);
	LLVMPositionBuilderAtEnd(B, loop);
	LLVMValueRef i = LLVMBuildPhi(B, e->scalar[3], "");
	LLVMValueRef tid = LLVMBuildAdd(B, e->gtid, i, "");
	LLVMValueRef p = lane_ptr(e, &v, LLVMBuildExtractElement(B, v.addr, i,
								  ""),
				  tid, true);
	LLVMValueRef bl = LLVMBuildExtractElement(B, b, i, "");
	LLVMValueRef cl = LLVMBuildExtractElement(B, c, i, "");
	jit_lanes(e, 0);
	LLVMValueRef old = jit_atomic_op(e, in, p, bl, cl, f.kind, v.it);
	jit_lanes(e, e->width);
	if (!f.red && !set_lane(e, &in->opnd[0], old, i, false))
		return false;
	LLVMValueRef next = LLVMBuildAdd(B, i, s32(e, 1), "");
	LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
	/* left to LLVM to unroll: lanes then index vectors by constants */
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, next,
					 s32(e, e->width), ""),
			loop, v.join);
	LLVMValueRef zero = s32(e, 0);
	LLVMAddIncoming(i, &zero, &from, 1);
	LLVMAddIncoming(i, &next, &end, 1);
	LLVMPositionBuilderAtEnd(B, v.join);
	return true;
}
