// SPDX-License-Identifier: MIT
/*
 * Builtin device functions in the interpreter: calls of vprintf, malloc
 * and free (run by the run-time helpers of rt_builtin.c, in lane order),
 * __assertfail (an assertion fault with CUDA's message) and the fault of
 * grid sync outside a cooperative launch (devrt_cg.c).
 */
#include "builtin.h"

#include <string.h>

struct builtin_call {
	uint32_t nargs;
	struct xcall_arg args[5];
	bool has_ret;
	struct xcall_arg ret;
};

static uint64_t arg_value(struct warp *w, const struct xcall_arg *a,
			  uint32_t lane)
{
	if (a->reg)
		return xr(w, a->reg)[lane];
	uint64_t v = 0;
	memcpy(&v, w->lane_local[lane] + w->local_base + a->mem,
	       a->size < 8 ? a->size : 8);
	return v;
}

static void set_ret(struct warp *w, const struct builtin_call *bc,
		    uint32_t lane, uint64_t v)
{
	if (!bc->has_ret)
		return;
	if (bc->ret.reg)
		xr(w, bc->ret.reg)[lane] = v;
	else
		memcpy(w->lane_local[lane] + w->local_base + bc->ret.mem, &v,
		       bc->ret.size < 8 ? bc->ret.size : 8);
}

static const struct xinsn *x_vprintf(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	FOR_LANES(m, l) {
		uint64_t f = arg_value(w, &bc->args[0], l);
		uint64_t args = bc->nargs > 1 ? arg_value(w, &bc->args[1], l) :
						0;
		int64_t n = rt_printf(&w->cta->rt, warp_thread(w, l), f, args);
		if (n < 0)
			return xfault_located(w, ip);
		set_ret(w, bc, l, (uint64_t)n);
	}
	return ip + 1;
}

static const struct xinsn *x_assertfail(struct warp *w,
					const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const struct builtin_call *bc = ip->aux;
	uint32_t l = (uint32_t)__builtin_ctz(m);
	char s[4][128] = { "?", "?", "", "?" };
	for (int i = 0; i < 4; i++) {
		if (i == 2 || (uint32_t)i >= bc->nargs)
			continue;
		uint64_t p = arg_value(w, &bc->args[i], l);
		if (p && !rt_read_string(&w->cta->rt, warp_thread(w, l), p,
					 s[i], sizeof(s[i])))
			return xfault_located(w, ip);
	}
	unsigned line = bc->nargs > 2 ? (unsigned)arg_value(w, &bc->args[2], l) :
					0;
	uint32_t t = w->index * WARP_SIZE + l;
	const uint32_t *b = w->cta->rt.launch->block, *c = w->cta->rt.ctaid;
	return xfault(w, NULL, PTX_FAULT_ASSERT, l, 0,
		      "%.50s:%u: %.50s: block: [%u,%u,%u], thread: [%u,%u,%u] "
		      "Assertion `%.60s` failed.", s[1], line, s[3], c[0], c[1],
		      c[2], t % b[0], t / b[0] % b[1], t / (b[0] * b[1]), s[0]);
}

/* ---- malloc, free ---- */

static const struct xinsn *x_malloc(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	FOR_LANES(m, l)
		set_ret(w, bc, l, rt_malloc(&w->cta->rt,
					    arg_value(w, &bc->args[0], l)));
	return ip + 1;
}

static const struct xinsn *x_free(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	FOR_LANES(m, l) {
		uint64_t p = arg_value(w, &bc->args[0], l);
		if (!rt_free(&w->cta->rt, warp_thread(w, l), p))
			return xfault_located(w, ip);
	}
	return ip + 1;
}

/* ---- cudaGraphSetConditional (rt_builtin_graph.c) ---- */

static const struct xinsn *x_graph_set_conditional(struct warp *w,
						   const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	FOR_LANES(m, l) {
		if (!rt_graph_set_conditional(&w->cta->rt, warp_thread(w, l),
					      arg_value(w, &bc->args[0], l),
					      (uint32_t)arg_value(w, &bc->args[1], l)))
			return xfault_located(w, ip);
	}
	return ip + 1;
}

/* ---- grid sync outside a cooperative launch (devrt_cg.c) ---- */

static const struct xinsn *x_cg_not_cooperative(struct warp *w,
						const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	return xfault(w, ip, PTX_FAULT_TRAP, (uint32_t)__builtin_ctz(m), 0,
		      "grid sync in a launch that is not cooperative (launch "
		      "with cuLaunchCooperativeKernel, "
		      "cudaLaunchCooperativeKernel or the cooperative launch "
		      "attribute)");
}

/* ---- lowering ---- */

bool lower_builtin_arg(struct lower_ctx *c, const struct ir_operand *o,
			struct xcall_arg *a)
{
	const struct ir_sym *s = o->kind == OPND_SYM ? o->sym->def : NULL;
	uint64_t off;
	if (s && s->kind == SYM_VAR && s->space == SPACE_PARAM &&
	    layout_offset(c->kernel, s, &off)) {
		a->mem = (uint32_t)off;
		a->size = (uint32_t)s->size;
		return true;
	}
	a->size = 8;
	return ref_src(c, o, PTX_T_B64, &a->reg);
}

static bool is_device_runtime(const char *name)
{
	static const char *const names[] = {
		"__cudaCDP", "cudaGraph", "cudaGetParameterBuffer",
		"cudaLaunchDevice", "cudaDeviceSynchronize", "cudaGetLastError",
		"cudaPeekAtLastError", "cudaStream", "cudaEvent", "cudaMalloc",
		"cudaFree", "cudaDeviceGet", "cudaFuncGetAttributes",
		"cudaOccupancy", "__nv_",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strncmp(name, names[i], strlen(names[i])))
			return true;
	return false;
}

bool lower_builtin_call(struct lower_ctx *c, const struct ir_insn *in,
			const struct ir_sym *fn, const struct ir_operand *rets,
			const struct ir_operand *args)
{
	(void)in;
	bool cdp;
	if (lower_cdp_call(c, fn, rets, args, &cdp) || cdp)
		return !c->status;
	xhandler h = !strcmp(fn->name, "vprintf")      ? x_vprintf :
		     !strcmp(fn->name, "__assertfail") ? x_assertfail :
		     !strcmp(fn->name, "malloc")       ? x_malloc :
		     !strcmp(fn->name, "free")         ? x_free :
		     !strcmp(fn->name, "cudaGraphSetConditional") ?
			x_graph_set_conditional :
		     !strcmp(fn->name, "__vcuda_cg_not_cooperative") ?
			x_cg_not_cooperative :
							 NULL;
	if (!h && is_device_runtime(fn->name))
		return lower_unsupported(c, "device runtime function");
	if (!h) {
		msg_printf(c->log, "%s:%u:%u: unresolved function '%s'",
			   c->m->name, c->in->line, c->in->col, fn->name);
		c->status = PTX_ERR_LINK;
		return false;
	}
	struct builtin_call *bc = arena_alloc(&c->prog->arena, sizeof(*bc));
	struct xinsn *x = bc ? emit(c, h) : NULL;
	if (!x)
		return lower_nomem(c);
	x->aux = bc;
	bc->nargs = args ? args->reg2 : 0;
	if (bc->nargs > ARRAY_SIZE(bc->args))
		return lower_unsupported(c, "too many arguments");
	if ((h == x_malloc || h == x_free) && bc->nargs != 1)
		return lower_unsupported(c, "arguments");
	if (h == x_graph_set_conditional && bc->nargs != 2)
		return lower_unsupported(c, "arguments");
	for (uint32_t i = 0; i < bc->nargs; i++)
		if (!lower_builtin_arg(c, &ir_vec_elems(c->f, args)[i], &bc->args[i]))
			return false;
	if (rets && rets->reg2) {
		bc->has_ret = true;
		return lower_builtin_arg(c, &ir_vec_elems(c->f, rets)[0], &bc->ret);
	}
	return true;
}
