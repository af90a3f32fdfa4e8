/* SPDX-License-Identifier: MIT */
/*
 * The LLVM back end: compiles a kernel from the IR (jit_emit.c) with
 * LLVM's ORC LLJIT (jit_engine.c) into one native function per kernel,
 * and runs CTAs with it (jit_run.c).
 *
 * Execution model. The compiled function runs every thread of a CTA, one
 * after the other, each as straight-line scalar code; PTX registers are
 * SSA values to LLVM. Where every instruction has one, a vector form
 * runs first, 8 or 16 consecutive threads side by side in SIMD
 * vectors, as long as they take the same branches; a group whose lanes
 * part ways hands its registers to the scalar loop (jit_emit_vec.c). A CTA barrier (bar.sync) splits the kernel into
 * regions: a thread that reaches a barrier saves its registers and the
 * loop moves on to the next thread; once every thread has reached it,
 * the driver calls the function again for the next region, where each
 * thread restores its registers and continues. Threads that exit drop
 * out, as they do from a GPU's barriers.
 *
 * What is not compiled (warp-level instructions, calls, textures, local
 * memory, directed rounding, ...) makes the kernel run on the
 * interpreter instead (backend.c), never fail. Cooperative launches run
 * every CTA of a worker's range at once, each on a fiber (jit_fiber.c).
 */
#ifndef VCUDA_PTX_JIT_H
#define VCUDA_PTX_JIT_H

#include "program.h"
#include "rt.h"

#include <llvm-c/Core.h>

/*
 * A kernel's compile (ptx_kernel.jit_state): UNTRIED, then QUEUED for a
 * compile thread or COMPILING on one or on a launch's thread, and last
 * READY (ptx_kernel.jit is its code) or FAILED (the interpreter's).
 */
enum jit_state {
	JIT_UNTRIED = 0,
	JIT_QUEUED,
	JIT_COMPILING,
	JIT_READY,
	JIT_FAILED,
};

/*
 * What compiled code reads and writes, by byte offset (jit_emit.c uses
 * offsetof): the C ABI between the driver and generated code.
 */
struct jit_cta {
	struct rt_cta *rt;
	uint8_t *shared;
	const uint8_t *params;
	uint64_t *save;		/* [slot][thread] across barriers */
	uint8_t *exited;	/* [thread]: 1 once it exited */
	/* Per global access site: [lo, lo + len) of the writable range it
	 * used last (sites[2 * i], sites[2 * i + 1]), checked inline. */
	uint64_t *sites;
	const atomic_bool *kill;	/* ptx_launch.kill, or a false flag */
	const uint64_t *globals;	/* addresses of ptx_program.vars[] */
	uint32_t ntid[3];
	uint32_t ctaid[3];
	uint32_t nctaid[3];
	uint32_t nthreads;
	uint64_t shared_size;
	int32_t next_region;	/* the barrier threads stopped at; -1 */
	uint32_t nregs;
	/* The vector form's hand-over to the scalar loop, per thread:
	 * 0 run it, 1 done for this region, 2 + i resume before
	 * instruction i with its registers in dsave[register][thread]. */
	uint32_t *vstate;
	uint64_t *dsave;
	/* Looked at instead of kill at the back-edges of loops that may
	 * spin: kill, except in a cooperative launch, where it is a set
	 * flag, so that they call jit_poll(), which lets the other
	 * resident CTAs run (jit_fiber.c). */
	const atomic_bool *spin;
};

/* Runs threads of a CTA from @region (0: the start); 0, or 1 when a
 * thread faulted (the fault is recorded). */
typedef int32_t (*jit_entry_fn)(struct jit_cta *cta, int32_t region);

/*
 * Which paths the code generator chose, counted site by site while it
 * emitted the vector form: for tests to see that a fast path was taken,
 * not only that results agree (the slow paths give the same). Counted
 * at compile time, so free at run time; a site's inline path may still
 * fall back to its lane-by-lane one when its check fails. Not kept in
 * the disk cache: code read from there has counted false.
 */
struct jit_stats {
	bool counted;		/* compiled in this process */
	bool vector;		/* the kernel has a vector form */
	uint8_t width;		/* its lanes per group (jit_vec_width) */
	/* ld/st sites of the vector form, by the path emitted for them */
	uint16_t contiguous;	/* one vector access (jit_vmem_ends_ok) */
	uint16_t uniform;	/* one scalar access for the group */
	uint16_t stride_span;	/* strided: the span as one vector */
	uint16_t stride_gather;	/* strided: a gather or a scatter */
	uint16_t by_shape;	/* paths picked by comparing addresses */
	uint16_t lanes_only;	/* lane by lane, no inline path */
	uint16_t masked_store;	/* stores under a lane mask, one scatter */
	uint16_t shared_atom;	/* shared atomics, checked once a group */
	uint16_t prefetch;	/* global loads in loops that prefetch */
	uint16_t turn_loops;	/* back edges where groups take turns */
	uint16_t store_runs;	/* strided stores written as one */
	uint16_t load_runs;	/* strided loads read as one */
};

/* Loaded code, shared by the kernels whose keys are equal (jit_engine.c). */
struct jit_code;

struct jit_kernel {
	jit_entry_fn entry;
	uint32_t nregs;		/* save slots per thread at barriers */
	uint32_t nsites;	/* global access sites */
	struct jit_code *code;	/* the engine's, counted */
	double compile_s;	/* seconds it took to have the code */
	bool from_disk;		/* read from the disk cache, not compiled */
	uint64_t *globals;	/* for jit_cta.globals */
	struct jit_stats stats;	/* of its code */
	/* may wait for other threads: runs cooperative launches only */
	bool waits;
	/* this compile's number in the process, never reused (a freed
	 * kernel's address may be) */
	uint64_t serial;
};

/* ---- jit_emit.c ---- */

/*
 * Builds @k's function named @name into @mod, its vector form (if any)
 * @width lanes wide (0: none); false with @why (static or in @whybuf)
 * when the kernel uses something not compiled.
 */
bool jit_emit_kernel(const struct ptx_kernel *k, unsigned width,
		     LLVMModuleRef mod, const char *name,
		     struct jit_kernel *jk, char *whybuf, size_t whylen);

/*
 * The width of @k's vector form, chosen once per compile (it is part of
 * the code's key): 16 lanes, unless the x extent of the kernel's blocks
 * (its .reqntid, else its first launch's, k->jit_ntid_x) is not a
 * multiple of 16 or the kernel has a streaming loop whose groups would
 * take turns (jit_vyield_likely), then 8; the vector form runs only
 * blocks whose x extent is a multiple of its width. VCUDA_JIT_LANES=0 gives 0 (no
 * vector form), =8 or =16 that width.
 */
unsigned jit_vec_width(const struct ptx_kernel *k);

/* @k may wait for other threads (spin on memory, take a lock): only
 * its cooperative launches run compiled (backend.c). */
bool jit_kernel_waits(const struct ptx_kernel *k);

/* ---- jit_key.c ---- */

/*
 * The key of @k's code for the CPU described by @target (triple, CPU,
 * features), its vector form @width lanes wide: the program's PTX, the
 * kernel's name, and the build of vcuda and LLVM doing the compiling;
 * false when that build cannot be told apart from others.
 */
bool jit_kernel_key(const struct ptx_kernel *k, const char *target,
		    unsigned width, uint8_t key[32]);

/* ---- jit_engine.c ---- */

/*
 * Compiles @k (or reads its code from the disk cache, or shares a loaded
 * copy) into k->jit; false with a reason in @why. Compiles of different
 * kernels may run at once, on any threads; jit_compile.c calls it once
 * per kernel.
 */
bool jit_compile_kernel(struct ptx_kernel *k, char *why, size_t whylen);
void jit_kernel_free(struct jit_kernel *jk);

/* ---- jit_compile.c: when and on which thread a kernel compiles ---- */

/* Has @k compiled on a compile thread, unless that was asked already;
 * never waits. */
void jit_compile_start(struct ptx_kernel *k);
/* Compiles @k on this thread, or waits for the compile under way; true
 * when its code is ready. */
bool jit_compile_wait(struct ptx_kernel *k);
/* Before @k's program goes: takes @k off the queue, or waits for its
 * compile to end. */
void jit_compile_forget(struct ptx_kernel *k);

/* ---- jit_run.c ---- */

bool jit_run_ctas(struct ptx_worker *wk, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault);
void jit_worker_free(struct ptx_worker *wk);

/* A worker's (or one resident CTA's) memory for running CTAs. */
struct jit_worker;
/* Sets up @rt and @jc to run CTAs of @launch in the memory *@mem (made or
 * grown here); false with @fault when there is none. */
bool jit_cta_open(struct ptx_worker *wk, const struct ptx_launch *launch,
		  struct ptx_fault *fault, struct jit_worker **mem,
		  struct rt_cta *rt, struct jit_cta *jc);
/* Runs CTA @linear of the launch @jc was opened for, to its end. */
bool jit_cta_run(struct jit_cta *jc, const struct jit_kernel *jk,
		 uint64_t linear);
void jit_cta_memory_free(struct jit_worker *j);

/* ---- jit_fiber.c: cooperative launches ---- */

/* Runs CTAs @first.. (@count of them) of a cooperative launch, all
 * resident at once, each on its own fiber. */
bool jit_fiber_run_ctas(struct ptx_worker *wk,
			const struct ptx_launch *launch, uint64_t first,
			uint64_t count, struct ptx_fault *fault);
/* From a back-edge of a cooperative launch's code: now and then, lets
 * the worker's other resident CTAs run. */
void jit_fiber_yield(void);
/* Cooperative launches run by jit_fiber_run_ctas() in this process. */
uint64_t jit_fiber_launches(void);
/* A worker's fibers, kept for its next cooperative launch (in its
 * struct jit_worker, made here if need be; NULL without memory), and
 * their end. */
struct jit_fibers;
struct jit_fibers **jit_worker_fibers(struct ptx_worker *wk);
void jit_fibers_free(struct jit_fibers *fibers);

/* Helpers generated code calls, by these names (jit_engine.c binds them,
 * and the libm functions vcuda_<name> that jit_emit_ops.c calls). */
#define JIT_SYM_GLOBAL "vcuda_jit_global"
#define JIT_SYM_SHARED_FAULT "vcuda_jit_shared_fault"
#define JIT_SYM_BARRIER_FAULT "vcuda_jit_barrier_fault"
#define JIT_SYM_POLL "vcuda_jit_poll"
#define JIT_SYM_TRAP "vcuda_jit_trap"
#define JIT_SYM_ATOMIC "vcuda_rt_atomic"
#define JIT_SYM_LANES "vcuda_jit_lanes"
uint8_t *jit_global(struct jit_cta *c, uint32_t thread, uint64_t addr,
		    uint32_t size, uint32_t write, uint32_t line,
		    uint32_t site);
void jit_shared_fault(struct jit_cta *c, uint32_t thread, uint64_t addr,
		      uint32_t size, uint32_t line);
void jit_barrier_fault(struct jit_cta *c, uint32_t thread, uint32_t line);
/* trap (@brkpt 0) or brkpt by @thread: the interpreter's fault. */
void jit_trap(struct jit_cta *c, uint32_t thread, uint32_t line,
	      uint32_t brkpt);
/* The flag at jit_cta.kill or .spin is set: 1 after recording the
 * launch's stop (its kill flag), else 0 once a cooperative launch let
 * other CTAs run. */
int32_t jit_poll(struct jit_cta *c, uint32_t thread);

/* jit_lanes_access() flags */
#define JIT_LANES_WRITE 1u
#define JIT_LANES_SHARED 2u
/*
 * The vector form's accesses that are neither contiguous nor uniform:
 * lane by lane, in lane order, threads @first.., @lanes of them, those
 * of @active only (bit l: lane l; a store under a lane mask), each
 * @n elements of @size bytes at addr[lane]. A load puts element k of
 * lane l, zero-extended, in vals[k * lanes + l]; a store takes it from
 * there. Checked as the scalar code checks (global: through @site's
 * range, learnt); 0, or 1 after a fault.
 */
int32_t jit_lanes_access(struct jit_cta *c, uint32_t first, uint32_t lanes,
			 uint32_t active, const uint64_t *addr,
			 uint64_t *vals, uint32_t size,
			 uint32_t n, uint32_t flags, uint32_t line,
			 uint32_t site);

#endif
