// SPDX-License-Identifier: MIT
/*
 * Surface instructions through object handles: suld.b and sust.b (raw
 * bits; x is a byte offset), sust.p (formatted: x counts texels and
 * values are converted to the surface's format), suq. Out-of-bounds
 * accesses follow the instruction's mode: .trap faults, .clamp moves the
 * coordinate to the nearest texel, .zero reads zeros and drops stores.
 */
#include "f16.h"
#include "lanes.h"
#include "tex.h"

enum su_kind { SU_LD, SU_ST, SU_ST_P, SU_Q };
enum su_oob { OOB_TRAP, OOB_CLAMP, OOB_ZERO };
enum su_query { SQ_WIDTH, SQ_HEIGHT, SQ_DEPTH, SQ_ARRAY_SIZE };

struct su_op {
	uint8_t kind;		/* enum su_kind */
	uint8_t geom;		/* MOD_G1D ... MOD_GA2D */
	uint8_t oob;		/* enum su_oob */
	uint8_t size;		/* bytes per element */
	uint8_t n;		/* elements (vector) */
	uint8_t ncoord;
	uint8_t query;
	xref handle;
	xref val[4];
	xref coord[4];
};

/* Where one lane's access goes: the texel address, or NULL (dropped or
 * zero); false when it faulted. */
static bool su_locate(struct warp *w, const struct xinsn *ip,
		      const struct su_op *op, uint32_t l, uint8_t **at)
{
	const uint64_t h = xr(w, op->handle)[l];
	const struct texobj *t = texobj_lookup(h, TEXOBJ_SURFACE);
	*at = NULL;
	if (!t) {
		xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l, h,
		       "not a surface object: 0x%llx", (unsigned long long)h);
		return false;
	}
	bool layered = op->geom == MOD_GA1D || op->geom == MOD_GA2D;
	unsigned dims = op->geom == MOD_G3D ? 3 :
			op->geom == MOD_G2D || op->geom == MOD_GA2D ? 2 : 1;
	int64_t c[3] = { 0, 0, 0 };
	int64_t lim[3] = { (int64_t)t->d.width * t->texel_bytes, t->d.height,
			   op->geom == MOD_G3D ? t->d.depth : t->slices };
	unsigned bytes = op->size * op->n;
	if (op->kind == SU_ST_P)
		lim[0] = t->d.width;
	for (unsigned d = 0; d < dims; d++)
		c[d] = (int32_t)xr(w, op->coord[layered + d])[l];
	if (layered)
		c[2] = (int32_t)xr(w, op->coord[0])[l];
	int64_t span = op->kind == SU_ST_P ? 1 : bytes;
	bool in = c[0] >= 0 && c[0] + span <= lim[0];
	for (unsigned d = 1; d < 3; d++)
		in &= c[d] >= 0 && c[d] < lim[d];
	if (!in && op->oob == OOB_TRAP) {
		xfault(w, ip, PTX_FAULT_UNMAPPED, l, (uint64_t)c[0],
		       "surface access out of bounds at (%lld, %lld, %lld)",
		       (long long)c[0], (long long)c[1], (long long)c[2]);
		return false;
	}
	if (!in && op->oob == OOB_ZERO)
		return true;
	if (!in) {
		int64_t hi[3] = { lim[0] - span, lim[1] - 1, lim[2] - 1 };
		for (unsigned d = 0; d < 3; d++)
			c[d] = c[d] < 0 ? 0 : c[d] > hi[d] ? hi[d] : c[d];
		if (op->kind != SU_ST_P)
			c[0] -= c[0] % bytes;
	}
	if (op->kind != SU_ST_P && c[0] % bytes) {
		xfault(w, ip, PTX_FAULT_MISALIGNED, l, (uint64_t)c[0],
		       "misaligned %u-byte surface access at x = %lld", bytes,
		       (long long)c[0]);
		return false;
	}
	uint64_t x = op->kind == SU_ST_P ? (uint64_t)c[0] :
					   (uint64_t)c[0] / t->texel_bytes;
	*at = (uint8_t *)texel_at(t, 0, (uint32_t)x, (uint32_t)c[1],
				  (uint32_t)c[2]);
	if (op->kind != SU_ST_P)
		*at += (uint64_t)c[0] % t->texel_bytes;
	return true;
}

static const struct xinsn *x_suld(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct su_op *op = ip->aux;
	uint64_t vals[4][WARP_SIZE];
	FOR_LANES(m, l) {
		uint8_t *p;
		if (!su_locate(w, ip, op, l, &p))
			return NULL;
		for (unsigned i = 0; i < op->n; i++) {
			uint64_t v = 0;
			if (p)
				memcpy(&v, p + i * op->size, op->size);
			vals[i][l] = v;
		}
	}
	for (unsigned i = 0; i < op->n; i++) {
		if (!op->val[i])
			continue;
		uint64_t *d = xr(w, op->val[i]);
		FOR_LANES(m, l)
			d[l] = vals[i][l];
	}
	return ip + 1;
}

/* sust.p: channel values (f32 for float formats, integers otherwise)
 * converted to the format. */
static void store_formatted(const struct texobj *t, uint8_t *p,
			    const uint64_t *v, unsigned n)
{
	for (unsigned c = 0; c < t->d.channels && c < n; c++) {
		uint8_t *q = p + c * t->chan_bytes;
		uint32_t x = (uint32_t)v[c];
		if (t->d.format == PTX_FMT_F16) {
			uint16_t h = f64_to_f16(f32_of(x), RND_NEAREST);
			memcpy(q, &h, 2);
		} else {
			memcpy(q, &x, t->chan_bytes);
		}
	}
}

static const struct xinsn *x_sust(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct su_op *op = ip->aux;
	FOR_LANES(m, l) {
		uint8_t *p;
		if (!su_locate(w, ip, op, l, &p))
			return NULL;
		if (!p)
			continue;
		uint64_t v[4];
		for (unsigned i = 0; i < op->n; i++)
			v[i] = xr(w, op->val[i])[l];
		if (op->kind == SU_ST_P) {
			uint64_t h = xr(w, op->handle)[l];
			store_formatted(texobj_lookup(h, TEXOBJ_SURFACE), p, v,
					op->n);
			continue;
		}
		for (unsigned i = 0; i < op->n; i++)
			memcpy(p + i * op->size, &v[i], op->size);
	}
	return ip + 1;
}

static const struct xinsn *x_suq(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct su_op *op = ip->aux;
	const uint64_t *ph = xr(w, op->handle);
	uint64_t *d = xr(w, op->val[0]);
	FOR_LANES(m, l) {
		const struct texobj *t = texobj_lookup(ph[l], TEXOBJ_SURFACE);
		if (!t)
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l,
				      ph[l], "not a surface object: 0x%llx",
				      (unsigned long long)ph[l]);
		d[l] = op->query == SQ_WIDTH ? t->d.width :
		       op->query == SQ_HEIGHT ? t->d.height :
		       op->query == SQ_DEPTH ? t->d.depth : t->d.layers;
	}
	return ip + 1;
}

/* ---- lowering ---- */

static bool has_word(const struct lower_ctx *c, const char *w)
{
	for (unsigned i = 0; i < c->in->nmods; i++)
		if (!strcmp(ir_mod_name(c->m, c->in->mods[i]), w))
			return true;
	return false;
}

static bool vec_refs(struct lower_ctx *c, const struct ir_operand *o,
		     bool dst, xref *out, unsigned max, uint8_t *n)
{
	const struct ir_operand *e = o;
	unsigned count = 1;
	if (o->kind == OPND_VEC) {
		e = ir_vec_elems(c->f, o);
		count = o->reg2;
	}
	if (count > max)
		return lower_unsupported(c, "vector size");
	for (unsigned i = 0; i < count; i++) {
		if (dst && e[i].kind == OPND_SINK)
			out[i] = 0;
		else if (!(dst ? ref_dst(c, &e[i], &out[i]) :
				 ref_src(c, &e[i], PTX_T_B64, &out[i])))
			return false;
	}
	*n = (uint8_t)count;
	return true;
}

/* [handle, {coords}] or [handle] */
static bool su_address(struct lower_ctx *c, const struct ir_operand *o,
		       struct su_op *op, bool coords)
{
	if (o->kind == OPND_ADDR && o->addr_base == ADDR_REG && !coords &&
	    !o->offset)
		return ref_src(c, &(struct ir_operand){ .kind = OPND_REG,
							 .reg = o->reg },
			       PTX_T_U64, &op->handle);
	if (o->kind != OPND_VEC || o->comp != '[')
		return lower_unsupported(c, "surface operand");
	const struct ir_operand *e = ir_vec_elems(c->f, o);
	if (o->reg2 != (coords ? 2u : 1u) || e[0].kind != OPND_REG)
		return lower_unsupported(c, "surface references (only "
					    "surface objects are supported)");
	if (!ref_src(c, &e[0], PTX_T_U64, &op->handle))
		return false;
	return !coords || vec_refs(c, &e[1], false, op->coord, 4,
				   &op->ncoord);
}

static bool emit_su(struct lower_ctx *c, const struct su_op *op, xhandler h)
{
	struct su_op *copy = arena_alloc(&c->prog->arena, sizeof(*copy));
	struct xinsn *x = copy ? emit(c, h) : NULL;
	if (!x)
		return lower_nomem(c);
	*copy = *op;
	x->aux = copy;
	return true;
}

static bool lower_suldst(struct lower_ctx *c, const struct ir_insn *in)
{
	bool st = in->op == OP_SUST, formatted = has_word(c, "p");
	unsigned geom = geom_word(c);
	struct su_op op = { .kind = st ? (formatted ? SU_ST_P : SU_ST) : SU_LD,
			    .geom = (uint8_t)geom };
	unsigned t = in->ntypes == 1 ? in->types[0] : PTX_T_NONE;
	op.size = (uint8_t)ptx_type_size(t);
	op.oob = in->flags >> FL_TRAP & 1 ? OOB_TRAP :
		 in->flags >> FL_ZERO & 1 ? OOB_ZERO : OOB_CLAMP;
	bool modes_ok = has_word(c, "clamp") + (in->flags >> FL_TRAP & 1) +
			(in->flags >> FL_ZERO & 1) == 1;
	if ((!has_word(c, "b") && !(st && formatted)) || !modes_ok ||
	    !op.size || op.size > 8 || ptx_type_kind(t) != TK_BIT ||
	    (formatted && op.size != 4) || in->nopnds != 2 || !geom ||
	    geom == MOD_GCUBE || geom == MOD_GACUBE ||
	    geom == MOD_G2DMS || geom == MOD_GA2DMS)
		return lower_unsupported(c, NULL);
	uint8_t n;
	if (!su_address(c, &in->opnd[st ? 0 : 1], &op, true) ||
	    !vec_refs(c, &in->opnd[st ? 1 : 0], !st, op.val, 4, &n))
		return false;
	if (n != in->vec)
		return lower_unsupported(c, "vector size");
	op.n = n;
	return emit_su(c, &op, st ? x_sust : x_suld);
}

static bool lower_suq(struct lower_ctx *c, const struct ir_insn *in)
{
	static const char *const names[] = { "width", "height", "depth",
					     "array_size" };
	struct su_op op = { .kind = SU_Q, .query = 0xff };
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (has_word(c, names[i]))
			op.query = (uint8_t)i;
	if (op.query == 0xff || in->nopnds != 2)
		return lower_unsupported(c, "query");
	if (!ref_dst(c, &in->opnd[0], &op.val[0]) ||
	    !su_address(c, &in->opnd[1], &op, false))
		return false;
	return emit_su(c, &op, x_suq);
}

bool lower_surf(struct lower_ctx *c, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_SULD:
	case OP_SUST:
		return lower_suldst(c, in);
	case OP_SUQ:
		return lower_suq(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}
