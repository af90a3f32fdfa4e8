/* SPDX-License-Identifier: MIT */
/*
 * Run-time helpers: what executing a kernel needs beyond arithmetic, as a
 * small C ABI that every back end calls — the interpreter's handlers now,
 * generated code later. Each helper takes the CTA's neutral state
 * (struct rt_cta) and plain integers, never a back end's own types, so
 * that compiled code can call it with the C calling convention.
 *
 * Threads are named by their linear index in the CTA (x fastest). A helper
 * that faults records the CTA's first fault (later ones are dropped) and
 * returns a failure value; the caller stops the thread's warp.
 *
 *   faults           rt_fault
 *   memory           rt_global, rt_shared, rt_local, rt_param
 *   atomics          rt_atomic (every space: the address is resolved first)
 *   special regs     rt_sreg
 *   barriers         rt_barrier_* (arrival counting and bar.red)
 *   device runtime   rt_malloc, rt_free, rt_printf,
 *                    rt_graph_set_conditional
 *
 * Grid-wide sync needs nothing more: cooperative groups implement it in
 * PTX with atomics on the grid workspace and spinning, so a back end only
 * has to let other CTAs run while a thread spins (the interpreter yields
 * at taken backward branches, the JIT's code at back-edges of
 * cooperative launches, jit_fiber.c). Texture and surface sampling stay in
 * exec_tex.c/exec_surf.c until a compiling back end needs them.
 */
#ifndef VCUDA_PTX_RT_H
#define VCUDA_PTX_RT_H

#include "program.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* The state of one resident CTA that every back end has. */
struct rt_cta {
	const struct ptx_launch *launch;
	const struct ptx_kernel *kernel;
	struct ptx_worker *worker;
	uint32_t smid;		/* %smid: the worker's SM */
	uint32_t ctaid[3];
	uint32_t nthreads, nwarps;
	uint8_t *shared;
	uint64_t shared_size;
	uint64_t reserved_smem;	/* start of the reserved region, if any */
	uint8_t *local;		/* all threads' local stacks */
	uint64_t local_size;
	bool faulted;
	struct ptx_fault *fault;
	const struct ptx_mem_range *last_range;	/* last global hit */
};

/* ---- faults (rt_fault.c) ---- */

/* Records @kind at @addr for @thread, with a message; returns false. */
bool rt_fault(struct rt_cta *c, enum ptx_fault_kind kind, uint32_t thread,
	      uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
bool rt_vfault(struct rt_cta *c, enum ptx_fault_kind kind, uint32_t thread,
	       uint64_t addr, const char *fmt, va_list ap);

/* ---- memory (rt_mem.c) ---- */

/*
 * The shared window of a CTA about to start (@c's kernel and launch set):
 * sets shared_size, the bytes its threads may touch, and reserved_smem.
 * NVIDIA's GPUs allocate a block's shared memory in 128-byte units, and
 * an access past the kernel's bytes inside the last unit succeeds
 * (tests/api/shared_window_api.expected); NVVM relies on it, loading a
 * whole vector of which it uses only the first elements.
 */
void rt_cta_shared_window(struct rt_cta *c);
/* %total_smem_size: the kernel's shared bytes in whole 128-byte units. */
uint64_t rt_total_smem_size(const struct rt_cta *c);

/*
 * Host address of @size bytes at @addr in each state space, or NULL after
 * recording a fault. Alignment is checked too (@size a power of two).
 * Global covers const and generic addresses: the launch's ranges, and the
 * CTA's own shared and local memory (generic addresses of those).
 */
uint8_t *rt_global(struct rt_cta *c, uint32_t thread, uint64_t addr,
		   unsigned size, bool write);
/*
 * The launch range (writable if @write) holding accesses of @size bytes
 * at every address from @lo to @hi, or NULL: none, or the launch has no
 * ranges. Does not fault (the caller then checks each address with
 * rt_global) nor check alignment. For one check per warp access.
 */
const struct ptx_mem_range *rt_global_span(struct rt_cta *c, uint64_t lo,
					   uint64_t hi, unsigned size,
					   bool write);
uint8_t *rt_shared(struct rt_cta *c, uint32_t thread, uint64_t addr,
		   unsigned size);
/* @addr: offset in @thread's own local stack. */
uint8_t *rt_local(struct rt_cta *c, uint32_t thread, uint64_t addr,
		  unsigned size);
uint8_t *rt_param(struct rt_cta *c, uint32_t thread, uint64_t addr,
		  unsigned size, bool write);

/* ---- atomics (rt_atomic.c) ---- */

/* Operand kinds of atomics. */
enum rt_atom_kind {
	RT_ATOM_UINT, RT_ATOM_SINT, RT_ATOM_FLOAT, RT_ATOM_F16X2,
	RT_ATOM_BF16X2, RT_ATOM_F16,
};

/* The kind of atomic a PTX type @t makes, or false if none. */
bool rt_atom_kind(unsigned t, unsigned *kind);

/*
 * Atomically applies @op (a MOD_* of ptx_tables.h: add, min, max, inc,
 * dec, and, or, xor, exch, cas) of @kind to the @size bytes at @p with
 * operands @b (and @c for cas); returns the old value.
 */
uint64_t rt_atomic(uint8_t *p, unsigned size, unsigned op, unsigned kind,
		   uint64_t b, uint64_t c);

/* ---- special registers (rt_sreg.c) ---- */

/*
 * Value of special register @sreg (SREG_*), component @comp, for @thread;
 * clocks and timers read the clock now.
 */
uint64_t rt_sreg(const struct rt_cta *c, uint32_t thread, unsigned sreg,
		 unsigned comp);
/* Clocks and timers (the ones sreg_is_dynamic names): now. */
uint64_t rt_sreg_clock(unsigned sreg);

/* ---- barriers (rt_barrier.c) ---- */

enum { RT_MAX_BARRIERS = 16 };

struct rt_barrier {
	uint32_t arrived;	/* threads */
	uint32_t expected;	/* 0: all live threads */
	uint32_t red_popc, red_and, red_or;	/* bar.red so far */
};

void rt_barrier_reset(struct rt_barrier *b);
/* @threads arrive; @count: the instruction's thread count, 0 for all. */
void rt_barrier_arrive(struct rt_barrier *b, uint32_t threads,
		       uint32_t count);
/* bar.red: @voters threads voted, @yes of them with a true predicate. */
void rt_barrier_vote(struct rt_barrier *b, uint32_t voters, uint32_t yes);
/* Every expected thread has arrived (@live: threads not exited). */
bool rt_barrier_complete(const struct rt_barrier *b, uint32_t live);

/* ---- device runtime (rt_builtin.c) ---- */

/* malloc: 0 when the heap is exhausted or absent. */
uint64_t rt_malloc(struct rt_cta *c, uint64_t size);
/* free: false after faulting on a pointer malloc did not return. */
bool rt_free(struct rt_cta *c, uint32_t thread, uint64_t addr);
/*
 * vprintf(@fmt, @args) of @thread: formats now, appends to the launch's
 * FIFO (or prints). Returns the length written, or -1 after a fault.
 */
int64_t rt_printf(struct rt_cta *c, uint32_t thread, uint64_t fmt,
		  uint64_t args);
/*
 * cudaGraphSetConditional(@handle, @value): a conditional handle is the
 * device address of its 4-byte value (libcuda/graph_cond.c). False after
 * faulting on an address the launch may not write.
 */
bool rt_graph_set_conditional(struct rt_cta *c, uint32_t thread,
			      uint64_t handle, uint32_t value);
/* Reads the NUL-terminated string at @addr (at most @cap - 1 bytes);
 * false after a fault. */
bool rt_read_string(struct rt_cta *c, uint32_t thread, uint64_t addr,
		    char *buf, size_t cap);

#endif
