// SPDX-License-Identifier: MIT
/*
 * Lowering: turns a kernel and every function it can reach into xinsn
 * arrays. Lays out registers (frames), local frames, kernel parameters
 * and the kernel's shared memory; resolves operands to xrefs; lets each
 * instruction family (exec_*.c) choose handlers; rejects what no handler
 * implements, naming the instruction.
 */
#include "f16.h"
#include "ir_shape.h"
#include "lower.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum fix_kind { FIX_TARGET, FIX_RECONV, FIX_RECONV_INSN };

struct branch_fix {
	uint32_t xi;		/* index of the xinsn */
	uint32_t block;		/* IR block, or IR_EXIT */
	uint8_t kind;
};

/* ---- messages ---- */

static void describe_insn(struct lower_ctx *c, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	if (!f) {
		snprintf(buf, len, "%s", ptx_opcode_name(c->in->op));
		return;
	}
	ir_print_insn(c->m, c->f, c->in, f);
	fclose(f);
	buf[len - 1] = 0;
}

bool lower_unsupported(struct lower_ctx *c, const char *why)
{
	char text[160];
	describe_insn(c, text, sizeof(text));
	msg_printf(c->log, "%s:%u:%u: unsupported instruction '%s'%s%s%s",
		   c->m->name, c->in->line, c->in->col, text,
		   why ? " (" : "", why ? why : "", why ? ")" : "");
	c->status = PTX_ERR_UNSUPPORTED;
	return false;
}

bool lower_nomem(struct lower_ctx *c)
{
	msg_printf(c->log, "out of memory lowering %s", c->f->sym->name);
	c->status = PTX_ERR_NO_MEMORY;
	return false;
}

static bool lower_link_error(struct lower_ctx *c, const struct ir_sym *s)
{
	msg_printf(c->log, "%s:%u:%u: unresolved symbol '%s'", c->m->name,
		   c->in ? c->in->line : s->line, c->in ? c->in->col : s->col,
		   s->name);
	c->status = PTX_ERR_LINK;
	return false;
}

struct xinsn *emit(struct lower_ctx *c, xhandler fn)
{
	struct xinsn *x = vec_push(&c->code, sizeof(*x));
	if (!x)
		return NULL;
	x->fn = fn;
	x->func = c->xf;
	x->vec = 1;
	if (c->in) {
		x->src = c->in;
		x->op = c->in->op;
		x->flags = c->in->flags;
		x->type = c->in->ntypes ? c->in->types[0] : 0;
		x->type2 = c->in->ntypes > 1 ? c->in->types[1] : 0;
		if (c->in->guarded) {
			x->guard = (xref)c->xf->reg_off[c->in->guard_reg] |
				   SEL_FRAME;
			x->guard_neg = c->in->guard_neg ? ~0u : 0;
		}
	}
	return x;
}

/* ---- constants ---- */

enum { CHUNK_CONSTS = 64 };

struct const_chunk {
	struct const_chunk *next;
	uint32_t used;
	uint64_t keys[CHUNK_CONSTS];
	uint64_t lanes[CHUNK_CONSTS][WARP_SIZE];
};

static uint64_t *const_alloc(struct ptx_program *prog, uint64_t value)
{
	struct const_chunk *ch = prog->interp->consts;
	if (!ch || ch->used == CHUNK_CONSTS) {
		ch = aligned_alloc(64, ALIGN_UP(sizeof(*ch), 64));
		if (!ch)
			return NULL;
		ch->used = 0;
		ch->next = prog->interp->consts;
		prog->interp->consts = ch;
	}
	uint32_t i = ch->used++;
	ch->keys[i] = value;
	for (int l = 0; l < WARP_SIZE; l++)
		ch->lanes[i][l] = value;
	return ch->lanes[i];
}

void const_pool_free(struct ptx_program *prog)
{
	struct const_chunk *c = prog->interp->consts;
	while (c) {
		struct const_chunk *next = c->next;
		free(c);
		c = next;
	}
	prog->interp->consts = NULL;
}

/* A broadcast constant, shared by every instruction that uses it. */
static uint64_t *const_lanes(struct ptx_program *prog, uint64_t value)
{
	uint64_t *lanes = strmap_get(&prog->interp->const_map, (const char *)&value,
				     sizeof(value));
	if (lanes)
		return lanes;
	lanes = const_alloc(prog, value);
	if (!lanes)
		return NULL;
	struct const_chunk *ch = prog->interp->consts;
	if (!strmap_put(&prog->interp->const_map,
			(const char *)&ch->keys[ch->used - 1], sizeof(value),
			lanes))
		return NULL;
	return lanes;
}

xref ref_const(struct lower_ctx *c, uint64_t value)
{
	uint64_t *lanes = const_lanes(c->prog, value);
	if (!lanes) {
		lower_nomem(c);
		return 0;
	}
	return (xref)lanes | SEL_ABS;
}

void interp_apply_fixups(struct ptx_program *prog)
{
	struct vec *fx = &prog->interp->fixups;
	for (size_t i = 0; i < fx->len; i++) {
		const struct reloc_fixup *f =
			&VEC_AT(*fx, struct reloc_fixup, i);
		uint64_t v = f->sym->location + (uint64_t)f->addend;
		for (int l = 0; l < WARP_SIZE; l++)
			f->lanes[l] = v;
	}
}

void interp_program_free(struct ptx_program *prog)
{
	struct interp_program *ip = prog->interp;
	if (!ip)
		return;
	free(ip->sreg_slots);
	strmap_free(&ip->const_map);
	vec_free(&ip->fixups);
	const_pool_free(prog);
	free(ip);
	prog->interp = NULL;
}

/* The address of @s, patched in when variables are placed. */
static xref ref_reloc(struct lower_ctx *c, struct ir_sym *s, int64_t addend)
{
	uint64_t *lanes = const_alloc(c->prog, 0);
	struct reloc_fixup *f = lanes ? vec_push(&c->prog->interp->fixups,
						 sizeof(*f)) : NULL;
	if (!f) {
		lower_nomem(c);
		return 0;
	}
	f->lanes = lanes;
	f->sym = s;
	f->addend = addend;
	if (c->prog->placed) {
		uint64_t v = s->location + (uint64_t)addend;
		for (int l = 0; l < WARP_SIZE; l++)
			lanes[l] = v;
	}
	return (xref)lanes | SEL_ABS;
}

/* ---- operands ---- */

unsigned reg_type(const struct lower_ctx *c, const struct ir_operand *o)
{
	return o->kind == OPND_REG ? c->f->regs[o->reg].type : PTX_T_NONE;
}

static uint64_t f32_bits_to_f64_bits(uint64_t b)
{
	return bits_f64((double)f32_of(b));
}

/* An immediate, converted to how an instruction of @type reads it. */
uint64_t ir_imm_value(const struct ir_operand *o, unsigned type)
{
	unsigned kind = ptx_type_kind(type);
	unsigned size = ptx_type_size(type);
	if (type == PTX_T_PRED)
		return o->imm ? FULL_MASK : 0;
	switch (o->imm_kind) {
	case IMM_F32:
		if (type == PTX_T_F64)
			return f32_bits_to_f64_bits(o->imm);
		if (type == PTX_T_F16 || type == PTX_T_BF16)
			return round_to_format(f32_of(o->imm), 5 + 3 * (type ==
							PTX_T_BF16),
					       type == PTX_T_F16 ? 10 : 7,
					       RND_NEAREST);
		return o->imm;
	case IMM_F64:
		if (type == PTX_T_F32)
			return bits_f32((float)f64_of(o->imm));
		if (type == PTX_T_F16)
			return f64_to_f16(f64_of(o->imm), RND_NEAREST);
		return o->imm;
	default:
		if (kind == TK_FLOAT && size == 4)
			return bits_f32((float)(int64_t)o->imm);
		if (kind == TK_FLOAT && size == 8)
			return bits_f64((double)(int64_t)o->imm);
		return o->imm;
	}
}

/* Frame-relative address of a local-frame variable: computed at run time. */
static const struct xinsn *x_frame_addr(struct warp *w, const struct xinsn *ip)
{
	uint64_t *d = xr(w, ip->d);
	uint64_t v = (uint64_t)ip->imm + w->local_base;
	for (int l = 0; l < WARP_SIZE; l++)
		d[l] = v;
	return ip + 1;
}

static uint32_t alloc_temp(struct lower_ctx *c)
{
	uint32_t off = c->xf->frame_size;
	c->xf->frame_size += LANE_BYTES;
	return off;
}

/* Variables in the local frame: .local, and .param other than kernels'. */
static bool is_frame_var(const struct ir_sym *s)
{
	return s->space == SPACE_LOCAL ||
	       (s->space == SPACE_PARAM && !is_kernel_param(s));
}

/* Value of a symbol used as an operand: its address. */
static bool ref_symbol_value(struct lower_ctx *c, const struct ir_operand *o,
			     xref *out)
{
	struct ir_sym *s = o->sym->def;
	if (!s)
		return lower_link_error(c, o->sym);
	if (s->kind == SYM_FUNC) {
		*out = ref_const(c, func_address(s) + (uint64_t)o->offset);
		return *out != 0;
	}
	switch (s->space) {
	case SPACE_GLOBAL:
	case SPACE_CONST:
		*out = ref_reloc(c, s, o->offset);
		return *out != 0;
	default:
		break;
	}
	uint64_t loc;
	if (!layout_offset(c->kernel, s, &loc))
		return lower_unsupported(c, "address of this symbol");
	if (s->space == SPACE_SHARED ||
	    (s->space == SPACE_PARAM && is_kernel_param(s))) {
		*out = ref_const(c, loc + (uint64_t)o->offset);
		return *out != 0;
	}
	if (!is_frame_var(s))
		return lower_unsupported(c, "address of this symbol");
	uint32_t tmp = alloc_temp(c);
	struct xinsn *x = emit(c, x_frame_addr);
	if (!x)
		return lower_nomem(c);
	x->guard = 0;
	x->d = (xref)tmp | SEL_FRAME;
	x->imm = (int64_t)(loc + (uint64_t)o->offset);
	*out = x->d;
	return true;
}

const struct xinsn *x_refresh_sreg(struct warp *w, const struct xinsn *ip);

/* Notes that the kernel reads slot @slot, for warps to fill it. */
static bool note_sreg_use(struct lower_ctx *c, uint32_t slot)
{
	struct vec *v = &c->kernel->interp->sreg_build;
	for (size_t i = 0; i < v->len; i++)
		if (VEC_AT(*v, uint32_t, i) == slot)
			return true;
	uint32_t *e = vec_push(v, sizeof(*e));
	if (!e)
		return lower_nomem(c);
	*e = slot;
	return true;
}

bool ref_src(struct lower_ctx *c, const struct ir_operand *o, unsigned type,
	     xref *out)
{
	switch (o->kind) {
	case OPND_REG: {
		const struct ir_reg *r = &c->f->regs[o->reg];
		uint32_t off = c->xf->reg_off[o->reg];
		if (o->comp)
			off += (uint32_t)(o->comp - 1) * LANE_BYTES;
		else if (r->vec > 1)
			return lower_unsupported(c, "whole vector register");
		*out = (xref)off | SEL_FRAME;
		return true;
	}
	case OPND_SREG: {
		uint32_t slot = sreg_slot(c->prog, o->reg, o->comp);
		if (slot == UINT32_MAX)
			return lower_nomem(c);
		*out = (xref)slot * LANE_BYTES | SEL_SREG;
		if (!sreg_is_dynamic(o->reg))
			return note_sreg_use(c, slot);
		/* clocks: read again at each use */
		struct xinsn *x = emit(c, x_refresh_sreg);
		if (!x)
			return lower_nomem(c);
		x->guard = 0;
		x->d = *out;
		x->imm = o->reg;
		return true;
	}
	case OPND_IMM:
		*out = ref_const(c, ir_imm_value(o, type));
		return *out != 0;
	case OPND_SYM:
		return ref_symbol_value(c, o, out);
	default:
		return lower_unsupported(c, "operand kind");
	}
}

bool ref_dst(struct lower_ctx *c, const struct ir_operand *o, xref *out)
{
	if (o->kind == OPND_SINK) {
		*out = (xref)c->scratch | SEL_FRAME;
		return true;
	}
	if (o->kind != OPND_REG)
		return lower_unsupported(c, "destination must be a register");
	return ref_src(c, o, PTX_T_NONE, out);
}

enum xspace space_class(const struct lower_ctx *c, unsigned space)
{
	switch (space) {
	case SPACE_SHARED:
		return XS_SHARED;
	case SPACE_LOCAL:
		return XS_LOCAL;
	case SPACE_PARAM:
		return c->f->is_entry ? XS_KPARAM : XS_LOCAL;
	default:
		return XS_GLOBAL;
	}
}

static bool addr_of_symbol(struct lower_ctx *c, struct ir_sym *s,
			   int64_t off, xref *base, int64_t *offset,
			   enum xspace *space, bool *frame_rel)
{
	uint64_t loc = 0;
	*base = ref_const(c, 0);
	if (s->space != SPACE_GLOBAL && s->space != SPACE_CONST &&
	    !layout_offset(c->kernel, s, &loc))
		return lower_unsupported(c, "address of this symbol");
	*offset = (int64_t)loc + off;
	switch (s->space) {
	case SPACE_GLOBAL:
	case SPACE_CONST:
		*base = ref_reloc(c, s, 0);
		*offset = off;
		*space = XS_GLOBAL;
		return *base != 0;
	case SPACE_SHARED:
		*space = XS_SHARED;
		return true;
	case SPACE_PARAM:
		if (is_kernel_param(s)) {
			*space = XS_KPARAM;
			return true;
		}
		/* function parameters live in the frame */
		__attribute__((fallthrough));
	case SPACE_LOCAL:
		*space = XS_LOCAL;
		*frame_rel = true;
		return true;
	default:
		return lower_unsupported(c, "address in this state space");
	}
}

bool ref_addr(struct lower_ctx *c, const struct ir_operand *o,
	      unsigned ir_space, xref *base, int64_t *offset,
	      enum xspace *space, bool *frame_rel)
{
	*frame_rel = false;
	if (o->kind != OPND_ADDR)
		return lower_unsupported(c, "expected an address");
	if (o->addr_base == ADDR_SYM) {
		struct ir_sym *s = o->sym->def;
		if (!s)
			return lower_link_error(c, o->sym);
		if (s->kind != SYM_VAR)
			return lower_unsupported(c, "address of a function");
		return addr_of_symbol(c, s, o->offset, base, offset, space,
				      frame_rel);
	}
	*space = space_class(c, ir_space);
	*offset = o->offset;
	if (o->addr_base == ADDR_NONE) {
		*base = ref_const(c, 0);
		return *base != 0;
	}
	return ref_src(c, &(struct ir_operand){ .kind = OPND_REG,
						.reg = o->reg },
		       PTX_T_U64, base);
}

/* ---- instruction dispatch ---- */

static lower_fn family(const struct ir_insn *in)
{
	bool fl = in->ntypes && ptx_type_is_float(in->types[0]);
	switch (in->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV:
	case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX:
		return fl ? lower_float : lower_int;
	case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_SIN:
	case OP_COS: case OP_LG2: case OP_EX2: case OP_TANH:
	case OP_COPYSIGN: case OP_TESTP:
		return lower_float;
	case OP_MUL24: case OP_MAD24: case OP_REM: case OP_AND: case OP_OR:
	case OP_XOR: case OP_NOT: case OP_CNOT: case OP_SHL: case OP_SHR:
	case OP_POPC: case OP_CLZ: case OP_BFIND: case OP_BREV: case OP_BFE:
	case OP_BFI: case OP_PRMT: case OP_LOP3: case OP_SHF: case OP_BMSK:
	case OP_SAD: case OP_DP4A: case OP_FNS: case OP_SZEXT:
	case OP_ADDC: case OP_SUBC: case OP_MADC:
		return lower_int;
	case OP_DP2A: case OP_VADD2: case OP_VADD4: case OP_VSUB2:
	case OP_VSUB4: case OP_VAVRG2: case OP_VAVRG4: case OP_VABSDIFF2:
	case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4: case OP_VMAX2:
	case OP_VMAX4: case OP_VSET2: case OP_VSET4:
		return lower_video;
	case OP_SETP: case OP_SET: case OP_SELP: case OP_SLCT:
		return lower_cmp;
	case OP_CVT:
		return lower_cvt;
	case OP_MOV:
		return lower_mov;
	case OP_LD: case OP_LDU: case OP_ST: case OP_CVTA: case OP_ISSPACEP:
	case OP_PREFETCH: case OP_PREFETCHU: case OP_CP: case OP_STACKSAVE:
	case OP_STACKRESTORE: case OP_ALLOCA:
		return lower_mem;
	case OP_ATOM: case OP_RED:
		return lower_atom;
	case OP_BRA: case OP_BRX: case OP_CALL: case OP_RET: case OP_EXIT:
	case OP_TRAP: case OP_BRKPT: case OP_BAR: case OP_BARRIER:
	case OP_MEMBAR: case OP_FENCE: case OP_NANOSLEEP: case OP_PMEVENT:
		return lower_ctrl;
	case OP_SHFL: case OP_VOTE: case OP_ACTIVEMASK: case OP_MATCH:
	case OP_REDUX: case OP_ELECT:
		return lower_warp;
	case OP_MBARRIER:
		return lower_mbarrier;
	case OP_TEX: case OP_TLD4: case OP_TXQ:
		return lower_tex;
	case OP_SULD: case OP_SUST: case OP_SUQ:
		return lower_surf;
	case OP_WMMA: case OP_MMA: case OP_LDMATRIX:
		return lower_matrix;
	default:
		return NULL;
	}
}

bool insn_lane_local(const struct ir_insn *in)
{
	lower_fn f = family(in);
	if (f == lower_int || f == lower_float || f == lower_cmp ||
	    f == lower_cvt || f == lower_mov || f == lower_video)
		return true;
	switch (in->op) {
	case OP_LD: case OP_LDU: case OP_ST: case OP_CVTA: case OP_BRA:
	case OP_RET: case OP_EXIT:
		return true;
	default:
		return false;
	}
}

static bool sorts_own_words(unsigned op)
{
	switch (op) {
	case OP_PREFETCH: case OP_PREFETCHU: case OP_CP: case OP_MBARRIER:
	case OP_VABSDIFF4: case OP_TEX: case OP_TLD4: case OP_TXQ:
	case OP_SULD: case OP_SUST: case OP_SUQ: case OP_WMMA: case OP_MMA:
	case OP_LDMATRIX: case OP_VADD2: case OP_VADD4: case OP_VSUB2:
	case OP_VSUB4: case OP_VAVRG2: case OP_VAVRG4: case OP_VABSDIFF2:
	case OP_VMIN2: case OP_VMIN4: case OP_VMAX2: case OP_VMAX4:
	case OP_VSET2: case OP_VSET4:
		return true;
	default:
		return false;
	}
}

/*
 * Whether to use the AVX2 builds of the families ptx.mk builds twice
 * (PTX_AVX2_BUILD: it made them): where the host has AVX2, unless
 * VCUDA_INTERP_NO_AVX2=1 asks for the baseline builds (run-unit-tests
 * runs test_exec so, as a host without AVX2 would). Decided once.
 */
static bool use_avx2(void)
{
#ifdef PTX_AVX2_BUILD
	static int decided;	/* 0: not yet, 1: no, 2: yes */
	int d = __atomic_load_n(&decided, __ATOMIC_RELAXED);

	if (!d) {
		const char *off = getenv("VCUDA_INTERP_NO_AVX2");

		__builtin_cpu_init();
		d = __builtin_cpu_supports("avx2") && !(off && *off == '1') ?
			2 : 1;
		__atomic_store_n(&decided, d, __ATOMIC_RELAXED);
	}
	return d == 2;
#else
	return false;
#endif
}

static lower_fn for_host(lower_fn fn)
{
#ifdef PTX_AVX2_BUILD
	if (!use_avx2())
		return fn;
	if (fn == lower_int)
		return lower_int_avx2;
	if (fn == lower_mov)
		return lower_mov_avx2;
	if (fn == lower_cmp)
		return lower_cmp_avx2;
	if (fn == lower_mem)
		return lower_mem_avx2;
	if (fn == lower_float)
		return lower_float_avx2;
#endif
	return fn;
}

static bool lower_insn(struct lower_ctx *c, const struct ir_insn *in)
{
	c->in = in;
	/* Unknown words are harmless only on prefetches; the families
	 * below sort their own words. */
	if (in->has_raw && !sorts_own_words(in->op))
		return lower_unsupported(c, NULL);
	lower_fn fn = family(in);
	if (!fn)
		return lower_unsupported(c, NULL);
	lower_fn host = for_host(fn);
	if (host != fn)
		ik(c->kernel)->stats.avx2++;
	return host(c, in);
}

/* ---- branches ---- */

bool lower_branch_fix(struct lower_ctx *c, uint32_t block, bool reconv)
{
	struct branch_fix *f = vec_push(&c->branch_fix, sizeof(*f));
	if (!f)
		return lower_nomem(c);
	f->xi = (uint32_t)c->code.len - 1;
	f->block = block;
	f->kind = reconv ? FIX_RECONV : FIX_TARGET;
	return true;
}

bool lower_reconv_insn(struct lower_ctx *c, uint32_t from, uint32_t xi)
{
	struct branch_fix *f = vec_push(&c->branch_fix, sizeof(*f));
	if (!f)
		return lower_nomem(c);
	f->xi = from;
	f->block = xi;
	f->kind = FIX_RECONV_INSN;
	return true;
}

static void apply_branch_fixes(struct lower_ctx *c, const uint32_t *start)
{
	struct xinsn *code = c->xf->code;
	for (size_t i = 0; i < c->branch_fix.len; i++) {
		const struct branch_fix *f =
			&VEC_AT(c->branch_fix, struct branch_fix, i);
		if (f->kind == FIX_RECONV_INSN) {	/* block is an xinsn */
			code[f->xi].reconv = &code[f->block];
			continue;
		}
		const struct xinsn *to = f->block == IR_EXIT ?
						 NULL :
						 &code[start[f->block]];
		if (f->kind == FIX_TARGET)
			code[f->xi].target = to;
		else
			code[f->xi].reconv = to;
	}
	/* Jump tables (brx.idx) hold block numbers until now. */
	for (uint32_t i = 0; i < c->xf->ncode; i++) {
		if (code[i].op != OP_BRX || !code[i].aux)
			continue;
		const struct xinsn **t = (const struct xinsn **)code[i].aux;
		for (uint32_t k = 0; k < code[i].vec; k++)
			t[k] = &code[start[(uintptr_t)t[k]]];
	}
}

/* ---- functions ---- */

static bool block_falls_off(const struct ir_func *f)
{
	if (!f->ninsns)
		return true;
	const struct ir_insn *last = &f->insns[f->ninsns - 1];
	unsigned fl = ptx_opcode_flags(last->op);
	return !(fl & (OPF_BRANCH | OPF_RETURN)) || last->guarded ||
	       f->blocks[f->nblocks - 1].count == 0;
}

static bool emit_body(struct lower_ctx *c, uint32_t *start)
{
	const struct ir_func *f = c->f;
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		start[b] = (uint32_t)c->code.len;
		c->in = NULL;
		if (blk->is_reconv && !emit(c, x_reconv))
			return lower_nomem(c);
		lower_rows_reset(c);
		for (uint32_t i = 0; i < blk->count; i++) {
			const struct ir_insn *in = &f->insns[blk->first + i];
			if (!lower_insn(c, in))
				return false;
			lower_rows_after(c, in);
		}
	}
	if (block_falls_off(f)) {
		c->in = NULL;
		if (!emit(c, x_ret))
			return lower_nomem(c);
	}
	return true;
}

static bool lower_body(struct lower_ctx *c)
{
	uint32_t *start = calloc(c->f->nblocks + 1, sizeof(uint32_t));
	if (!start)
		return lower_nomem(c);
	bool ok = emit_body(c, start);
	if (ok) {
		c->xf->ncode = (uint32_t)c->code.len;
		c->xf->code = arena_memdup(&c->prog->arena, c->code.data,
					   c->code.len * sizeof(struct xinsn));
		ok = c->xf->code ? true : lower_nomem(c);
	}
	if (ok)
		apply_branch_fixes(c, start);
	free(start);
	vec_free(&c->code);
	vec_free(&c->branch_fix);
	return ok;
}

/* Where a function's parameters arrive and its results are left: a
 * register, or its local frame (the kernel's layout). */
static bool callee_side(struct lower_ctx *c, const struct ir_sym *p,
			struct xcall_arg *a)
{
	uint64_t off = 0;
	a->size = (uint32_t)p->size;
	if (p->space == SPACE_REG) {
		a->reg = (xref)c->xf->reg_off[p->reg_index] | SEL_FRAME;
		return true;
	}
	if (!layout_offset(c->kernel, p, &off))
		return lower_unsupported(c, "parameter not in a frame");
	a->mem = (uint32_t)off;
	return true;
}

static bool lower_call_args(struct lower_ctx *c)
{
	const struct ir_func *f = c->f;
	struct xfunc *xf = c->xf;
	xf->param_args = arena_alloc(&c->prog->arena, (f->nparams + 1) *
							     sizeof(struct xcall_arg));
	xf->ret_args = arena_alloc(&c->prog->arena, (f->nrets + 1) *
							   sizeof(struct xcall_arg));
	if (!xf->param_args || !xf->ret_args)
		return lower_nomem(c);
	if (f->is_entry)
		return true;
	for (uint32_t i = 0; i < f->nparams; i++)
		if (!callee_side(c, f->params[i], &xf->param_args[i]))
			return false;
	for (uint32_t i = 0; i < f->nrets; i++)
		if (!callee_side(c, f->rets[i], &xf->ret_args[i]))
			return false;
	return true;
}

const struct xfunc *lower_function(struct lower_ctx *parent,
				   struct ir_sym *fn)
{
	struct interp_kernel *k = parent->kernel->interp;
	if (k->funcs[fn->id])
		return k->funcs[fn->id];
	const struct frame_layout *fl = layout_frame(parent->kernel, fn);
	if (!fl) {
		msg_printf(parent->log, "%s: no frame for %s", __func__,
			   fn->name);
		parent->status = PTX_ERR_INVALID;
		return NULL;
	}
	struct xfunc *xf = arena_alloc(&parent->prog->arena, sizeof(*xf));
	if (!xf) {
		lower_nomem(parent);
		return NULL;
	}
	k->funcs[fn->id] = xf;
	xf->ir = fn->func;
	xf->id = fn->id;
	xf->local_size = fl->local_size;
	struct lower_ctx c = { .prog = parent->prog, .kernel = parent->kernel,
			       .xf = xf, .f = fn->func, .m = fn->module,
			       .log = parent->log };
	bool ok = lower_frame_registers(&c) && lower_call_args(&c);
	c.scratch = ok ? alloc_temp(&c) : 0;
	/* a kernel's shapes across a warp (masked: lanes skip writes), for
	 * its memory accesses; a function's parameters have no known shape */
	if (ok && fn->func->is_entry)
		c.shapes = ir_shapes_compute(fn->func, WARP_SIZE, false);
	ok = ok && lower_body(&c);
	ir_shapes_free(c.shapes);
	if (!ok) {
		parent->status = c.status ? c.status : PTX_ERR_NO_MEMORY;
		return NULL;
	}
	return xf;
}

bool interp_lower_kernel(struct ptx_kernel *k, struct msgbuf *log,
			 int *status)
{
	struct ptx_program *prog = k->prog;
	struct interp_kernel *ik = arena_alloc(&prog->arena, sizeof(*ik));
	struct xfunc **funcs = arena_alloc(&prog->arena,
					   (prog->nfuncs + 1) * sizeof(*funcs));
	if (!ik || !funcs) {
		*status = PTX_ERR_NO_MEMORY;
		return false;
	}
	ik->funcs = funcs;
	ik->nfuncs = prog->nfuncs;
	k->interp = ik;
	struct lower_ctx c = { .prog = prog, .kernel = k, .log = log,
			       .f = k->sym->func, .m = k->sym->module };
	const struct xfunc *xf = lower_function(&c, k->sym);
	ik->entry = (struct xfunc *)xf;
	bool ok = xf && lower_register_stack(&c) && lower_start_zeroing(&c);
	ik->nsreg_used = (uint32_t)ik->sreg_build.len;
	ik->sreg_used = vec_to_arena(&ik->sreg_build, sizeof(uint32_t),
				     &prog->arena);
	if (ik->nsreg_used && !ik->sreg_used)
		ok = false;
	if (!ok) {
		*status = c.status ? c.status : PTX_ERR_NO_MEMORY;
		k->interp = NULL;
		return false;
	}
	return true;
}

bool emit_alu(struct lower_ctx *c, const struct ir_insn *in, xhandler h,
	      unsigned type, unsigned nsrc)
{
	if (!h)
		return lower_unsupported(c, "type");
	if (in->nopnds != nsrc + 1)
		return lower_unsupported(c, "operand count");
	xref d, s[3] = { 0 };
	/* operands first: they may emit helpers ahead of the instruction */
	if (!ref_dst(c, &in->opnd[0], &d))
		return false;
	for (unsigned i = 0; i < nsrc; i++)
		if (!ref_src(c, &in->opnd[1 + i], type, &s[i]))
			return false;
	struct xinsn *x = emit(c, h);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = s[0];
	x->b = s[1];
	x->c = s[2];
	for (unsigned i = 0; i < nsrc; i++)
		x->pneg[i] = in->opnd[1 + i].neg ? ~0u : 0;
	return true;
}
