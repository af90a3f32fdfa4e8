/* SPDX-License-Identifier: MIT */
/*
 * Modules: a program built by the PTX path from a fatbin or PTX image,
 * with its variables placed in the context's device memory.
 */
#ifndef VCUDA_MODULE_H
#define VCUDA_MODULE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "ptx/ptx.h"

struct CUctx_st;

/* First word of a function and of a library's kernel: CUDA accepts a
 * CUkernel wherever it takes a CUfunction (function_resolve()). */
#define FUNCTION_MAGIC 0x434e5546u	/* "FUNC" */
#define KERNEL_MAGIC 0x4e52454bu	/* "KERN" */

struct CUfunc_st {
	uint32_t magic;			/* FUNCTION_MAGIC */
	struct CUmod_st *module;
	const struct ptx_kernel *kernel;
	struct ptx_kernel_info info;
	int max_dynamic_shared;		/* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_... */
	int shared_carveout;
	struct CUfunc_st *next;
};

struct CUmod_st {
	struct CUctx_st *ctx;
	struct ptx_program *program;
	pthread_mutex_t lock;		/* functions */
	struct CUfunc_st *functions;	/* looked up so far */
	uint64_t *variables;		/* device allocations, to free */
	size_t nvariables;
	/* CU_JIT_MAX_REGISTERS, or 0: what its kernels may count on. */
	unsigned int max_registers;
	struct CUmod_st *next;		/* ctx->modules */
	struct CUlib_st *library;	/* the library it was loaded for, if any */
};

/*
 * Loads @image (a fatbin, a registration wrapper or PTX text; @size 0 if
 * unknown) into @ctx. On failure, @log (if any) gets the reason.
 */
CUresult module_load(struct CUctx_st *ctx, const void *image, size_t size,
		     struct CUmod_st **out, char *log, size_t log_len);
void module_unload(struct CUmod_st *mod);

CUresult module_get_function(struct CUmod_st *mod, const char *name,
			     struct CUfunc_st **out);

/* A module variable's device address and size (cuModuleGetGlobal's work,
 * in no particular context). */
CUresult module_get_global(struct CUmod_st *mod, const char *name,
			   CUdeviceptr *dptr, size_t *bytes);

/*
 * The function a CUfunction handle names in the current context: itself,
 * or, for a library's CUkernel, that kernel's function in the current
 * context (loaded on first use). NULL if there is none, or if @handle is
 * neither (a host function a program passed as a kernel, say).
 */
struct CUfunc_st *function_resolve(CUfunction handle);

/*
 * @handle if it is a function, else NULL: calls on a function's own
 * attributes take no CUkernel (NVIDIA's driver says INVALID_HANDLE).
 */
struct CUfunc_st *function_checked(CUfunction handle);

/* In library.c: a module of a library is going away with its context. */
void library_forget_module(struct CUmod_st *mod);

#endif
