/* SPDX-License-Identifier: MIT */
/*
 * The back-end-neutral form of a program: what every executor (the
 * interpreter, a compiler) shares. A program is linked IR (ir.h) plus, per
 * kernel, its layout — where parameters, shared variables and local frames
 * live, and how large each thread's stack is. The layout is computed from
 * the IR alone (layout.c), before any back end sees the kernel, so that
 * two back ends agree on every address a kernel can observe.
 *
 * Each back end keeps its own code behind a pointer of the kernel
 * (struct ptx_kernel.interp for the interpreter); backend.c is the one
 * place that decides which back end runs a kernel.
 */
#ifndef VCUDA_PTX_PROGRAM_H
#define VCUDA_PTX_PROGRAM_H

#include "ir.h"
#include "ptx.h"

#include <stdbool.h>
#include <stdint.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
/* Shared memory the system reserves in each CTA (sm_80+; cooperative
 * groups keeps scratch there), after the kernel's own. */
#define RESERVED_SMEM 1024u
/* Extra per-thread stack for recursive kernels (bytes). */
#define RECURSION_STACK (16u * 1024)

/* Function "addresses" (function pointers): a tag plus the function id. */
#define FUNC_ADDR_BASE 0xF0F0000000000000ull
#define FUNC_ADDR_STRIDE 16u

static inline uint64_t func_address(const struct ir_sym *fn)
{
	return FUNC_ADDR_BASE + (uint64_t)fn->id * FUNC_ADDR_STRIDE;
}

/* Where one symbol lives: an offset in its state space's window. */
struct sym_offset {
	const struct ir_sym *sym;
	uint64_t offset;
};

/*
 * A function's per-thread local frame: its .local variables and, for
 * non-kernel functions, its .param parameters, return values and
 * variables, at offsets from the frame's base.
 */
struct frame_layout {
	const struct ir_func *ir;
	struct sym_offset *vars;
	uint32_t nvars;
	uint32_t local_size;	/* own frame bytes (local_align multiple) */
	uint64_t stack_size;	/* local_size plus the deepest callee's */
};

/* Everything about a kernel's memory that the IR decides. */
struct kernel_layout {
	struct sym_offset *shared;	/* static and dynamic .shared */
	uint32_t nshared;
	uint32_t dyn_shared_offset;	/* start of dynamic shared memory */
	struct frame_layout **frames;	/* by program function id; NULL when
					 * the kernel cannot reach it */
	struct ir_sym **reach;		/* reachable functions with bodies */
	uint32_t nreach;
	uint64_t local_stride;		/* per-thread local stack bytes */
	/* The largest .align of a .shared (.local) variable, at least 16:
	 * executors align the CTA's shared block (every thread's stack) to
	 * it, so offsets aligned in the window are aligned addresses. */
	uint32_t shared_align;
	uint32_t local_align;
	bool recursive;
	bool reserved_smem;		/* reads %reserved_smem_offset_* */
};

/* Executors. */
enum ptx_backend {
	PTX_BACKEND_INTERP,
	PTX_BACKEND_JIT,
};

struct interp_kernel;
struct interp_program;
struct jit_kernel;

struct ptx_kernel {
	struct ptx_program *prog;
	struct ir_sym *sym;
	struct ptx_kernel_info info;
	struct ptx_param_info *params;	/* by parameter index */
	struct kernel_layout layout;
	enum ptx_backend backend;	/* chosen by backend.c */
	struct interp_kernel *interp;	/* the interpreter's code */
	struct jit_kernel *jit;		/* compiled code, once compiled */
	int jit_state;			/* enum jit_state (jit.h), atomic */
	/* a launch's submission waits for the compile, unless
	 * VCUDA_JIT_ASYNC; its CTAs wait only under VCUDA_EXECUTOR=jit
	 * (backend.c) */
	bool jit_waits, jit_forced;
	/* ntid.x of the first launch that asked for the code (atomic; 0
	 * until one did): the JIT's vector width (jit_vec_width) */
	uint32_t jit_ntid_x;
	struct ptx_kernel *jit_queued;	/* next in jit_queue.c's queue */
	struct ptx_kernel *next;
};

struct ptx_program {
	struct ir_module **modules;
	/* Calls the device runtime's launch functions (lower_cdp_call). */
	bool uses_cdp;
	uint32_t nmodules;
	struct arena arena;		/* link results, layouts, code */
	struct ir_sym **funcs;		/* defined functions, by id */
	uint32_t nfuncs;
	bool *addr_taken;		/* by function id: used as a value */
	struct ir_sym **vars;		/* defined .global/.const variables */
	uint32_t nvars;
	struct strmap globals;		/* linked name -> definition */
	struct ptx_kernel *kernels;
	struct interp_program *interp;	/* the interpreter's pools */
	uint8_t source_digest[32];	/* SHA-256 of the PTX texts */
	bool placed;
};

/* ---- layout (layout.c): from the IR alone ---- */

bool is_kernel_param(const struct ir_sym *s);

/*
 * Lays out @k (k->sym set): parameters, shared memory, frames of every
 * reachable function, stack size. False with @log written on failure.
 */
bool layout_kernel(struct ptx_kernel *k, struct msgbuf *log, int *status);

/*
 * Offset of a kernel parameter (in the parameter buffer), a shared
 * variable (in the CTA's shared block) or a frame variable (from its
 * function's frame base) in @k's layout; false when @s has none.
 */
bool layout_offset(const struct ptx_kernel *k, const struct ir_sym *s,
		   uint64_t *offset);

/* The target of call @in: a defined function, or NULL (builtins, and
 * indirect calls, which set @indirect). */
struct ir_sym *layout_direct_callee(const struct ir_insn *in, bool *indirect);

/* The frame of function @fn in @k, or NULL when @k cannot reach it. */
const struct frame_layout *layout_frame(const struct ptx_kernel *k,
					const struct ir_sym *fn);

/* The bits an immediate operand has when an instruction of @type reads
 * it (float immediates converted, predicates all ones). lower.c. */
uint64_t ir_imm_value(const struct ir_operand *o, unsigned type);

/* ---- back-end choice (backend.c) ---- */

/*
 * Which back end runs @k: the JIT where it is built in and compiles the
 * kernel, else the interpreter; VCUDA_EXECUTOR=interp|jit overrides.
 * Called once per kernel when the program is built.
 */
enum ptx_backend backend_choose(struct ptx_kernel *k);
/* Before @k's program is destroyed: no compile of it may be running. */
void backend_release(struct ptx_kernel *k);

#endif
