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
 *
 * The interpreter is every kernel's reference and fallback: its code is
 * always built (when the program is), and a kernel the JIT cannot compile
 * runs on it, which VCUDA_DEBUG=1 reports once per kernel. The JIT
 * compiles a kernel at its first launch (jit.h); cooperative launches
 * always run on the interpreter, whose scheduler keeps a grid resident.
 */
#include "interp.h"
#include "jit.h"

#include <pthread.h>
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

enum ptx_backend backend_choose(struct ptx_kernel *k)
{
	(void)k;
	/* compiled lazily, at the kernel's first launch (jit_ready) */
	return requested() == REQ_INTERP ? PTX_BACKEND_INTERP :
					   PTX_BACKEND_JIT;
}

static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

/* Compiles @k at its first launch; false when it runs on the
 * interpreter instead (said once per kernel under VCUDA_DEBUG). */
static bool jit_ready(struct ptx_kernel *k)
{
	int st = __atomic_load_n(&k->jit_state, __ATOMIC_ACQUIRE);
	if (st != JIT_UNTRIED)
		return st == JIT_READY;
	pthread_mutex_lock(&compile_lock);
	st = k->jit_state;
	if (st == JIT_UNTRIED) {
		char why[200];
		st = jit_compile_kernel(k, why, sizeof(why)) ? JIT_READY :
							       JIT_FAILED;
		if (st == JIT_FAILED && debug_enabled())
			fprintf(stderr, "vcuda: kernel %s runs on the "
					"interpreter: %s\n", k->sym->name, why);
		else if (debug_enabled())
			fprintf(stderr, "vcuda: kernel %s %s in %.1f ms\n",
				k->sym->name, k->jit->from_disk ?
				"loaded from the JIT's disk cache" :
				"compiled by the JIT",
				k->jit->compile_s * 1e3);
		__atomic_store_n(&k->jit_state, st, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&compile_lock);
	return st == JIT_READY;
}

void ptx_kernel_prepare(const struct ptx_kernel *kernel)
{
	struct ptx_kernel *k = (struct ptx_kernel *)kernel;
	if (k && k->backend == PTX_BACKEND_JIT)
		jit_ready(k);
}

bool ptx_run_ctas(struct ptx_worker *worker, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault)
{
	struct ptx_kernel *k = (struct ptx_kernel *)launch->kernel;
	/* cooperative grids interleave resident CTAs: the interpreter's */
	bool coop = launch->flags & PTX_LAUNCH_COOPERATIVE;
	if (k && k->backend == PTX_BACKEND_JIT && !coop && jit_ready(k))
		return jit_run_ctas(worker, launch, first, count, fault);
	return interp_run_ctas(worker, launch, first, count, fault);
}
