// SPDX-License-Identifier: MIT
/*
 * The JIT's arithmetic: integer and floating-point instructions,
 * comparisons and conversions, each with exactly the interpreter's
 * results (exec_int.c, exec_float.c, exec_cmp.c, exec_cvt.c): defined
 * values where LLVM would have poison (division by zero, shifts past the
 * width), the H100's NaNs, .ftz and .sat. Forms the interpreter handles
 * by other means (directed rounding, half precision, .cc chains) are not
 * compiled: the kernel then runs on the interpreter.
 */
#include "jit_emit.h"

#include <math.h>

#define B (e->b)

static LLVMValueRef cint(LLVMTypeRef t, uint64_t v)
{
	return jit_cint(t, v);
}

static unsigned bits_of(LLVMTypeRef t)
{
	return jit_int_bits(t);
}

/* ---- integers ---- */

/* The type twice as wide (mul.wide, mad.wide), same signedness. */
static unsigned wide_type(unsigned t)
{
	switch (t) {
	case PTX_T_U16: return PTX_T_U32;
	case PTX_T_S16: return PTX_T_S32;
	case PTX_T_U32: return PTX_T_U64;
	case PTX_T_S32: return PTX_T_S64;
	default: return PTX_T_NONE;
	}
}

static LLVMValueRef ext(struct emit *e, LLVMValueRef v, LLVMTypeRef to,
			bool sign)
{
	return sign ? LLVMBuildSExt(B, v, to, "") : LLVMBuildZExt(B, v, to, "");
}

/* High half of a * b. */
static LLVMValueRef mul_hi(struct emit *e, LLVMValueRef a, LLVMValueRef b,
			   bool sign)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	unsigned n = bits_of(t);
	LLVMTypeRef w = jit_int_like(e, t, 2 * n);
	LLVMValueRef p = LLVMBuildMul(B, ext(e, a, w, sign), ext(e, b, w, sign),
				      "");
	return LLVMBuildTrunc(B, LLVMBuildLShr(B, p, cint(w, n), ""), t, "");
}

/* div/rem: all ones for a zero divisor; MIN / -1 gives MIN, rem 0. */
static LLVMValueRef divide(struct emit *e, LLVMValueRef a, LLVMValueRef b,
			   bool sign, bool rem)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef zero = cint(t, 0), ones = LLVMConstAllOnes(t);
	LLVMValueRef bz = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
	LLVMValueRef safe_b = LLVMBuildSelect(B, bz, cint(t, 1), b, "");
	if (!sign) {
		LLVMValueRef q = rem ? LLVMBuildURem(B, a, safe_b, "") :
				       LLVMBuildUDiv(B, a, safe_b, "");
		return LLVMBuildSelect(B, bz, ones, q, "");
	}
	unsigned n = bits_of(t);
	LLVMValueRef min = cint(t, 1ull << (n - 1));
	LLVMValueRef ovf = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, a, min, ""),
					LLVMBuildICmp(B, LLVMIntEQ, b, ones, ""),
					"");
	safe_b = LLVMBuildSelect(B, ovf, cint(t, 1), safe_b, "");
	LLVMValueRef q = rem ? LLVMBuildSRem(B, a, safe_b, "") :
			       LLVMBuildSDiv(B, a, safe_b, "");
	q = LLVMBuildSelect(B, ovf, rem ? zero : a, q, "");
	return LLVMBuildSelect(B, bz, ones, q, "");
}

/* Shifts clamp the (unsigned 32-bit) amount at the width. */
static LLVMValueRef shift(struct emit *e, const struct ir_insn *in,
			  LLVMValueRef a, unsigned t)
{
	LLVMTypeRef ty = LLVMTypeOf(a);
	unsigned n = bits_of(ty);
	LLVMValueRef amt32 = jit_get(e, &in->opnd[2], PTX_T_U32);
	if (!amt32)
		return NULL;
	LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, amt32,
					 cint(e->i32, n), "");
	LLVMValueRef amt = n > 32 ? LLVMBuildZExt(B, amt32, ty, "") :
			   n < 32 ? LLVMBuildTrunc(B, amt32, ty, "") : amt32;
	LLVMValueRef safe = LLVMBuildSelect(B, big, cint(ty, n - 1), amt, "");
	if (in->op == OP_SHR && ptx_type_is_signed(t))
		return LLVMBuildAShr(B, a, safe, "");
	LLVMValueRef r = in->op == OP_SHL ? LLVMBuildShl(B, a, safe, "") :
					    LLVMBuildLShr(B, a, safe, "");
	return LLVMBuildSelect(B, big, cint(ty, 0), r, "");
}

static LLVMValueRef int_unary(struct emit *e, const struct ir_insn *in,
			      LLVMValueRef a, unsigned t)
{
	LLVMTypeRef ty = LLVMTypeOf(a);
	switch (in->op) {
	case OP_NOT:
		return LLVMBuildNot(B, a, "");
	case OP_CNOT:
		return LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntEQ, a,
						      cint(ty, 0), ""), ty, "");
	case OP_NEG:
		return LLVMBuildNeg(B, a, "");
	case OP_ABS:
		if (!ptx_type_is_signed(t))
			return NULL;
		return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a,
							cint(ty, 0), ""),
				       LLVMBuildNeg(B, a, ""), a, "");
	case OP_POPC:
		return jit_intrinsic(e, "llvm.ctpop", &ty, 1, &a, 1);
	case OP_CLZ: {
		LLVMValueRef args[2] = { a, cint(e->scalar[0], 0) };
		return jit_intrinsic(e, "llvm.ctlz", &ty, 1, args, 2);
	}
	case OP_BREV:
		return jit_intrinsic(e, "llvm.bitreverse", &ty, 1, &a, 1);
	default:
		return NULL;
	}
}

static LLVMValueRef int_binary(struct emit *e, const struct ir_insn *in,
			       LLVMValueRef a, LLVMValueRef b, unsigned t)
{
	bool s = ptx_type_is_signed(t);
	switch (in->op) {
	case OP_ADD: return LLVMBuildAdd(B, a, b, "");
	case OP_SUB: return LLVMBuildSub(B, a, b, "");
	case OP_AND: return LLVMBuildAnd(B, a, b, "");
	case OP_OR: return LLVMBuildOr(B, a, b, "");
	case OP_XOR: return LLVMBuildXor(B, a, b, "");
	case OP_DIV: return divide(e, a, b, s, false);
	case OP_REM: return divide(e, a, b, s, true);
	case OP_MIN:
	case OP_MAX: {
		LLVMIntPredicate p = in->op == OP_MIN ?
			(s ? LLVMIntSLT : LLVMIntULT) : (s ? LLVMIntSGT : LLVMIntUGT);
		return LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b,
				       "");
	}
	case OP_MUL:
		if (in->mode == MOD_HI)
			return mul_hi(e, a, b, s);
		return LLVMBuildMul(B, a, b, "");
	default:
		return NULL;
	}
}

/* mul.wide / mad.wide: the product in the type twice as wide. */
static bool emit_wide(struct emit *e, const struct ir_insn *in, unsigned t)
{
	unsigned wt = wide_type(t);
	LLVMTypeRef w = jit_type(e, wt);
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = jit_get(e, &in->opnd[2], t);
	if (!w || !a || !b)
		return w ? false : jit_unsupported(e, "type");
	bool s = ptx_type_is_signed(t);
	LLVMValueRef r = LLVMBuildMul(B, ext(e, a, w, s), ext(e, b, w, s), "");
	if (in->op == OP_MAD) {
		LLVMValueRef c = jit_get(e, &in->opnd[3], wt);
		if (!c)
			return false;
		r = LLVMBuildAdd(B, r, c, "");
	}
	return jit_set(e, &in->opnd[0], r, wt);
}

static bool emit_mad(struct emit *e, const struct ir_insn *in, unsigned t)
{
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = jit_get(e, &in->opnd[2], t);
	LLVMValueRef c = a && b ? jit_get(e, &in->opnd[3], t) : NULL;
	if (!c)
		return false;
	LLVMValueRef p = in->mode == MOD_HI ?
				 mul_hi(e, a, b, ptx_type_is_signed(t)) :
				 LLVMBuildMul(B, a, b, "");
	return jit_set(e, &in->opnd[0], LLVMBuildAdd(B, p, c, ""), t);
}

static bool emit_pred_logic(struct emit *e, const struct ir_insn *in)
{
	unsigned n = in->op == OP_NOT || in->op == OP_CNOT ? 1 : 2;
	if (in->nopnds != n + 1)
		return jit_unsupported(e, "operands");
	LLVMValueRef a = jit_get(e, &in->opnd[1], PTX_T_PRED);
	LLVMValueRef b = n > 1 ? jit_get(e, &in->opnd[2], PTX_T_PRED) : a;
	if (!a || !b)
		return false;
	LLVMValueRef r = in->op == OP_AND ? LLVMBuildAnd(B, a, b, "") :
			 in->op == OP_OR ? LLVMBuildOr(B, a, b, "") :
			 in->op == OP_XOR ? LLVMBuildXor(B, a, b, "") :
					    LLVMBuildNot(B, a, "");
	return jit_set(e, &in->opnd[0], r, PTX_T_PRED);
}

bool jit_emit_int(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (t == PTX_T_PRED)
		return emit_pred_logic(e, in);
	LLVMTypeRef ty = jit_type(e, t);
	if (!ty || ty == e->i8 || in->ntypes != 1 ||
	    in->flags & (1u << FL_SAT | 1u << FL_CC))
		return jit_unsupported(e, "type or modifier");
	if (in->mode == MOD_WIDE)
		return emit_wide(e, in, t);
	if (in->op == OP_MAD)
		return emit_mad(e, in, t);
	if (in->op == OP_SHL || in->op == OP_SHR) {
		LLVMValueRef a = jit_get(e, &in->opnd[1], t);
		LLVMValueRef r = a ? shift(e, in, a, t) : NULL;
		return r && jit_set(e, &in->opnd[0], r, t);
	}
	bool unary = in->nopnds == 2;
	LLVMValueRef a = jit_get(e, &in->opnd[1], t);
	LLVMValueRef b = !unary && a ? jit_get(e, &in->opnd[2], t) : NULL;
	if (!a || (!unary && !b))
		return false;
	LLVMValueRef r = unary ? int_unary(e, in, a, t) :
				 int_binary(e, in, a, b, t);
	if (!r)
		return jit_unsupported(e, "form");
	unsigned rt = in->op == OP_POPC || in->op == OP_CLZ ? PTX_T_U32 : t;
	if (rt != t)
		r = bits_of(LLVMTypeOf(r)) > 32 ? LLVMBuildTrunc(B, r, e->i32, "") :
						  LLVMBuildZExt(B, r, e->i32, "");
	return jit_set(e, &in->opnd[0], r, rt);
}

/* ---- f32: .ftz inputs, the canonical NaN, .ftz and .sat results ---- */

static LLVMValueRef flush32(struct emit *e, LLVMValueRef x)
{
	LLVMValueRef bits = LLVMBuildBitCast(B, x, e->i32, "");
	LLVMValueRef sub = LLVMBuildICmp(
		B, LLVMIntEQ, LLVMBuildAnd(B, bits, cint(e->i32, 0x7f800000u), ""),
		cint(e->i32, 0), "");
	LLVMValueRef sign = LLVMBuildAnd(B, bits, cint(e->i32, 0x80000000u), "");
	return LLVMBuildBitCast(B, LLVMBuildSelect(B, sub, sign, bits, ""),
				e->f32, "");
}

static LLVMValueRef is_nan(struct emit *e, LLVMValueRef x)
{
	return LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
}

static LLVMValueRef fconst32(struct emit *e, uint32_t bits)
{
	return LLVMConstBitCast(cint(e->i32, bits), e->f32);
}

static LLVMValueRef fconst64(struct emit *e, uint64_t bits)
{
	return LLVMConstBitCast(cint(e->i64, bits), e->f64);
}

/* @lazy: the NaN is left for the reader to make canonical (jit_nan.c) */
static LLVMValueRef f32_out(struct emit *e, LLVMValueRef r, bool ftz,
			    bool sat, bool lazy)
{
	LLVMValueRef x = ftz ? flush32(e, r) : r;
	if (sat) {
		LLVMValueRef one = fconst32(e, 0x3f800000u);
		LLVMValueRef zero = fconst32(e, 0);
		LLVMValueRef lt1 = LLVMBuildSelect(
			B, LLVMBuildFCmp(B, LLVMRealOLT, x, one, ""), x, one, "");
		x = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, x, zero, ""),
				    lt1, zero, "");
	}
	if (lazy && !sat)
		return x;
	return LLVMBuildSelect(B, is_nan(e, r),
			       fconst32(e, sat ? 0 : 0x7fffffffu), x, "");
}

static LLVMValueRef sign_bit(struct emit *e, LLVMValueRef x)
{
	LLVMTypeRef it = LLVMTypeOf(x) == e->f32 ? e->i32 : e->i64;
	return LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildBitCast(B, x, it, ""),
			     cint(it, 0), "");
}

/* min/max as the GPU does them: a NaN loses unless .NaN; -0 < +0. */
static LLVMValueRef fminmax(struct emit *e, LLVMValueRef a, LLVMValueRef b,
			    bool max, bool nanflag, LLVMValueRef canon)
{
	LLVMValueRef an = is_nan(e, a), bn = is_nan(e, b);
	LLVMValueRef any = LLVMBuildOr(B, an, bn, "");
	LLVMValueRef both = LLVMBuildAnd(B, an, bn, "");
	LLVMValueRef other = LLVMBuildSelect(B, an, b, a, "");
	LLVMValueRef nanres = nanflag ? canon :
				LLVMBuildSelect(B, both, canon, other, "");
	LLVMValueRef sa = sign_bit(e, a);
	LLVMValueRef eqres = max ? LLVMBuildSelect(B, sa, b, a, "") :
				   LLVMBuildSelect(B, sa, a, b, "");
	LLVMValueRef less = LLVMBuildFCmp(B, max ? LLVMRealOGT : LLVMRealOLT,
					  a, b, "");
	LLVMValueRef cmpres = LLVMBuildSelect(B, less, a, b, "");
	LLVMValueRef eq = LLVMBuildFCmp(B, LLVMRealOEQ, a, b, "");
	LLVMValueRef r = LLVMBuildSelect(B, eq, eqres, cmpres, "");
	return LLVMBuildSelect(B, any, nanres, r, "");
}

/* @fn: the libm function's name to the engine (jit_engine.c) */
static LLVMValueRef call_libm(struct emit *e, LLVMTypeRef t, const char *fn,
			      LLVMValueRef a)
{
	if (e->lanes)
		return jit_vec_call1(e, t, fn, a);
	LLVMTypeRef fnty = LLVMFunctionType(t, &t, 1, false);
	return jit_call_c(e, fnty, fn, &a, 1);
}

/* The operation itself, on values already flushed where .ftz says. */
static LLVMValueRef float_op(struct emit *e, const struct ir_insn *in,
			     LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
			     LLVMTypeRef t)
{
	bool f32 = t == e->f32;
	bool nanflag = in->flags >> FL_NAN & 1;
	LLVMValueRef args[3] = { a, b, c };
	switch (in->op) {
	case OP_ADD: return LLVMBuildFAdd(B, a, b, "");
	case OP_SUB: return LLVMBuildFSub(B, a, b, "");
	case OP_MUL: return LLVMBuildFMul(B, a, b, "");
	case OP_DIV: return LLVMBuildFDiv(B, a, b, "");
	case OP_FMA:
	case OP_MAD: return jit_intrinsic(e, "llvm.fma", &t, 1, args, 3);
	case OP_SQRT: return jit_intrinsic(e, "llvm.sqrt", &t, 1, args, 1);
	case OP_RCP: return LLVMBuildFDiv(B, LLVMConstReal(t, 1.0), a, "");
	case OP_RSQRT:
		if (!f32)
			return LLVMBuildFDiv(B, LLVMConstReal(t, 1.0),
					     jit_intrinsic(e, "llvm.sqrt", &t, 1,
							   args, 1), "");
		args[0] = LLVMBuildFPExt(B, a, e->f64, "");
		return LLVMBuildFPTrunc(B, LLVMBuildFDiv(
			B, LLVMConstReal(e->f64, 1.0),
			jit_intrinsic(e, "llvm.sqrt", &e->f64, 1, args, 1), ""),
			e->f32, "");
	case OP_ABS: return jit_intrinsic(e, "llvm.fabs", &t, 1, args, 1);
	case OP_NEG: return LLVMBuildFNeg(B, a, "");
	case OP_MIN:
	case OP_MAX:
		return fminmax(e, a, b, in->op == OP_MAX, nanflag,
			       f32 ? fconst32(e, 0x7fffffffu) :
				     fconst64(e, 0x7fffffffffffffffull));
	case OP_SIN: return f32 ? call_libm(e, t, "vcuda_sinf", a) : NULL;
	case OP_COS: return f32 ? call_libm(e, t, "vcuda_cosf", a) : NULL;
	case OP_LG2: return f32 ? call_libm(e, t, "vcuda_log2f", a) : NULL;
	case OP_EX2: return f32 ? call_libm(e, t, "vcuda_exp2f", a) : NULL;
	case OP_TANH:
		return f32 ? call_libm(e, t, "vcuda_tanhf", a) : NULL;
	default:
		return NULL;
	}
}

static unsigned float_arity(unsigned op)
{
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MIN:
	case OP_MAX:
		return 2;
	case OP_FMA: case OP_MAD:
		return 3;
	default:
		return 1;
	}
}

/* f64 NaN results: an operand's NaN, quieted, in the GPU's order of
 * preference (@first, @second, then c), else the default NaN. */
static LLVMValueRef f64_res(struct emit *e, LLVMValueRef r,
			    LLVMValueRef first, LLVMValueRef second,
			    LLVMValueRef c, unsigned n)
{
	LLVMValueRef q = cint(e->i64, 0x0008000000000000ull);
	LLVMValueRef pick = cint(e->i64, 0xfff8000000000000ull);
	LLVMValueRef cand[3] = { first, c, second };
	bool use[3] = { true, n > 2, n > 1 };
	for (int i = 0; i < 3; i++) {
		if (!use[i])
			continue;
		LLVMValueRef bits = LLVMBuildOr(
			B, LLVMBuildBitCast(B, cand[i], e->i64, ""), q, "");
		pick = LLVMBuildSelect(B, is_nan(e, cand[i]), bits, pick, "");
	}
	return LLVMBuildSelect(B, is_nan(e, r),
			       LLVMBuildBitCast(B, pick, e->f64, ""), r, "");
}

/* abs and neg without .ftz/.sat: sign bit only; NaNs as the GPU. */
static LLVMValueRef sign_op(struct emit *e, const struct ir_insn *in,
			    LLVMValueRef a, bool f32)
{
	LLVMTypeRef it = f32 ? e->i32 : e->i64;
	uint64_t sign = f32 ? 0x80000000ull : 0x8000000000000000ull;
	LLVMValueRef bits = LLVMBuildBitCast(B, a, it, "");
	LLVMValueRef r = in->op == OP_ABS ?
				 LLVMBuildAnd(B, bits, cint(it, ~sign & (f32 ?
						0xffffffffull : ~0ull)), "") :
				 LLVMBuildXor(B, bits, cint(it, sign), "");
	LLVMValueRef nan_r = f32 ? cint(it, 0x7fffffffu) :
			     LLVMBuildOr(B, bits, cint(it, 0x0008000000000000ull),
					 "");
	r = LLVMBuildSelect(B, is_nan(e, a), nan_r, r, "");
	return LLVMBuildBitCast(B, r, f32 ? e->f32 : e->f64, "");
}

static bool float_form_ok(struct emit *e, const struct ir_insn *in,
			  unsigned t)
{
	bool approx = in->flags >> FL_APPROX & 1;
	if (t != PTX_T_F32 && t != PTX_T_F64)
		return jit_unsupported(e, "half precision");
	if (in->rnd && in->rnd != MOD_RN)
		return jit_unsupported(e, "rounding mode");
	if (in->flags & (1u << FL_XORSIGN | 1u << FL_RELU | 1u << FL_OOB |
			 1u << FL_FULL))
		return jit_unsupported(e, "modifier");
	if (in->op == OP_DIV && t == PTX_T_F32 && approx)
		return jit_unsupported(e, "div.approx");
	if (in->op == OP_RCP && t == PTX_T_F64 && approx)
		return jit_unsupported(e, "rcp.approx.f64");
	if (t == PTX_T_F64 && in->flags & (1u << FL_SAT | 1u << FL_FTZ) &&
	    in->op != OP_ABS && in->op != OP_NEG)
		return jit_unsupported(e, ".sat f64");
	return true;
}

bool jit_emit_float(struct emit *e, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (!float_form_ok(e, in, t))
		return false;
	bool f32 = t == PTX_T_F32, ftz = in->flags >> FL_FTZ & 1;
	bool sat = in->flags >> FL_SAT & 1;
	unsigned n = float_arity(in->op);
	if (in->nopnds != n + 1)
		return jit_unsupported(e, "operands");
	LLVMValueRef v[3];
	for (unsigned i = 0; i < 3; i++) {
		v[i] = i < n ? jit_get(e, &in->opnd[1 + i], t) : v[0];
		if (!v[i])
			return false;
	}
	if ((in->op == OP_ABS || in->op == OP_NEG) && !ftz && !sat)
		return jit_set(e, &in->opnd[0], sign_op(e, in, v[0], f32), t);
	if (!f32 && (ftz || sat))
		return jit_unsupported(e, ".ftz f64");
	for (unsigned i = 0; ftz && i < 3; i++)
		v[i] = flush32(e, v[i]);
	LLVMValueRef r = float_op(e, in, v[0], v[1], v[2], jit_type(e, t));
	if (!r)
		return jit_unsupported(e, "form");
	if (f32)
		r = f32_out(e, r, ftz, sat, in->opnd[0].kind == OPND_REG &&
			    e->lazy_nan[in->opnd[0].reg]);
	else if (in->op == OP_DIV)
		r = f64_res(e, r, v[1], v[0], v[2], 2);
	else
		r = f64_res(e, r, v[0], v[1], v[2], n);
	return jit_set(e, &in->opnd[0], r, t);
}
