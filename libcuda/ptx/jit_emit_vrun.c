// SPDX-License-Identifier: MIT
/*
 * Runs of strided loads or stores in the JIT's vector form, done as one
 * access.
 *
 * scan's `in[4 * tid + k]` and `out[4 * tid + k]` for k = 0..3 are four
 * ld or st.global off one base register, 4 bytes apart, each strided by
 * 16 bytes across the lanes. Alone, each is an access to the group's
 * span of 16 bytes a lane (jit_emit_vstride.c) with its own check: a load reads
 * the span and picks one int in four, a store is a masked store that
 * writes one int in four (eight partial stores a group, each a
 * store-buffer entry waiting for its line). Together the k accesses
 * cover every byte of the span, so the run is one plain load or store
 * of the lanes' elements interleaved.
 *
 * A run is k = stride / size accesses (2 or 4) in one block, of one
 * kind and type, off one base register whose shape is strided by
 * k * size in all 64 bits, at offsets o, o + size, .., o + (k - 1) *
 * size, with nothing between them but arithmetic that cannot trap
 * (jit_vmask_pure) and does not write the base. Moving an access over
 * such arithmetic cannot be seen: nothing between reads memory or can
 * fault.
 *  - Stores, in the order of their offsets, are held back to the last
 *    one: nothing between writes a data register of a store before it,
 *    so the registers still hold what each would have stored.
 *  - Loads, in any order, are all done at the first one: nothing
 *    between names a later load's destination (reads the value it had
 *    or writes one the load replaces), and the destinations are
 *    distinct and not the base.
 *
 * The run checks the whole span once (jit_vmem_ends_ok) against its
 * first access's site. Where that fails, the accesses in their order:
 * the first lane by lane (which learns the site's range, or faults in
 * its first bad lane), the others through their own paths. The bytes
 * are the same either way; no two elements overlap, so the order among
 * them cannot be seen.
 */
#include "ir_live.h"
#include "jit_vmem.h"

#include <stdlib.h>
#include <string.h>

#define B (e->b)

struct run {
	uint32_t at[4];			/* the accesses, in order */
	unsigned k;
	int64_t stride;
};

/* The operand holding an access's address. */
static unsigned addr_opnd(const struct ir_insn *in)
{
	return in->op == OP_ST ? 0 : 1;
}

/* An access that may join a run: ld or st.global of one element off a
 * base register, plain (not volatile, not ordered), not guarded; a
 * store's data a register or a constant, a load's a register. */
static bool candidate(const struct ir_insn *in)
{
	unsigned t = in->ntypes == 1 ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t);
	bool st = in->op == OP_ST;
	const struct ir_operand *a = &in->opnd[addr_opnd(in)];
	const struct ir_operand *d = &in->opnd[st ? 1 : 0];
	return (st || in->op == OP_LD) && !in->guarded &&
	       in->space == SPACE_GLOBAL && in->nopnds == 2 && in->vec <= 1 &&
	       size && size <= 8 && !jit_mem_ordered(in) &&
	       a->kind == OPND_ADDR && a->addr_base == ADDR_REG &&
	       ((d->kind == OPND_REG && !d->comp) ||
		(st && d->kind == OPND_IMM));
}

/* Same kind of access, off the same base register, of the same type. */
static bool alike(const struct ir_insn *a, const struct ir_insn *b)
{
	return candidate(b) && a->op == b->op &&
	       a->opnd[addr_opnd(a)].reg == b->opnd[addr_opnd(b)].reg &&
	       a->types[0] == b->types[0];
}

static bool has(const uint64_t *set, uint32_t r)
{
	return set[r / 64] >> (r % 64) & 1;
}

/* @defs (an instruction's) leaves the run's stores so far their base
 * and data registers. */
static bool kept(const struct ir_func *f, const struct run *r, unsigned got,
		 const uint64_t *defs)
{
	for (unsigned j = 0; j < got; j++) {
		const struct ir_insn *s = &f->insns[r->at[j]];
		if (has(defs, s->opnd[0].reg) ||
		    (s->opnd[1].kind == OPND_REG && has(defs, s->opnd[1].reg)))
			return false;
	}
	return true;
}

/* The k stores after the candidate @first (itself included) at the
 * offsets that complete its span; how many it found. */
static unsigned collect_stores(struct emit *e, uint32_t first, struct run *r,
			uint64_t *defs)
{
	const struct ir_func *f = e->f;
	const struct ir_insn *s = &f->insns[first];
	const struct ir_block *blk = &f->blocks[s->block];
	int64_t size = (int64_t)ptx_type_size(s->types[0]);
	unsigned got = 0;
	for (uint32_t i = first; i < blk->first + blk->count && got < r->k;
	     i++) {
		const struct ir_insn *in = &f->insns[i];
		if (alike(s, in) &&
		    in->opnd[0].offset == s->opnd[0].offset + size * got) {
			r->at[got++] = i;
			continue;
		}
		if (!jit_vmask_pure(in))
			break;
		memset(defs, 0, ((f->nregs + 63) / 64 + 1) * 8);
		jit_live_add_defs(f, in, defs);
		if (!kept(f, r, got, defs))
			break;
	}
	return got;
}

/* Any register @in names, read or written. */
static void add_named(const struct ir_func *f, const struct ir_insn *in,
		      uint64_t *set)
{
	for (unsigned j = 0; j < in->nopnds; j++)
		ir_live_operand_regs(f, &in->opnd[j], set);
	jit_live_add_defs(f, in, set);
}

/* The loads after the candidate @first (itself included) that complete
 * its span, in any order of offsets. They are all done at @first: an
 * instruction between may neither name a later load's destination nor
 * write the base, and the destinations are distinct and not the base. */
static unsigned collect_loads(struct emit *e, uint32_t first, struct run *r,
			      uint64_t *named, uint64_t *defs)
{
	const struct ir_func *f = e->f;
	const struct ir_insn *s = &f->insns[first];
	const struct ir_block *blk = &f->blocks[s->block];
	size_t words = (f->nregs + 63) / 64 + 1;
	uint32_t base = s->opnd[1].reg;
	unsigned got = 0;
	for (uint32_t i = first; i < blk->first + blk->count && got < r->k;
	     i++) {
		const struct ir_insn *in = &f->insns[i];
		if (alike(s, in)) {
			uint32_t d = in->opnd[0].reg;
			if (d == base || has(named, d))
				break;
			add_named(f, in, named);
			r->at[got++] = i;
			continue;
		}
		if (!jit_vmask_pure(in))
			break;
		memset(defs, 0, words * 8);
		jit_live_add_defs(f, in, defs);
		if (has(defs, base))
			break;
		add_named(f, in, named);
	}
	return got;
}

/* The run's offsets are o, o + size, .., each once. */
static bool covers(const struct ir_func *f, const struct run *r)
{
	const struct ir_insn *s = &f->insns[r->at[0]];
	int64_t size = (int64_t)ptx_type_size(s->types[0]);
	int64_t lo = INT64_MAX;
	unsigned seen = 0;
	for (unsigned j = 0; j < r->k; j++) {
		int64_t o = f->insns[r->at[j]].opnd[addr_opnd(s)].offset;
		lo = o < lo ? o : lo;
	}
	for (unsigned j = 0; j < r->k; j++) {
		int64_t d = f->insns[r->at[j]].opnd[addr_opnd(s)].offset - lo;
		if (d % size || d / size >= r->k || seen >> (d / size) & 1)
			return false;
		seen |= 1u << (d / size);
	}
	return true;
}

/* The run the candidate at @first begins, if it makes one. */
static bool run_from(struct emit *e, uint32_t first, struct run *r)
{
	const struct ir_insn *s = &e->f->insns[first];
	int64_t size = (int64_t)ptx_type_size(s->types[0]);
	struct ir_shape sh = jit_vec_address_shape(e, s, addr_opnd(s));
	if (sh.kind != SHAPE_STRIDED || !sh.exact || sh.stride <= 0 ||
	    sh.stride % size || (sh.stride / size != 2 &&
				 sh.stride / size != 4))
		return false;
	*r = (struct run){ .k = (unsigned)(sh.stride / size),
			   .stride = sh.stride };
	size_t words = (e->f->nregs + 63) / 64 + 1;
	uint64_t *defs = calloc(words, 8), *named = calloc(words, 8);
	bool ok = defs && named;
	if (ok && s->op == OP_ST)
		ok = collect_stores(e, first, r, defs) == r->k;
	else if (ok)
		ok = collect_loads(e, first, r, named, defs) == r->k &&
		     covers(e->f, r);
	free(defs);
	free(named);
	return ok;
}

/* Every instruction's run (jit_emit.h's vruns: where the run is
 * emitted, its first load or its last store), blocks scanned from their
 * start, a run taking its accesses out of any later one. */
static bool plan(struct emit *e)
{
	const struct ir_func *f = e->f;
	e->vruns = malloc((f->ninsns + 1) * sizeof(*e->vruns));
	if (!e->vruns)
		return false;
	for (uint32_t i = 0; i < f->ninsns; i++)
		e->vruns[i] = UINT32_MAX;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		struct run r;
		if (e->vruns[i] != UINT32_MAX || !candidate(&f->insns[i]) ||
		    !run_from(e, i, &r))
			continue;
		uint32_t at = r.at[f->insns[i].op == OP_ST ? r.k - 1 : 0];
		for (unsigned j = 0; j < r.k; j++)
			e->vruns[r.at[j]] = at;
	}
	return true;
}

void jit_vrun_free(struct emit *e)
{
	free(e->vruns);
	e->vruns = NULL;
}

/* The run emitted at @at, found again: its first access. */
static bool run_at(struct emit *e, uint32_t at, struct run *r)
{
	for (uint32_t i = 0; i <= at; i++)
		if (e->vruns[i] == at)
			return run_from(e, i, r);
	return false;
}

/* The run's accesses after the first, each through its own paths. */
static bool one_by_one(struct emit *e, const struct run *r)
{
	const struct ir_insn *was = e->in;
	bool ok = true;
	e->in_run = true;
	for (unsigned j = 1; ok && j < r->k; j++) {
		e->in = &e->f->insns[r->at[j]];
		ok = jit_vec_mem(e, e->in);
	}
	e->in_run = false;
	e->in = was;
	return ok;
}

/*
 * The slow path of a run, at block @slow: the first access lane by lane
 * (its check failed; this learns its site's range or faults in its first
 * bad lane), then in @rest the others through their own paths; both
 * paths meet at @join, where the builder is left.
 */
static bool emit_slow_path(struct emit *e, const struct run *r,
			   struct vaccess *first, LLVMBasicBlockRef slow,
			   LLVMBasicBlockRef rest, LLVMBasicBlockRef join)
{
	LLVMPositionBuilderAtEnd(B, slow);
	first->lane0 = LLVMBuildExtractElement(B, first->off, s32(e, 0), "");
	first->join = rest;
	if (!jit_vmem_per_lane(e, first, s32(e, (1u << e->width) - 1)))
		return false;
	LLVMPositionBuilderAtEnd(B, rest);
	if (!one_by_one(e, r))
		return false;
	LLVMBuildBr(B, join);
	LLVMPositionBuilderAtEnd(B, join);
	return true;
}

/* Fast: the span in one store; slow: the stores one by one, the first
 * lane by lane (which learns the range of the site the check reads). */
static bool emit_run(struct emit *e, const struct run *r)
{
	const struct ir_func *f = e->f;
	struct vaccess v[4];
	for (unsigned j = 0; j < r->k; j++)
		if (!jit_vmem_read(e, &f->insns[r->at[j]], &v[j]))
			return false;
	LLVMBasicBlockRef fast = jit_new_block(e, "vrun");
	LLVMBasicBlockRef slow = jit_new_block(e, "vrunslow");
	LLVMBasicBlockRef rest = jit_new_block(e, "vrunrest");
	LLVMBasicBlockRef join = jit_new_block(e, "vrunjoin");
	v[0].lane0 = LLVMBuildExtractElement(B, v[0].off, s32(e, 0), "");
	v[0].join = rest;
	int64_t last = r->stride * e->width - (int64_t)v[0].size;
	LLVMBuildCondBr(B, jit_vmem_ends_ok(e, &v[0], last), fast, slow);
	LLVMPositionBuilderAtEnd(B, fast);
	struct vaccess all = v[0];
	all.n = r->k;
	for (unsigned j = 0; j < r->k; j++)
		all.data[j] = v[j].data[0];
	LLVMTypeRef vt = LLVMVectorType(all.it, e->width * r->k);
	LLVMValueRef p = LLVMBuildBitCast(B, jit_vmem_lane0_ptr(e, &v[0]),
					  LLVMPointerType(vt, 0), "");
	LLVMSetAlignment(LLVMBuildStore(B, jit_vmem_interleave(e, &all), p),
			 all.size);
	LLVMBuildBr(B, join);
	if (!emit_slow_path(e, r, &v[0], slow, rest, join))
		return false;
	e->stats.store_runs++;
	return true;
}

/* Fast: the span in one load, the lanes' elements picked out for each
 * destination; slow: the loads one by one. The check is the first
 * load's site's (the slow path, lane by lane there, learns its range),
 * on the span from its lowest offset. */
static bool emit_load_run(struct emit *e, const struct run *r)
{
	const struct ir_func *f = e->f;
	struct vaccess v[4];
	unsigned lo = 0;
	for (unsigned j = 0; j < r->k; j++) {
		if (!jit_vmem_read(e, &f->insns[r->at[j]], &v[j]))
			return false;
		if (v[j].in->opnd[1].offset < v[lo].in->opnd[1].offset)
			lo = j;
	}
	LLVMBasicBlockRef fast = jit_new_block(e, "vlrun");
	LLVMBasicBlockRef slow = jit_new_block(e, "vlrunslow");
	LLVMBasicBlockRef rest = jit_new_block(e, "vlrunrest");
	LLVMBasicBlockRef join = jit_new_block(e, "vlrunjoin");
	struct vaccess span = v[0];
	span.lane0 = LLVMBuildExtractElement(B, v[lo].off, s32(e, 0), "");
	int64_t last = r->stride * e->width - (int64_t)span.size;
	LLVMBuildCondBr(B, jit_vmem_ends_ok(e, &span, last), fast, slow);
	LLVMPositionBuilderAtEnd(B, fast);
	LLVMTypeRef vt = LLVMVectorType(span.it, e->width * r->k);
	LLVMValueRef p = LLVMBuildBitCast(B, jit_vmem_lane0_ptr(e, &span),
					  LLVMPointerType(vt, 0), "");
	LLVMValueRef x = LLVMBuildLoad2(B, vt, p, "");
	LLVMSetAlignment(x, span.size);
	bool sign = ptx_type_is_signed(span.in->types[0]);
	for (unsigned j = 0; j < r->k; j++) {
		int64_t el = (v[j].in->opnd[1].offset -
			      v[lo].in->opnd[1].offset) / (int64_t)span.size;
		LLVMValueRef idx[JIT_LANES_MAX];
		for (unsigned i = 0; i < e->width; i++)
			idx[i] = s32(e, i * r->k + (unsigned)el);
		LLVMValueRef y = LLVMBuildShuffleVector(
			B, x, LLVMGetUndef(vt), LLVMConstVector(idx, e->width),
			"");
		if (!jit_set_bits(e, &v[j].ops[0], y, sign))
			return false;
	}
	LLVMBuildBr(B, join);
	if (!emit_slow_path(e, r, &v[0], slow, rest, join))
		return false;
	e->stats.load_runs++;
	return true;
}

int jit_vrun(struct emit *e, const struct ir_insn *in)
{
	if (e->in_run || e->mask || !candidate(in))
		return -1;
	if (!e->vruns && !plan(e))
		return jit_unsupported(e, "out of memory");
	uint32_t at = (uint32_t)(in - e->f->insns);
	uint32_t here = e->vruns[at];
	if (here == UINT32_MAX)
		return -1;
	if (here != at)		/* done where the run is emitted */
		return 1;
	struct run r;
	if (!run_at(e, here, &r))
		return -1;
	return in->op == OP_ST ? emit_run(e, &r) : emit_load_run(e, &r);
}
