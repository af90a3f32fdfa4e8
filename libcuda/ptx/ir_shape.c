// SPDX-License-Identifier: MIT
/*
 * Register shapes across a group's lanes (see ir_shape.h).
 *
 * A fixpoint over the instructions: every register starts undefined,
 * each write joins its result's shape into the register's, until no
 * shape changes; then the blocks under branches whose guard is not
 * uniform are marked divergent, which may make more writes varying,
 * and the whole repeats. Shapes only rise (undef < uniform, strided <
 * varying), so it ends.
 *
 * Strided values need care with narrow types: a 32-bit add of lane
 * values that crosses 2^31 or 2^32 between lanes is no longer lane 0 +
 * i * stride once extended to 64 bits. A 32-bit result is "exact" only
 * where no lane can cross: a positive power-of-two stride 2^k and a
 * lane 0 that is a multiple of 2^(k+log2 W) (tracked as trailing zero
 * bits, tz), so all W lanes lie in one aligned block. Otherwise it is
 * strided in its low 32 bits only, which a shared-memory offset needs,
 * but a widening or 64-bit operation does not accept.
 *
 * A register some use may read before any write holds its initial
 * zero there; its shape joins that uniform zero.
 */
#include "ir_shape.h"

#include <stdlib.h>
#include <string.h>

struct shape_run {
	const struct ir_func *f;
	struct ir_shapes *s;
	unsigned lane_bits;	/* log2 of the group's lanes */
	bool lockstep;		/* no lane runs a write that others skip */
	bool changed;
	/* ir_shapes_compute_regions(): registers whose shapes are fixed
	 * (NULL: none), blocks whose writes are not in lockstep */
	const uint64_t *fixed;
	const bool *masked;
};

static const struct ir_shape varying = { .kind = SHAPE_VARYING };

static struct ir_shape uniform(unsigned tz)
{
	return (struct ir_shape){ .kind = SHAPE_UNIFORM, .tz = (uint8_t)tz };
}

static unsigned ctz64(uint64_t v)
{
	return v ? (unsigned)__builtin_ctzll(v) : 64;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static struct ir_shape join(struct ir_shape a, struct ir_shape b)
{
	if (a.kind == SHAPE_UNDEF)
		return b;
	if (b.kind == SHAPE_UNDEF)
		return a;
	if (a.kind == SHAPE_UNIFORM && b.kind == SHAPE_UNIFORM)
		return uniform(min_u(a.tz, b.tz));
	if (a.kind == SHAPE_STRIDED && b.kind == SHAPE_STRIDED &&
	    a.stride == b.stride) {
		a.exact = a.exact && b.exact;
		a.tz = (uint8_t)min_u(a.tz, b.tz);
		return a;
	}
	return varying;
}

/*
 * A strided result of an operation @bits wide: uniform when the stride
 * vanishes, varying when it does not fit; a narrow result is exact only
 * where no lane can wrap (the file's comment).
 */
static struct ir_shape strided(struct shape_run *r, int64_t stride,
			       unsigned tz, bool exact, unsigned bits)
{
	if (bits < 64) {
		if (stride <= -((int64_t)1 << 31) || stride >= (int64_t)1 << 31)
			return varying;
		tz = min_u(tz, bits);
		if (exact && stride > 0 && !(stride & (stride - 1))) {
			unsigned k = ctz64((uint64_t)stride) + r->lane_bits;
			exact = k < bits && tz >= k;
		} else {
			exact = false;
		}
	}
	if (!stride)
		return exact ? uniform(tz) : varying;
	return (struct ir_shape){ .kind = SHAPE_STRIDED, .exact = exact,
				  .tz = (uint8_t)tz, .stride = stride };
}

static struct ir_shape sreg_shape(struct shape_run *r,
				  const struct ir_operand *o)
{
	switch (o->reg) {
	case SREG_TID:
		/* lanes run along x, within one row */
		return o->comp ? uniform(0) : strided(r, 1, r->lane_bits,
							true, 64);
	case SREG_NTID:
		return uniform(o->comp ? 0 : r->lane_bits);
	case SREG_LANEID:	/* a group lies within one warp */
		return strided(r, 1, r->lane_bits, true, 64);
	case SREG_CTAID:
	case SREG_NCTAID:
	case SREG_NWARPID:
	case SREG_NSMID:
	case SREG_GRIDID:
	case SREG_TOTAL_SMEM:
	case SREG_AGGR_SMEM:
	case SREG_DYNAMIC_SMEM:
		return uniform(0);
	default:
		return varying;
	}
}

/* Operand @o as a value: registers, immediates, symbols, sregs. */
struct ir_shape ir_shape_operand(const struct ir_shapes *s,
				 const struct ir_operand *o)
{
	switch (o->kind) {
	case OPND_REG:
		if (o->comp || o->reg >= s->nregs)
			return varying;
		return s->reg[o->reg];
	case OPND_IMM:
		return uniform(o->imm_kind == IMM_INT ? ctz64(o->imm) : 0);
	case OPND_SYM:
		return uniform(0);
	case OPND_ADDR: {
		if (o->addr_base != ADDR_REG)
			return uniform(0);
		if (o->reg >= s->nregs)
			return varying;
		struct ir_shape b = s->reg[o->reg];
		unsigned tz = ctz64((uint64_t)o->offset);
		if (b.kind == SHAPE_UNIFORM || b.kind == SHAPE_STRIDED)
			b.tz = (uint8_t)min_u(b.tz, tz);
		return b;
	}
	default:
		return varying;
	}
}

static struct ir_shape operand(struct shape_run *r, const struct ir_operand *o)
{
	if (o->kind == OPND_SREG)
		return sreg_shape(r, o);
	return ir_shape_operand(r->s, o);
}

static bool is_undef(struct ir_shape a)
{
	return a.kind == SHAPE_UNDEF;
}

/* The stride of a uniform or strided value (0 for uniform). */
static int64_t step_of(struct ir_shape a)
{
	return a.kind == SHAPE_STRIDED ? a.stride : 0;
}

/* An input of a @bits-wide operation: narrow operations take any
 * strided value (they see its low bits), 64-bit ones exact ones only. */
static bool usable(struct ir_shape a, unsigned bits)
{
	return a.kind == SHAPE_UNIFORM ||
	       (a.kind == SHAPE_STRIDED && (a.exact || bits <= 32));
}

static bool exact_of(struct ir_shape a)
{
	return a.kind == SHAPE_UNIFORM || a.exact;
}

/* a + sign * b, @bits wide */
static struct ir_shape add_shapes(struct shape_run *r, struct ir_shape a,
				  struct ir_shape b, int sign, unsigned bits)
{
	if (is_undef(a) || is_undef(b))
		return (struct ir_shape){ 0 };
	if (!usable(a, bits) || !usable(b, bits))
		return varying;
	if (a.kind == SHAPE_UNIFORM && b.kind == SHAPE_UNIFORM)
		return uniform(min_u(min_u(a.tz, b.tz), bits));
	int64_t st;
	if (sign > 0 ? __builtin_add_overflow(step_of(a), step_of(b), &st) :
		       __builtin_sub_overflow(step_of(a), step_of(b), &st))
		return varying;
	return strided(r, st, min_u(a.tz, b.tz), exact_of(a) && exact_of(b),
		       bits);
}

/* a * k for a constant k (an immediate), @bits wide */
static struct ir_shape scale(struct shape_run *r, struct ir_shape a,
			     const struct ir_operand *k, unsigned bits)
{
	if (is_undef(a))
		return a;
	if (a.kind == SHAPE_UNIFORM)
		return uniform(k->kind == OPND_IMM && k->imm_kind == IMM_INT ?
			       min_u(a.tz + ctz64(k->imm), bits) : a.tz);
	if (!usable(a, bits) || k->kind != OPND_IMM || k->imm_kind != IMM_INT)
		return varying;
	int64_t kv = (int64_t)k->imm, st;
	if (bits <= 32)
		kv = (int32_t)kv;
	if (__builtin_mul_overflow(a.stride, kv, &st))
		return varying;
	return strided(r, st, min_u(a.tz + ctz64((uint64_t)kv), 64),
		       a.exact, bits);
}

/* a * b, one of them uniform: strided only by an immediate */
static struct ir_shape product(struct shape_run *r, const struct ir_insn *in,
			       unsigned bits)
{
	const struct ir_operand *oa = &in->opnd[1], *ob = &in->opnd[2];
	struct ir_shape a = operand(r, oa), b = operand(r, ob);
	if (is_undef(a) || is_undef(b))
		return (struct ir_shape){ 0 };
	if (a.kind == SHAPE_UNIFORM && b.kind == SHAPE_UNIFORM)
		return uniform(min_u(a.tz + b.tz, bits));
	if (b.kind == SHAPE_UNIFORM)
		return scale(r, a, ob, bits);
	if (a.kind == SHAPE_UNIFORM)
		return scale(r, b, oa, bits);
	return varying;
}

/* Operand @o, read as a 32-bit value to be widened: a strided value
 * kept in a wider register may wrap in its low 32 bits. */
static bool wide_register(struct shape_run *r, const struct ir_operand *o)
{
	return o->kind == OPND_REG && o->reg < r->f->nregs &&
	       ptx_type_size(r->f->regs[o->reg].type) > 4 &&
	       operand(r, o).kind == SHAPE_STRIDED;
}

/* mul.wide / mad.wide: a 32-bit product in 64 bits needs exact inputs */
static struct ir_shape widen(struct ir_shape a)
{
	if (a.kind == SHAPE_STRIDED && !a.exact)
		return varying;
	return a;
}

static unsigned type_bits(unsigned t)
{
	return ptx_type_size(t) * 8;
}

static bool plain_int(const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	return !ptx_type_is_float(t) && type_bits(t) >= 32 &&
	       !(in->flags >> FL_SAT & 1) && !(in->flags >> FL_CC & 1);
}

static struct ir_shape mul_shape(struct shape_run *r, const struct ir_insn *in)
{
	unsigned bits = type_bits(in->types[0]);
	if (in->mode == MOD_WIDE) {
		const struct ir_operand *k1 = &in->opnd[1], *k2 = &in->opnd[2];
		/* a product of true values: a constant is a small positive */
		if (bits != 32 || (k1->kind == OPND_IMM && k1->imm > INT32_MAX) ||
		    (k2->kind == OPND_IMM && k2->imm > INT32_MAX) ||
		    wide_register(r, k1) || wide_register(r, k2))
			return varying;
		struct ir_shape p = product(r, in, 32);
		if (p.kind != SHAPE_STRIDED)
			return p.kind == SHAPE_UNIFORM ? uniform(p.tz) : p;
		/* exact 32-bit operands: the 64-bit product is exact too */
		struct ir_shape a = operand(r, &in->opnd[1]);
		struct ir_shape b = operand(r, &in->opnd[2]);
		if (!exact_of(a) || !exact_of(b))
			return varying;
		return strided(r, p.stride, p.tz, true, 64);
	}
	if (in->mode != MOD_LO)
		return varying;
	return product(r, in, bits);
}

static struct ir_shape mad_shape(struct shape_run *r, const struct ir_insn *in)
{
	struct ir_shape p = mul_shape(r, in);
	unsigned bits = type_bits(in->types[0]) * (in->mode == MOD_WIDE ? 2 : 1);
	return add_shapes(r, in->mode == MOD_WIDE ? widen(p) : p,
			  operand(r, &in->opnd[3]), 1, bits);
}

static struct ir_shape shl_shape(struct shape_run *r, const struct ir_insn *in)
{
	struct ir_shape a = operand(r, &in->opnd[1]);
	const struct ir_operand *k = &in->opnd[2];
	unsigned bits = type_bits(in->types[0]);
	if (is_undef(a))
		return a;
	if (k->kind != OPND_IMM || k->imm >= bits || bits < 32)
		return a.kind == SHAPE_UNIFORM &&
				       operand(r, k).kind == SHAPE_UNIFORM ?
			       uniform(0) : varying;
	struct ir_operand m = *k;
	m.imm = (uint64_t)1 << k->imm;
	return scale(r, a, &m, bits);
}

/* cvt between integers: widening keeps an exact stride */
static struct ir_shape cvt_shape(struct shape_run *r, const struct ir_insn *in)
{
	struct ir_shape a = operand(r, &in->opnd[1]);
	if (a.kind != SHAPE_STRIDED)
		return a;
	unsigned dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : dt;
	if (ptx_type_is_float(dt) || ptx_type_is_float(st) || in->rnd ||
	    (in->flags >> FL_SAT & 1) || !a.exact)
		return varying;
	if (type_bits(st) < 64 && wide_register(r, &in->opnd[1]))
		return varying;
	if (type_bits(st) == 32 && type_bits(dt) == 64)
		return a;
	return type_bits(st) == type_bits(dt) && type_bits(dt) >= 32 ? a :
								       varying;
}

static struct ir_shape cvta_shape(struct shape_run *r,
				  const struct ir_insn *in)
{
	struct ir_shape a = operand(r, &in->opnd[1]);
	bool to = in->flags >> FL_TO & 1;
	if (a.kind != SHAPE_STRIDED)
		return a.kind == SHAPE_UNIFORM ? uniform(0) : a;
	if (in->space == SPACE_GLOBAL || (in->space == SPACE_SHARED && to))
		return a.exact ? (struct ir_shape){ .kind = SHAPE_STRIDED,
						    .exact = true,
						    .stride = a.stride } :
				 varying;
	return varying;
}

/* Operations whose result depends on their inputs alone (no memory,
 * no lane, no state): uniform inputs give a uniform result. */
static bool pure_op(unsigned op)
{
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA:
	case OP_DIV: case OP_REM: case OP_MIN: case OP_MAX: case OP_ABS:
	case OP_NEG: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
	case OP_CNOT: case OP_SHL: case OP_SHR: case OP_SELP: case OP_SETP:
	case OP_SET: case OP_CVT: case OP_MOV: case OP_POPC: case OP_CLZ:
	case OP_BREV: case OP_BFE: case OP_BFI: case OP_SQRT: case OP_RCP:
	case OP_RSQRT: case OP_MUL24: case OP_MAD24: case OP_SAD:
	case OP_PRMT: case OP_LOP3: case OP_SHF: case OP_COPYSIGN:
	case OP_TESTP: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS:
	case OP_TANH: case OP_FNS: case OP_BFIND: case OP_SLCT:
		return true;
	default:
		return false;
	}
}

/* Every register, immediate or symbol @in reads (all but operand 0);
 * any other kind of operand counts as varying. */
static struct ir_shape inputs_join(struct shape_run *r,
				   const struct ir_insn *in)
{
	for (unsigned i = 1; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnd[i];
		struct ir_shape a;
		if (o->kind == OPND_VEC) {
			const struct ir_operand *el = ir_vec_elems(r->f, o);
			for (uint32_t k = 0; k < o->reg2; k++) {
				a = operand(r, &el[k]);
				if (is_undef(a))
					return a;
				if (a.kind != SHAPE_UNIFORM)
					return varying;
			}
			continue;
		}
		a = operand(r, o);
		if (o->kind == OPND_REG && o->pair)
			return varying;
		if (is_undef(a))
			return a;
		if (a.kind != SHAPE_UNIFORM)
			return varying;
	}
	return uniform(0);
}

/* A load whose address is the same in every lane reads one value (the
 * vector form loads it once for the group). */
static struct ir_shape load_shape(struct shape_run *r,
				  const struct ir_insn *in)
{
	if (in->nopnds != 2 || (in->flags >> FL_VOLATILE & 1) || in->sem)
		return varying;
	switch (in->space) {
	case SPACE_PARAM: case SPACE_CONST: case SPACE_GLOBAL:
	case SPACE_SHARED:
		break;
	default:
		return varying;
	}
	struct ir_shape a = ir_shape_operand(r->s, &in->opnd[1]);
	if (is_undef(a))
		return a;
	return a.kind == SHAPE_UNIFORM ? uniform(0) : varying;
}

static struct ir_shape result_shape(struct shape_run *r,
				    const struct ir_insn *in)
{
	if (in->op == OP_LD)
		return load_shape(r, in);
	if (in->op == OP_CVTA)
		return in->nopnds == 2 ? cvta_shape(r, in) : varying;
	if (!pure_op(in->op) || in->nopnds < 2)
		return varying;
	switch (in->op) {
	case OP_MOV:
		if (in->nopnds == 2 && in->opnd[1].kind != OPND_VEC &&
		    !(in->opnd[1].kind == OPND_REG && in->opnd[1].comp)) {
			struct ir_shape a = operand(r, &in->opnd[1]);
			bool narrow = type_bits(in->types[0]) < 32;
			return a.kind == SHAPE_STRIDED && narrow ? varying : a;
		}
		break;
	case OP_ADD:
	case OP_SUB:
		if (in->nopnds == 3 && plain_int(in))
			return add_shapes(r, operand(r, &in->opnd[1]),
					  operand(r, &in->opnd[2]),
					  in->op == OP_ADD ? 1 : -1,
					  type_bits(in->types[0]));
		break;
	case OP_MUL:
		if (in->nopnds == 3 && plain_int(in))
			return mul_shape(r, in);
		break;
	case OP_MAD:
		if (in->nopnds == 4 && plain_int(in))
			return mad_shape(r, in);
		break;
	case OP_SHL:
		if (in->nopnds == 3 && plain_int(in))
			return shl_shape(r, in);
		break;
	case OP_CVT:
		if (in->nopnds == 2)
			return cvt_shape(r, in);
		break;
	default:
		break;
	}
	return inputs_join(r, in);
}

/* Sets register @reg's shape to its join with @v. */
static void write_reg(struct shape_run *r, uint32_t reg, struct ir_shape v)
{
	if (reg >= r->s->nregs ||
	    (r->fixed && r->fixed[reg / 64] >> (reg % 64) & 1))
		return;
	struct ir_shape *cur = &r->s->reg[reg];
	struct ir_shape j = join(*cur, v);
	if (j.kind != cur->kind || j.exact != cur->exact || j.tz != cur->tz ||
	    j.stride != cur->stride) {
		*cur = j;
		r->changed = true;
	}
}

/* The registers operand @o may write, each joined with @v. */
static void write_operand(struct shape_run *r, const struct ir_operand *o,
			  struct ir_shape v)
{
	if (o->kind == OPND_REG) {
		write_reg(r, o->reg, o->comp ? varying : v);
		if (o->pair)
			write_reg(r, o->reg2, varying);
	} else if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
		const struct ir_operand *el = ir_vec_elems(r->f, o);
		for (uint32_t k = 0; k < o->reg2; k++)
			if (el[k].kind == OPND_REG)
				write_reg(r, el[k].reg, v.kind == SHAPE_UNIFORM ?
						       v : varying);
	}
}

/* Instructions that write no register. */
static bool writes_nothing(unsigned op)
{
	switch (op) {
	case OP_ST: case OP_RED: case OP_BRA: case OP_BAR: case OP_BARRIER:
	case OP_RET: case OP_EXIT: case OP_MEMBAR: case OP_FENCE:
		return true;
	default:
		return false;
	}
}

static bool guard_uniform(struct shape_run *r, const struct ir_insn *in)
{
	return !in->guarded || in->guard_reg >= r->s->nregs ||
	       r->s->reg[in->guard_reg].kind != SHAPE_VARYING;
}

static void visit(struct shape_run *r, const struct ir_insn *in)
{
	if (writes_nothing(in->op) || !in->nopnds)
		return;
	struct ir_shape v = result_shape(r, in);
	bool lockstep = r->lockstep && !(r->masked && r->masked[in->block]);
	if (!lockstep && (r->s->divergent[in->block] ||
			     !guard_uniform(r, in)))
		v = varying;
	/* setp's p|q pair: q is the negation, of the same shape */
	const struct ir_operand *d = &in->opnd[0];
	if (d->kind == OPND_REG && d->pair && in->op == OP_SETP) {
		write_reg(r, d->reg, v);
		write_reg(r, d->reg2, v);
		return;
	}
	write_operand(r, d, v);
}

/* Marks the blocks reachable from @b's successors before its
 * post-dominator: they run only in the lanes that took a way. */
static void mark_region(struct shape_run *r, uint32_t b, uint32_t *stack)
{
	const struct ir_func *f = r->f;
	uint32_t stop = f->blocks[b].ipdom, n = 0;
	for (uint32_t i = 0; i < f->blocks[b].nsucc; i++)
		stack[n++] = f->blocks[b].succ[i];
	while (n) {
		uint32_t x = stack[--n];
		if (x == stop || x >= f->nblocks || r->s->divergent[x])
			continue;
		r->s->divergent[x] = true;
		r->changed = true;
		for (uint32_t i = 0; i < f->blocks[x].nsucc; i++)
			stack[n++] = f->blocks[x].succ[i];
	}
}

static void mark_divergent(struct shape_run *r, uint32_t *stack)
{
	const struct ir_func *f = r->f;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		if (!blk->count)
			continue;
		const struct ir_insn *last = &f->insns[blk->first + blk->count - 1];
		if (blk->nsucc > 1 && !guard_uniform(r, last))
			mark_region(r, b, stack);
		else if (blk->nsucc > 1 && r->s->divergent[b])
			mark_region(r, b, stack);
	}
}

/* ---- registers some use may read before any write ---- */

struct bitset {
	uint64_t *w;
	uint32_t words;
};

static bool bit(const uint64_t *w, uint32_t i)
{
	return w[i / 64] >> (i % 64) & 1;
}

static void set_bit(uint64_t *w, uint32_t i)
{
	w[i / 64] |= (uint64_t)1 << (i % 64);
}

/* Marks in @w the registers @in writes (without looking at guards). */
static void defs_of(const struct ir_func *f, const struct ir_insn *in,
		    uint64_t *w)
{
	if (writes_nothing(in->op) || !in->nopnds || in->guarded)
		return;
	const struct ir_operand *o = &in->opnd[0];
	if (o->kind == OPND_REG && o->reg < f->nregs) {
		set_bit(w, o->reg);
		if (o->pair && o->reg2 < f->nregs)
			set_bit(w, o->reg2);
	} else if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
		const struct ir_operand *el = ir_vec_elems(f, o);
		for (uint32_t k = 0; k < o->reg2; k++)
			if (el[k].kind == OPND_REG && el[k].reg < f->nregs)
				set_bit(w, el[k].reg);
	}
}

static void use_reg(const uint64_t *defined, uint32_t reg, uint64_t *early,
		    uint32_t nregs)
{
	if (reg < nregs && !bit(defined, reg))
		set_bit(early, reg);
}

static void uses_of(const struct ir_func *f, const struct ir_insn *in,
		    const uint64_t *defined, uint64_t *early)
{
	if (in->guarded)
		use_reg(defined, in->guard_reg, early, f->nregs);
	/* operand 0 of an instruction that writes is its destination */
	unsigned first = writes_nothing(in->op) ? 0 : 1;
	for (unsigned i = first; i < in->nopnds; i++) {
		const struct ir_operand *o = &in->opnd[i];
		if (o->kind == OPND_REG ||
		    (o->kind == OPND_ADDR && o->addr_base == ADDR_REG))
			use_reg(defined, o->reg, early, f->nregs);
		if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
			const struct ir_operand *el = ir_vec_elems(f, o);
			for (uint32_t k = 0; k < o->reg2; k++)
				if (el[k].kind == OPND_REG)
					use_reg(defined, el[k].reg, early,
						f->nregs);
		}
	}
}

/* Forward must-analysis: registers written on every path to each
 * block's start; then the uses not preceded by a write. */
static bool early_reads(const struct ir_func *f, uint64_t *early)
{
	uint32_t words = (f->nregs + 63) / 64, nb = f->nblocks;
	uint64_t *in = malloc((size_t)nb * words * 8 + words * 8 + 8);
	if (!in)
		return false;
	uint64_t *cur = in + (size_t)nb * words;
	for (uint32_t b = 0; b < nb; b++)
		memset(in + (size_t)b * words, b ? 0xff : 0, words * 8);
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t b = 0; b < nb; b++) {
			memcpy(cur, in + (size_t)b * words, words * 8);
			const struct ir_block *blk = &f->blocks[b];
			for (uint32_t i = 0; i < blk->count; i++)
				defs_of(f, &f->insns[blk->first + i], cur);
			for (uint32_t s = 0; s < blk->nsucc; s++) {
				uint32_t x = blk->succ[s];
				if (x >= nb)
					continue;
				uint64_t *t = in + (size_t)x * words;
				for (uint32_t w = 0; w < words; w++) {
					uint64_t nw = t[w] & cur[w];
					changed |= nw != t[w];
					t[w] = nw;
				}
			}
		}
	}
	for (uint32_t b = 0; b < nb; b++) {
		memcpy(cur, in + (size_t)b * words, words * 8);
		const struct ir_block *blk = &f->blocks[b];
		for (uint32_t i = 0; i < blk->count; i++) {
			uses_of(f, &f->insns[blk->first + i], cur, early);
			defs_of(f, &f->insns[blk->first + i], cur);
		}
	}
	free(in);
	return true;
}

void ir_shapes_free(struct ir_shapes *s)
{
	if (!s)
		return;
	free(s->reg);
	free(s->divergent);
	free(s);
}

static struct ir_shapes *shapes_alloc(const struct ir_func *f)
{
	struct ir_shapes *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->nregs = f->nregs;
	s->nblocks = f->nblocks;
	s->reg = calloc(f->nregs + 1, sizeof(*s->reg));
	s->divergent = calloc(f->nblocks + 1, sizeof(*s->divergent));
	if (!s->reg || !s->divergent) {
		ir_shapes_free(s);
		return NULL;
	}
	return s;
}

/* Registers read before any write start as a uniform zero. */
static bool seed_initial(struct shape_run *r)
{
	uint32_t words = (r->f->nregs + 63) / 64;
	uint64_t *early = calloc(words + 1, 8);
	if (!early || !early_reads(r->f, early)) {
		free(early);
		return false;
	}
	for (uint32_t i = 0; i < r->f->nregs; i++)
		if (bit(early, i))
			write_reg(r, i, uniform(64));
	free(early);
	return true;
}

/* The fixpoint of @r (its fixed registers' shapes already in place). */
static bool solve(struct shape_run *r, unsigned lanes)
{
	const struct ir_func *f = r->f;
	size_t edges = 0;	/* the region walk's stack: one push an edge */
	for (uint32_t b = 0; b < f->nblocks; b++)
		edges += f->blocks[b].nsucc;
	uint32_t *stack = calloc(2 * edges + 1, sizeof(*stack));
	while ((1u << r->lane_bits) < lanes)
		r->lane_bits++;
	if (!stack || !seed_initial(r)) {
		free(stack);
		return false;
	}
	do {
		r->changed = false;
		for (uint32_t i = 0; i < f->ninsns; i++)
			visit(r, &f->insns[i]);
		if (!r->changed)
			mark_divergent(r, stack);
	} while (r->changed);
	free(stack);
	/* never written, never read: uniform (no lane sees it) */
	for (uint32_t i = 0; i < f->nregs; i++)
		if (r->s->reg[i].kind == SHAPE_UNDEF)
			r->s->reg[i] = uniform(64);
	return true;
}

struct ir_shapes *ir_shapes_compute(const struct ir_func *f, unsigned lanes,
				    bool lockstep)
{
	struct ir_shapes *s = shapes_alloc(f);
	struct shape_run r = { .f = f, .s = s, .lockstep = lockstep };
	if (s && !solve(&r, lanes)) {
		ir_shapes_free(s);
		return NULL;
	}
	return s;
}

struct ir_shapes *ir_shapes_compute_regions(const struct ir_func *f,
					    unsigned lanes,
					    const uint64_t *carried,
					    const bool *masked)
{
	struct ir_shapes *any = ir_shapes_compute(f, lanes, false);
	struct ir_shapes *s = any ? shapes_alloc(f) : NULL;
	struct shape_run r = { .f = f, .s = s, .lockstep = true,
			       .fixed = carried, .masked = masked };
	bool ok = s != NULL;
	for (uint32_t i = 0; ok && i < f->nregs; i++)
		if (bit(carried, i))
			s->reg[i] = any->reg[i];
	ok = ok && solve(&r, lanes);
	ir_shapes_free(any);
	if (!ok) {
		ir_shapes_free(s);
		return NULL;
	}
	return s;
}

static void print_reg(const struct ir_func *f, uint32_t i, FILE *out)
{
	const struct ir_reg *g = &f->regs[i];
	if (g->suffix >= 0)
		fprintf(out, "%s%d", g->name, g->suffix);
	else
		fprintf(out, "%s", g->name);
}

void ir_shapes_print(const struct ir_func *f, const struct ir_shapes *s,
		     FILE *out)
{
	static const char *const kind[] = { "undef", "uniform", "strided",
					    "varying" };
	fprintf(out, "shapes %s (others uniform)\n",
		f->sym ? f->sym->name : "?");
	for (uint32_t i = 0; i < s->nregs; i++) {
		const struct ir_shape *h = &s->reg[i];
		if (h->kind == SHAPE_UNIFORM)
			continue;
		fprintf(out, "  ");
		print_reg(f, i, out);
		fprintf(out, " %s", kind[h->kind]);
		if (h->kind == SHAPE_STRIDED)
			fprintf(out, " %lld%s", (long long)h->stride,
				h->exact ? " exact" : " low32");
		fprintf(out, "\n");
	}
	for (uint32_t b = 0; b < s->nblocks; b++)
		if (s->divergent[b])
			fprintf(out, "  block %u divergent\n", b);
}
