// SPDX-License-Identifier: MIT
/*
 * Layout of a kernel from its IR alone: parameters, shared memory, the
 * local frame of every function it can reach, and its per-thread stack.
 * The result is the kernel's table (struct kernel_layout), which every
 * back end reads; nothing here depends on how code is executed.
 */
#include "program.h"
#include "reg_estimate.h"

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

static bool layout_params(struct ptx_kernel *k)
{
	const struct ir_func *f = k->sym->func;
	k->params = arena_alloc(&k->prog->arena,
				(f->nparams + 1) * sizeof(*k->params));
	if (!k->params)
		return false;
	uint64_t off = 0;
	for (uint32_t i = 0; i < f->nparams; i++) {
		struct ir_sym *p = f->params[i];
		uint32_t align = p->align ? p->align : 1;
		off = ALIGN_UP(off, align);
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
	bool reserved_smem;		/* reads %reserved_smem_offset_* */
};

/* Adds @s to the set @v of variables, once. */
static bool note_var(struct vec *v, struct ir_sym *s)
{
	for (size_t i = 0; i < v->len; i++)
		if (VEC_AT(*v, struct ir_sym *, i) == s)
			return true;
	struct ir_sym **slot = vec_push(v, sizeof(*slot));
	if (!slot)
		return false;
	*slot = s;
	return true;
}

static bool note_shared(struct reach *r, struct ir_sym *s)
{
	return note_var(&r->shared, s);
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
	if (o->kind == OPND_SREG && o->reg >= SREG_RSMEM_BEGIN &&
	    o->reg <= SREG_RSMEM_2)
		r->reserved_smem = true;
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

/* Functions an indirect call may reach: those whose address some
 * variable holds (function tables) or some code takes. */
static void add_table_targets(struct reach *r, const struct ptx_program *p)
{
	for (uint32_t i = 0; i < p->nvars; i++)
		for (uint32_t k = 0; k < p->vars[i]->nrelocs; k++)
			note_sym(r, p->vars[i]->relocs[k].target);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		if (p->addr_taken[i] && !p->funcs[i]->func->is_entry)
			note_sym(r, p->funcs[i]);
}

static bool collect_reachable(struct ptx_kernel *k, struct reach *r)
{
	r->funcs = calloc(k->prog->nfuncs + 1, sizeof(*r->funcs));
	r->seen = calloc(k->prog->nfuncs + 1, sizeof(*r->seen));
	if (!r->funcs || !r->seen)
		return false;
	note_sym(r, k->sym);
	bool tables = false;
	for (uint32_t i = 0; i < r->nfuncs; i++) {
		if (!scan_function(r, r->funcs[i]->func))
			return false;
		if (r->indirect && !tables) {
			add_table_targets(r, k->prog);
			tables = true;
		}
	}
	return true;
}

static bool layout_shared(struct ptx_kernel *k, struct reach *r)
{
	struct kernel_layout *lay = &k->layout;
	uint64_t off = 0;
	uint32_t dyn_align = 16;
	lay->shared_align = 16;
	lay->shared = arena_alloc(&k->prog->arena,
				  (r->shared.len + 1) * sizeof(*lay->shared));
	if (!lay->shared)
		return false;
	for (size_t i = 0; i < r->shared.len; i++) {
		struct ir_sym *s = VEC_AT(r->shared, struct ir_sym *, i);
		if (s->align > lay->shared_align)
			lay->shared_align = s->align;
		if (s->unsized) {
			if (s->align > dyn_align)
				dyn_align = s->align;
			continue;
		}
		off = ALIGN_UP(off, s->align ? s->align : 1);
		lay->shared[lay->nshared++] = (struct sym_offset){ s, off };
		off += s->size;
	}
	k->info.static_shared_size = (uint32_t)off;
	lay->dyn_shared_offset = (uint32_t)ALIGN_UP(off, dyn_align);
	for (size_t i = 0; i < r->shared.len; i++) {
		struct ir_sym *s = VEC_AT(r->shared, struct ir_sym *, i);
		if (s->unsized)
			lay->shared[lay->nshared++] = (struct sym_offset){
				s, lay->dyn_shared_offset };
	}
	return true;
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
	uint32_t regs = reg_estimate_live(k) + REG_ESTIMATE_OVERHEAD;
	uint32_t limit = register_limit(f, info->max_threads);
	info->num_regs = regs > limit ? limit : regs < 16 ? 16 : regs;
}

/* ---- frames ---- */

static uint64_t local_place(uint64_t *off, const struct ir_sym *s)
{
	uint64_t at = ALIGN_UP(*off, s->align ? s->align : 1);
	*off = at + s->size;
	return at;
}

static void frame_add(struct frame_layout *fl, uint64_t *off,
		      const struct ir_sym *s)
{
	fl->vars[fl->nvars++] = (struct sym_offset){ s, local_place(off, s) };

}

/* Parameters and return values of non-kernel functions, then .local and
 * .param variables, in declaration order. */
static struct frame_layout *layout_frame_of(struct ptx_kernel *k,
					    const struct ir_func *f)
{
	struct frame_layout *fl = arena_alloc(&k->prog->arena, sizeof(*fl));
	uint32_t n = f->nrets + f->nparams + f->nvars + 1;
	if (!fl || !(fl->vars = arena_alloc(&k->prog->arena,
					     n * sizeof(*fl->vars))))
		return NULL;
	fl->ir = f;
	uint64_t off = 0;
	if (!f->is_entry) {
		for (uint32_t i = 0; i < f->nrets; i++)
			if (f->rets[i]->space == SPACE_PARAM)
				frame_add(fl, &off, f->rets[i]);
		for (uint32_t i = 0; i < f->nparams; i++)
			if (f->params[i]->space == SPACE_PARAM)
				frame_add(fl, &off, f->params[i]);
	}
	for (uint32_t i = 0; i < f->nvars; i++) {
		const struct ir_sym *v = f->vars[i];
		if (v->space == SPACE_LOCAL || v->space == SPACE_PARAM)
			frame_add(fl, &off, v);
	}
	fl->local_size = (uint32_t)off;
	return fl;
}

/* Frames are stacked one after another in a thread's stack: each one's
 * size is a multiple of the largest alignment any of them asks for, so
 * every frame's base, and so every variable, is aligned. */
static void align_frames(struct kernel_layout *lay)
{
	lay->local_align = 16;
	for (uint32_t i = 0; i < lay->nreach; i++) {
		const struct frame_layout *fl = lay->frames[lay->reach[i]->id];
		for (uint32_t v = 0; v < fl->nvars; v++)
			if (fl->vars[v].sym->align > lay->local_align)
				lay->local_align = fl->vars[v].sym->align;
	}
	for (uint32_t i = 0; i < lay->nreach; i++) {
		struct frame_layout *fl = lay->frames[lay->reach[i]->id];
		fl->local_size = (uint32_t)ALIGN_UP(fl->local_size,
						    lay->local_align);
	}
}

static bool layout_frames(struct ptx_kernel *k, const struct reach *r)
{
	struct kernel_layout *lay = &k->layout;
	lay->frames = arena_alloc(&k->prog->arena, (k->prog->nfuncs + 1) *
							   sizeof(*lay->frames));
	lay->reach = arena_memdup(&k->prog->arena, r->funcs,
				  (r->nfuncs + 1) * sizeof(*r->funcs));
	if (!lay->frames || !lay->reach)
		return false;
	lay->nreach = r->nfuncs;
	for (uint32_t i = 0; i < r->nfuncs; i++) {
		struct ir_sym *fn = r->funcs[i];
		lay->frames[fn->id] = layout_frame_of(k, fn->func);
		if (!lay->frames[fn->id])
			return false;
	}
	align_frames(lay);
	return true;
}

/* ---- stacks: the deepest chain of frames along the IR's calls ---- */

struct stack_walk {
	struct kernel_layout *lay;
	uint8_t *state;		/* 0 new, 1 on the path, 2 done */
	bool recursive;
};

static void walk_stack(struct stack_walk *s, struct ir_sym *fn);

static void walk_callee(struct stack_walk *s, struct frame_layout *fl,
			struct ir_sym *callee)
{
	struct frame_layout *cl = s->lay->frames[callee->id];
	if (!cl)
		return;
	if (s->state[callee->id] == 1) {
		s->recursive = true;
		return;
	}
	walk_stack(s, callee);
	if (cl->stack_size > fl->stack_size - fl->local_size)
		fl->stack_size = fl->local_size + cl->stack_size;
}

struct ir_sym *layout_direct_callee(const struct ir_insn *in, bool *indirect)
{
	unsigned t = in->nopnds && in->opnd[0].kind == OPND_LIST ? 1 : 0;
	*indirect = false;
	if (t >= in->nopnds)
		return NULL;
	const struct ir_operand *o = &in->opnd[t];
	if (o->kind == OPND_REG) {
		*indirect = true;
		return NULL;
	}
	struct ir_sym *fn = o->kind == OPND_SYM && o->sym ? o->sym->def : NULL;
	return fn && fn->kind == SYM_FUNC && fn->func && fn->func->has_body ?
		       fn : NULL;
}

static void walk_stack(struct stack_walk *s, struct ir_sym *fn)
{
	struct frame_layout *fl = s->lay->frames[fn->id];
	if (s->state[fn->id] == 2)
		return;
	s->state[fn->id] = 1;
	fl->stack_size = fl->local_size;
	const struct ir_func *f = fn->func;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		if (f->insns[i].op != OP_CALL)
			continue;
		bool indirect;
		struct ir_sym *callee = layout_direct_callee(&f->insns[i],
							     &indirect);
		if (callee)
			walk_callee(s, fl, callee);
		for (uint32_t r = 0; indirect && r < s->lay->nreach; r++)
			walk_callee(s, fl, s->lay->reach[r]);
	}
	s->state[fn->id] = 2;
}

static bool layout_stack(struct ptx_kernel *k)
{
	struct kernel_layout *lay = &k->layout;
	struct stack_walk s = { .lay = lay };
	s.state = calloc(k->prog->nfuncs + 1, 1);
	if (!s.state)
		return false;
	walk_stack(&s, k->sym);
	free(s.state);
	lay->recursive = s.recursive;
	lay->local_stride = lay->frames[k->sym->id]->stack_size;
	if (s.recursive)
		lay->local_stride += RECURSION_STACK;
	lay->local_stride = ALIGN_UP(lay->local_stride, lay->local_align);
	k->info.local_size = (uint32_t)lay->local_stride;
	return true;
}

/* ---- the kernel ---- */

bool layout_kernel(struct ptx_kernel *k, struct msgbuf *log, int *status)
{
	struct reach r = { 0 };
	bool ok = layout_params(k) && collect_reachable(k, &r) &&
		  layout_shared(k, &r) && layout_frames(k, &r) &&
		  layout_stack(k);
	k->layout.reserved_smem = r.reserved_smem;
	free(r.funcs);
	free(r.seen);
	vec_free(&r.shared);
	if (!ok) {
		msg_printf(log, "out of memory laying out %s", k->sym->name);
		*status = PTX_ERR_NO_MEMORY;
		return false;
	}
	fill_info(k);
	return true;
}

const struct frame_layout *layout_frame(const struct ptx_kernel *k,
					const struct ir_sym *fn)
{
	fn = fn ? fn->def : NULL;
	return fn && fn->id < k->prog->nfuncs &&
			       k->prog->funcs[fn->id] == fn ?
		       k->layout.frames[fn->id] :
		       NULL;
}

static bool find_offset(const struct sym_offset *t, uint32_t n,
			const struct ir_sym *s, uint64_t *offset)
{
	for (uint32_t i = 0; i < n; i++)
		if (t[i].sym == s) {
			*offset = t[i].offset;
			return true;
		}
	return false;
}

bool layout_offset(const struct ptx_kernel *k, const struct ir_sym *s,
		   uint64_t *offset)
{
	if (s->space == SPACE_SHARED)
		return find_offset(k->layout.shared, k->layout.nshared, s,
				   offset);
	if (is_kernel_param(s)) {
		const struct ir_func *f = s->owner;
		for (uint32_t i = 0; f == k->sym->func && i < f->nparams; i++)
			if (f->params[i] == s) {
				*offset = k->params[i].offset;
				return true;
			}
		return false;
	}
	const struct frame_layout *fl = s->owner ?
					layout_frame(k, s->owner->sym) : NULL;
	return fl && find_offset(fl->vars, fl->nvars, s, offset);
}
