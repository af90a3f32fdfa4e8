// SPDX-License-Identifier: MIT
/*
 * Warp-wide instructions: shfl, vote, activemask, match, redux, elect.
 * A warp's lanes are one array, so exchanging values is reading another
 * lane's slot (before any is written). The member masks of vote, match
 * and redux choose the lanes each lane's answer is made of: a warp's
 * tiles (cooperative groups' thread_block_tile<4>, ...) vote separately
 * while all of its lanes execute together, as on the GPU. That a lane's
 * mask names it and lanes it waits for is not checked.
 */
#include "lanes.h"

static inline void pred_write(uint32_t *d, uint32_t m, uint32_t v)
{
	*d = (*d & ~m) | (v & m);
}

/* shfl: c packs the clamp (bits 0-4) and the segment mask (8-12). */
static const struct xinsn *x_shfl(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),
		       *pc = xr(w, ip->c);
	uint64_t tmp[WARP_SIZE];
	uint32_t valid = 0;
	FOR_LANES(m, l) {
		uint32_t b = (uint32_t)pb[l] & 31, c = (uint32_t)pc[l];
		uint32_t seg = c >> 8 & 31, clamp = c & 31;
		uint32_t lo = l & seg, hi = lo | (clamp & ~seg);
		uint32_t j;
		bool ok;
		switch (ip->mode16) {
		case MOD_UP:
			j = l - b;
			ok = (int32_t)j >= (int32_t)lo;
			break;
		case MOD_DOWN:
			j = l + b;
			ok = j <= hi;
			break;
		case MOD_BFLY:
			j = l ^ b;
			ok = j <= hi;
			break;
		default:
			j = lo | (b & ~seg);
			ok = j <= hi;
		}
		if (!ok)
			j = l;
		tmp[l] = pa[j & 31];
		valid |= (uint32_t)ok << l;
	}
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = tmp[l];
	if (ip->imm)
		pred_write(xpred(w, (xref)ip->imm), m, valid);
	return ip + 1;
}

enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };

/* The lanes lane @l's answer is made of: the executing lanes of its
 * member mask (all executing lanes where the form has none). */
static inline uint32_t members(struct warp *w, const struct xinsn *ip,
			       uint32_t m, uint32_t l)
{
	return ip->b ? m & (uint32_t)xr(w, ip->b)[l] : m;
}

static const struct xinsn *x_vote(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	uint32_t p = (*xpred(w, ip->a) ^ ip->pneg[0]) & m;
	if (ip->mode == VOTE_BALLOT) {
		uint64_t *d = xr(w, ip->d);
		FOR_LANES(m, l)
			d[l] = p & members(w, ip, m, l);
		return ip + 1;
	}
	uint32_t result = 0;
	FOR_LANES(m, l) {
		uint32_t g = members(w, ip, m, l), q = p & g;
		bool r = ip->mode == VOTE_ALL ? q == g :
			 ip->mode == VOTE_ANY ? q != 0 : (q == 0 || q == g);
		result |= (uint32_t)r << l;
	}
	pred_write(xpred(w, ip->d), m, result);
	return ip + 1;
}

/* Under a guard, only the guarded lanes count: ptxas branches around a
 * predicated activemask, so on the GPU the others are not active. */
static const struct xinsn *x_activemask(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = m;
	return ip + 1;
}

/* match.any: each lane gets the lanes of its group holding its value;
 * match.all: the group if all its lanes agree, else none (and the
 * predicate says which). */
static const struct xinsn *x_match(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pa = xr(w, ip->a);
	uint64_t mask = ip->size == 8 ? ~0ull : 0xffffffffull;
	uint64_t tmp[WARP_SIZE];
	uint32_t agree = 0;
	FOR_LANES(m, l) {
		uint32_t same = 0, g = members(w, ip, m, l);
		FOR_LANES(g, k)
			if (((pa[k] ^ pa[l]) & mask) == 0)
				same |= 1u << k;
		bool all = same == g;
		tmp[l] = ip->mode == 0 ? same : all ? g : 0;
		agree |= (uint32_t)all << l;
	}
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = tmp[l];
	if (ip->imm)
		pred_write(xpred(w, (xref)ip->imm), m, agree);
	return ip + 1;
}

static uint32_t redux_of(const struct xinsn *ip, const uint64_t *pa,
			 uint32_t g)
{
	bool sgn = ptx_type_is_signed(ip->type);
	uint32_t first = (uint32_t)__builtin_ctz(g);
	uint32_t r = (uint32_t)pa[first];
	FOR_LANES(g & (g - 1), l) {
		uint32_t v = (uint32_t)pa[l];
		switch (ip->mode16) {
		case MOD_ADD: r += v; break;
		case MOD_AND: r &= v; break;
		case MOD_OR: r |= v; break;
		case MOD_XOR: r ^= v; break;
		case MOD_MIN:
			r = sgn ? ((int32_t)v < (int32_t)r ? v : r) :
				  (v < r ? v : r);
			break;
		default:
			r = sgn ? ((int32_t)v > (int32_t)r ? v : r) :
				  (v > r ? v : r);
		}
	}
	return r;
}

/* Each group (lanes of one member mask) reduces once. */
static const struct xinsn *x_redux(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pa = xr(w, ip->a);
	uint32_t tmp[WARP_SIZE], last_group = 0, last = 0;
	FOR_LANES(m, l) {
		uint32_t g = members(w, ip, m, l);
		if (g != last_group) {
			last_group = g;
			last = g ? redux_of(ip, pa, g) : 0;
		}
		tmp[l] = last;
	}
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = tmp[l];
	return ip + 1;
}

static const struct xinsn *x_elect(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	uint32_t leader = (uint32_t)__builtin_ctz(m);
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = leader;
	if (ip->imm)
		pred_write(xpred(w, (xref)ip->imm), m, 1u << leader);
	return ip + 1;
}

/* ---- lowering ---- */

/* A destination written as d|p: the register and the predicate. */
static bool pair_dst(struct lower_ctx *c, const struct ir_operand *o,
		     xref *d, xref *p)
{
	*p = 0;
	if (o->kind == OPND_REG && o->pair &&
	    !ref_dst(c, &(struct ir_operand){ .kind = OPND_REG,
					       .reg = o->reg2 }, p))
		return false;
	return ref_dst(c, &(struct ir_operand){ .kind = o->kind,
						 .reg = o->reg }, d);
}

static bool lower_shfl(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned need = in->flags >> FL_SYNC & 1 ? 5 : 4;
	if (in->nopnds != need || !in->mode)
		return lower_unsupported(c, "operands");
	xref d, p, a, b, cc;
	if (!pair_dst(c, &in->opnd[0], &d, &p) ||
	    !ref_src(c, &in->opnd[1], PTX_T_B32, &a) ||
	    !ref_src(c, &in->opnd[2], PTX_T_U32, &b) ||
	    !ref_src(c, &in->opnd[3], PTX_T_U32, &cc))
		return false;
	struct xinsn *x = emit(c, x_shfl);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	x->c = cc;
	x->imm = (int64_t)p;
	x->mode16 = in->mode;
	return true;
}

/* The member mask operand of a .sync form, or 0 for none. */
static bool member_mask(struct lower_ctx *c, const struct ir_insn *in,
			unsigned at, xref *mask)
{
	*mask = 0;
	return in->nopnds <= at ||
	       ref_src(c, &in->opnd[at], PTX_T_B32, mask);
}

static bool lower_vote(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned mode = in->mode == MOD_ALL ? VOTE_ALL :
			in->mode == MOD_ANY ? VOTE_ANY :
			in->mode == MOD_UNI ? VOTE_UNI : VOTE_BALLOT;
	if (!in->mode || in->nopnds < 2 || in->nopnds > 3)
		return lower_unsupported(c, "operands");
	xref d, a, mask;
	if (!ref_dst(c, &in->opnd[0], &d) ||
	    !ref_src(c, &in->opnd[1], PTX_T_PRED, &a) ||
	    !member_mask(c, in, 2, &mask))
		return false;
	struct xinsn *x = emit(c, x_vote);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = mask;
	x->pneg[0] = in->opnd[1].neg ? ~0u : 0;
	x->mode = (uint8_t)mode;
	return true;
}

static bool lower_match(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->types[0];
	if (in->nopnds != 3 || ptx_type_size(t) < 4)
		return lower_unsupported(c, "operands");
	xref d, p, a, mask;
	if (!pair_dst(c, &in->opnd[0], &d, &p) ||
	    !ref_src(c, &in->opnd[1], t, &a) ||
	    !member_mask(c, in, 2, &mask))
		return false;
	struct xinsn *x = emit(c, x_match);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = mask;
	x->imm = (int64_t)p;
	x->size = (uint8_t)ptx_type_size(t);
	x->mode = in->mode == MOD_ALL;
	return true;
}

static bool lower_elect(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->nopnds != 2)
		return lower_unsupported(c, "operands");
	xref d, p;
	if (!pair_dst(c, &in->opnd[0], &d, &p))
		return false;
	struct xinsn *x = emit(c, x_elect);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->imm = (int64_t)p;
	return true;
}

bool lower_warp(struct lower_ctx *c, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_SHFL:
		return lower_shfl(c, in);
	case OP_VOTE:
		return lower_vote(c, in);
	case OP_ACTIVEMASK:
		return emit_alu(c, in, x_activemask, PTX_T_B32, 0);
	case OP_MATCH:
		return lower_match(c, in);
	case OP_REDUX: {
		if (in->nopnds != 3 || ptx_type_size(in->types[0]) != 4)
			return lower_unsupported(c, "operands");
		if (!emit_alu(c, in, x_redux, in->types[0], 2))
			return false;
		last_emitted(c)->mode16 = in->mode;
		return true;
	}
	case OP_ELECT:
		return lower_elect(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}
