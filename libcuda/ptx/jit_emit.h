/* SPDX-License-Identifier: MIT */
/*
 * Inside the JIT's code generator: the state of one kernel's emission
 * and the helpers its parts share. jit_emit.c builds the function (the
 * thread loop, control flow, barriers, operands), jit_emit_ops.c the
 * arithmetic, jit_emit_mem.c memory and atomics.
 *
 * Registers are allocas of i64 (i1 for predicates) that mem2reg turns
 * into SSA values. As in the interpreter, a value narrower than 64 bits
 * sits in the low bits, extended by its type's signedness, and readers
 * truncate to their type; so the two executors agree bit for bit.
 */
#ifndef VCUDA_PTX_JIT_EMIT_H
#define VCUDA_PTX_JIT_EMIT_H

#include "jit.h"

#include <llvm-c/Core.h>

struct emit {
	const struct ptx_kernel *k;
	const struct ir_func *f;
	const struct ir_insn *in;	/* being emitted */
	LLVMContextRef cx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn, cta, region;
	LLVMTypeRef i1, i8, i16, i32, i64, f32, f64, p8;
	LLVMValueRef *regs;		/* an alloca per IR register */
	LLVMBasicBlockRef *blocks;	/* per IR block */
	LLVMBasicBlockRef next_bb;	/* the next thread */
	LLVMBasicBlockRef fault_bb;	/* returns 1 */
	LLVMBasicBlockRef *resume;	/* region r continues at resume[r] */
	uint32_t *resume_insn;		/* after the barrier at this insn */
	uint32_t nresume, resume_cap;
	/* the thread: linear index and coordinates (i32) */
	LLVMValueRef tid, tx, ty, tz;
	/* CTA-uniform values, loaded once */
	LLVMValueRef shared, params, save, exited, sites, globals;
	uint32_t nsites;		/* global access sites so far */
	LLVMBasicBlockRef entry_bb;	/* for allocas made late */
	LLVMValueRef ntid[3], ctaid[3], nctaid[3], shared_size, nthreads;
	bool has_barrier;		/* else one region: no exited flags */
	char *why;
	size_t whylen;
	/* liveness (jit_live.c): registers live after each barrier */
	struct jit_live *live;
	uint32_t save_stride;		/* registers saved per thread */
	/* per register: holds an f32 result whose NaN is not yet the
	 * canonical one (jit_nan.c) */
	uint8_t *lazy_nan;
};

/* Registers live after each bar.sync of @e's kernel, by instruction
 * index; NULL (with why) when out of memory. */
struct jit_live *jit_live_compute(struct emit *e);
/* Register @r is live after the barrier at instruction @insn. */
bool jit_live_after(const struct jit_live *l, uint32_t insn, uint32_t r);
void jit_live_free(struct jit_live *l);

/* Registers whose every write is f32 arithmetic (jit_nan.c): their
 * NaNs are made canonical when read, not when written; NULL if out of
 * memory. */
uint8_t *jit_nan_lazy_registers(const struct ir_func *f);
/* @in reads f32 registers without looking at a NaN's bits. */
bool jit_nan_blind(const struct ir_insn *in);

/* Records why the kernel cannot be compiled; returns false. */
bool jit_unsupported(struct emit *e, const char *what);

/* The LLVM type of PTX type @t (iN, float, double, i1); NULL if none. */
LLVMTypeRef jit_type(struct emit *e, unsigned t);
LLVMValueRef jit_const(struct emit *e, LLVMTypeRef t, uint64_t v);

/* Operands: @o read as type @t; NULL (after jit_unsupported) if not. */
LLVMValueRef jit_get(struct emit *e, const struct ir_operand *o,
		     unsigned t);
/* Writes @v, of type @t, to the register @o (a sink drops it). */
bool jit_set(struct emit *e, const struct ir_operand *o, LLVMValueRef v,
	     unsigned t);
/* Writes @v (an integer of any width) extended by @sign. */
bool jit_set_bits(struct emit *e, const struct ir_operand *o,
		  LLVMValueRef v, bool sign);

/* The address of module variable @s (i64); NULL when not placed. */
LLVMValueRef jit_variable_address(struct emit *e, const struct ir_sym *s);

/* An alloca of @t in the entry block, holding the i64 at @init. */
LLVMValueRef jit_entry_copy(struct emit *e, LLVMValueRef init_ptr);
/* Marks a load as reading memory no store of the kernel changes. */
void jit_invariant(struct emit *e, LLVMValueRef load);

/* Calls an LLVM intrinsic overloaded on @types. */
LLVMValueRef jit_intrinsic(struct emit *e, const char *name,
			   LLVMTypeRef *types, unsigned ntypes,
			   LLVMValueRef *args, unsigned nargs);
/* Calls the C function the engine names @name (JIT_SYM_*), of @fnty. */
LLVMValueRef jit_call_c(struct emit *e, LLVMTypeRef fnty, const char *name,
			LLVMValueRef *args, unsigned nargs);

/* Instruction families. */
bool jit_emit_int(struct emit *e, const struct ir_insn *in);
bool jit_emit_float(struct emit *e, const struct ir_insn *in);
bool jit_emit_cmp(struct emit *e, const struct ir_insn *in);
bool jit_emit_cvt(struct emit *e, const struct ir_insn *in);
bool jit_emit_mem(struct emit *e, const struct ir_insn *in);
bool jit_emit_atom(struct emit *e, const struct ir_insn *in);

#endif
