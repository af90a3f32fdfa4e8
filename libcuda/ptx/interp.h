/* SPDX-License-Identifier: MIT */
/*
 * The interpreter's executable form and run-time state (the
 * back-end-neutral program is program.h, the lowering interface lower.h,
 * the run-time helpers rt.h).
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
#ifndef VCUDA_PTX_INTERP_H
#define VCUDA_PTX_INTERP_H

#include "bits.h"
#include "program.h"
#include "rt.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LANE_BYTES (WARP_SIZE * sizeof(uint64_t))
/* Taken backward branches before a warp yields to the others. */
#define BRANCH_BUDGET (1u << 14)
/* The same where a worker interleaves several CTAs of a cooperative
 * grid: a CTA spinning at a grid barrier waits for CTAs of the same
 * worker, so it yields soon (at 1 << 14, each grid sync of 32 CTAs on
 * one worker spun about 2.5 million instructions). */
#define COOP_BRANCH_BUDGET 64u

/* xref bases */
enum { SEL_FRAME = 0, SEL_SREG = 1, SEL_ABS = 2 };
typedef uintptr_t xref;

struct warp;
struct xinsn;
struct xfunc;
typedef const struct xinsn *(*xhandler)(struct warp *w,
					const struct xinsn *ip);

/* Shared loads sort a warp's lanes by rows of ROW_GROUP (exec_mem.c);
 * a warp keeps the shapes of ROW_SLOTS address registers. */
enum { ROW_GROUP = 8, ROW_GROUPS = WARP_SIZE / ROW_GROUP, ROW_SLOTS = 4 };

/* What a shared load learns of its address register's lanes: their
 * row shapes, and their spread around lane 0 (as 32-bit differences),
 * which bound every lane's address by two. */
struct row_plan {
	uint8_t shape[ROW_GROUPS];	/* enum row_shape */
	int32_t dmin, dmax;		/* lowest, highest lane - lane 0 */
	uint32_t bits;			/* OR of every lane - lane 0 */
};

struct row_memo {
	uint32_t tag;			/* the chain's row_tag; 0: none */
	struct row_plan plan;
};

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
	/* scalar shared loads (exec_mem.c, lower_rows.c): the row shapes
	 * of the address register, in the warp's rows[row_slot] under
	 * row_tag; the first load of a chain sorts and notes them, later
	 * ones reuse them (0: no chain) */
	uint8_t row_slot;
	bool row_head;
	uint32_t row_tag;
	/* global and shared accesses whose address register the lowering
	 * found strided across a warp's lanes (ir_shape.c): lane l's is
	 * lane 0's + l * lane_stride (exec_mem.c) */
	bool strided;
	int32_t lane_stride;
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
	uint32_t local_size;	/* own local frame bytes (kernel layout) */
	uint64_t regs_size;	/* frame_size plus the deepest callee's */
	struct xcall_arg *param_args;	/* where parameters arrive */
	struct xcall_arg *ret_args;	/* where return values are left */
	bool recursive;
	uint32_t *reg_off;	/* IR register -> frame offset */
	uint32_t id;		/* index in its kernel's function table */
};

/*
 * What the lowering chose for the fast paths of a kernel's accesses,
 * counted as it lowered them: for tests to see that a fast path was
 * taken, not only that results agree (the slow paths give the same).
 * Free at run time; a strided access still takes the general path in
 * launches whose warps are not rows (cta.warp_rows).
 */
struct interp_stats {
	uint32_t strided;	/* global/shared accesses marked strided */
	uint32_t row_loads;	/* shared loads in a chain (lower_rows.c) */
	uint32_t row_reuses;	/* of them, loads reusing a head's shapes */
	uint32_t avx2;		/* instructions lowered by the AVX2 builds */
};

/* The interpreter's code of one kernel (ptx_kernel.interp). */
struct interp_kernel {
	struct xfunc **funcs;		/* by program function id, lazily */
	uint32_t nfuncs;
	struct xfunc *entry;
	uint64_t regs_stride;		/* per-warp register bytes */
	/* the special-register slots its code reads (not clocks, which
	 * are read at each use): the ones a warp's start fills */
	uint32_t *sreg_used;
	uint32_t nsreg_used;
	struct vec sreg_build;		/* sreg_used while lowering */
	/* byte ranges of the entry's frame a warp's start zeroes */
	struct zero_range *zero;
	uint32_t nzero;
	struct interp_stats stats;
};

struct zero_range {
	uint32_t off, len;
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

/* The interpreter's program-wide pools (ptx_program.interp). */
struct interp_program {
	struct sreg_slot *sreg_slots;
	uint32_t nsreg_slots;
	uint32_t sreg_slot_cap;
	struct const_chunk *consts;
	struct strmap const_map;	/* value bits -> lanes */
	struct vec fixups;		/* struct reloc_fixup */
};

/* ptx_run_ctas on the interpreter (sched.c); backend.c dispatches. */
bool interp_run_ctas(struct ptx_worker *wk, const struct ptx_launch *launch,
		     uint64_t first, uint64_t count, struct ptx_fault *fault);

/* Builds the interpreter's code of @k (lower.c). */
bool interp_lower_kernel(struct ptx_kernel *k, struct msgbuf *log,
			 int *status);
/* Patches the addresses of placed variables into the code. */
void interp_apply_fixups(struct ptx_program *prog);
void interp_program_free(struct ptx_program *prog);

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
struct jit_worker;

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
	struct row_memo rows[ROW_SLOTS];	/* shared load shapes */
};



/* Launch ranges remembered per global memory instruction (exec_mem.c). */
#define RANGE_HINTS 16

struct cta {
	struct rt_cta rt;	/* what the run-time helpers see */
	struct warp *warps;
	/* each warp is 32 consecutive threads of one row (ntid.x % 32 is
	 * 0), as the strided accesses' analysis assumes */
	bool warp_rows;
	/* the range each global access last fell in, by instruction */
	const struct ptx_mem_range *range_hint[RANGE_HINTS];
	struct rt_barrier bars[RT_MAX_BARRIERS];
	uint32_t live_warps;
	uint32_t branch_budget;	/* BRANCH_BUDGET or COOP_BRANCH_BUDGET */
	bool located;		/* the fault message names its instruction */
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
	struct jit_worker *jit;	/* the JIT's CTA memory (jit_run.c) */
};

/* Checks a launch's configuration (sched.c); false with @f filled. */
bool launch_is_valid(const struct ptx_launch *l, struct ptx_fault *f);

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

/* Stops the warp after a run-time helper faulted: adds the instruction's
 * place to the CTA's fault message. Returns NULL. */
const struct xinsn *xfault_located(struct warp *w, const struct xinsn *ip);

/* Stops the warp with a fault; returns NULL for the handler to return. */
const struct xinsn *xfault(struct warp *w, const struct xinsn *ip,
			   enum ptx_fault_kind kind, uint32_t lane,
			   uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* exec_mem.c's second build, with AVX2 (ptx.mk), has its own. */
#ifdef PTX_AVX2
#define mem_host mem_host_avx2
#define mem_span mem_span_avx2
#endif

/* Memory checks (exec_mem.c), used by atomics too. */
uint8_t *mem_host(struct warp *w, const struct xinsn *ip, enum xspace sp,
		  uint32_t lane, uint64_t addr, unsigned size, bool write);

/*
 * One check of a whole warp's access: whether the access of @size bytes
 * of every lane of @m at address ip->a + ip->imm (+ the frame base) is
 * valid in @sp; if so, lane l's address a is at host address
 * *@base + l * *@step + a. False faults nothing: check lane by lane.
 */
bool mem_span(struct warp *w, const struct xinsn *ip, enum xspace sp,
	      uint32_t m, unsigned size, bool write, uintptr_t *base,
	      uint64_t *step);

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

/* Linear index in the CTA of @lane of @w. */
static inline uint32_t warp_thread(const struct warp *w, uint32_t lane)
{
	return w->index * WARP_SIZE + lane;
}

#endif
