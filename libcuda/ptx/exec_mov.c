// SPDX-License-Identifier: MIT
/* mov: registers, immediates, special registers, addresses, and the
 * packing and unpacking of vectors ({a, b} <-> one wide register). */
#include "lanes.h"

static const struct xinsn *x_mov(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *a = xr(w, ip->a);
	/* registers are whole slots: the same one, or apart (and memcpy
	 * of a known size is inlined, memmove is not) */
	if (m == FULL_MASK && d != a)
		memcpy(d, a, LANE_BYTES);
	else if (m != FULL_MASK)
		FOR_LANES(m, l)
			d[l] = a[l];
	return ip + 1;
}

static const struct xinsn *x_mov_pred(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint32_t *d = xpred(w, ip->d);
	uint32_t a = *xpred(w, ip->a) ^ ip->pneg[0];
	*d = (*d & ~m) | (a & m);
	return ip + 1;
}

/* d = {e0, e1, ...}: elements of vec->size bytes, e0 lowest. */
static const struct xinsn *x_pack(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const xref *e = ip->aux;
	unsigned bits = ip->size * 8;
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	uint64_t tmp[WARP_SIZE] = { 0 };
	for (unsigned i = 0; i < ip->vec; i++) {
		const uint64_t *s = xr(w, e[i]);
		FOR_LANES(m, l)
			tmp[l] |= (s[l] & mask) << (i * bits);
	}
	FOR_LANES(m, l)
		d[l] = tmp[l];
	return ip + 1;
}

static const struct xinsn *x_unpack(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *a = xr(w, ip->a);
	uint64_t tmp[WARP_SIZE];
	const xref *e = ip->aux;
	unsigned bits = ip->size * 8;
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	FOR_LANES(m, l)
		tmp[l] = a[l];
	for (unsigned i = 0; i < ip->vec; i++) {
		uint64_t *d = xr(w, e[i]);
		FOR_LANES(m, l)
			d[l] = tmp[l] >> (i * bits) & mask;
	}
	return ip + 1;
}

static bool lower_vector_mov(struct lower_ctx *c, const struct ir_insn *in,
			     unsigned t, bool pack)
{
	const struct ir_operand *v = &in->opnd[pack ? 1 : 0];
	unsigned n = v->reg2, size = ptx_type_size(t);
	if ((n != 2 && n != 4) || size % n)
		return lower_unsupported(c, "vector shape");
	xref *e = arena_alloc(&c->prog->arena, n * sizeof(*e)), other;
	if (!e)
		return lower_nomem(c);
	for (unsigned i = 0; i < n; i++) {
		const struct ir_operand *o = &ir_vec_elems(c->f, v)[i];
		if (!(pack ? ref_src(c, o, PTX_T_B64, &e[i]) :
			     ref_dst(c, o, &e[i])))
			return false;
	}
	if (!(pack ? ref_dst(c, &in->opnd[0], &other) :
		     ref_src(c, &in->opnd[1], t, &other)))
		return false;
	struct xinsn *x = emit(c, pack ? x_pack : x_unpack);
	if (!x)
		return lower_nomem(c);
	x->aux = e;
	x->vec = (uint8_t)n;
	x->size = (uint8_t)(size / n);
	if (pack)
		x->d = other;
	else
		x->a = other;
	return true;
}

/* A move of one 64-bit slot: @d and @a are already resolved. */
static bool emit_slot_mov(struct lower_ctx *c, xref d, xref a)
{
	struct xinsn *x = emit(c, x_mov);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	return true;
}

/* mov.b128: registers of two slots, packed from or unpacked to two
 * 64-bit halves (low first), or copied whole. */
static bool lower_mov_b128(struct lower_ctx *c, const struct ir_insn *in)
{
	const struct ir_operand *dst = &in->opnd[0], *src = &in->opnd[1];
	xref d[2], a[2];
	bool vd = dst->kind == OPND_VEC, vs = src->kind == OPND_VEC;
	if ((vd && dst->reg2 != 2) || (vs && src->reg2 != 2) || (vd && vs))
		return lower_unsupported(c, "vector shape");
	for (unsigned i = 0; i < 2; i++) {
		if (vd && !ref_dst(c, &ir_vec_elems(c->f, dst)[i], &d[i]))
			return false;
		if (vs && !ref_src(c, &ir_vec_elems(c->f, src)[i], PTX_T_B64,
				   &a[i]))
			return false;
	}
	if (!vd && !ref_dst(c, dst, &d[0]))
		return false;
	if (!vs && src->kind != OPND_REG)
		return lower_unsupported(c, "b128 source");
	if (!vs && !ref_src(c, src, PTX_T_B64, &a[0]))
		return false;
	if (!vd)
		d[1] = d[0] + LANE_BYTES;
	if (!vs)
		a[1] = a[0] + LANE_BYTES;
	if (a[0] == d[1])	/* overlapping halves: copy the high one first */
		return emit_slot_mov(c, d[1], a[1]) &&
		       emit_slot_mov(c, d[0], a[0]);
	return emit_slot_mov(c, d[0], a[0]) && emit_slot_mov(c, d[1], a[1]);
}

bool lower_mov(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (in->nopnds != 2 || in->vec > 1)
		return lower_unsupported(c, "operands");
	if (ptx_type_size(t) == 16)
		return lower_mov_b128(c, in);
	if (in->opnd[0].kind == OPND_VEC)
		return lower_vector_mov(c, in, t, false);
	if (in->opnd[1].kind == OPND_VEC)
		return lower_vector_mov(c, in, t, true);
	return emit_alu(c, in, t == PTX_T_PRED ? x_mov_pred : x_mov, t, 1);
}
