// SPDX-License-Identifier: MIT
/* Layout of parameters, shared memory, frames and stacks. */
#include "layout.h"

#include <stdlib.h>

bool is_kernel_param(const struct ir_sym *s)
{
	if (s->space != SPACE_PARAM || !s->owner || !s->owner->is_entry)
		return false;
	for (uint32_t i = 0; i < s->owner->nparams; i++)
		if (s->owner->params[i] == s)
			return true;
	return false;
}

/* ---- kernel parameters ---- */

static bool layout_params(struct lower_ctx *c)
{
	struct ptx_kernel *k = c->kernel;
	const struct ir_func *f = c->f;
	k->params = arena_alloc(&c->prog->arena,
				(f->nparams + 1) * sizeof(*k->params));
	if (!k->params)
		return lower_nomem(c);
	uint64_t off = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct ir_sym *p = f->params[i];
		uint32_t align = p->align ? p->align : 1;
		off = ALIGN_UP(off, align);
		p->location = off;
		k->params[i] = (struct ptx_param_info){
			.offset = (uint32_t)off, .size = (uint32_t)p->size,
			.align = align };
		off += p->size;
	}
	k->info.param_count = f->nparams;
	k->info.params = k->params;
	k->info.param_size = (uint32_t)off;
	return true;
}

/* ---- reachability and shared memory ---- */

struct reach {
	struct ir_sym **funcs;		/* reachable, by program id */
	bool *seen;			/* by program id */
	uint32_t nfuncs;
	struct vec shared;		/* struct ir_sym * (defs) */
	bool indirect;			/* some call goes through a register */
};

static bool note_shared(struct reach *r, struct ir_sym *s)
{
	for (size_t i = 0; i < r->shared.len; i++)
		if (VEC_AT(r->shared, struct ir_sym *, i) == s)
			return true;
	struct ir_sym **slot = vec_push(&r->shared, sizeof(*slot));
	if (!slot)
		return false;
	*slot = s;
	return true;
}

static bool note_sym(struct reach *r, struct ir_sym *s)
{
	s = s ? s->def : NULL;
	if (!s)
		return true;
	if (s->kind == SYM_FUNC) {
		if (s->func && s->func->has_body && !r->seen[s->id]) {
			r->seen[s->id] = true;
			r->funcs[r->nfuncs++] = s;
		}
		return true;
	}
	return s->space != SPACE_SHARED || note_shared(r, s);
}

static bool scan_operand(struct reach *r, const struct ir_func *f,
			 const struct ir_operand *o)
{
	if (o->kind == OPND_SYM || (o->kind == OPND_ADDR &&
				    o->addr_base == ADDR_SYM))
		return note_sym(r, o->sym);
	if (o->kind == OPND_VEC || o->kind == OPND_LIST) {
		const struct ir_operand *e = ir_vec_elems(f, o);
		for (uint32_t i = 0; i < o->reg2; i++)
			if (!scan_operand(r, f, &e[i]))
				return false;
	}
	return true;
}

static bool scan_function(struct reach *r, const struct ir_func *f)
{
	for (uint32_t i = 0; i < f->nvars; i++)
		if (f->vars[i]->space == SPACE_SHARED &&
		    !note_shared(r, f->vars[i]))
			return false;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		if (in->op == OP_CALL) {
			unsigned t = in->nopnds && in->opnd[0].kind ==
							    OPND_LIST ? 1 : 0;
			r->indirect |= t < in->nopnds &&
				       in->opnd[t].kind == OPND_REG;
		}
		for (uint32_t k = 0; k < in->nopnds; k++)
			if (!scan_operand(r, f, &in->opnd[k]))
				return false;
	}
	return true;
}

/* Functions whose address some variable holds (function tables). */
static void add_table_targets(struct reach *r, const struct ptx_program *p)
{
	for (uint32_t i = 0; i < p->nvars; i++)
		for (uint32_t k = 0; k < p->vars[i]->nrelocs; k++)
			note_sym(r, p->vars[i]->relocs[k].target);
}

static bool collect_reachable(struct lower_ctx *c, struct reach *r)
{
	r->funcs = calloc(c->prog->nfuncs + 1, sizeof(*r->funcs));
	r->seen = calloc(c->prog->nfuncs + 1, sizeof(*r->seen));
	if (!r->funcs || !r->seen)
		return false;
	note_sym(r, c->kernel->sym);
	bool tables = false;
	for (uint32_t i = 0; i < r->nfuncs; i++) {
		if (!scan_function(r, r->funcs[i]->func))
			return false;
		if (r->indirect && !tables) {
			add_table_targets(r, c->prog);
			tables = true;
		}
	}
	return true;
}

static void layout_shared(struct lower_ctx *c, struct reach *r)
{
	uint64_t off = 0;
	uint32_t dyn_align = 16;
	for (size_t i = 0; i < r->shared.len; i++) {
		struct ir_sym *s = VEC_AT(r->shared, struct ir_sym *, i);
		if (s->unsized) {
			if (s->align > dyn_align)
				dyn_align = s->align;
			continue;
		}
		off = ALIGN_UP(off, s->align ? s->align : 1);
		s->location = off;
		off += s->size;
	}
	c->kernel->info.static_shared_size = (uint32_t)off;
	c->kernel->dyn_shared_offset = (uint32_t)ALIGN_UP(off, dyn_align);
	for (size_t i = 0; i < r->shared.len; i++) {
		struct ir_sym *s = VEC_AT(r->shared, struct ir_sym *, i);
		if (s->unsized)
			s->location = c->kernel->dyn_shared_offset;
	}
}

/*
 * The registers a thread may have, as ptxas sees it: at most 255, or
 * .maxnreg, and few enough that .minnctapersm blocks of .maxntid threads
 * fit an SM's 65536 registers (every compute capability vcuda reports),
 * allocated per thread in units of 8. ptxas spills rather than exceed
 * them, so a kernel is always launchable with the block it declares.
 */
static uint32_t register_limit(const struct ir_func *f, uint32_t threads)
{
	uint32_t limit = 255;
	if (f->maxnreg && f->maxnreg < limit)
		limit = f->maxnreg;
	if (threads) {
		uint64_t warps_threads = ((uint64_t)threads + 31) / 32 * 32;
		uint64_t blocks = f->minnctapersm ? f->minnctapersm : 1;
		uint64_t fit = 65536 / (warps_threads * blocks) / 8 * 8;
		if (fit < 16)
			fit = 16;	/* ptxas's floor; the launch then fails */
		if (fit < limit)
			limit = (uint32_t)fit;
	}
	return limit;
}

static void fill_info(struct ptx_kernel *k)
{
	const struct ir_func *f = k->sym->func;
	struct ptx_kernel_info *info = &k->info;
	info->name = k->sym->name;
	info->ptx_arch = k->sym->module->sm;
	for (int i = 0; i < 3; i++)
		info->reqntid[i] = f->reqntid[0] ? f->reqntid[i] : 0;
	if (f->maxntid[0])
		info->max_threads = f->maxntid[0] * f->maxntid[1] *
				    f->maxntid[2];
	else if (f->reqntid[0])
		info->max_threads = f->reqntid[0] * f->reqntid[1] *
				    f->reqntid[2];
	uint32_t data_regs = 0;
	for (uint32_t i = 0; i < f->nregs; i++)
		data_regs += f->regs[i].type != PTX_T_PRED;
	uint32_t limit = register_limit(f, info->max_threads);
	info->num_regs = data_regs > limit ? limit : data_regs < 16 ? 16 :
								   data_regs;
}

bool layout_kernel(struct lower_ctx *c)
{
	struct reach r = { 0 };
	if (!layout_params(c))
		return false;
	bool ok = collect_reachable(c, &r);
	if (ok)
		layout_shared(c, &r);
	free(r.funcs);
	free(r.seen);
	vec_free(&r.shared);
	fill_info(c->kernel);
	return ok ? true : lower_nomem(c);
}

/* ---- frames ---- */

static uint64_t local_place(uint64_t *off, const struct ir_sym *s)
{
	uint64_t at = ALIGN_UP(*off, s->align ? s->align : 1);
	*off = at + s->size;
	return at;
}

static bool layout_registers(struct lower_ctx *c)
{
	const struct ir_func *f = c->f;
	struct xfunc *xf = c->xf;
	xf->reg_off = arena_alloc(&c->prog->arena,
				  (f->nregs + 1) * sizeof(uint32_t));
	if (!xf->reg_off)
		return lower_nomem(c);
	uint64_t off = 0;
	for (uint32_t i = 0; i < f->nregs; i++) {
		if (f->regs[i].type == PTX_T_PRED)
			continue;
		xf->reg_off[i] = (uint32_t)off;
		/* a .b128 register is two 64-bit slots, low half first */
		off += LANE_BYTES * f->regs[i].vec *
		       (ptx_type_size(f->regs[i].type) > 8 ? 2 : 1);
	}
	for (uint32_t i = 0; i < f->nregs; i++) {
		if (f->regs[i].type != PTX_T_PRED)
			continue;
		xf->reg_off[i] = (uint32_t)off;
		off += 8;
	}
	if (off > UINT32_MAX / 2) {
		msg_printf(c->log, "%s: too many registers", f->sym->name);
		c->status = PTX_ERR_UNSUPPORTED;
		return false;
	}
	xf->frame_size = (uint32_t)ALIGN_UP(off, 8);
	return true;
}

bool layout_function(struct lower_ctx *c)
{
	const struct ir_func *f = c->f;
	if (!layout_registers(c))
		return false;
	uint64_t off = 0;
	if (!f->is_entry) {
		for (uint32_t i = 0; i < f->nrets; i++)
			if (f->rets[i]->space == SPACE_PARAM)
				f->rets[i]->location = local_place(&off,
								   f->rets[i]);
		for (uint32_t i = 0; i < f->nparams; i++)
			if (f->params[i]->space == SPACE_PARAM)
				f->params[i]->location =
					local_place(&off, f->params[i]);
	}
	for (uint32_t i = 0; i < f->nvars; i++) {
		struct ir_sym *v = f->vars[i];
		if (v->space == SPACE_LOCAL || v->space == SPACE_PARAM)
			v->location = local_place(&off, v);
	}
	c->xf->local_size = (uint32_t)ALIGN_UP(off, 16);
	return true;
}

/* ---- stacks ---- */

struct stack_walk {
	struct ptx_kernel *k;
	uint8_t *state;		/* 0 new, 1 on the path, 2 done */
	bool recursive;
};

static void walk_stack(struct stack_walk *s, struct xfunc *xf);

static void walk_callee(struct stack_walk *s, struct xfunc *xf,
			struct xfunc *callee)
{
	if (!callee)
		return;
	if (s->state[callee->id] == 1) {
		s->recursive = true;
		return;
	}
	walk_stack(s, callee);
	if (callee->stack_size > xf->stack_size - xf->local_size)
		xf->stack_size = xf->local_size + callee->stack_size;
	if (callee->regs_size > xf->regs_size - xf->frame_size)
		xf->regs_size = xf->frame_size + callee->regs_size;
}

static void walk_stack(struct stack_walk *s, struct xfunc *xf)
{
	if (s->state[xf->id] == 2)
		return;
	s->state[xf->id] = 1;
	xf->stack_size = xf->local_size;
	xf->regs_size = xf->frame_size;
	for (uint32_t i = 0; i < xf->ncode; i++) {
		const struct xinsn *x = &xf->code[i];
		if (!xinsn_is_call(x))
			continue;
		const struct xcall *call = x->aux;
		if (call->callee) {
			walk_callee(s, xf, (struct xfunc *)call->callee);
			continue;
		}
		for (uint32_t f = 0; f < s->k->nfuncs; f++)
			walk_callee(s, xf, s->k->funcs[f]);
	}
	s->state[xf->id] = 2;
}

bool layout_stacks(struct lower_ctx *c)
{
	struct ptx_kernel *k = c->kernel;
	struct stack_walk s = { .k = k };
	s.state = calloc(k->nfuncs + 1, 1);
	if (!s.state)
		return lower_nomem(c);
	walk_stack(&s, k->entry);
	free(s.state);
	k->local_stride = ALIGN_UP(k->entry->stack_size, 16);
	k->regs_stride = k->entry->regs_size;
	if (s.recursive) {
		k->local_stride += RECURSION_STACK;
		k->regs_stride *= 4;
	}
	k->info.local_size = (uint32_t)k->local_stride;
	return true;
}
