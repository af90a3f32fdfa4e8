// SPDX-License-Identifier: MIT
/*
 * Where a kernel's code is chosen between the interpreter and a JIT: the
 * one place that decides which back end runs a kernel (backend_choose,
 * once per kernel when its program is built) and that sends each launch
 * to it (ptx_run_ctas).
 *
 *   VCUDA_EXECUTOR=interp   every kernel on the interpreter
 *   VCUDA_EXECUTOR=jit      the JIT wherever it compiles the kernel
 *   (unset)                 the JIT where available, else the interpreter
 *   VCUDA_JIT_ASYNC=1       launches do not wait for their kernel's
 *                           compile (not with VCUDA_EXECUTOR=jit)
 *
 * The interpreter is every kernel's reference and fallback: its code is
 * always built (when the program is), and a kernel the JIT cannot compile
 * runs on it, which VCUDA_DEBUG=1 reports once per kernel.
 *
 * The JIT compiles a kernel when it is first launched (ptx_kernel_prepare
 * at submission, or its first ptx_run_ctas), on a compile thread
 * (jit_compile.c); kernels compile in parallel. A launch waits for its
 * kernel's code at its submission (ptx_kernel_prepare); CTAs do not wait
 * (a device launch runs in its parent's job, whose time-out a compile
 * must not spend) unless VCUDA_EXECUTOR=jit forces the JIT. Under
 * VCUDA_JIT_ASYNC=1 a submission does not wait either: until the code is
 * ready, workers run their CTAs on the interpreter, one CTA at a time,
 * and switch to the compiled code for the CTAs left once it is (every
 * CTA of a grid is independent, and both back ends give the same
 * results). That is not the default because on a machine with few CPUs
 * it was slower for heavy first launches (tools/bench's first-launch
 * table): the compile competes with the workers, and a long CTA started
 * on the interpreter must finish there.
 * Cooperative launches run on compiled code too, every CTA of a worker's
 * range resident on a fiber of its own (jit_fiber.c), so that grid-wide
 * barriers complete; they never start on the interpreter and switch
 * (their CTAs must all be resident at once): a cooperative launch whose
 * kernel's code is not ready runs on the interpreter whole.
 *
 * A kernel that may wait for other threads (a volatile or acquiring
 * load, atom.cas or atom.exch: a spin) compiles, but only its
 * cooperative launches run compiled: the JIT runs a CTA's threads one
 * after the other, where a thread waiting for one of its own CTA would
 * wait for ever, so its other launches stay on the interpreter, which
 * switches warps. Its code counts on the waits being for other CTAs.
 */
#include "interp.h"
#include "jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum request { REQ_DEFAULT, REQ_INTERP, REQ_JIT };

static bool debug_enabled(void)
{
	const char *v = getenv("VCUDA_DEBUG");
	return v && *v && strcmp(v, "0");
}

static enum request requested(void)
{
	const char *v = getenv("VCUDA_EXECUTOR");
	if (!v || !*v)
		return REQ_DEFAULT;
	if (!strcmp(v, "interp"))
		return REQ_INTERP;
	if (!strcmp(v, "jit"))
		return REQ_JIT;
	if (debug_enabled())
		fprintf(stderr, "vcuda: VCUDA_EXECUTOR=%s is neither interp "
				"nor jit; using the default\n", v);
	return REQ_DEFAULT;
}

/* VCUDA_JIT_ASYNC=1: first launches run on the interpreter meanwhile */
static bool async_requested(void)
{
	const char *v = getenv("VCUDA_JIT_ASYNC");
	return v && *v && strcmp(v, "0");
}

enum ptx_backend backend_choose(struct ptx_kernel *k)
{
	enum request r = requested();
	/* VCUDA_EXECUTOR=jit (the tests): every launch on compiled code */
	k->jit_forced = r == REQ_JIT;
	k->jit_waits = r == REQ_JIT || !async_requested();
	/* compiled lazily, at the kernel's first launch (jit_ready) */
	return r == REQ_INTERP ? PTX_BACKEND_INTERP : PTX_BACKEND_JIT;
}

void backend_release(struct ptx_kernel *k)
{
	jit_compile_forget(k);
	jit_kernel_free(k->jit);
	k->jit = NULL;
}

static int jit_state_of(const struct ptx_kernel *k)
{
	return __atomic_load_n(&k->jit_state, __ATOMIC_ACQUIRE);
}

/*
 * True when @k's compiled code is ready to run. Else has it compiled,
 * waiting for that when @wait.
 */
static bool jit_ready(struct ptx_kernel *k, bool wait)
{
	int st = jit_state_of(k);
	if (st == JIT_READY || st == JIT_FAILED)
		return st == JIT_READY;
	if (wait)
		return jit_compile_wait(k);
	jit_compile_start(k);
	return false;
}

/* Notes the x extent of @k's blocks, unless a launch did before: the
 * compile that follows picks its vector width by it (jit_vec_width). */
static void note_blocks(struct ptx_kernel *k, const uint32_t block[3])
{
	uint32_t none = 0;
	/* a load first: every batch of CTAs passes here, and a failed
	 * exchange would still take the line from the other workers */
	if (block && block[0] &&
	    !__atomic_load_n(&k->jit_ntid_x, __ATOMIC_RELAXED))
		__atomic_compare_exchange_n(&k->jit_ntid_x, &none, block[0],
					    false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
}

void ptx_kernel_prepare_for(const struct ptx_kernel *kernel,
			    const uint32_t block[3])
{
	struct ptx_kernel *k = (struct ptx_kernel *)kernel;
	if (k && k->backend == PTX_BACKEND_JIT) {
		note_blocks(k, block);
		jit_ready(k, k->jit_waits);
	}
}

void ptx_kernel_prepare(const struct ptx_kernel *kernel)
{
	ptx_kernel_prepare_for(kernel, NULL);
}

bool ptx_kernel_compile(const struct ptx_kernel *kernel)
{
	struct ptx_kernel *k = (struct ptx_kernel *)kernel;
	return k && k->backend == PTX_BACKEND_JIT && jit_compile_wait(k);
}

/* The code is ready and fit for a launch that is not cooperative. */
static bool jit_serves(struct ptx_kernel *k, bool wait)
{
	return jit_ready(k, wait) && !k->jit->waits;
}

bool ptx_run_ctas(struct ptx_worker *worker, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault)
{
	struct ptx_kernel *k = (struct ptx_kernel *)launch->kernel;
	bool coop = launch->flags & PTX_LAUNCH_COOPERATIVE;
	if (!k || k->backend != PTX_BACKEND_JIT)
		return interp_run_ctas(worker, launch, first, count, fault);
	note_blocks(k, launch->block);
	/*
	 * CTAs wait for a compile only when the JIT is forced: a host
	 * launch compiled at its submission (ptx_kernel_prepare), and a
	 * launch without one (a device launch, run inside its parent's job)
	 * must not spend the job's time-out compiling.
	 */
	if (coop)
		return jit_ready(k, k->jit_forced) ?
			jit_fiber_run_ctas(worker, launch, first, count,
					   fault) :
			interp_run_ctas(worker, launch, first, count, fault);
	if (jit_serves(k, k->jit_forced))
		return jit_run_ctas(worker, launch, first, count, fault);
	/* compiling: CTA by CTA, so that the code serves once it is ready */
	for (uint64_t i = 0; i < count; i++) {
		if (jit_state_of(k) == JIT_READY && !k->jit->waits)
			return jit_run_ctas(worker, launch, first + i,
					    count - i, fault);
		if (!interp_run_ctas(worker, launch, first + i, 1, fault))
			return false;
	}
	return true;
}
