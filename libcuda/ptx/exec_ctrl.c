// SPDX-License-Identifier: MIT
/*
 * Control instructions: branches (with divergence), calls and returns,
 * exit, trap, CTA barriers, fences and sleeps.
 */
#include "lower.h"
#include "builtin.h"

#include <stdlib.h>

/* ---- branches ---- */

/* Taken backward branches count down; at zero the warp yields, so that
 * warps spinning on memory let the others run. */
static inline const struct xinsn *backward(struct warp *w,
					   const struct xinsn *next)
{
	if (--w->budget)
		return next;
	w->budget = w->cta->branch_budget;
	w->ip = next;
	return NULL;
}

static const struct xinsn *x_jmp(struct warp *w, const struct xinsn *ip)
{
	return ip->target <= ip ? backward(w, ip->target) : ip->target;
}

static const struct xinsn *x_bra(struct warp *w, const struct xinsn *ip)
{
	uint32_t active = w->active;
	uint32_t taken = xmask(w, ip);
	const struct xinsn *next;
	if (taken == active) {
		next = ip->target;
	} else if (!taken) {
		return ip + 1;
	} else {
		const struct xinsn *t[2] = { ip->target, ip + 1 };
		uint32_t m[2] = { taken, active & ~taken };
		next = warp_diverge(w, ip->reconv, t, m, 2);
		if (!next)
			return NULL;
	}
	return ip->target <= ip ? backward(w, next) : next;
}

/* brx.idx: each lane picks a target from a table. */
static const struct xinsn *x_brx(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const struct xinsn *const *table = ip->aux;
	const uint64_t *idx = xr(w, ip->a);
	const struct xinsn *targets[WARP_SIZE + 1];
	uint32_t masks[WARP_SIZE + 1], n = 0;
	FOR_LANES(m, l) {
		uint32_t i = (uint32_t)idx[l];
		if (i >= ip->vec)
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l,
				      0, "brx.idx index %u of %u", i, ip->vec);
		uint32_t g = 0;
		while (g < n && targets[g] != table[i])
			g++;
		if (g == n) {
			targets[n] = table[i];
			masks[n++] = 0;
		}
		masks[g] |= 1u << l;
	}
	uint32_t rest = w->active & ~m;
	if (rest) {	/* guarded: the others fall through */
		targets[n] = ip + 1;
		masks[n++] = rest;
	}
	if (n == 1)
		return targets[0];
	return warp_diverge(w, ip->reconv, targets, masks, n);
}

/* ---- calls ---- */

static uint64_t *frame_reg(struct warp *w, uint64_t frame, xref r)
{
	if ((r & 3) == SEL_FRAME)
		return (uint64_t *)(w->regs + frame + (r & ~(uintptr_t)3));
	return xr(w, r);
}

/* Copies one argument or result for the lanes of @m. */
static void copy_arg(struct warp *w, uint32_t m, const struct xcall_arg *src,
		     uint64_t sframe, uint64_t slocal,
		     const struct xcall_arg *dst, uint64_t dframe,
		     uint64_t dlocal)
{
	uint32_t size = src->size < dst->size ? src->size : dst->size;
	if (!src->reg && !dst->reg) {
		FOR_LANES(m, l)
			memcpy(w->lane_local[l] + dlocal + dst->mem,
			       w->lane_local[l] + slocal + src->mem, size);
		return;
	}
	if (size > 8)
		size = 8;
	const uint64_t *s = src->reg ? frame_reg(w, sframe, src->reg) : NULL;
	uint64_t *d = dst->reg ? frame_reg(w, dframe, dst->reg) : NULL;
	FOR_LANES(m, l) {
		uint64_t v = 0;
		if (s)
			v = s[l];
		else
			memcpy(&v, w->lane_local[l] + slocal + src->mem, size);
		if (d)
			d[l] = v;
		else
			memcpy(w->lane_local[l] + dlocal + dst->mem, &v, size);
	}
}

/* Callee-side location of parameter @i (or return value) of @f. */
static struct xcall_arg callee_arg(const struct xfunc *f, uint32_t i,
				   bool ret)
{
	return ret ? f->ret_args[i] : f->param_args[i];
}

static const struct xinsn *do_call(struct warp *w, const struct xinsn *ip,
				   const struct xfunc *callee,
				   const struct xcall *call, uint32_t m)
{
	const struct xfunc *caller = w->func;
	const struct ptx_kernel *k = w->cta->rt.kernel;
	uint64_t frame = w->frame + caller->frame_size;
	uint64_t local = w->local_base + caller->local_size;
	if (local + callee->local_size > k->layout.local_stride)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION,
			      (uint32_t)__builtin_ctz(m), 0,
			      "stack overflow calling %s",
			      callee->ir->sym->name);
	if (!warp_grow_regs(w, frame + callee->frame_size))
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "out of memory for registers");
	/* fresh registers read as zero, as the kernel's do: runs repeat */
	memset(w->regs + frame, 0, callee->frame_size);
	uint32_t n = call->nargs < callee->ir->nparams ? call->nargs :
							 callee->ir->nparams;
	for (uint32_t i = 0; i < n; i++) {
		struct xcall_arg to = call->callee ? call->params[i] :
						     callee_arg(callee, i, false);
		copy_arg(w, m, &call->args[i], w->frame, w->local_base, &to,
			 frame, local);
	}
	struct stack_entry e = { .mask = m, .kind = ENTRY_CALL,
				 .caller = caller, .caller_frame = w->frame,
				 .caller_local = w->local_base };
	w->stack[w->depth - 1].pc = ip + 1;
	if (!warp_push(w, &e))
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "out of memory for the call stack");
	w->calls++;
	w->func = callee;
	w->frame = frame;
	w->base[SEL_FRAME] = (uintptr_t)(w->regs + frame);
	w->local_base = local;
	w->active = m;
	return callee->code;
}

static const struct xinsn *x_call(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const struct xcall *call = ip->aux;
	return do_call(w, ip, call->callee, call, m);
}

static const struct xfunc *indirect_target(struct warp *w,
					   const struct xinsn *ip,
					   uint64_t value)
{
	const struct xcall *call = ip->aux;
	uint64_t id = (value - FUNC_ADDR_BASE) / FUNC_ADDR_STRIDE;
	if (value < FUNC_ADDR_BASE || (value - FUNC_ADDR_BASE) %
						  FUNC_ADDR_STRIDE ||
	    id >= ik(call->kernel)->nfuncs || !ik(call->kernel)->funcs[id])
		return NULL;
	(void)w;
	return ik(call->kernel)->funcs[id];
}

/* Lanes calling different functions call them one group at a time: the
 * others wait in an entry that comes back to this call. */
static const struct xinsn *x_call_indirect(struct warp *w,
					   const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const uint64_t *target = xr(w, ip->a);
	uint32_t first = (uint32_t)__builtin_ctz(m);
	const struct xfunc *callee = indirect_target(w, ip, target[first]);
	if (!callee)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, first,
			      target[first], "call through a bad pointer");
	uint32_t group = 0;
	FOR_LANES(m, l)
		if (target[l] == target[first])
			group |= 1u << l;
	if (group != m) {
		const struct xinsn *after = ip->reconv;
		struct stack_entry *top = &w->stack[w->depth - 1];
		struct stack_entry rest = { .pc = ip, .rpc = after,
					    .mask = m & ~group,
					    .kind = ENTRY_NORMAL };
		struct stack_entry mine = { .rpc = after, .mask = group,
					    .kind = ENTRY_NORMAL };
		top->pc = after;
		if (!warp_push(w, &rest) || !warp_push(w, &mine))
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0,
				      0, "out of memory for the SIMT stack");
		w->active = group;
	}
	return do_call(w, ip, callee, ip->aux, group);
}

bool xinsn_is_call(const struct xinsn *x)
{
	return x->fn == x_call || x->fn == x_call_indirect;
}

/* After the call returns: results from the callee's frame. */
static const struct xinsn *x_callret(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const struct xcall *call = ip->aux;
	const struct xfunc *callee = call->callee;
	if (!callee) {
		const uint64_t *target = xr(w, ip->a);
		callee = indirect_target(w, ip, target[__builtin_ctz(m)]);
	}
	uint64_t frame = w->frame + w->func->frame_size;
	uint64_t local = w->local_base + w->func->local_size;
	uint32_t n = call->nrets < callee->ir->nrets ? call->nrets :
						       callee->ir->nrets;
	for (uint32_t i = 0; i < n; i++) {
		struct xcall_arg from = call->callee ?
						call->retparams[i] :
						callee_arg(callee, i, true);
		copy_arg(w, m, &from, frame, local, &call->rets[i], w->frame,
			 w->local_base);
	}
	return ip + 1;
}

static const struct xinsn *leave(struct warp *w, const struct xinsn *ip,
				 uint32_t m, bool to_call)
{
	warp_remove_lanes(w, m, to_call);
	if (!to_call)
		w->live &= ~m;
	uint32_t left = w->stack[w->depth - 1].mask;
	if (left) {
		w->active = left;
		return ip + 1;
	}
	return warp_resume(w);
}

const struct xinsn *x_ret(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	return leave(w, ip, m, w->calls > 0);
}

static const struct xinsn *x_exit(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	return leave(w, ip, m, false);
}

static const struct xinsn *x_trap(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	return xfault(w, ip, PTX_FAULT_TRAP, (uint32_t)__builtin_ctz(m), 0,
		      "%s", ip->op == OP_BRKPT ? "brkpt" : "trap");
}

const struct xinsn *x_reconv(struct warp *w, const struct xinsn *ip)
{
	const struct stack_entry *top = &w->stack[w->depth - 1];
	if (top->rpc != ip || top->kind != ENTRY_NORMAL)
		return ip + 1;
	w->depth--;
	return warp_resume(w);
}

/* ---- barriers, fences, sleep ---- */

enum { BAR_SYNC, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };

static const struct xinsn *x_bar(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	uint32_t first = (uint32_t)__builtin_ctz(m);
	uint32_t id = (uint32_t)xr(w, ip->a)[first];
	uint32_t count = ip->b ? (uint32_t)xr(w, ip->b)[first] : 0;
	if (id >= RT_MAX_BARRIERS)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, first, 0,
			      "barrier %u", id);
	w->bar_dst = 0;
	if (ip->mode == BAR_ARRIVE) {
		barrier_arrive(w, id, count, false);
		return ip + 1;
	}
	if (ip->mode != BAR_SYNC) {
		uint32_t p = (*xpred(w, ip->c) ^ ip->pneg[2]) & m;
		rt_barrier_vote(&w->cta->bars[id],
				(uint32_t)__builtin_popcount(m),
				(uint32_t)__builtin_popcount(p));
		w->bar_dst = ip->d;
		w->bar_redop = (uint8_t)(ip->mode - BAR_RED_POPC);
	}
	if (!barrier_arrive(w, id, count, true))
		return ip + 1;	/* we completed it */
	w->ip = ip + 1;
	return NULL;
}

static const struct xinsn *x_nop(struct warp *w, const struct xinsn *ip)
{
	(void)w;
	return ip + 1;
}

static const struct xinsn *x_fence(struct warp *w, const struct xinsn *ip)
{
	(void)w;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return ip + 1;
}

/* nanosleep: let the other warps of the CTA run. */
static const struct xinsn *x_yield(struct warp *w, const struct xinsn *ip)
{
	if (!xmask(w, ip))
		return ip + 1;
	w->ip = ip + 1;
	return NULL;
}

/* ---- lowering ---- */

static bool lower_bra(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->nopnds != 1 || in->opnd[0].kind != OPND_LABEL)
		return lower_unsupported(c, "branch target");
	struct xinsn *x = emit(c, in->guarded ? x_bra : x_jmp);
	if (!x || !lower_branch_fix(c, ir_label_block(c->f, in->opnd[0].reg),
				    false))
		return lower_nomem(c);
	return lower_branch_fix(c, c->f->blocks[in->block].ipdom, true);
}

static bool lower_brx(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->nopnds != 2 || in->opnd[1].kind != OPND_LABEL)
		return lower_unsupported(c, "jump table");
	const struct ir_label *t = &c->f->labels[in->opnd[1].reg];
	if (t->kind != LABEL_BRANCHTARGETS || !t->count)
		return lower_unsupported(c, "not a .branchtargets list");
	if (t->count > 255)
		return lower_unsupported(c, "more than 255 targets");
	uintptr_t *table = arena_alloc(&c->prog->arena,
				       t->count * sizeof(*table));
	xref index;
	if (!table)
		return lower_nomem(c);
	/* operands first: they may emit helpers ahead of the instruction */
	if (!ref_src(c, &in->opnd[0], PTX_T_U32, &index))
		return false;
	for (uint32_t i = 0; i < t->count; i++)
		table[i] = ir_label_block(
			c->f, c->f->vec_opnds[t->first + i].reg);
	struct xinsn *x = emit(c, x_brx);
	if (!x)
		return lower_nomem(c);
	x->a = index;
	x->aux = table;
	x->vec = (uint8_t)t->count;
	return lower_branch_fix(c, c->f->blocks[in->block].ipdom, true);
}

/* Caller-side location of a call argument or result. */
static bool caller_arg(struct lower_ctx *c, const struct ir_operand *o,
		       uint32_t size, struct xcall_arg *a)
{
	a->size = size;
	if (o->kind == OPND_SYM && o->sym->def &&
	    o->sym->def->kind == SYM_VAR &&
	    o->sym->def->space == SPACE_PARAM && !is_kernel_param(o->sym->def)) {
		uint64_t off;
		if (!layout_offset(c->kernel, o->sym->def, &off))
			return lower_unsupported(c, "argument not in a frame");
		a->mem = (uint32_t)off;
		a->size = (uint32_t)o->sym->def->size;
		return true;
	}
	if (o->kind == OPND_REG || o->kind == OPND_IMM)
		return ref_src(c, o, PTX_T_B64, &a->reg);
	return lower_unsupported(c, "call argument");
}

static bool lower_call_lists(struct lower_ctx *c, const struct ir_operand *rets,
			     const struct ir_operand *args,
			     const struct xfunc *callee, struct xcall *call)
{
	struct arena *a = &c->prog->arena;
	call->nrets = rets ? rets->reg2 : 0;
	call->nargs = args ? args->reg2 : 0;
	call->args = arena_alloc(a, (call->nargs + 1) * sizeof(*call->args));
	call->params = arena_alloc(a, (call->nargs + 1) * sizeof(*call->args));
	call->rets = arena_alloc(a, (call->nrets + 1) * sizeof(*call->args));
	call->retparams = arena_alloc(a, (call->nrets + 1) *
						 sizeof(*call->args));
	if (!call->args || !call->params || !call->rets || !call->retparams)
		return lower_nomem(c);
	if (callee && call->nargs > callee->ir->nparams)
		return lower_unsupported(c, "arguments do not match");
	for (uint32_t i = 0; i < call->nargs; i++) {
		if (callee)
			call->params[i] = callee_arg(callee, i, false);
		if (!caller_arg(c, &ir_vec_elems(c->f, args)[i],
				callee ? call->params[i].size : 8,
				&call->args[i]))
			return false;
	}
	/*
	 * Return slots the callee does not fill keep what they held:
	 * numba declares a C function returning void with a return value,
	 * and NVIDIA's linker accepts that call (it reports the prototypes'
	 * difference, and links); the value read back is undefined.
	 */
	for (uint32_t i = 0; i < call->nrets; i++) {
		bool filled = callee && i < callee->ir->nrets;
		if (filled)
			call->retparams[i] = callee_arg(callee, i, true);
		if (!caller_arg(c, &ir_vec_elems(c->f, rets)[i],
				filled ? call->retparams[i].size : 8,
				&call->rets[i]))
			return false;
	}
	return true;
}

static bool lower_indirect_targets(struct lower_ctx *c)
{
	for (uint32_t i = 0; i < c->prog->nfuncs; i++) {
		struct ir_sym *f = c->prog->funcs[i];
		if (f->func->is_entry || !c->prog->addr_taken[i])
			continue;
		if (!lower_function(c, f))
			return false;
	}
	return true;
}

static bool lower_call(struct lower_ctx *c, const struct ir_insn *in)
{
	uint32_t i = 0;
	const struct ir_operand *rets = NULL, *args = NULL;
	if (i < in->nopnds && in->opnd[i].kind == OPND_LIST)
		rets = &in->opnd[i++];
	if (i >= in->nopnds)
		return lower_unsupported(c, "no callee");
	const struct ir_operand *target = &in->opnd[i++];
	if (i < in->nopnds && in->opnd[i].kind == OPND_LIST)
		args = &in->opnd[i++];
	struct xcall *call = arena_alloc(&c->prog->arena, sizeof(*call));
	if (!call)
		return lower_nomem(c);
	call->kernel = c->kernel;
	const struct xfunc *callee = NULL;
	if (target->kind == OPND_SYM) {
		struct ir_sym *s = target->sym->def;
		if (s && s->kind == SYM_FUNC && !s->func->has_body)
			return lower_builtin_call(c, in, s, rets, args);
		if (!s || s->kind != SYM_FUNC)
			return lower_unsupported(c, "call target");
		callee = lower_function(c, s);
		if (!callee)
			return false;
	} else if (target->kind != OPND_REG ||
		   !lower_indirect_targets(c)) {
		return c->status ? false : lower_unsupported(c, "call target");
	}
	call->callee = callee;
	xref target_ref = 0;
	if (!lower_call_lists(c, rets, args, callee, call) ||
	    (!callee && !ref_src(c, target, PTX_T_U64, &target_ref)))
		return false;
	struct xinsn *x = emit(c, callee ? x_call : x_call_indirect);
	if (!x)
		return lower_nomem(c);
	uint32_t call_xi = (uint32_t)c->code.len - 1;
	x->aux = call;
	x->a = target_ref;
	if (rets) {
		struct xinsn *r = emit(c, x_callret);
		if (!r)
			return lower_nomem(c);
		r->aux = call;
		r->a = target_ref;
	}
	if (!callee) {
		/* groups of lanes with other targets come back to the call */
		c->in = NULL;
		if (!emit(c, x_reconv))
			return lower_nomem(c);
		return lower_reconv_insn(c, call_xi,
					 (uint32_t)c->code.len - 1);
	}
	return true;
}

static bool lower_barrier(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->flags & (1u << FL_WARP))
		return emit(c, x_nop) ? true : lower_nomem(c);
	if (in->scope && in->scope != MOD_CTA)
		return lower_unsupported(c, "barrier scope");
	bool red = in->mode == MOD_RED;
	/* bar.red: d, a{, b}, {!}c; bar.sync/arrive: a{, b} */
	unsigned first = red, last = red ? in->nopnds - 1 : in->nopnds;
	if (red ? in->nopnds < 3 || in->nopnds > 4 : in->nopnds > 2)
		return lower_unsupported(c, "operands");
	xref d = 0, a, b = 0, p = 0;
	static const struct ir_operand zero = { .kind = OPND_IMM };
	if (red && (!ref_dst(c, &in->opnd[0], &d) ||
		    !ref_src(c, &in->opnd[last], PTX_T_PRED, &p)))
		return false;
	if (!ref_src(c, last > first ? &in->opnd[first] : &zero, PTX_T_U32,
		     &a) ||
	    (last > first + 1 &&
	     !ref_src(c, &in->opnd[first + 1], PTX_T_U32, &b)))
		return false;
	struct xinsn *x = emit(c, x_bar);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	x->c = p;
	x->pneg[2] = red && in->opnd[last].neg ? ~0u : 0;
	x->mode = !red ? (in->mode == MOD_ARRIVE ? BAR_ARRIVE : BAR_SYNC) :
		  in->mode2 == MOD_POPC ? BAR_RED_POPC :
		  in->mode2 == MOD_AND	? BAR_RED_AND :
					  BAR_RED_OR;
	return true;
}

bool lower_ctrl(struct lower_ctx *c, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_BRA:
		return lower_bra(c, in);
	case OP_BRX:
		return lower_brx(c, in);
	case OP_CALL:
		return lower_call(c, in);
	case OP_RET:
		return emit(c, x_ret) ? true : lower_nomem(c);
	case OP_EXIT:
		return emit(c, x_exit) ? true : lower_nomem(c);
	case OP_TRAP:
	case OP_BRKPT:
		return emit(c, x_trap) ? true : lower_nomem(c);
	case OP_BAR:
	case OP_BARRIER:
		return lower_barrier(c, in);
	case OP_MEMBAR:
	case OP_FENCE:
		if (in->has_raw || in->mode)
			return lower_unsupported(c, NULL);
		return emit(c, x_fence) ? true : lower_nomem(c);
	case OP_NANOSLEEP:
		return emit(c, x_yield) ? true : lower_nomem(c);
	case OP_PMEVENT:
		return emit(c, x_nop) ? true : lower_nomem(c);
	default:
		return lower_unsupported(c, NULL);
	}
}
