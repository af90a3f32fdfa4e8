// SPDX-License-Identifier: MIT
/*
 * Shared-memory bounds checks proven once for a stretch of the JIT's
 * vector form (jit_emit_vec.c). A stretch is a run of one IR block's
 * instructions up to a barrier or the block's end. Its test goes after
 * the last write of a register that a later shared access takes as
 * its base (else at the stretch's start); a shared ld/st after it
 * whose address is a register not written since, plus a constant,
 * reads the value the test sees. Where that register's shape
 * (ir_shape.c) is uniform or strided, one test of lane 0's value
 * covers every lane of every such access: the lowest and the highest
 * byte any of them touches within shared memory, and the alignment of
 * the widest. So the vector form emits the stretch from the test on
 * twice: where the test holds, those accesses go unchecked (a tiled
 * SGEMM's k loop: 32 shared loads, 32 checks, became one test); where
 * it does not, the stretch as before, whose checks find the exact
 * fault. Other instructions are the same in both copies. A guarded
 * access counts as if it ran: its test may fail for nothing, which
 * costs only the checked copy.
 *
 * Shared offsets are 32-bit: lane i's offset is (lane 0's + i * stride
 * + c) mod 2^32. The test computes in 64 bits from lane 0's low 32 bits;
 * every lane's offset it admits lies in [0, shared size), where that
 * sum did not wrap, so it is the offset the access uses.
 */
#include "jit_emit.h"

#include <stdlib.h>
#include <string.h>

#define B (e->b)

/* A stretch is worth two copies from this many proven accesses on. */
#define PROOF_MIN_ACCESSES 4

/* Strides beyond this are left checked: W * stride stays far from
 * overflow. */
#define PROOF_STRIDE_MAX ((int64_t)1 << 24)

/* One base register of the stretch's proven accesses. */
struct proof_base {
	uint32_t reg;
	int64_t stride;		/* bytes from lane to lane (0: uniform) */
	int64_t lo, hi;		/* offsets from it: first byte, past last */
	unsigned align;		/* the widest access's bytes */
};

struct jit_vproof {
	uint32_t first, end;	/* instructions [first, end) */
	uint8_t *covered;	/* per instruction of the stretch */
	struct proof_base *base;
	uint32_t nbase;
};

static bool is_barrier(const struct ir_insn *in)
{
	return in->op == OP_BAR || in->op == OP_BARRIER;
}

uint32_t jit_vproof_stretch_end(const struct ir_func *f, uint32_t first,
				uint32_t block_end)
{
	uint32_t i = first;
	while (i < block_end && !is_barrier(&f->insns[i]))
		i++;
	return i;
}

/* @in is a shared ld/st whose address is a register plus a constant:
 * its register, offset and bytes per lane. */
static bool shared_access(struct emit *e, const struct ir_insn *in,
			  const struct ir_operand **addr, unsigned *unit)
{
	enum jit_mem_kind k;
	if ((in->op != OP_LD && in->op != OP_ST) || in->ntypes != 1 ||
	    in->nopnds != 2 || in->space != SPACE_SHARED ||
	    !jit_mem_kind(e, in->space, &k) || k != MK_SHARED)
		return false;
	unsigned size = ptx_type_size(in->types[0]);
	unsigned n = in->vec ? in->vec : 1;
	const struct ir_operand *a = &in->opnd[in->op == OP_ST ? 0 : 1];
	if (!size || size > 8 || (n != 1 && n != 2 && n != 4) ||
	    a->kind != OPND_ADDR || a->addr_base != ADDR_REG)
		return false;
	*addr = a;
	*unit = size * n;
	return a->offset % (int64_t)*unit == 0 &&
	       a->offset > -PROOF_STRIDE_MAX && a->offset < PROOF_STRIDE_MAX;
}

static bool has_bit(const uint64_t *set, uint32_t r)
{
	return set[r / 64] >> (r % 64) & 1;
}

/*
 * Where the test goes: after the last write, in [first, end), of a
 * register that a later shared access of the stretch takes as its base
 * (a tile's row and column computed after the barrier), so that those
 * accesses read the value the test sees. @set and @defs: scratch sets
 * of @words words, zero.
 */
static uint32_t test_point(struct emit *e, uint32_t first, uint32_t end,
			   uint64_t *set, uint64_t *defs, uint32_t words)
{
	for (uint32_t i = end; i-- > first;) {
		const struct ir_insn *in = &e->f->insns[i];
		const struct ir_operand *a;
		unsigned unit;
		memset(defs, 0, words * 8);
		jit_live_add_defs(e->f, in, defs);
		for (uint32_t w = 0; w < words; w++)
			if (defs[w] & set[w])
				return i + 1;
		if (shared_access(e, in, &a, &unit) && a->reg < e->f->nregs)
			set[a->reg / 64] |= 1ull << (a->reg % 64);
	}
	return first;
}

static struct proof_base *base_of(struct jit_vproof *p, uint32_t reg)
{
	for (uint32_t b = 0; b < p->nbase; b++)
		if (p->base[b].reg == reg)
			return &p->base[b];
	return NULL;
}

/* Counts @in's access under its base register's proof; false when its
 * register's shape or its alignment leaves it checked. */
static bool add_access(struct emit *e, struct jit_vproof *p,
		       const struct ir_operand *a, unsigned unit)
{
	struct ir_shape sh = e->shapes->reg[a->reg];
	int64_t stride = sh.kind == SHAPE_STRIDED ? sh.stride : 0;
	if ((sh.kind != SHAPE_UNIFORM && sh.kind != SHAPE_STRIDED) ||
	    stride % (int64_t)unit || stride >= PROOF_STRIDE_MAX ||
	    stride <= -PROOF_STRIDE_MAX)
		return false;
	struct proof_base *b = base_of(p, a->reg);
	if (b && b->stride % (int64_t)unit)
		return false;
	if (!b) {
		b = &p->base[p->nbase++];
		*b = (struct proof_base){ .reg = a->reg, .stride = stride,
					  .lo = a->offset,
					  .hi = a->offset + unit };
	}
	if (a->offset < b->lo)
		b->lo = a->offset;
	if (a->offset + (int64_t)unit > b->hi)
		b->hi = a->offset + unit;
	if (unit > b->align)
		b->align = unit;
	return true;
}

void jit_vproof_free(struct jit_vproof *p)
{
	if (!p)
		return;
	free(p->covered);
	free(p->base);
	free(p);
}

/* The accesses of [p->first, p->end) the test can stand for. */
static unsigned cover(struct emit *e, struct jit_vproof *p, uint64_t *wr)
{
	unsigned count = 0;
	for (uint32_t i = p->first; i < p->end; i++) {
		const struct ir_insn *in = &e->f->insns[i];
		const struct ir_operand *a;
		unsigned unit;
		/* a base written since the test is not the value it saw */
		if (shared_access(e, in, &a, &unit) &&
		    a->reg < e->shapes->nregs && !e->lazy_nan[a->reg] &&
		    !has_bit(wr, a->reg) && add_access(e, p, a, unit)) {
			p->covered[i - p->first] = 1;
			count++;
		}
		jit_live_add_defs(e->f, in, wr);
	}
	return count;
}

struct jit_vproof *jit_vproof_plan(struct emit *e, uint32_t first,
				   uint32_t end)
{
	if (!e->shapes || end <= first)
		return NULL;
	uint32_t words = (e->f->nregs + 63) / 64 + 1;
	struct jit_vproof *p = calloc(1, sizeof(*p));
	uint64_t *wr = calloc(words, 8), *defs = calloc(words, 8);
	if (p) {
		p->covered = calloc(end - first, 1);
		p->base = calloc(end - first, sizeof(*p->base));
	}
	bool ok = p && wr && defs && p->covered && p->base;
	if (ok) {
		p->first = test_point(e, first, end, wr, defs, words);
		p->end = end;
		memset(wr, 0, words * 8);
		ok = cover(e, p, wr) >= PROOF_MIN_ACCESSES;
	}
	free(wr);
	free(defs);
	if (!ok) {
		jit_vproof_free(p);
		return NULL;
	}
	return p;
}

uint32_t jit_vproof_first(const struct jit_vproof *p)
{
	return p->first;
}

/* Every lane of @b's accesses within shared memory, and aligned. */
static LLVMValueRef base_ok(struct emit *e, const struct proof_base *b)
{
	LLVMTypeRef i64 = e->scalar[4];
	LLVMValueRef r = LLVMBuildLoad2(B, e->i64, e->regs[b->reg], "");
	LLVMValueRef a0 = LLVMBuildAnd(
		B, LLVMBuildExtractElement(B, r, s32(e, 0), ""),
		LLVMConstInt(i64, 0xffffffffu, false), "");
	int64_t last = b->stride * (e->width - 1);
	int64_t lo = b->lo + (last < 0 ? last : 0);
	int64_t hi = b->hi + (last > 0 ? last : 0);
	LLVMValueRef low = LLVMBuildAdd(B, a0, LLVMConstInt(i64, (uint64_t)lo,
							    true), "");
	LLVMValueRef high = LLVMBuildAdd(B, a0, LLVMConstInt(i64, (uint64_t)hi,
							     true), "");
	LLVMValueRef ok = LLVMBuildAnd(
		B, LLVMBuildICmp(B, LLVMIntSGE, low, LLVMConstInt(i64, 0, false),
				 ""),
		LLVMBuildICmp(B, LLVMIntSLE, high, e->shared_size, ""), "");
	LLVMValueRef mis = LLVMBuildAnd(B, a0, LLVMConstInt(i64, b->align - 1,
							    false), "");
	return LLVMBuildAnd(B, ok, LLVMBuildICmp(B, LLVMIntEQ, mis,
						 LLVMConstInt(i64, 0, false),
						 ""), "");
}

LLVMValueRef jit_vproof_test(struct emit *e, const struct jit_vproof *p)
{
	LLVMValueRef ok = LLVMConstInt(e->scalar[0], 1, false);
	for (uint32_t b = 0; b < p->nbase; b++)
		ok = LLVMBuildAnd(B, ok, base_ok(e, &p->base[b]), "");
	return ok;
}

bool jit_vproof_covers(const struct emit *e, const struct ir_insn *in)
{
	const struct jit_vproof *p = e->proof;
	uint32_t at = (uint32_t)(in - e->f->insns);
	return p && at >= p->first && at < p->end && p->covered[at - p->first];
}
