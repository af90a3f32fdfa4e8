// SPDX-License-Identifier: MIT
/*
 * Strided accesses in the JIT's vector form (jit_emit_vmem.c): the
 * lanes' addresses are a constant stride apart, known at compile time
 * (ir_shape.c), a multiple of a lane's bytes but not the contiguous
 * case: lane i at lane 0's address + i * stride, as in `in[4 * tid + k]`.
 * The stride being a multiple of a lane's bytes, lane 0's alignment is
 * every lane's, and no two lanes overlap: the order in which the lanes
 * access memory cannot be seen.
 *
 * One inline check of the two ends (jit_vmem_ends_ok) covers every lane
 * in between, since the window it checks against is one range. Where
 * it fails the access goes lane by lane as before, which learns the
 * site's range or faults in the first bad lane.
 *
 *  - A short positive stride (the group's span of W * stride bytes at
 *    most SPAN_MAX_BYTES): the span is one vector. A load reads it
 *    whole and picks the lanes' elements out by shuffles; a store
 *    writes only the lanes' elements, a masked store of the span,
 *    leaving the bytes between them alone. The check then covers the
 *    span's last byte, past the last lane's element: an access whose
 *    last lane ends its range goes lane by lane (slower, not wrong).
 *  - Else a gather or a scatter of the lanes' elements.
 */
#include "jit_vmem.h"

#define B (e->b)

/* A group's span, as one vector, at most this many bytes per lane
 * (stride-16 ints, scan's in[4 * tid + k]: two cache lines for 8
 * lanes, four for 16). */
#define SPAN_MAX_LANE_BYTES 16
/* elements of a span, at most: bytes of the widest group's */
#define SPAN_MAX_ELEMENTS (SPAN_MAX_LANE_BYTES * JIT_LANES_MAX)

/* |stride| kept small enough that W * stride cannot overflow */
#define STRIDE_MAX ((int64_t)1 << 40)

bool jit_vstride_fits(const struct vaccess *v, int64_t stride)
{
	int64_t unit = (int64_t)(v->size * v->n);
	return !v->vol && stride != 0 && stride != unit &&
	       stride % unit == 0 && stride < STRIDE_MAX &&
	       stride > -STRIDE_MAX;
}

/* The group's span is one vector: a short stride, forwards. */
static bool spans(int64_t stride)
{
	return stride > 0 && stride <= SPAN_MAX_LANE_BYTES;
}

/* <W x i1>, all true */
static LLVMValueRef all_lanes(struct emit *e)
{
	LLVMValueRef el[JIT_LANES_MAX];
	for (unsigned j = 0; j < e->width; j++)
		el[j] = LLVMConstInt(e->scalar[0], 1, false);
	return LLVMConstVector(el, e->width);
}

/*
 * The span's element @j belongs to lane j / q, element j % q of it:
 * one of the access's when j % q < n. The load also reads the bytes
 * between the lanes' elements, which threads of other CTAs (other
 * workers) may be writing meanwhile: a race in LLVM's memory model too,
 * but there a plain load that races with a store reads undef bytes, not
 * undefined behaviour, and the shuffles drop those bytes. So it stays a
 * plain vector load (an atomic load cannot be a vector), as the x86
 * load it becomes reads them harmlessly.
 */
static LLVMValueRef span_load(struct emit *e, struct vaccess *v,
			      int64_t stride)
{
	unsigned q = (unsigned)stride / v->size;
	unsigned m = q * e->width;
	LLVMTypeRef st = LLVMVectorType(v->it, m);
	LLVMValueRef p = LLVMBuildBitCast(B, jit_vmem_lane0_ptr(e, v),
					  LLVMPointerType(st, 0), "");
	LLVMValueRef x = LLVMBuildLoad2(B, st, p, "");
	LLVMSetAlignment(x, v->size);
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef idx[JIT_LANES_MAX];
		for (unsigned i = 0; i < e->width; i++)
			idx[i] = s32(e, i * q + k);
		LLVMValueRef el = LLVMBuildShuffleVector(
			B, x, LLVMGetUndef(st), LLVMConstVector(idx, e->width),
			"");
		if (!jit_set_bits(e, &v->ops[k], el,
				  ptx_type_is_signed(v->in->types[0])))
			return NULL;
	}
	return x;
}

static void span_store(struct emit *e, struct vaccess *v, int64_t stride)
{
	unsigned q = (unsigned)stride / v->size;
	unsigned m = q * e->width;
	LLVMValueRef idx[SPAN_MAX_ELEMENTS], on[SPAN_MAX_ELEMENTS];
	for (unsigned j = 0; j < m; j++) {
		unsigned i = j / q, k = j % q;
		idx[j] = k < v->n ? s32(e, i * v->n + k) :
				    LLVMGetUndef(e->scalar[3]);
		on[j] = LLVMConstInt(e->scalar[0], k < v->n, false);
	}
	LLVMValueRef lm = jit_vmem_interleave(e, v);	/* <W*n x iN> */
	LLVMValueRef x = LLVMBuildShuffleVector(B, lm, LLVMGetUndef(
							       LLVMTypeOf(lm)),
						LLVMConstVector(idx, m), "");
	LLVMTypeRef st = LLVMVectorType(v->it, m);
	LLVMTypeRef types[2] = { st, LLVMPointerType(st, 0) };
	LLVMValueRef args[4] = {
		x,
		LLVMBuildBitCast(B, jit_vmem_lane0_ptr(e, v), types[1], ""),
		s32(e, v->size), LLVMConstVector(on, m) };
	jit_intrinsic(e, "llvm.masked.store", types, 2, args, 4);
}

/* The lanes' pointers to their element @k: <W x iN*>. */
static LLVMValueRef lane_ptrs(struct emit *e, struct vaccess *v,
			      int64_t stride, unsigned k)
{
	LLVMValueRef el[JIT_LANES_MAX];
	for (unsigned i = 0; i < e->width; i++)
		el[i] = s64(e, (uint64_t)((int64_t)i * stride) + k * v->size);
	LLVMValueRef off = LLVMBuildAdd(B, jit_splat(e, v->lane0),
					LLVMConstVector(el, e->width), "");
	LLVMTypeRef pvt = LLVMVectorType(LLVMPointerType(v->it, 0), e->width);
	if (v->kind == MK_SHARED)
		return LLVMBuildBitCast(
			B, LLVMBuildGEP2(B, e->scalar[1], e->shared, &off, 1, ""),
			pvt, "");
	return LLVMBuildIntToPtr(B, off, pvt, "");
}

static bool gather_or_scatter(struct emit *e, struct vaccess *v,
			      int64_t stride)
{
	LLVMTypeRef vt = LLVMVectorType(v->it, e->width);
	for (unsigned k = 0; k < v->n; k++) {
		LLVMValueRef p = lane_ptrs(e, v, stride, k);
		LLVMTypeRef types[2] = { vt, LLVMTypeOf(p) };
		if (v->st) {
			LLVMValueRef args[4] = { v->data[k], p,
						 s32(e, v->size),
						 all_lanes(e) };
			jit_intrinsic(e, "llvm.masked.scatter", types, 2, args,
				      4);
			continue;
		}
		LLVMValueRef args[4] = { p, s32(e, v->size),
					 all_lanes(e),
					 LLVMGetUndef(vt) };
		LLVMValueRef x = jit_intrinsic(e, "llvm.masked.gather", types,
					       2, args, 4);
		if (!jit_set_bits(e, &v->ops[k], x,
				  ptx_type_is_signed(v->in->types[0])))
			return false;
	}
	return true;
}

bool jit_vstride_emit(struct emit *e, struct vaccess *v, int64_t stride,
		      LLVMBasicBlockRef slow)
{
	int64_t unit = (int64_t)(v->size * v->n);
	bool span = spans(stride);
	int64_t last = span ? stride * e->width - unit :
			      stride * (e->width - 1);
	LLVMBasicBlockRef go = jit_new_block(e, "vstride");
	LLVMBuildCondBr(B, jit_vmem_ends_ok(e, v, last), go, slow);
	LLVMPositionBuilderAtEnd(B, go);
	bool ok = true;
	if (span)
		e->stats.stride_span++;
	else
		e->stats.stride_gather++;
	if (span && v->st)
		span_store(e, v, stride);
	else if (span)
		ok = span_load(e, v, stride) != NULL;
	else
		ok = gather_or_scatter(e, v, stride);
	if (ok)
		LLVMBuildBr(B, v->join);
	return ok;
}
