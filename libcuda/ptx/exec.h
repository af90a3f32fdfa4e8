/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's executable form and run-time state.
 *
 * Each kernel is lowered (lower.c), together with every function it can
 * call, into arrays of struct xinsn: pre-decoded instructions, each with
 * the handler that executes it for a whole warp. A warp runs
 *
 *	while ((ip = ip->fn(w, ip)))
 *		;
 *
 * Handlers return the next instruction, or NULL to stop the warp (barrier,
 * yield, exit, fault); nothing is decoded or allocated in that loop.
 *
 * Registers: every register holds the 32 lanes of a warp as 32 uint64_t
 * (256 bytes, so a lane loop over one register is contiguous memory).
 * Values narrower than 64 bits sit in the low bits; readers truncate to
 * the instruction's type, so upper bits never matter. A predicate is one
 * uint32_t lane mask. Operands are xrefs: a byte offset tagged in its low
 * two bits with a base (the current register frame, the warp's special
 * registers, or absolute for constants), so that fetching an operand is
 * base[tag] + offset with no branch.
 *
 * SIMT: a warp has a stack of (mask, resume point, reconvergence point)
 * entries; divergent branches push the two paths, which pop when they
 * reach the branch's immediate post-dominator (a RECONV instruction opens
 * every block that is one). Calls push an entry too, with the caller's
 * frame; ret/exit remove lanes from entries.
 *
 * Memory: every state space is host memory. Global, const and generic
 * addresses are host pointers; shared addresses are offsets into the
 * CTA's shared block; local addresses are offsets into each thread's
 * local stack; kernel parameters are offsets into the launch's buffer.
 */
#ifndef VCUDA_PTX_EXEC_H
#define VCUDA_PTX_EXEC_H

#include "ir.h"
#include "ptx.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define WARP_SIZE 32
/* Shared memory the system reserves in each CTA (sm_80+; cooperative
 * groups keeps scratch there), after the kernel's own. */
#define RESERVED_SMEM 1024u
#define FULL_MASK 0xffffffffu
#define LANE_BYTES (WARP_SIZE * sizeof(uint64_t))
/* Taken backward branches before a warp yields to the others. */
#define BRANCH_BUDGET (1u << 14)

/* xref bases */
enum { SEL_FRAME = 0, SEL_SREG = 1, SEL_ABS = 2 };
typedef uintptr_t xref;

struct warp;
struct xinsn;
struct xfunc;
typedef const struct xinsn *(*xhandler)(struct warp *w,
					const struct xinsn *ip);

/* Memory space classes of memory instructions. */
enum xspace {
	XS_GLOBAL,	/* global, const, generic: host pointers */
	XS_SHARED,	/* offset into the CTA's shared block */
	XS_LOCAL,	/* offset into each lane's local stack */
	XS_KPARAM,	/* offset into the kernel parameter buffer */
};

/* Argument copy of a call: caller location -> callee location. */
struct xcall_arg {
	xref reg;		/* register, or 0 for memory */
	uint32_t mem;		/* local offset from the frame base */
	uint32_t size;
};

struct xcall {
	const struct xfunc *callee;	/* NULL: indirect (through a reg) */
	uint32_t nargs, nrets;
	struct xcall_arg *args;		/* caller side */
	struct xcall_arg *params;	/* callee side, same order */
	struct xcall_arg *rets;		/* caller side */
	struct xcall_arg *retparams;	/* callee side */
	const struct ptx_kernel *kernel; /* to resolve indirect targets */
};

struct xinsn {
	xhandler fn;
	xref d, a, b, c;	/* destination, sources */
	xref guard;		/* predicate, or 0 for none */
	uint32_t guard_neg;	/* 0, or ~0 for @!p */
	uint32_t pneg[3];	/* ~0 for negated predicate sources a, b, c */
	uint16_t op;		/* enum ptx_opcode, for messages */
	uint8_t type, type2;	/* enum ptx_type */
	uint8_t mode;		/* handler-specific small values */
	uint16_t mode16;	/* a modifier id, where handlers need one */
	uint8_t rnd;
	uint8_t size;		/* memory access size in bytes */
	uint8_t vec;		/* vector elements */
	uint8_t space;		/* enum xspace of atomics */
	uint32_t flags;		/* FL_* bits of the IR instruction */
	bool frame_rel;		/* address adds the local frame base */
	int64_t imm;		/* address offset / constant */
	const struct xinsn *target;	/* branch target */
	const struct xinsn *reconv;	/* reconvergence point, NULL: exit */
	const void *aux;	/* handler-specific: vector refs, call info */
	const struct ir_insn *src;
	const struct xfunc *func;
};

/* A function lowered for one kernel. */
struct xfunc {
	const struct ir_func *ir;
	struct xinsn *code;
	uint32_t ncode;
	uint32_t frame_size;	/* register frame bytes */
	uint32_t local_size;	/* own per-lane local frame bytes */
	uint64_t stack_size;	/* local_size plus the deepest callee's */
	uint64_t regs_size;	/* frame_size plus the deepest callee's */
	bool recursive;
	uint32_t *reg_off;	/* IR register -> frame offset */
	uint32_t id;		/* index in its kernel's function table */
};

/* Per-kernel layout and code. */
struct ptx_kernel {
	struct ptx_program *prog;
	struct ir_sym *sym;
	struct ptx_kernel_info info;
	struct ptx_param_info *params;
	struct xfunc **funcs;		/* by program function id, lazily */
	uint32_t nfuncs;
	struct xfunc *entry;
	uint32_t dyn_shared_offset;	/* start of dynamic shared memory */
	uint64_t local_stride;		/* per-thread local bytes */
	uint64_t regs_stride;		/* per-warp register bytes */
	bool reserved_smem;		/* reads %reserved_smem_offset_* */
	struct ptx_kernel *next;
};

/* Special-register slots: program-wide numbering of the ones used. */
struct sreg_slot {
	uint16_t sreg, comp;
};

struct const_chunk;

struct reloc_fixup {
	uint64_t *lanes;		/* constant to patch */
	struct ir_sym *sym;
	int64_t addend;
};

struct ptx_program {
	struct ir_module **modules;
	uint32_t nmodules;
	struct arena arena;		/* link results, lowered code */
	struct ir_sym **funcs;		/* defined functions, by id */
	uint32_t nfuncs;
	bool *addr_taken;		/* by function id: used as a value */
	struct ir_sym **vars;		/* defined .global/.const variables */
	uint32_t nvars;
	struct strmap globals;		/* linked name -> definition */
	struct ptx_kernel *kernels;
	struct sreg_slot *sreg_slots;
	uint32_t nsreg_slots;
	uint32_t sreg_slot_cap;
	struct const_chunk *consts;
	struct strmap const_map;	/* value bits -> lanes */
	struct vec fixups;		/* struct reloc_fixup */
	bool placed;
};

/* ---- run-time state ---- */

enum entry_kind { ENTRY_NORMAL, ENTRY_CALL };

struct stack_entry {
	const struct xinsn *pc;		/* resume point when not on top */
	const struct xinsn *rpc;	/* reconverge here; NULL: none */
	uint32_t mask;
	uint8_t kind;
	/* ENTRY_CALL: the caller's state, restored on return */
	const struct xfunc *caller;
	uint64_t caller_frame;		/* offset in the register stack */
	uint64_t caller_local;		/* local frame base */
};

enum warp_state {
	WARP_RUNNABLE,
	WARP_AT_BARRIER,
	WARP_DONE,
	WARP_FAULTED,
};

struct cta;

struct warp {
	uintptr_t base[4];	/* xref bases: frame, sregs, 0, unused */
	uint32_t active;	/* mask of the top stack entry */
	uint32_t live;		/* lanes that have not exited */
	uint32_t state;		/* enum warp_state */
	uint32_t budget;	/* taken backward branches before yielding */
	uint32_t cc;		/* CC.CF of each lane (add.cc, addc, ...) */
	const struct xinsn *ip;	/* where to resume */
	const struct xfunc *func;	/* function being executed */
	struct cta *cta;
	struct stack_entry *stack;
	uint32_t depth, stack_cap;
	uint32_t index;		/* warp index in the CTA */
	uint32_t calls;		/* ENTRY_CALL entries on the stack */
	uint8_t *regs;		/* register stack */
	uint64_t regs_cap;
	uint64_t frame;		/* offset of the current frame in regs */
	uint64_t local_base;	/* local frame base (window offset) */
	uint8_t *lane_local[WARP_SIZE];	/* each lane's local stack */
	uint8_t *sregs;
	/* barrier being waited for */
	uint32_t bar_id;
	xref bar_dst;		/* bar.red result register */
	uint8_t bar_redop;
};

enum { MAX_BARRIERS = 16 };

struct barrier {
	uint32_t arrived;	/* threads (32 per warp) */
	uint32_t expected;	/* 0: all live threads */
	uint32_t waiting;	/* warps blocked on it */
	uint32_t red_popc, red_and, red_or;
};

struct cta {
	const struct ptx_launch *launch;
	const struct ptx_kernel *kernel;
	struct ptx_worker *worker;
	uint32_t ctaid[3];
	uint32_t nthreads, nwarps;
	uint8_t *shared;
	uint64_t shared_size;
	uint64_t reserved_smem;	/* start of the reserved region, if any */
	uint8_t *local;		/* all threads' local stacks */
	uint64_t local_size;
	struct warp *warps;
	struct barrier bars[MAX_BARRIERS];
	uint32_t live_warps;
	bool faulted;
	struct ptx_fault *fault;
	const struct ptx_mem_range *last_range;
};

/* The memory of one resident CTA: kept by the worker across launches. */
struct cta_slot {
	struct cta cta;
	struct warp *warps;
	uint32_t warp_cap;
	uint8_t *shared;
	uint64_t shared_cap;
	uint8_t *local;
	uint64_t local_cap;
	uint8_t *sregs;
	uint64_t sregs_cap;
};

struct ptx_worker {
	struct cta_slot *slots;	/* one per resident CTA */
	uint32_t nslots;
	uint32_t smid;
	uint64_t *lane_insns;	/* counting: lane-instructions, or NULL */
};

/*
 * Counts the lane-instructions (active lanes of each executed
 * instruction) @worker executes into *@counter from now on; NULL stops.
 * Slower: for the benchmark and the harness, not for libcuda.
 */
void ptx_worker_count(struct ptx_worker *worker, uint64_t *counter);

/* ---- helpers for handlers ---- */

static inline uint64_t *xr(struct warp *w, xref r)
{
	return (uint64_t *)(w->base[r & 3] + (r & ~(uintptr_t)3));
}

static inline uint32_t *xpred(struct warp *w, xref r)
{
	return (uint32_t *)xr(w, r);
}

/* Lanes an instruction executes for: active, and its guard. */
static inline uint32_t xmask(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = w->active;
	if (ip->guard)
		m &= *xpred(w, ip->guard) ^ ip->guard_neg;
	return m;
}

#define FOR_LANES(m, l) \
	for (uint32_t _m = (m), l; _m && ((l = (uint32_t)__builtin_ctz(_m)), 1); \
	     _m &= _m - 1)

static inline float f32_of(uint64_t v)
{
	float f;
	uint32_t b = (uint32_t)v;
	memcpy(&f, &b, 4);
	return f;
}

static inline uint64_t bits_f32(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

static inline double f64_of(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t bits_f64(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

/* Stops the warp with a fault; returns NULL for the handler to return. */
const struct xinsn *xfault(struct warp *w, const struct xinsn *ip,
			   enum ptx_fault_kind kind, uint32_t lane,
			   uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ---- lowering ---- */

struct lower_ctx {
	struct ptx_program *prog;
	struct ptx_kernel *kernel;
	struct xfunc *xf;
	const struct ir_func *f;
	const struct ir_module *m;
	const struct ir_insn *in;	/* being lowered */
	struct vec code;		/* struct xinsn */
	struct vec branch_fix;		/* struct branch_fix */
	struct msgbuf *log;
	int status;
	uint32_t scratch;		/* frame offset of a sink register */
};

/* One handler family: returns false after lower_fail/unsupported. */
typedef bool (*lower_fn)(struct lower_ctx *c, const struct ir_insn *in);

struct xinsn *emit(struct lower_ctx *c, xhandler fn);
bool lower_unsupported(struct lower_ctx *c, const char *why);
bool lower_nomem(struct lower_ctx *c);

/* Operand references. @type: the instruction type the value is read as. */
bool ref_src(struct lower_ctx *c, const struct ir_operand *o, unsigned type,
	     xref *out);
bool ref_dst(struct lower_ctx *c, const struct ir_operand *o, xref *out);
xref ref_const(struct lower_ctx *c, uint64_t value);
/* An address operand: base reference + offset + space class. */
bool ref_addr(struct lower_ctx *c, const struct ir_operand *o,
	      unsigned ir_space, xref *base, int64_t *offset,
	      enum xspace *space, bool *frame_rel);
const struct xfunc *lower_function(struct lower_ctx *c, struct ir_sym *fn);
unsigned reg_type(const struct lower_ctx *c, const struct ir_operand *o);

/* Per-family lowerers (exec_*.c). */
bool lower_int(struct lower_ctx *c, const struct ir_insn *in);
bool lower_float(struct lower_ctx *c, const struct ir_insn *in);
bool lower_cvt(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mov(struct lower_ctx *c, const struct ir_insn *in);
bool lower_cmp(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mem(struct lower_ctx *c, const struct ir_insn *in);
bool lower_atom(struct lower_ctx *c, const struct ir_insn *in);
bool lower_ctrl(struct lower_ctx *c, const struct ir_insn *in);
bool lower_warp(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mbarrier(struct lower_ctx *c, const struct ir_insn *in);
/* .cc/addc/subc/madc and add/sub/mad .sat (exec_carry.c) */
bool lower_carry(struct lower_ctx *c, const struct ir_insn *in);
bool lower_saturating(struct lower_ctx *c, const struct ir_insn *in);
/* Texture and surface instructions (exec_tex.c, exec_surf.c). */
bool lower_tex(struct lower_ctx *c, const struct ir_insn *in);
bool lower_surf(struct lower_ctx *c, const struct ir_insn *in);
/* wmma, mma, ldmatrix (exec_mma.c) */
bool lower_matrix(struct lower_ctx *c, const struct ir_insn *in);
/* SIMD video instructions and dp2a (exec_video.c) */
bool lower_video(struct lower_ctx *c, const struct ir_insn *in);

/* Control handlers that lower.c places itself. */
const struct xinsn *x_reconv(struct warp *w, const struct xinsn *ip);
const struct xinsn *x_ret(struct warp *w, const struct xinsn *ip);

/* Memory checks (exec_mem.c), used by atomics too. */
uint8_t *mem_host(struct warp *w, const struct xinsn *ip, enum xspace sp,
		  uint32_t lane, uint64_t addr, unsigned size, bool write);

/* ---- scheduling (sched.c) ---- */

/*
 * SIMT stack (simt.c). warp_resume pops entries whose mask is empty
 * (returning from calls) and continues the top one; NULL when the warp
 * is done or faulted.
 */
const struct xinsn *warp_resume(struct warp *w);
void warp_remove_lanes(struct warp *w, uint32_t lanes, bool to_call);
bool warp_push(struct warp *w, const struct stack_entry *e);
/* Sends groups of lanes (@masks, disjoint, >= 2) to @targets, to
 * reconverge at @reconv (NULL: function exit). */
const struct xinsn *warp_diverge(struct warp *w, const struct xinsn *reconv,
				 const struct xinsn *const *targets,
				 const uint32_t *masks, uint32_t n);
bool warp_grow_regs(struct warp *w, uint64_t need);
/* All lanes of @w have exited. */
void warp_finish(struct warp *w);

/* Barriers (sched.c): arrival of a warp; true if it must wait. */
bool barrier_arrive(struct warp *w, uint32_t id, uint32_t threads,
		    bool wait);

/* Special registers (exec_sreg.c). */
uint32_t sreg_slot(struct ptx_program *prog, unsigned sreg, unsigned comp);
void sreg_fill(struct warp *w);

#endif
