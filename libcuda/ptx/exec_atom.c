// SPDX-License-Identifier: MIT
/*
 * atom and red on global, shared and generic addresses, one lane at a
 * time in lane order, through the run-time helper rt_atomic. Shared
 * memory is its CTA's alone, and a CTA runs on one thread: shared
 * additions of 32-bit integers (histograms) are plain ones.
 */
#include "lanes.h"

static const struct xinsn *x_atom(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);
	const uint64_t *pc = ip->c ? xr(w, ip->c) : pb;
	uint64_t *d = ip->d ? xr(w, ip->d) : NULL;
	uint64_t off = (uint64_t)ip->imm + (ip->frame_rel ? w->local_base : 0);
	FOR_LANES(m, l) {
		uint8_t *p = mem_host(w, ip, (enum xspace)ip->space, l,
				      pa[l] + off, ip->size, true);
		if (!p)
			return NULL;
		uint64_t old = rt_atomic(p, ip->size, ip->mode16, ip->mode,
					 pb[l], pc[l]);
		if (d)
			d[l] = old;
	}
	return ip + 1;
}

/* atom/red.shared.add.u32/s32: the whole warp's addresses checked at
 * once (lane by lane when that fails, to fault at the first bad one). */
static const struct xinsn *x_atom_shared_add32(struct warp *w,
					       const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uintptr_t base;
	uint64_t step;
	if (!mem_span(w, ip, XS_SHARED, m, 4, true, &base, &step))
		return x_atom(w, ip);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);
	uint64_t *d = ip->d ? xr(w, ip->d) : NULL;
	uint64_t off = (uint64_t)ip->imm + (ip->frame_rel ? w->local_base : 0);
	FOR_LANES(m, l) {
		uint32_t *p = (uint32_t *)(base + (uint32_t)(pa[l] + off));
		uint32_t old = *p;
		*p = old + (uint32_t)pb[l];
		if (d)
			d[l] = old;
	}
	return ip + 1;
}

bool lower_atom(struct lower_ctx *c, const struct ir_insn *in)
{
	bool red = in->op == OP_RED;
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE, kind;
	unsigned size = ptx_type_size(t);
	unsigned nsrc = in->mode == MOD_CAS ? 2 : 1;
	unsigned first = red ? 0 : 1;
	if (!in->mode || !rt_atom_kind(t, &kind) || size < 2 || size > 8 ||
	    in->vec > 1)
		return lower_unsupported(c, "operation or type");
	if (in->nopnds != first + 1 + nsrc)
		return lower_unsupported(c, "operand count");
	xref d = 0, a, b, cc = 0;
	int64_t off;
	enum xspace sp;
	bool frame_rel;
	if ((!red && !ref_dst(c, &in->opnd[0], &d)) ||
	    !ref_addr(c, &in->opnd[first], in->space, &a, &off, &sp,
		      &frame_rel) ||
	    !ref_src(c, &in->opnd[first + 1], t, &b) ||
	    (nsrc > 1 && !ref_src(c, &in->opnd[first + 2], t, &cc)))
		return false;
	if (sp == XS_KPARAM)
		return lower_unsupported(c, "state space");
	bool add32 = sp == XS_SHARED && size == 4 && in->mode == MOD_ADD &&
		     (kind == RT_ATOM_UINT || kind == RT_ATOM_SINT);
	struct xinsn *x = emit(c, add32 ? x_atom_shared_add32 : x_atom);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	x->c = cc;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->size = (uint8_t)size;
	x->space = (uint8_t)sp;
	x->mode = (uint8_t)kind;
	x->mode16 = in->mode;
	return true;
}
