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

#include "ir_shape.h"
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
	/* value types: scalars, or <lanes x T> in vector mode (jit_lanes) */
	LLVMTypeRef i1, i8, i16, i32, i64, f32, f64, p8;
	LLVMTypeRef scalar[7];		/* i1 .. f64, always scalar */
	unsigned lanes;			/* 0: scalar code; else W */
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
	struct jit_slots *slots;	/* save slots (jit_slots.c) */
	uint32_t save_stride;		/* registers saved per thread */
	/* per register: holds an f32 result whose NaN is not yet the
	 * canonical one (jit_nan.c) */
	uint8_t *lazy_nan;
	/* the vector form (jit_emit_vec.c) */
	bool vector;			/* this kernel has one */
	unsigned width;			/* its lanes per group (W) */
	LLVMValueRef vstate, dsave;	/* jit_cta fields, loaded */
	LLVMValueRef gtid;		/* the group's first thread (i32) */
	LLVMValueRef leftover;		/* i32 alloca: a group left threads */
	LLVMValueRef lane_addr, lane_vals;	/* jit_lanes_access buffers */
	/* <W x i1>: the lanes a masked piece runs in (jit_emit_vmask.c);
	 * register writes keep the other lanes' values. NULL: all. */
	LLVMValueRef mask;
	LLVMBasicBlockRef *dresume;	/* scalar entry before insn i */
	/* blocks made on first use, to emit (jit_block); NULL: all made */
	uint32_t *block_queue, nqueued;
	uint32_t *region_after;		/* [barrier insn]: the region next */
	const struct jit_vregions *vregions;
	uint32_t vregion;		/* the region being emitted */
	struct ir_shapes *shapes;	/* registers across a group's lanes */
	struct jit_stats stats;		/* the vector form's paths, counted */
	/* groups take turns in a loop (jit_emit_vyield.c): its back edge
	 * (UINT32_MAX: none); allocas: trips this turn (i32), a group
	 * yielded this pass, this pass resumes (i1) */
	uint32_t yield_branch;
	LLVMValueRef trips, yielded, resuming;
	bool yield_here;		/* the region being emitted has it */
	/* registers the region being emitted touches (jit_vregion.c):
	 * those live at the back edge are what a turn saves */
	const uint64_t *vtouched;
	/* the stretch being emitted with its shared checks proven
	 * (jit_emit_vproof.c); NULL: every access checks */
	const struct jit_vproof *proof;
	/* runs of strided accesses (jit_emit_vrun.c): per instruction,
	 * where its run is emitted, the run's first load or last store
	 * (UINT32_MAX: none); NULL until needed. in_run: a run's
	 * accesses one by one, not again as a run */
	uint32_t *vruns;
	bool in_run;
};

/* Scalar i32 and i64 constants, the vector form's lane indices and
 * offsets. */
static inline LLVMValueRef s32(struct emit *e, uint64_t v)
{
	return LLVMConstInt(e->scalar[3], v, false);
}

static inline LLVMValueRef s64(struct emit *e, uint64_t v)
{
	return LLVMConstInt(e->scalar[4], v, false);
}

/* The vector form's widths: lanes of one group of threads, chosen per
 * kernel (jit_vec_width); the wider one where its blocks allow it. */
#define JIT_LANES_NARROW 8
#define JIT_LANES_MAX 16

/* Registers live after each bar.sync of @e's kernel and before each
 * guarded instruction, by instruction index; NULL (with why) when out
 * of memory. */
struct jit_live *jit_live_compute(struct emit *e);
/* Register @r is live after the barrier at instruction @insn. */
bool jit_live_after(const struct jit_live *l, uint32_t insn, uint32_t r);
/* Register @r is live before the guarded instruction @insn. */
bool jit_live_before(const struct jit_live *l, uint32_t insn, uint32_t r);
void jit_live_free(struct jit_live *l);
/* Adds to @set the registers @in may write (guarded or not): the defs
 * the liveness kills. */
void jit_live_add_defs(const struct ir_func *f, const struct ir_insn *in,
		       uint64_t *set);

/* Save slots at barriers (jit_slots.c): one fixed slot per register
 * live after some barrier, and per barrier the registers it must
 * store; NULL (with why) when out of memory. */
struct jit_slots *jit_slots_compute(struct emit *e);
/* The slot of register @r, live after some barrier. */
uint32_t jit_slot_of(const struct jit_slots *s, uint32_t r);
/* Slots per thread. */
uint32_t jit_slots_stride(const struct jit_slots *s);
/* The barrier at instruction @insn stores register @r: it is live after
 * it and may hold another value than its slot does. */
bool jit_slot_store(const struct jit_slots *s, uint32_t insn, uint32_t r);
/* Before the guarded instruction @insn, register @r may hold another
 * value than its slot: the region (or the kernel's entry) may have
 * written it. A live register that it has not is in its slot. */
bool jit_slot_written(const struct jit_slots *s, uint32_t insn, uint32_t r);
void jit_slots_free(struct jit_slots *s);

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
/* An integer constant of type @t, splat when @t is a vector. */
LLVMValueRef jit_cint(LLVMTypeRef t, uint64_t v);
/* Bits of an integer type or of a vector's elements. */
unsigned jit_int_bits(LLVMTypeRef t);
/* The integer type of @bits bits shaped as @t (scalar or vector). */
LLVMTypeRef jit_int_like(struct emit *e, LLVMTypeRef t, unsigned bits);
/* Sets the value types to scalars (@lanes 0) or vectors of @lanes. */
void jit_lanes(struct emit *e, unsigned lanes);
/* @v (scalar) in every lane, in vector mode; else @v. */
LLVMValueRef jit_splat(struct emit *e, LLVMValueRef v);

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

/* Shared by the scalar and the vector forms (jit_emit.c). */
void jit_load_uniforms(struct emit *e);
LLVMValueRef jit_cta_field(struct emit *e, size_t off, LLVMTypeRef t);
LLVMBasicBlockRef jit_new_block(struct emit *e, const char *name);
LLVMBasicBlockRef jit_label_block(struct emit *e, const struct ir_operand *o);
/* The LLVM block of IR block @bi; made and queued on first use where
 * e->block_queue is set (the vector form's regions). */
LLVMBasicBlockRef jit_block(struct emit *e, uint32_t bi);
uint32_t jit_target_block(struct emit *e, const struct ir_operand *o);
LLVMBasicBlockRef jit_kill_check(struct emit *e, LLVMValueRef tid,
				 LLVMBasicBlockRef to);
bool jit_is_cta_barrier(const struct ir_insn *in);
bool jit_add_resume(struct emit *e, LLVMBasicBlockRef bb, uint32_t at);
void jit_barrier_fault_call(struct emit *e, LLVMValueRef tid, unsigned line);
/* trap / brkpt: the fault, by thread @tid (a group's first), then the
 * fault block. */
bool jit_emit_trap(struct emit *e, const struct ir_insn *in,
		   LLVMValueRef tid);
/* An instruction that is not a guard's branch around it. */
bool jit_emit_plain(struct emit *e, const struct ir_insn *in);
/* ld/st .volatile or with a memory order (.relaxed, .acquire, ...):
 * done each time, in program order (volatile), acquire and release as
 * fences after and before it (jit_mem_fence). */
bool jit_mem_ordered(const struct ir_insn *in);
void jit_mem_fence(struct emit *e, const struct ir_insn *in, bool after);
/* jit_emit_bits.c */
bool jit_emit_bfi(struct emit *e, const struct ir_insn *in);

/* ---- the vector form (jit_emit_vec.c, jit_emit_vmem.c) ---- */

/* Builds @k's vector function @name: 0 when it has none (with why). */
LLVMValueRef jit_emit_vector(struct emit *e, const char *name);
bool jit_vec_control(struct emit *e, const struct ir_insn *in);
bool jit_vec_mem(struct emit *e, const struct ir_insn *in);
/* An access of a run of strided loads or stores (jit_emit_vrun.c): 1
 * when emitted (the whole run, at its first load or last store) or done
 * there, 0 after jit_unsupported, -1 when @in is in no run. */
int jit_vrun(struct emit *e, const struct ir_insn *in);
void jit_vrun_free(struct emit *e);
/* @in has no effect but its destination and cannot trap in any lane
 * (jit_emit_vmask.c). */
bool jit_vmask_pure(const struct ir_insn *in);
bool jit_vec_atom(struct emit *e, const struct ir_insn *in);
/* The group parts before @in: the scalar code goes on from there. */
void jit_vec_diverge(struct emit *e, const struct ir_insn *in);
/* The guarded forward branch @in skips a piece the vector form can run
 * under a lane mask (jit_emit_vmask.c). */
bool jit_vmask_fits(struct emit *e, const struct ir_insn *in);
/* That piece, in the lanes where @taken is false, then to @target. */
bool jit_vmask_emit(struct emit *e, const struct ir_insn *in,
		    LLVMValueRef taken, LLVMBasicBlockRef target);
/* A store a masked piece can hold, and that store under e->mask
 * (jit_emit_vmask_st.c). */
bool jit_vmask_store_fits(const struct ir_insn *in);
bool jit_vmask_store(struct emit *e, const struct ir_insn *in);
/* Register shapes for the vector form (jit_emit_vshape.c): computed
 * before it is emitted, freed after; false when out of memory. */
bool jit_vec_shapes_begin(struct emit *e);
void jit_vec_shapes_end(struct emit *e);
/* The shape of @in's operand @i used as an address (varying if none). */
struct ir_shape jit_vec_address_shape(struct emit *e,
				      const struct ir_insn *in, unsigned i);
/* @in's guard is the same in every lane: its value in lane 0 (i1). */
LLVMValueRef jit_vec_uniform_guard(struct emit *e, const struct ir_insn *in,
				   LLVMValueRef g);
/* The vector form runs only where a group lies in one row of the CTA
 * (ntid.x % W == 0), as the shapes assume: then on to @go, else every
 * thread is left to the scalar loop. */
void jit_vec_rows_gate(struct emit *e, LLVMValueRef rows,
		       LLVMBasicBlockRef go);

/* Shared bounds checks proven once per stretch (jit_emit_vproof.c). */
struct jit_vproof;
/* Where the stretch from @first ends: a barrier, else @block_end. */
uint32_t jit_vproof_stretch_end(const struct ir_func *f, uint32_t first,
				uint32_t block_end);
/* The proof for the stretch [@first, @end), its test made at
 * jit_vproof_first() (the stretch's start, or after the last write of
 * a base register it covers); NULL when too few accesses would go
 * unchecked (or out of memory). */
struct jit_vproof *jit_vproof_plan(struct emit *e, uint32_t first,
				   uint32_t end);
uint32_t jit_vproof_first(const struct jit_vproof *p);
/* i1: the test that lets the stretch skip the covered accesses' checks. */
LLVMValueRef jit_vproof_test(struct emit *e, const struct jit_vproof *p);
/* e->proof holds and covers the shared access @in: no check needed. */
bool jit_vproof_covers(const struct emit *e, const struct ir_insn *in);
void jit_vproof_free(struct jit_vproof *p);

/* Prefetches ahead of the global load @in in a loop, whose lane 0
 * reads at @lane0 (i64), by the step it took since it last ran
 * (jit_emit_vprefetch.c). */
void jit_vec_prefetch(struct emit *e, const struct ir_insn *in,
		      LLVMValueRef lane0);

/* Register @r of the group's lanes to and from @slot of a
 * [slot][thread] array of i64 (jit_emit_vec.c). */
void jit_vec_save_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
			uint32_t slot);
void jit_vec_restore_lanes(struct emit *e, uint32_t r, LLVMValueRef base,
			   uint32_t slot);

/* Groups take turns in a streaming loop (jit_emit_vyield.c): picks the
 * loop and makes its allocas, in the entry block; */
void jit_vyield_plan(struct emit *e);
/* @f has a loop whose groups would take turns (chooses 8 lanes). */
bool jit_vyield_likely(const struct ir_func *f);
/* the block a back edge @in whose lanes all jump takes instead of @to
 * (@to itself unless it is that loop's); */
LLVMBasicBlockRef jit_vyield_back_edge(struct emit *e,
				       const struct ir_insn *in,
				       LLVMBasicBlockRef to);
/* at a group's start in the region just emitted: a group that yielded
 * resumes, another goes on to the next group in a later pass, else on
 * to @fresh; */
void jit_vyield_dispatch(struct emit *e, LLVMBasicBlockRef fresh);
/* after the region's last group: i1, true when another pass must run
 * (NULL when the region just emitted has no such loop). */
LLVMValueRef jit_vyield_another_pass(struct emit *e);
/* @in lies in the loop whose groups take turns. */
bool jit_vyield_in_turns(struct emit *e, const struct ir_insn *in);

/* The vector form's regions (jit_vregion.c): region k starts after the
 * barrier at instruction start[k] (k > 0), or at the kernel's entry. */
struct jit_vregions {
	uint32_t n;
	uint32_t *start;
	bool *one_barrier;	/* [k]: every group arrives at one barrier */
	bool *exited_before;	/* [k]: a thread may have exited by then */
};
/* Fills @r's one_barrier and exited_before; false when out of memory. */
bool jit_vec_regions_reach(struct emit *e, struct jit_vregions *r);
/* Adds to @set the registers region @k touches; false when out of
 * memory. */
bool jit_vec_region_regs(struct emit *e, const struct jit_vregions *r,
			 uint32_t k, uint64_t *set);

/* Calls @fn (scalar, one argument of @t's element type) per lane. */
LLVMValueRef jit_vec_call1(struct emit *e, LLVMTypeRef t, const char *fn,
			   LLVMValueRef a);

/* ---- scalar memory access, shared with the vector form ---- */

/* A global access site: the writable range it used last, cached. */
struct jit_site {
	uint32_t index;
	LLVMValueRef lo_mem, len_mem, lo_slot, len_slot;
};
void jit_site_new(struct emit *e, struct jit_site *s);
/* d aligned to @size and d + size <= len (i64 scalars). */
LLVMValueRef jit_in_window(struct emit *e, LLVMValueRef d, LLVMValueRef len,
			   unsigned size);
/* Host pointers of scalar accesses by thread e->tid (scalar mode). */
LLVMValueRef jit_global_ptr(struct emit *e, LLVMValueRef addr, unsigned size,
			    bool write, const struct jit_site *s);
LLVMValueRef jit_shared_ptr(struct emit *e, LLVMValueRef addr, unsigned size);
/* The atomic operation of @in on @p with operands @b, @c; the old value. */
LLVMValueRef jit_atomic_op(struct emit *e, const struct ir_insn *in,
			   LLVMValueRef p, LLVMValueRef b, LLVMValueRef c,
			   unsigned kind, LLVMTypeRef it);
enum jit_mem_kind { MK_GLOBAL, MK_SHARED, MK_PARAM };
bool jit_mem_kind(struct emit *e, unsigned space, enum jit_mem_kind *k);
/* A kernel parameter's host pointer (scalar mode). */
LLVMValueRef jit_param_ptr(struct emit *e, const struct ir_operand *o,
			   unsigned size);
/* The address operand of @k, i64 (in each lane in vector mode). */
LLVMValueRef jit_addr_value(struct emit *e, const struct ir_operand *o,
			    enum jit_mem_kind k);
/* The data operands of ld/st: one, or a vector's @n elements. */
const struct ir_operand *jit_data_ops(struct emit *e,
				      const struct ir_operand *o, unsigned *n);
/* The F16-free atomic kinds compiled code handles. */
bool jit_atom_kind(unsigned t, unsigned *kind);

/* An atom/red as the JIT compiles it, both forms (jit_emit_mem.c). */
struct jit_atom_form {
	bool red;		/* no result register */
	unsigned type, kind, size;
	unsigned first;		/* operand index of the address */
	unsigned nsrc;		/* 2 for cas, else 1 */
};
/* Reads @in's form; false (after jit_unsupported) when not compiled. */
bool jit_atom_form(struct emit *e, const struct ir_insn *in,
		   struct jit_atom_form *f);

/* A shared-memory atom/red of the vector form whose lanes' addresses
 * all pass one check: each lane's operation inline, then on to *@done;
 * the builder is left where the check failed, for the lane-by-lane
 * path, which ends at *@done too (jit_emit_vatom.c). */
bool jit_vec_shared_atom(struct emit *e, const struct ir_insn *in,
			 const struct jit_atom_form *f, LLVMValueRef addr,
			 LLVMValueRef b, LLVMValueRef c,
			 LLVMBasicBlockRef *done);

/* Instruction families. */
bool jit_emit_int(struct emit *e, const struct ir_insn *in);
bool jit_emit_float(struct emit *e, const struct ir_insn *in);
bool jit_emit_cmp(struct emit *e, const struct ir_insn *in);
bool jit_emit_cvt(struct emit *e, const struct ir_insn *in);
bool jit_emit_mem(struct emit *e, const struct ir_insn *in);
bool jit_emit_cvta(struct emit *e, const struct ir_insn *in);
bool jit_whole_vector(unsigned size, unsigned n);
bool jit_emit_atom(struct emit *e, const struct ir_insn *in);

#endif
