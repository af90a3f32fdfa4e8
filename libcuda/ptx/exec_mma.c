// SPDX-License-Identifier: MIT
/*
 * Warp-level matrix instructions: wmma.load, wmma.store, wmma.mma,
 * mma.sync and ldmatrix. Fragments (mma_layout.h) are gathered from all
 * 32 lanes into whole matrices, multiplied, and scattered back.
 *
 * Arithmetic: D = A x B + C per element. Products of f16/bf16/tf32
 * values are exact in double. The sums follow a model of the tensor
 * cores fitted to an H100's results (block_sum below): bit-exact for
 * 97% to 99.6% of recorded elements, one ulp off otherwise (see
 * docs/compatibility.md). Integer mma is exact (wrapping, or clamped with
 * .satfinite); .f64 mma is a chain of fused multiply-adds in k order, as
 * the PTX ISA's .rn defines it (bit-exact on the GPU).
 */
#include "f16.h"
#include "lanes.h"
#include "mma_layout.h"

#include <limits.h>
#include <math.h>

enum mma_kind { MK_LOAD, MK_STORE, MK_MMA, MK_LDMATRIX };

struct frag_regs {
	struct frag_layout lay;
	uint8_t type;		/* enum mtype */
	uint8_t nregs;
	xref regs[16];
};

struct mma_op {
	uint8_t kind;		/* enum mma_kind */
	uint8_t m, n;
	uint16_t k;
	bool col[2];		/* A, B (or the loaded/stored matrix) column
				 * major */
	bool satfinite;
	char bitop;		/* .b1: 'a' and.popc, 'x' xor.popc */
	uint8_t space;		/* enum xspace of load/store */
	bool frame_rel;
	uint8_t count;		/* ldmatrix: matrices */
	bool trans;		/* ldmatrix .trans */
	struct frag_regs f[4];	/* A, B, C, D (load/store: f[0]) */
	xref addr, stride;
	int64_t off;
};

/* ---- fragment element access ---- */

static inline uint64_t frag_get(struct warp *w, const struct frag_regs *f,
				uint32_t lane, uint32_t e)
{
	unsigned bits = mtype_bits(f->type), per = 64 / bits;
	if (bits < 64)
		per = 32 / bits;
	uint64_t v = xr(w, f->regs[e / per])[lane];
	if (bits >= 32)
		return bits == 64 ? v : (uint32_t)v;
	return v >> (e % per * bits) & ((1u << bits) - 1);
}

static inline void frag_put(uint64_t *regs[16], const struct frag_regs *f,
			    uint32_t lane, uint32_t e, uint64_t v)
{
	unsigned bits = mtype_bits(f->type);
	if (bits >= 32) {
		regs[e][lane] = bits == 64 ? v : (uint32_t)v;
		return;
	}
	unsigned per = 32 / bits, sh = e % per * bits;
	uint64_t mask = ((1ull << bits) - 1) << sh;
	uint64_t *r = &regs[e / per][lane];
	*r = (*r & ~mask) | (v << sh & mask);
}

static double to_double(enum mtype t, uint64_t v)
{
	switch (t) {
	case MT_F16: return f16_to_f32((uint16_t)v);
	case MT_BF16: return bf16_to_f32((uint16_t)v);
	case MT_TF32: return f32_of(v & 0xffffe000u);
	case MT_F32: return f32_of(v);
	case MT_F64: return f64_of(v);
	case MT_S8: return (int8_t)v;
	case MT_U8: return (uint8_t)v;
	case MT_S4: return (int)(v & 15) - (v & 8 ? 16 : 0);
	case MT_U4: return v & 15;
	case MT_B1: return v & 1;
	default: return (int32_t)v;
	}
}

/* Element @idx of a matrix of @bits-bit elements at @base: sub-byte
 * elements are packed from the low bits of each byte up. */
static bool elem_access(struct warp *w, const struct xinsn *ip,
			enum xspace sp, uint32_t lane, uint64_t base,
			uint64_t idx, unsigned bits, bool store, uint64_t *v)
{
	unsigned size = bits < 8 ? 1 : bits / 8;
	uint64_t bit = idx * bits;
	uint8_t *p = mem_host(w, ip, sp, lane, base + bit / 8, size, store);
	if (!p)
		return false;
	if (bits < 8) {
		unsigned sh = bit % 8, mask = (1u << bits) - 1;
		*v = p[0] >> sh & mask;	/* only loads are sub-byte */
	} else if (store) {
		memcpy(p, v, size);
	} else {
		*v = 0;
		memcpy(v, p, size);
	}
	return true;
}

/* ---- load and store ---- */

static uint64_t default_stride(const struct mma_op *op, unsigned rows,
			       unsigned cols)
{
	return op->col[0] ? rows : cols;
}

static const struct xinsn *x_wmma_ldst(struct warp *w, const struct xinsn *ip)
{
	const struct mma_op *op = ip->aux;
	const struct frag_regs *f = &op->f[0];
	uint32_t m = xmask(w, ip);
	if (m != FULL_MASK)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "wmma needs all 32 lanes (active 0x%08x)", m);
	const uint64_t *pa = xr(w, op->addr);
	const uint64_t *ps = op->stride ? xr(w, op->stride) : NULL;
	unsigned bits = mtype_bits((enum mtype)f->type);
	uint64_t base_off = (uint64_t)op->off + (op->frame_rel ? w->local_base : 0);
	uint64_t *regs[16];
	for (unsigned i = 0; i < f->nregs; i++)
		regs[i] = xr(w, f->regs[i]);
	bool store = op->kind == MK_STORE;
	for (uint32_t l = 0; l < WARP_SIZE; l++) {
		uint64_t stride = ps ? (uint32_t)ps[l] :
				  default_stride(op, f->lay.rows, f->lay.cols);
		for (uint32_t e = 0; e < f->lay.nelem; e++) {
			uint32_t r, c;
			f->lay.map(l, e, &r, &c);
			uint64_t idx = op->col[0] ? (uint64_t)c * stride + r :
						    (uint64_t)r * stride + c;
			uint64_t v = store ? frag_get(w, f, l, e) : 0;
			if (!elem_access(w, ip, (enum xspace)op->space, l,
					 pa[l] + base_off, idx, bits, store, &v))
				return NULL;
			if (!store)
				frag_put(regs, f, l, e, v);
		}
	}
	return ip + 1;
}

/* ---- multiply-accumulate ---- */

static void gather(struct warp *w, const struct frag_regs *f, double *mat,
		   unsigned ld)
{
	for (uint32_t l = 0; l < WARP_SIZE; l++)
		for (uint32_t e = 0; e < f->lay.nelem; e++) {
			uint32_t r, c;
			f->lay.map(l, e, &r, &c);
			mat[r * ld + c] = to_double((enum mtype)f->type,
						    frag_get(w, f, l, e));
		}
}

static uint64_t from_double(enum mtype t, double v, bool satfinite)
{
	switch (t) {
	case MT_F16: {
		if (satfinite && !isnan(v))
			v = v > 65504 ? 65504 : v < -65504 ? -65504 : v;
		uint16_t h = f64_to_f16(v, RND_NEAREST);
		return isnan(v) ? 0x7fff : h;
	}
	case MT_F32: {
		float f = (float)v;
		if (satfinite && isinf(f))
			f = copysignf(3.40282347e38f, f);
		return isnan(v) ? 0x7fffffffu : bits_f32(f);
	}
	case MT_F64:
		return isnan(v) ? 0x7fffffffffffffffull : bits_f64(v);
	default: {	/* s32: exact, wrapping or saturating */
		if (satfinite)
			v = v > INT32_MAX ? INT32_MAX :
			    v < INT32_MIN ? INT32_MIN : v;
		int64_t i = (int64_t)v;
		return (uint32_t)i;
	}
	}
}

/*
 * Floating-point accumulation as the tensor cores do it (fitted to H100
 * results): the products of a block of k (16 for f16/bf16, 4 for tf32)
 * and the running accumulator are aligned to the largest exponent E
 * among them, each truncated toward zero to a multiple of 2^(E-26)
 * (three guard bits below f32's precision), summed exactly, and the sum
 * is truncated toward zero to f32. Infinities and NaNs take the plain
 * sum's way.
 */
static double block_sum(const double *t, unsigned n)
{
	int E = INT_MIN;
	double plain = 0.0;
	for (unsigned i = 0; i < n; i++) {
		plain += t[i];
		int e;
		if (t[i] != 0.0 && isfinite(t[i])) {
			frexp(t[i], &e);
			E = e > E ? e : E;
		}
	}
	if (E == INT_MIN || !isfinite(plain))
		return plain;	/* zeros only, or inf/NaN */
	int64_t sum = 0;	/* in units of 2^(E - 27); |t| < 2^E */
	for (unsigned i = 0; i < n; i++)
		sum += (int64_t)trunc(ldexp(t[i], 27 - E));
	double exact = ldexp((double)sum, E - 27);	/* sum < 2^32: exact */
	float r = (float)exact;	/* to nearest, then back toward zero */
	return fabs(r) > fabs(exact) ? nextafterf(r, 0.0f) : r;
}

static unsigned block_of(enum mtype t, unsigned k)
{
	return t == MT_TF32 ? 4 : k < 16 ? k : 16;
}

static double dot_block(const struct mma_op *op, const double *a,
			const double *b, unsigned i, unsigned j, double acc)
{
	unsigned N = op->n, K = op->k, bk = block_of(op->f[0].type, K);
	double t[17];
	for (unsigned k0 = 0; k0 < K; k0 += bk) {
		for (unsigned k = 0; k < bk; k++)
			t[k] = a[i * K + k0 + k] * b[(k0 + k) * N + j];
		t[bk] = acc;
		acc = block_sum(t, bk + 1);
	}
	return acc;
}

static void multiply(const struct mma_op *op, const double *a,
		     const double *b, const double *c, double *d)
{
	unsigned M = op->m, N = op->n, K = op->k;
	enum mtype t = (enum mtype)op->f[0].type;
	bool f64 = t == MT_F64;
	bool ints = t == MT_S8 || t == MT_U8 || t == MT_S4 || t == MT_U4 ||
		    t == MT_B1;
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			double acc = c[i * N + j];
			int64_t iacc = (int64_t)acc;
			for (unsigned k = 0; k < K; k++) {
				if (f64)
					acc = fma(a[i * K + k], b[k * N + j],
						  acc);
				else if (t == MT_B1)	/* and/xor, popc */
					iacc += op->bitop == 'a' ?
						(a[i * K + k] && b[k * N + j]) :
						(a[i * K + k] != b[k * N + j]);
				else if (ints)
					iacc += (int64_t)a[i * K + k] *
						(int64_t)b[k * N + j];
			}
			if (!f64 && !ints)
				acc = dot_block(op, a, b, i, j, acc);
			d[i * N + j] = ints ? (op->satfinite ? (double)iacc :
					       (double)(int32_t)(uint32_t)iacc) :
					      acc;
		}
}

static const struct xinsn *x_mma(struct warp *w, const struct xinsn *ip)
{
	const struct mma_op *op = ip->aux;
	uint32_t m = xmask(w, ip);
	if (m != FULL_MASK)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "mma needs all 32 lanes (active 0x%08x)", m);
	/* up to 16 x 256 (b1) operands: per thread, not on the stack */
	static _Thread_local double a[16 * 256], b[256 * 8];
	double c[16 * 16], d[16 * 16];
	gather(w, &op->f[0], a, op->k);
	gather(w, &op->f[1], b, op->n);
	gather(w, &op->f[2], c, op->n);
	multiply(op, a, b, c, d);
	const struct frag_regs *fd = &op->f[3];
	uint64_t tmp[16][WARP_SIZE];
	uint64_t *regs[16];
	for (unsigned i = 0; i < fd->nregs; i++) {
		regs[i] = tmp[i];
		memset(tmp[i], 0, sizeof(tmp[i]));
	}
	for (uint32_t l = 0; l < WARP_SIZE; l++)
		for (uint32_t e = 0; e < fd->lay.nelem; e++) {
			uint32_t r, cc;
			fd->lay.map(l, e, &r, &cc);
			frag_put(regs, fd, l, e,
				 from_double((enum mtype)fd->type,
					     d[r * op->n + cc], op->satfinite));
		}
	for (unsigned i = 0; i < fd->nregs; i++)
		memcpy(xr(w, fd->regs[i]), tmp[i], LANE_BYTES);
	return ip + 1;
}

/* ---- ldmatrix: 8x8 b16 matrices, each row's address from a lane ---- */

static const struct xinsn *x_ldmatrix(struct warp *w, const struct xinsn *ip)
{
	const struct mma_op *op = ip->aux;
	uint32_t m = xmask(w, ip);
	if (m != FULL_MASK)
		return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
			      "ldmatrix needs all 32 lanes (active 0x%08x)", m);
	const uint64_t *pa = xr(w, op->addr);
	uint64_t off = (uint64_t)op->off + (op->frame_rel ? w->local_base : 0);
	uint16_t mat[4][8][8];
	for (unsigned i = 0; i < op->count; i++)
		for (unsigned r = 0; r < 8; r++) {
			uint32_t lane = i * 8 + r;
			uint8_t *p = mem_host(w, ip, (enum xspace)op->space,
					      lane, pa[lane] + off, 16, false);
			if (!p)
				return NULL;
			memcpy(mat[i][r], p, 16);
		}
	for (unsigned i = 0; i < op->count; i++) {
		uint64_t *d = xr(w, op->f[0].regs[i]);
		for (uint32_t l = 0; l < WARP_SIZE; l++) {
			uint32_t r = l >> 2, c = 2 * (l & 3);
			uint16_t lo = op->trans ? mat[i][c][r] : mat[i][r][c];
			uint16_t hi = op->trans ? mat[i][c + 1][r] :
						  mat[i][r][c + 1];
			d[l] = (uint32_t)hi << 16 | lo;
		}
	}
	return ip + 1;
}

/* ---- lowering ---- */

static const char *word(const struct lower_ctx *c, unsigned i)
{
	return ir_mod_name(c->m, c->in->mods[i]);
}

static enum mtype mtype_of(unsigned t)
{
	switch (t) {
	case PTX_T_F16: case PTX_T_F16X2: return MT_F16;
	case PTX_T_BF16: case PTX_T_BF16X2: return MT_BF16;
	case PTX_T_TF32: return MT_TF32;
	case PTX_T_F32: return MT_F32;
	case PTX_T_F64: return MT_F64;
	case PTX_T_S8: return MT_S8;
	case PTX_T_U8: return MT_U8;
	case PTX_T_S32: return MT_S32;
	case PTX_T_S4: return MT_S4;
	case PTX_T_U4: return MT_U4;
	case PTX_T_B1: return MT_B1;
	default: return MT_NONE;
	}
}

/* The words of a matrix instruction, sorted. */
struct mma_words {
	int which;		/* 'a', 'b', 'c', 'd' or 0 */
	int layout[2];		/* 0 row, 1 col, -1 none */
	unsigned nlayout;
	unsigned m, n, k;
	unsigned x;		/* ldmatrix .x1/.x2/.x4 */
	bool trans, satfinite, load, store, mma, rn, popc;
	char bitop;		/* 'a' and, 'x' xor */
	unsigned types[4], ntypes;
	bool unknown;
};

static bool parse_shape(const char *s, struct mma_words *w)
{
	unsigned m, n, k;
	char tail;
	if (sscanf(s, "m%un%uk%u%c", &m, &n, &k, &tail) != 3)
		return false;
	w->m = m;
	w->n = n;
	w->k = k;
	return true;
}

static void sort_words(struct lower_ctx *c, struct mma_words *w)
{
	memset(w, 0, sizeof(*w));
	w->layout[0] = w->layout[1] = -1;
	for (unsigned i = 0; i < c->in->nmods; i++) {
		const char *s = word(c, i);
		const struct mod_info *mi = c->in->mods[i] < MOD_STATIC_COUNT ?
			ptx_mod_info(c->in->mods[i]) : NULL;
		if (mi && mi->cat == MC_TYPE) {
			if (w->ntypes < 4)
				w->types[w->ntypes++] = mi->value;
		} else if (!strcmp(s, "row") || !strcmp(s, "col")) {
			if (w->nlayout < 2)
				w->layout[w->nlayout++] = s[0] == 'c';
		} else if (strlen(s) == 1 && strchr("abcd", s[0])) {
			w->which = s[0];
		} else if (!strcmp(s, "load")) {
			w->load = true;
		} else if (!strcmp(s, "store")) {
			w->store = true;
		} else if (!strcmp(s, "mma")) {
			w->mma = true;
		} else if (!strcmp(s, "trans")) {
			w->trans = true;
		} else if (!strcmp(s, "satfinite")) {
			w->satfinite = true;
		} else if (!strcmp(s, "rn")) {
			w->rn = true;
		} else if (!strcmp(s, "popc")) {
			w->popc = true;
		} else if (!strcmp(s, "and") || !strcmp(s, "xor")) {
			w->bitop = s[0];
		} else if (!strcmp(s, "x1") || !strcmp(s, "x2") ||
			   !strcmp(s, "x4")) {
			w->x = (unsigned)(s[1] - '0');
		} else if (s[0] == 'm' && strchr(s, 'n')) {
			if (!parse_shape(s, w) && strcmp(s, "m8n8"))
				w->unknown = true;
			if (!strcmp(s, "m8n8"))
				w->m = w->n = 8;
		} else if (strcmp(s, "sync") && strcmp(s, "aligned") &&
			   !(mi && (mi->cat == MC_SPACE || mi->cat == MC_FLAG))) {
			w->unknown = true;
		}
	}
}

static bool frag_refs(struct lower_ctx *c, const struct ir_operand *o,
		      bool dst, struct frag_regs *f)
{
	unsigned bits = mtype_bits((enum mtype)f->type);
	unsigned per = bits >= 32 ? 1 : 32 / bits;
	unsigned need = (f->lay.nelem + per - 1) / per;
	if (o->kind != OPND_VEC || o->reg2 != need || need > 16)
		return lower_unsupported(c, "fragment registers");
	f->nregs = (uint8_t)need;
	const struct ir_operand *e = ir_vec_elems(c->f, o);
	for (unsigned i = 0; i < need; i++)
		if (!(dst ? ref_dst(c, &e[i], &f->regs[i]) :
			    ref_src(c, &e[i], PTX_T_B64, &f->regs[i])))
			return false;
	return true;
}

static bool emit_mma(struct lower_ctx *c, const struct mma_op *op,
		     xhandler h)
{
	struct mma_op *copy = arena_alloc(&c->prog->arena, sizeof(*copy));
	struct xinsn *x = copy ? emit(c, h) : NULL;
	if (!x)
		return lower_nomem(c);
	*copy = *op;
	x->aux = copy;
	return true;
}

static bool mem_operand(struct lower_ctx *c, const struct ir_operand *o,
			struct mma_op *op)
{
	enum xspace sp;
	if (!ref_addr(c, o, c->in->space, &op->addr, &op->off, &sp,
		      &op->frame_rel))
		return false;
	if (sp == XS_KPARAM)
		return lower_unsupported(c, "state space");
	op->space = (uint8_t)sp;
	return true;
}

static bool lower_wmma_ldst(struct lower_ctx *c, const struct ir_insn *in,
			    const struct mma_words *w)
{
	struct mma_op op = { .kind = w->store ? MK_STORE : MK_LOAD,
			     .m = (uint8_t)w->m, .n = (uint8_t)w->n,
			     .k = (uint16_t)w->k };
	enum frag_use use = w->which == 'a' ? FRAG_A :
			    w->which == 'b' ? FRAG_B : FRAG_C;
	if (w->ntypes != 1 || w->nlayout != 1 || !w->which ||
	    (w->store != (w->which == 'd')) || in->nopnds < 2 ||
	    in->nopnds > 3)
		return lower_unsupported(c, NULL);
	op.col[0] = w->layout[0];
	enum mtype t = mtype_of(w->types[0]);
	/* the operand's matrix type for A/B; C/D fragments by their own */
	if (!frag_layout_of(true, w->m, w->n, w->k, use,
			    use == FRAG_C && t != MT_F64 ? MT_F32 : t,
			    &op.f[0].lay) ||
	    t == MT_NONE)
		return lower_unsupported(c, "shape or type");
	op.f[0].type = (uint8_t)t;
	const struct ir_operand *regs = &in->opnd[w->store ? 1 : 0];
	if (!frag_refs(c, regs, !w->store, &op.f[0]) ||
	    !mem_operand(c, &in->opnd[w->store ? 0 : 1], &op))
		return false;
	if (in->nopnds == 3 && !ref_src(c, &in->opnd[2], PTX_T_U32, &op.stride))
		return false;
	return emit_mma(c, &op, x_wmma_ldst);
}

/* Operand types of an mma: wmma spells dtype.ctype for f16 operands and
 * dtype.atype.btype.ctype otherwise; mma spells all four. */
static bool mma_types(const struct mma_words *w, bool wmma, enum mtype t[4])
{
	if (w->ntypes == 2 && wmma) {
		t[0] = t[1] = MT_F16;
		t[2] = mtype_of(w->types[1]);
		t[3] = mtype_of(w->types[0]);
	} else if (w->ntypes == 4) {
		t[0] = mtype_of(w->types[1]);
		t[1] = mtype_of(w->types[2]);
		t[2] = mtype_of(w->types[3]);
		t[3] = mtype_of(w->types[0]);
	} else {
		return false;
	}
	for (int i = 0; i < 4; i++)
		if (t[i] == MT_NONE)
			return false;
	bool i8 = (t[0] == MT_S8 || t[0] == MT_U8) &&
		  (t[1] == MT_S8 || t[1] == MT_U8);
	bool i4 = (t[0] == MT_S4 || t[0] == MT_U4) &&
		  (t[1] == MT_S4 || t[1] == MT_U4);
	return t[0] == t[1] || i8 || i4;
}

static bool lower_mma_op(struct lower_ctx *c, const struct ir_insn *in,
			 const struct mma_words *w, bool wmma)
{
	struct mma_op op = { .kind = MK_MMA, .m = (uint8_t)w->m,
			     .n = (uint8_t)w->n, .k = w->k,
			     .satfinite = w->satfinite, .bitop = w->bitop };
	enum mtype t[4];
	if (!mma_types(w, wmma, t) || in->nopnds != 4 || w->nlayout != 2 ||
	    (wmma && (t[0] == MT_F64) != w->rn))
		return lower_unsupported(c, "types");
	/* .b1 multiplies by a bit operation and counts: and/xor with popc */
	if ((t[0] == MT_B1) != (w->popc && w->bitop))
		return lower_unsupported(c, "b1 needs .and.popc or .xor.popc");
	if (!wmma && (w->layout[0] != 0 || w->layout[1] != 1))
		return lower_unsupported(c, "mma needs .row.col");
	op.col[0] = w->layout[0];
	op.col[1] = w->layout[1];
	static const enum frag_use uses[4] = { FRAG_A, FRAG_B, FRAG_C, FRAG_C };
	static const int opnd_of[4] = { 1, 2, 3, 0 };
	for (int i = 0; i < 4; i++) {
		op.f[i].type = (uint8_t)t[i];
		if (!frag_layout_of(wmma, w->m, w->n, w->k, uses[i],
				    i < 2 ? t[i] : t[0], &op.f[i].lay))
			return lower_unsupported(c, "shape or type");
		if (!frag_refs(c, &in->opnd[opnd_of[i]], i == 3, &op.f[i]))
			return false;
	}
	return emit_mma(c, &op, x_mma);
}

static bool lower_ldmatrix(struct lower_ctx *c, const struct ir_insn *in,
			   const struct mma_words *w)
{
	struct mma_op op = { .kind = MK_LDMATRIX, .count = (uint8_t)w->x,
			     .trans = w->trans };
	if (w->m != 8 || w->n != 8 || !w->x || w->x == 3 ||
	    w->ntypes != 1 || w->types[0] != PTX_T_B16 || in->nopnds != 2 ||
	    w->unknown)
		return lower_unsupported(c, NULL);
	op.f[0].type = MT_F32;	/* one 32-bit register per matrix */
	op.f[0].lay.nelem = (uint8_t)w->x;
	if (!frag_refs(c, &in->opnd[0], true, &op.f[0]) ||
	    !mem_operand(c, &in->opnd[1], &op))
		return false;
	return emit_mma(c, &op, x_ldmatrix);
}

bool lower_matrix(struct lower_ctx *c, const struct ir_insn *in)
{
	struct mma_words w;
	sort_words(c, &w);
	if (w.unknown)
		return lower_unsupported(c, NULL);
	switch (in->op) {
	case OP_WMMA:
		if (w.load || w.store)
			return lower_wmma_ldst(c, in, &w);
		return w.mma ? lower_mma_op(c, in, &w, true) :
			       lower_unsupported(c, NULL);
	case OP_MMA:
		return lower_mma_op(c, in, &w, false);
	case OP_LDMATRIX:
		return lower_ldmatrix(c, in, &w);
	default:
		return lower_unsupported(c, NULL);
	}
}
