// SPDX-License-Identifier: MIT
/*
 * Memory instructions: ld, ldu, st (every space, scalar and vector),
 * cvta, isspacep, prefetch, and cp.async done synchronously. Every access
 * is checked: alignment, the bounds of shared, local and parameter
 * memory, and the launch's global ranges when it has some.
 */
#include "lanes.h"

/* ---- address checks: the run-time helpers, located on failure ---- */

static bool in_block(uint64_t addr, unsigned size, const void *base,
		     uint64_t len)
{
	uint64_t b = (uintptr_t)base;
	return addr >= b && addr - b + size <= len;
}

uint8_t *mem_host(struct warp *w, const struct xinsn *ip, enum xspace sp,
		  uint32_t lane, uint64_t addr, unsigned size, bool write)
{
	struct rt_cta *c = &w->cta->rt;
	uint32_t t = warp_thread(w, lane);
	uint8_t *p;
	switch (sp) {
	case XS_SHARED:
		p = rt_shared(c, t, addr, size);
		break;
	case XS_LOCAL:
		/* the lane's stack, from the frame base of its warp */
		p = rt_local(c, t, addr, size);
		break;
	case XS_KPARAM:
		p = rt_param(c, t, addr, size, write);
		break;
	default:
		p = rt_global(c, t, addr, size, write);
		break;
	}
	if (!p)
		xfault_located(w, ip);
	return p;
}

/* ---- loads and stores ---- */

static inline uint64_t load(const uint8_t *p, unsigned size, bool sign)
{
	switch (size) {
	case 1: {
		uint8_t v = *p;
		return sign ? (uint64_t)(int64_t)(int8_t)v : v;
	}
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return sign ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return sign ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
}

static inline void store(uint8_t *p, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		*p = (uint8_t)v;
		break;
	case 2: {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;
		memcpy(p, &x, 4);
		break;
	}
	default:
		memcpy(p, &v, 8);
	}
}

static inline uint64_t base_offset(const struct warp *w,
				   const struct xinsn *ip)
{
	return (uint64_t)ip->imm + (ip->frame_rel ? w->local_base : 0);
}

/* Global loads of a whole warp with no range checks: the common case of
 * the host harness. */
static const struct xinsn *ld_fast(struct warp *w, const struct xinsn *ip,
				   uint32_t m)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t *d = xr(w, ip->d);
	uint64_t off = base_offset(w, ip);
	unsigned size = ip->size;
	bool sign = ip->mode;
	FOR_LANES(m, l) {
		uint64_t addr = pa[l] + off;
		if (addr < 4096 || (addr & (size - 1))) {
			mem_host(w, ip, XS_GLOBAL, l, addr, size, false);
			return NULL;	/* it faulted */
		}
		d[l] = load((const uint8_t *)(uintptr_t)addr, size, sign);
	}
	return ip + 1;
}

static inline const struct xinsn *ld_lanes(struct warp *w,
					   const struct xinsn *ip,
					   enum xspace sp)
{
	uint32_t m = xmask(w, ip);
	if (sp == XS_GLOBAL && ip->vec == 1 && !w->cta->rt.launch->ranges)
		return ld_fast(w, ip, m);
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	unsigned size = ip->size, n = ip->vec;
	const xref *dst = n > 1 ? (const xref *)ip->aux : &ip->d;
	uint64_t *d[8];
	for (unsigned i = 0; i < n; i++)
		d[i] = xr(w, dst[i]);
	FOR_LANES(m, l) {
		uint8_t *p = mem_host(w, ip, sp, l, pa[l] + off, size * n,
				      false);
		if (!p)
			return NULL;
		for (unsigned i = 0; i < n; i++)
			d[i][l] = load(p + i * size, size, ip->mode);
	}
	if (ip->mode16 == MOD_ACQUIRE)
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ip + 1;
}

static inline const struct xinsn *st_lanes(struct warp *w,
					   const struct xinsn *ip,
					   enum xspace sp)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	unsigned size = ip->size, n = ip->vec;
	const xref *src = n > 1 ? (const xref *)ip->aux : &ip->b;
	const uint64_t *s[8];
	for (unsigned i = 0; i < n; i++)
		s[i] = xr(w, src[i]);
	if (ip->mode16 == MOD_RELEASE)
		__atomic_thread_fence(__ATOMIC_RELEASE);
	FOR_LANES(m, l) {
		uint8_t *p = mem_host(w, ip, sp, l, pa[l] + off, size * n,
				      true);
		if (!p)
			return NULL;
		for (unsigned i = 0; i < n; i++)
			store(p + i * size, size, s[i][l]);
	}
	return ip + 1;
}

#define DEF_MEM(space, SP)                                                  \
	static const struct xinsn *ld_##space(struct warp *w,               \
					      const struct xinsn *ip)       \
	{                                                                   \
		return ld_lanes(w, ip, SP);                                 \
	}                                                                   \
	static const struct xinsn *st_##space(struct warp *w,               \
					      const struct xinsn *ip)       \
	{                                                                   \
		return st_lanes(w, ip, SP);                                 \
	}
DEF_MEM(global, XS_GLOBAL)
DEF_MEM(shared, XS_SHARED)
DEF_MEM(local, XS_LOCAL)
DEF_MEM(kparam, XS_KPARAM)

static const xhandler ld_handlers[] = { ld_global, ld_shared, ld_local,
					ld_kparam };
static const xhandler st_handlers[] = { st_global, st_shared, st_local,
					st_kparam };

/* ---- cvta, isspacep ---- */

static uint64_t window_base(struct warp *w, enum xspace sp, uint32_t lane)
{
	switch (sp) {
	case XS_SHARED:
		return (uintptr_t)w->cta->rt.shared;
	case XS_LOCAL:
		return (uintptr_t)w->lane_local[lane];
	case XS_KPARAM:
		return (uintptr_t)w->cta->rt.launch->params;
	default:
		return 0;
	}
}

static const struct xinsn *x_cvta(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	enum xspace sp = (enum xspace)ip->mode;
	bool to_space = ip->flags >> FL_TO & 1;
	FOR_LANES(m, l) {
		uint64_t base = window_base(w, sp, l);
		uint64_t a = pa[l];
		if (sp != XS_GLOBAL && !to_space)
			a = (uint32_t)a;
		d[l] = to_space ? a - base : a + base;
	}
	return ip + 1;
}

static const struct xinsn *x_isspacep(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip), r = 0;
	const uint64_t *pa = xr(w, ip->a);
	struct cta *cta = w->cta;
	enum xspace sp = (enum xspace)ip->mode;
	FOR_LANES(m, l) {
		bool sh = in_block(pa[l], 1, cta->rt.shared, cta->rt.shared_size);
		bool lo = in_block(pa[l], 1, w->lane_local[l],
				   cta->rt.kernel->layout.local_stride);
		bool in = sp == XS_SHARED ? sh :
			  sp == XS_LOCAL  ? lo :
			  sp == XS_KPARAM ? in_block(pa[l], 1,
						     cta->rt.launch->params,
						     cta->rt.kernel->info.param_size) :
					    !sh && !lo;
		r |= (uint32_t)in << l;
	}
	uint32_t *d = xpred(w, ip->d);
	*d = (*d & ~m) | r;
	return ip + 1;
}

/* ---- cp.async, done at once ---- */

static const struct xinsn *x_cp_async(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pd = xr(w, ip->d), *ps = xr(w, ip->a);
	const uint64_t *psz = ip->b ? xr(w, ip->b) : NULL;
	const int64_t *off = ip->aux;	/* destination, source offsets */
	unsigned n = ip->size;
	FOR_LANES(m, l) {
		uint8_t *dst = mem_host(w, ip, XS_SHARED, l,
					pd[l] + (uint64_t)off[0], n, true);
		uint32_t copy = psz ? (uint32_t)psz[l] : n;
		copy = copy < n ? copy : n;
		uint64_t sa = ps[l] + (uint64_t)off[1];
		if (dst && (sa & (n - 1)))
			return xfault(w, ip, PTX_FAULT_MISALIGNED, l, sa,
				      "misaligned %u-byte copy from 0x%llx", n,
				      (unsigned long long)sa);
		uint8_t *src = dst;
		if (dst && copy) {	/* first and last byte in range */
			src = mem_host(w, ip, XS_GLOBAL, l, sa, 1, false);
			if (src && !mem_host(w, ip, XS_GLOBAL, l,
					     sa + copy - 1, 1, false))
				src = NULL;
		}
		if (!dst || !src)
			return NULL;
		memcpy(dst, src, copy);
		memset(dst + copy, 0, n - copy);
	}
	return ip + 1;
}

static const struct xinsn *x_nop(struct warp *w, const struct xinsn *ip)
{
	(void)w;
	return ip + 1;
}

/* ---- lowering ---- */

static bool vector_refs(struct lower_ctx *c, const struct ir_operand *v,
			unsigned n, bool dst, unsigned t, xref **out)
{
	xref *e = arena_alloc(&c->prog->arena, n * sizeof(*e));
	if (!e)
		return lower_nomem(c);
	for (unsigned i = 0; i < n; i++) {
		const struct ir_operand *o = &ir_vec_elems(c->f, v)[i];
		if (!(dst ? ref_dst(c, o, &e[i]) : ref_src(c, o, t, &e[i])))
			return false;
	}
	*out = e;
	return true;
}

static bool lower_ldst_b128(struct lower_ctx *c, const struct ir_insn *in,
			    bool is_store);

static bool lower_ldst(struct lower_ctx *c, const struct ir_insn *in,
		       bool is_store)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t), n = in->vec;
	if (size == 16 && n == 1 && in->opnd[is_store].kind == OPND_REG)
		return lower_ldst_b128(c, in, is_store);
	if (in->nopnds != 2 || !size || size > 8 || n > 8)
		return lower_unsupported(c, "type or operands");
	const struct ir_operand *addr = &in->opnd[is_store ? 0 : 1];
	const struct ir_operand *val = &in->opnd[is_store ? 1 : 0];
	if ((n > 1) != (val->kind == OPND_VEC) || (n > 1 && val->reg2 != n))
		return lower_unsupported(c, "vector operand");
	xref base, v = 0, *vec = NULL;
	int64_t off;
	enum xspace sp;
	bool frame_rel;
	if (!ref_addr(c, addr, in->space, &base, &off, &sp, &frame_rel))
		return false;
	if (n > 1 ? !vector_refs(c, val, n, !is_store, t, &vec) :
		    !(is_store ? ref_src(c, val, t, &v) : ref_dst(c, val, &v)))
		return false;
	struct xinsn *x = emit(c, is_store ? st_handlers[sp] : ld_handlers[sp]);
	if (!x)
		return lower_nomem(c);
	x->a = base;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->size = (uint8_t)size;
	x->vec = (uint8_t)n;
	x->aux = vec;
	x->mode = ptx_type_is_signed(t);
	x->mode16 = in->sem;
	if (is_store)
		x->b = v;
	else
		x->d = v;
	return true;
}

/* ld/st .b128: the register's two 64-bit halves, as a .v2.b64 access
 * (16-byte aligned, as the ISA requires). */
static bool lower_ldst_b128(struct lower_ctx *c, const struct ir_insn *in,
			    bool is_store)
{
	const struct ir_operand *addr = &in->opnd[is_store ? 0 : 1];
	const struct ir_operand *val = &in->opnd[is_store ? 1 : 0];
	xref base, *vec = arena_alloc(&c->prog->arena, 2 * sizeof(xref));
	int64_t off;
	enum xspace sp;
	bool frame_rel;
	if (in->nopnds != 2 || ptx_type_size(reg_type(c, val)) != 16)
		return lower_unsupported(c, "b128 operands");
	if (!vec)
		return lower_nomem(c);
	if (!ref_addr(c, addr, in->space, &base, &off, &sp, &frame_rel) ||
	    !ref_src(c, val, PTX_T_B64, &vec[0]))
		return false;
	vec[1] = vec[0] + LANE_BYTES;
	struct xinsn *x = emit(c, is_store ? st_handlers[sp] : ld_handlers[sp]);
	if (!x)
		return lower_nomem(c);
	x->a = base;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->size = 8;
	x->vec = 2;
	x->aux = vec;
	x->mode16 = in->sem;
	return true;
}

static bool lower_cp(struct lower_ctx *c, const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == MOD_MBARRIER)
			return lower_mbarrier(c, in);
	if (in->has_raw)
		return lower_unsupported(c, NULL);
	if (in->mode2 == MOD_COMMIT_GROUP || in->mode2 == MOD_WAIT_GROUP ||
	    in->mode2 == MOD_WAIT_ALL)
		return emit(c, x_nop) ? true : lower_nomem(c);
	if (in->mode != MOD_ASYNC || in->mode2 || in->has_raw ||
	    in->nopnds < 3 || in->opnd[2].kind != OPND_IMM)
		return lower_unsupported(c, NULL);
	xref dbase, sbase, srcsize = 0;
	int64_t doff, soff;
	enum xspace dsp, ssp;
	bool drel, srel;
	if (!ref_addr(c, &in->opnd[0], SPACE_SHARED, &dbase, &doff, &dsp,
		      &drel) ||
	    !ref_addr(c, &in->opnd[1], SPACE_GLOBAL, &sbase, &soff, &ssp,
		      &srel))
		return false;
	if (dsp != XS_SHARED || ssp != XS_GLOBAL || drel || srel)
		return lower_unsupported(c, "state spaces");
	if (in->nopnds > 3 && !ref_src(c, &in->opnd[3], PTX_T_U32, &srcsize))
		return false;
	int64_t *off = arena_alloc(&c->prog->arena, 2 * sizeof(*off));
	struct xinsn *x = off ? emit(c, x_cp_async) : NULL;
	if (!x)
		return lower_nomem(c);
	off[0] = doff;
	off[1] = soff;
	x->aux = off;
	x->d = dbase;
	x->a = sbase;
	x->b = srcsize;
	x->size = (uint8_t)in->opnd[2].imm;
	return true;
}

bool lower_mem(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_U64;
	switch (in->op) {
	case OP_LD:
	case OP_LDU:
		return lower_ldst(c, in, false);
	case OP_ST:
		return lower_ldst(c, in, true);
	case OP_CVTA:
	case OP_ISSPACEP:
		if (!emit_alu(c, in, in->op == OP_CVTA ? x_cvta : x_isspacep,
			      t, 1))
			return false;
		last_emitted(c)->mode = (uint8_t)space_class(c, in->space);
		return true;
	case OP_PREFETCH:
	case OP_PREFETCHU:
		return emit(c, x_nop) ? true : lower_nomem(c);
	case OP_CP:
		return lower_cp(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}
