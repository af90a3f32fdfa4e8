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
 * The interpreter is every kernel's reference and fallback: it is always
 * built, and a kernel the JIT cannot take runs on it, which VCUDA_DEBUG=1
 * reports once. This build has no JIT yet, so every kernel runs on the
 * interpreter.
 */
#include "interp.h"

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

static pthread_once_t no_jit_once = PTHREAD_ONCE_INIT;

static void say_no_jit(void)
{
	if (debug_enabled())
		fprintf(stderr, "vcuda: this build has no JIT; kernels run on "
				"the interpreter\n");
}

/*
 * Compiles @k for the JIT; false with @why when it cannot. There is no
 * JIT back end yet.
 */
static bool jit_compile(struct ptx_kernel *k, const char **why)
{
	(void)k;
	*why = "no JIT in this build";
	return false;
}

enum ptx_backend backend_choose(struct ptx_kernel *k)
{
	const char *why = NULL;
	if (requested() == REQ_INTERP)
		return PTX_BACKEND_INTERP;
	if (jit_compile(k, &why))
		return PTX_BACKEND_JIT;
	pthread_once(&no_jit_once, say_no_jit);
	return PTX_BACKEND_INTERP;
}

bool ptx_run_ctas(struct ptx_worker *worker, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault)
{
	/* every kernel has the interpreter's code; only it runs for now */
	return interp_run_ctas(worker, launch, first, count, fault);
}
