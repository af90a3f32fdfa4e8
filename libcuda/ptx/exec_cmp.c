// SPDX-License-Identifier: MIT
/*
 * Comparisons and selections: setp (with the optional boolean combine
 * and second predicate), set, selp, slct.
 */
#include "f16.h"
#include "lanes.h"

#include <math.h>

/* Result bits of a compare for all 32 lanes (masked by the caller). */
#define CMP_ALL(T, GET, COND)                                   \
	do {                                                    \
		for (uint32_t l = 0; l < WARP_SIZE; l++) {      \
			T a = GET(pa[l]), b = GET(pb[l]);       \
			r |= (uint32_t)(COND) << l;             \
		}                                               \
	} while (0)

#define INT_CMPS(T)                                                          \
	static uint32_t cmp_##T(const uint64_t *pa, const uint64_t *pb,      \
				unsigned cmp)                                \
	{                                                                    \
		uint32_t r = 0;                                              \
		switch (cmp) {                                               \
		case MOD_EQ: CMP_ALL(T, (T), a == b); break;                 \
		case MOD_NE: CMP_ALL(T, (T), a != b); break;                 \
		case MOD_LT: case MOD_LO: CMP_ALL(T, (T), a < b); break;     \
		case MOD_LE: case MOD_LS: CMP_ALL(T, (T), a <= b); break;    \
		case MOD_GT: case MOD_HI: CMP_ALL(T, (T), a > b); break;     \
		default: CMP_ALL(T, (T), a >= b); break;                     \
		}                                                            \
		return r;                                                    \
	}
INT_CMPS(uint16_t)
INT_CMPS(uint32_t)
INT_CMPS(uint64_t)
INT_CMPS(int16_t)
INT_CMPS(int32_t)
INT_CMPS(int64_t)

static inline double get_f32(uint64_t v)
{
	return f32_of(v);
}

static inline double get_f32_ftz(uint64_t v)
{
	uint32_t b = (uint32_t)v;
	if (!(b & 0x7f800000u))
		b &= 0x80000000u;
	return f32_of(b);
}

static inline double get_f16(uint64_t v)
{
	return f16_to_f32((uint16_t)v);
}

static inline double get_bf16(uint64_t v)
{
	return bf16_to_f32((uint16_t)v);
}

#define FLOAT_CMPS(name, GET)                                                \
	static uint32_t name(const uint64_t *pa, const uint64_t *pb,         \
			     unsigned cmp)                                   \
	{                                                                    \
		uint32_t r = 0;                                              \
		switch (cmp) {                                               \
		case MOD_EQ: CMP_ALL(double, GET, a == b); break;            \
		case MOD_NE: CMP_ALL(double, GET, a < b || a > b); break;    \
		case MOD_LT: CMP_ALL(double, GET, a < b); break;             \
		case MOD_LE: CMP_ALL(double, GET, a <= b); break;            \
		case MOD_GT: CMP_ALL(double, GET, a > b); break;             \
		case MOD_GE: CMP_ALL(double, GET, a >= b); break;            \
		case MOD_EQU: CMP_ALL(double, GET, !(a < b || a > b)); break; \
		case MOD_NEU: CMP_ALL(double, GET, a != b); break;           \
		case MOD_LTU: CMP_ALL(double, GET, !(a >= b)); break;        \
		case MOD_LEU: CMP_ALL(double, GET, !(a > b)); break;         \
		case MOD_GTU: CMP_ALL(double, GET, !(a <= b)); break;        \
		case MOD_GEU: CMP_ALL(double, GET, !(a < b)); break;         \
		case MOD_NUM: CMP_ALL(double, GET, a == a && b == b); break; \
		default: CMP_ALL(double, GET, a != a || b != b); break;      \
		}                                                            \
		return r;                                                    \
	}
FLOAT_CMPS(cmp_f32, get_f32)
FLOAT_CMPS(cmp_f32_ftz, get_f32_ftz)
FLOAT_CMPS(cmp_f64, f64_of)
FLOAT_CMPS(cmp_f16, get_f16)
FLOAT_CMPS(cmp_bf16, get_bf16)

typedef uint32_t (*cmp_fn)(const uint64_t *, const uint64_t *, unsigned);

static cmp_fn pick_cmp(unsigned t, bool ftz)
{
	switch (t) {
	case PTX_T_U16: case PTX_T_B16: return cmp_uint16_t;
	case PTX_T_U32: case PTX_T_B32: return cmp_uint32_t;
	case PTX_T_U64: case PTX_T_B64: return cmp_uint64_t;
	case PTX_T_S16: return cmp_int16_t;
	case PTX_T_S32: return cmp_int32_t;
	case PTX_T_S64: return cmp_int64_t;
	case PTX_T_F32: return ftz ? cmp_f32_ftz : cmp_f32;
	case PTX_T_F64: return cmp_f64;
	case PTX_T_F16: return cmp_f16;
	case PTX_T_BF16: return cmp_bf16;
	default: return NULL;
	}
}

_Static_assert(MOD_XOR < 256, "boolean modifier ids fit in a byte");

static inline uint32_t combine(uint32_t r, uint32_t c, unsigned op)
{
	return op == MOD_AND ? r & c : op == MOD_OR ? r | c :
	       op == MOD_XOR ? r ^ c : r;
}

static inline void pred_write(uint32_t *d, uint32_t m, uint32_t v)
{
	*d = (*d & ~m) | (v & m);
}

/* setp: aux is the compare function, mode16 the comparison. */
static const struct xinsn *x_setp(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	cmp_fn cmp = (cmp_fn)(uintptr_t)ip->aux;
	uint32_t r = cmp(xr(w, ip->a), xr(w, ip->b), ip->mode16);
	uint32_t c = ip->c ? *xpred(w, ip->c) ^ ip->pneg[2] : 0;
	pred_write(xpred(w, ip->d), m, combine(r, c, ip->mode));
	if (ip->imm)	/* p|q: q gets the complement, combined */
		pred_write(xpred(w, (xref)ip->imm), m,
			   combine(~r, c, ip->mode));
	return ip + 1;
}

/* set: d = all ones (integer) or 1.0 (float) where the compare holds. */
static const struct xinsn *x_set(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	cmp_fn cmp = (cmp_fn)(uintptr_t)ip->aux;
	uint32_t r = cmp(xr(w, ip->a), xr(w, ip->b), ip->mode16);
	uint32_t c = ip->c ? *xpred(w, ip->c) ^ ip->pneg[2] : 0;
	r = combine(r, c, ip->mode);
	uint64_t one = ip->type == PTX_T_F32 ? 0x3f800000u : 0xffffffffu;
	uint64_t *d = xr(w, ip->d);
	FOR_LANES(m, l)
		d[l] = r >> l & 1 ? one : 0;
	return ip + 1;
}

static const struct xinsn *x_selp(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);
	uint32_t p = *xpred(w, ip->c) ^ ip->pneg[2];
	LANE_LOOP(m, d[l] = p >> l & 1 ? pa[l] : pb[l]);
	return ip + 1;
}

DEF_TER(slct_s32, uint64_t, uint64_t, (int32_t)c >= 0 ? a : b)
DEF_TER(slct_f32, uint64_t, uint64_t, f32_of(c) >= 0.0f ? a : b)
DEF_TER(slct_f32_ftz, uint64_t, uint64_t,
	(c & 0x7f800000u ? f32_of(c) : 0.0f) >= 0.0f ? a : b)

/* ---- lowering ---- */

static bool lower_setp(struct lower_ctx *c, const struct ir_insn *in,
		       bool is_set)
{
	if (!in->ntypes)
		return lower_unsupported(c, "type");
	unsigned t = in->types[in->ntypes - 1];
	cmp_fn cmp = pick_cmp(t, in->flags >> FL_FTZ & 1);
	if (!cmp || !in->cmp)
		return lower_unsupported(c, "type or comparison");
	if ((in->boolop && in->nopnds != 4) || (!in->boolop && in->nopnds != 3))
		return lower_unsupported(c, "operand count");
	xref d, a, b, p = 0, q = 0;
	const struct ir_operand *dst = &in->opnd[0];
	if (!ref_dst(c, dst, &d) || !ref_src(c, &in->opnd[1], t, &a) ||
	    !ref_src(c, &in->opnd[2], t, &b))
		return false;
	if (in->boolop && !ref_src(c, &in->opnd[3], PTX_T_PRED, &p))
		return false;
	if (dst->pair && !ref_dst(c, &(struct ir_operand){
					     .kind = OPND_REG,
					     .reg = dst->reg2 }, &q))
		return false;
	struct xinsn *x = emit(c, is_set ? x_set : x_setp);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	x->c = p;
	x->pneg[2] = in->boolop && in->opnd[3].neg ? ~0u : 0;
	x->imm = (int64_t)q;
	x->aux = (const void *)(uintptr_t)cmp;
	x->mode16 = in->cmp;
	x->mode = (uint8_t)in->boolop;	/* modifier ids fit in a byte */
	x->type = (uint8_t)in->types[0];
	return true;
}

bool lower_cmp(struct lower_ctx *c, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_SETP:
		return lower_setp(c, in, false);
	case OP_SET:
		return lower_setp(c, in, true);
	case OP_SELP: {
		if (in->nopnds != 4)
			return lower_unsupported(c, "operand count");
		unsigned t = in->types[0];
		struct ir_insn copy = *in;
		/* the predicate is read as a mask, the values as the type */
		xref p;
		if (!ref_src(c, &in->opnd[3], PTX_T_PRED, &p))
			return false;
		copy.nopnds = 3;
		if (!emit_alu(c, &copy, x_selp, t, 2))
			return false;
		struct xinsn *x = &((struct xinsn *)c->code.data)[c->code.len - 1];
		x->c = p;
		x->pneg[2] = in->opnd[3].neg ? ~0u : 0;
		return true;
	}
	case OP_SLCT: {
		if (in->ntypes < 2)
			return lower_unsupported(c, "type");
		unsigned ct = in->types[in->ntypes - 1];
		xhandler h = ct == PTX_T_S32 ? slct_s32 :
			     ct == PTX_T_F32 ? (in->flags >> FL_FTZ & 1 ?
						slct_f32_ftz : slct_f32) : NULL;
		return emit_alu(c, in, h, in->types[0], 3);
	}
	default:
		return lower_unsupported(c, NULL);
	}
}
