/* SPDX-License-Identifier: MIT */
/*
 * Per-context state of subsystems: each subsystem that keeps state in a
 * context registers its own hooks here, so that the context's life cycle
 * (context_life.c) runs them without naming any subsystem.
 *
 * A context is made in this order:
 *   1. the kernel context (its GPU address space);
 *   2. every hook's init, in ascending enum ctx_hook_order;
 *   3. the context goes live (device mappings attached, handle valid).
 * and destroyed in this one:
 *   1. the handle stops being live; all streams are synchronized;
 *   2. every hook's teardown, in descending order (the kernel context
 *      still exists: memory can be unmapped, work can be waited for);
 *   3. the kernel context is destroyed (this wakes the dispatchers);
 *   4. every hook's release, in descending order (host-side state).
 * A failed init unwinds the hooks before it the same way.
 */
#ifndef VCUDA_CONTEXT_HOOKS_H
#define VCUDA_CONTEXT_HOOKS_H

#include <cuda.h>

struct CUctx_st;

/*
 * Where a subsystem's hooks run: inits top to bottom, teardowns and
 * releases bottom to top. A subsystem comes after those its teardown
 * must precede (streams before the memory their work uses, compute last
 * so that its teardown stops running kernels first).
 */
enum ctx_hook_order {
	CTX_HOOKS_SLOTS,	/* device-visible slots (slots.c) */
	CTX_HOOKS_BINDING,	/* memory of others bound here (binding.c) */
	CTX_HOOKS_MEMORY,	/* allocations, range snapshot (memory.c) */
	CTX_HOOKS_GRAPH_COND,	/* conditional handles' cells (graph_cond.c) */
	CTX_HOOKS_IPC,		/* imported IPC memory (ipc.c) */
	CTX_HOOKS_PEER,		/* peer access (peer.c) */
	CTX_HOOKS_STREAMS,	/* the null stream and all others (stream.c) */
	CTX_HOOKS_STORAGE,	/* the runtime's context storage (export/) */
	CTX_HOOKS_MODULES,	/* loaded modules (module.c) */
	CTX_HOOKS_LIMITS,	/* limits, printf buffer and heap (limits.c) */
	CTX_HOOKS_CALLBACKS,	/* host functions still running (callback.c) */
	CTX_HOOKS_COMPUTE,	/* dispatchers, SMs, watchdog (compute.c) */
	CTX_HOOKS_COUNT
};

struct ctx_hooks {
	const char *name;
	enum ctx_hook_order order;
	/* After the kernel context exists; NULL if nothing to set up. */
	CUresult (*init)(struct CUctx_st *ctx);
	/* Before the kernel context goes; also after a failed init. */
	void (*teardown)(struct CUctx_st *ctx);
	/* After the kernel context is gone; also after a failed init. */
	void (*release)(struct CUctx_st *ctx);
};

/* Adds @hooks to the life cycle of every context made from now on. */
void ctx_hooks_register(const struct ctx_hooks *hooks);

/* Registers @hooks when the library loads, before any context exists. */
#define CTX_HOOKS_REGISTER(hooks)					\
	__attribute__((constructor)) static void hooks##_register(void)	\
	{								\
		ctx_hooks_register(&(hooks));				\
	}

#endif
