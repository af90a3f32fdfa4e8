/* SPDX-License-Identifier: MIT */
/*
 * Modules: a program built by the PTX path from a fatbin or PTX image,
 * with its variables placed in the context's device memory.
 */
#ifndef VCUDA_MODULE_H
#define VCUDA_MODULE_H

#include <pthread.h>
#include <stddef.h>

#include <cuda.h>

#include "ptx/ptx.h"

struct CUctx_st;

struct CUfunc_st {
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
	struct CUmod_st *next;		/* ctx->modules */
};

/*
 * Loads @image (a fatbin, a registration wrapper or PTX text; @size 0 if
 * unknown) into @ctx. On failure, @log (if any) gets the reason.
 */
CUresult module_load(struct CUctx_st *ctx, const void *image, size_t size,
		     struct CUmod_st **out, char *log, size_t log_len);
void module_unload(struct CUmod_st *mod);
void modules_unload_all(struct CUctx_st *ctx);

CUresult module_get_function(struct CUmod_st *mod, const char *name,
			     struct CUfunc_st **out);

#endif
