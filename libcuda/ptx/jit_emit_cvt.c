// SPDX-License-Identifier: MIT
/*
 * The JIT's comparisons (setp, selp) and conversions (cvt between
 * integers, float to integer, integer to float), with the interpreter's
 * results: comparisons as exec_cmp.c makes them, conversions saturating
 * with the H100's NaN rules (exec_cvt.c).
 */
#include "jit_emit.h"

#define B (e->b)

static bool int_cmp(unsigned cmp, bool sign, LLVMIntPredicate *p)
{
	switch (cmp) {
	case MOD_EQ: *p = LLVMIntEQ; return true;
	case MOD_NE: *p = LLVMIntNE; return true;
	case MOD_LT: *p = sign ? LLVMIntSLT : LLVMIntULT; return true;
	case MOD_LE: *p = sign ? LLVMIntSLE : LLVMIntULE; return true;
	case MOD_GT: *p = sign ? LLVMIntSGT : LLVMIntUGT; return true;
	case MOD_GE: *p = sign ? LLVMIntSGE : LLVMIntUGE; return true;
	case MOD_LO: *p = LLVMIntULT; return true;
	case MOD_LS: *p = LLVMIntULE; return true;
	case MOD_HI: *p = LLVMIntUGT; return true;
	case MOD_HS: *p = LLVMIntUGE; return true;
	default: return false;
	}
}

static bool float_cmp(unsigned cmp, LLVMRealPredicate *p)
{
	static const struct { unsigned mod; LLVMRealPredicate p; } map[] = {
		{ MOD_EQ, LLVMRealOEQ }, { MOD_NE, LLVMRealONE },
		{ MOD_LT, LLVMRealOLT }, { MOD_LE, LLVMRealOLE },
		{ MOD_GT, LLVMRealOGT }, { MOD_GE, LLVMRealOGE },
		{ MOD_EQU, LLVMRealUEQ }, { MOD_NEU, LLVMRealUNE },
		{ MOD_LTU, LLVMRealULT }, { MOD_LEU, LLVMRealULE },
		{ MOD_GTU, LLVMRealUGT }, { MOD_GEU, LLVMRealUGE },
		{ MOD_NUM, LLVMRealORD }, { MOD_NAN, LLVMRealUNO },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].mod == cmp) {
			*p = map[i].p;
			return true;
		}
	return false;
}

static LLVMValueRef flush(struct emit *e, LLVMValueRef x)
{
	LLVMValueRef bits = LLVMBuildBitCast(B, x, e->i32, "");
	LLVMValueRef sub = LLVMBuildICmp(
		B, LLVMIntEQ,
		LLVMBuildAnd(B, bits, jit_cint(e->i32, 0x7f800000u), ""),
		jit_cint(e->i32, 0), "");
	LLVMValueRef sign = LLVMBuildAnd(B, bits,
					 jit_cint(e->i32, 0x80000000u),
					 "");
	return LLVMBuildBitCast(B, LLVMBuildSelect(B, sub, sign, bits, ""),
				e->f32, "");
}

static LLVMValueRef compare(struct emit *e, const struct ir_insn *in,
			    unsigned t)
{
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = a ? jit_get(e, &in->opnd[2], t) : NULL;
	if (!b)
		return NULL;
	if (t == PTX_T_F32 || t == PTX_T_F64) {
		LLVMRealPredicate p;
		if (!float_cmp(in->cmp, &p))
			return NULL;
		if (t == PTX_T_F32 && (in->flags >> FL_FTZ & 1)) {
			a = flush(e, a);
			b = flush(e, b);
		}
		return LLVMBuildFCmp(B, p, a, b, "");
	}
	LLVMIntPredicate p;
	if (!int_cmp(in->cmp, ptx_type_is_signed(t), &p))
		return NULL;
	return LLVMBuildICmp(B, p, a, b, "");
}

static LLVMValueRef combine(struct emit *e, unsigned op, LLVMValueRef r,
			    LLVMValueRef c)
{
	switch (op) {
	case MOD_AND: return LLVMBuildAnd(B, r, c, "");
	case MOD_OR: return LLVMBuildOr(B, r, c, "");
	case MOD_XOR: return LLVMBuildXor(B, r, c, "");
	default: return r;
	}
}

static bool emit_setp(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->types[in->ntypes - 1];
	if ((in->boolop && in->nopnds != 4) || (!in->boolop && in->nopnds != 3))
		return jit_unsupported(e, "operands");
	if (!jit_type(e, t) || t == PTX_T_PRED || jit_type(e, t) == e->i8)
		return jit_unsupported(e, "type");
	LLVMValueRef r = compare(e, in, t);
	if (!r)
		return e->why[0] ? false : jit_unsupported(e, "comparison");
	LLVMValueRef c = in->boolop ? jit_get(e, &in->opnd[3], PTX_T_PRED) :
				      NULL;
	if (in->boolop && !c)
		return false;
	const struct ir_operand *d = &in->opnd[0];
	if (!jit_set(e, d, combine(e, in->boolop, r, c), PTX_T_PRED))
		return false;
	if (!d->pair)
		return true;
	struct ir_operand q = { .kind = OPND_REG, .reg = d->reg2 };
	return jit_set(e, &q, combine(e, in->boolop, LLVMBuildNot(B, r, ""), c),
		       PTX_T_PRED);
}

static bool emit_selp(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->types[0];
	if (in->nopnds != 4 || !jit_type(e, t))
		return jit_unsupported(e, "type or operands");
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = a ? jit_get(e, &in->opnd[2], t) : NULL;
	LLVMValueRef c = b ? jit_get(e, &in->opnd[3], PTX_T_PRED) : NULL;
	return c && jit_set(e, &in->opnd[0], LLVMBuildSelect(B, c, a, b, ""),
			    t);
}

bool jit_emit_cmp(struct emit *e, const struct ir_insn *in)
{
	if (!in->ntypes)
		return jit_unsupported(e, "type");
	return in->op == OP_SETP ? emit_setp(e, in) : emit_selp(e, in);
}

/* ---- cvt ---- */

static bool is_int(unsigned t)
{
	enum type_kind k = ptx_type_kind(t);
	return (k == TK_BIT || k == TK_UINT || k == TK_SINT) &&
	       ptx_type_size(t) >= 1 && ptx_type_size(t) <= 8;
}

/* Source extended by its own signedness, then cut to the destination. */
static bool cvt_int(struct emit *e, const struct ir_insn *in, unsigned dt,
		    unsigned st)
{
	if (in->flags >> FL_SAT & 1)
		return jit_unsupported(e, "cvt.sat");
	LLVMValueRef a = jit_get(e, &in->opnd[1], st);
	if (!a)
		return false;
	LLVMValueRef w = ptx_type_is_signed(st) ?
				 LLVMBuildSExt(B, a, e->i64, "") :
				 LLVMBuildZExt(B, a, e->i64, "");
	if (LLVMTypeOf(a) == e->i64)
		w = a;
	LLVMTypeRef dty = jit_type(e, dt);
	LLVMValueRef r = dty == e->i64 ? w : LLVMBuildTrunc(B, w, dty, "");
	return jit_set(e, &in->opnd[0], r, dt);
}

static const char *rounding_intrinsic(unsigned rnd)
{
	switch (rnd) {
	case MOD_RNI: case MOD_RN: return "llvm.roundeven";
	case MOD_RMI: case MOD_RM: return "llvm.floor";
	case MOD_RPI: case MOD_RP: return "llvm.ceil";
	default: return "llvm.trunc";
	}
}

/* Float to integer: rounded, saturated; NaN is 0, or the top bit where
 * the GPU converts in more than one step (f64 source, 64-bit result). */
static bool cvt_float_int(struct emit *e, const struct ir_insn *in,
			  unsigned dt, unsigned st)
{
	LLVMValueRef x = jit_get(e, &in->opnd[1], st);
	if (!x)
		return false;
	LLVMTypeRef ft = LLVMTypeOf(x), it = jit_type(e, dt);
	if (st == PTX_T_F32 && (in->flags >> FL_FTZ & 1))
		x = flush(e, x);
	x = jit_intrinsic(e, rounding_intrinsic(in->rnd), &ft, 1, &x, 1);
	LLVMTypeRef tys[2] = { it, ft };
	LLVMValueRef r = jit_intrinsic(e, ptx_type_is_signed(dt) ?
				       "llvm.fptosi.sat" : "llvm.fptoui.sat",
				       tys, 2, &x, 1);
	if (st == PTX_T_F64 || ptx_type_size(dt) == 8) {
		unsigned bits = ptx_type_size(dt) * 8;
		LLVMValueRef top = jit_cint(it, 1ull << (bits - 1));
		r = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, x, x, ""),
				    top, r, "");
	}
	return jit_set(e, &in->opnd[0], r, dt);
}

static bool cvt_int_float(struct emit *e, const struct ir_insn *in,
			  unsigned dt, unsigned st)
{
	if (in->rnd && in->rnd != MOD_RN)
		return jit_unsupported(e, "rounding mode");
	if (in->flags & (1u << FL_SAT | 1u << FL_FTZ | 1u << FL_RELU))
		return jit_unsupported(e, "modifier");
	LLVMValueRef a = jit_get(e, &in->opnd[1], st);
	if (!a)
		return false;
	LLVMTypeRef ft = jit_type(e, dt);
	LLVMValueRef r = ptx_type_is_signed(st) ? LLVMBuildSIToFP(B, a, ft, "") :
						  LLVMBuildUIToFP(B, a, ft, "");
	return jit_set(e, &in->opnd[0], r, dt);
}

bool jit_emit_cvt(struct emit *e, const struct ir_insn *in)
{
	if (in->ntypes != 2 || in->nopnds != 2)
		return jit_unsupported(e, "types");
	unsigned dt = in->types[0], st = in->types[1];
	bool df = dt == PTX_T_F32 || dt == PTX_T_F64;
	bool sf = st == PTX_T_F32 || st == PTX_T_F64;
	if (is_int(dt) && is_int(st))
		return cvt_int(e, in, dt, st);
	if (is_int(dt) && sf)
		return cvt_float_int(e, in, dt, st);
	if (df && is_int(st))
		return cvt_int_float(e, in, dt, st);
	return jit_unsupported(e, "conversion");
}
