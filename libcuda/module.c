// SPDX-License-Identifier: MIT
/*
 * Loading a module: fatbin -> PTX texts (one per translation unit) ->
 * one linked program -> variables placed in device memory. Kernels are
 * looked up by name and cached as CUfunction handles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "file.h"
#include "link_image.h"
#include "context.h"
#include "context_hooks.h"
#include "ctx_limits.h"
#include "memory.h"
#include "module.h"
#include "ptx/fatbin.h"

static CUresult fatbin_result(enum fatbin_status status)
{
	switch (status) {
	case FATBIN_OK:
		return CUDA_SUCCESS;
	case FATBIN_NO_PTX:
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	case FATBIN_UNSUPPORTED:
		return CUDA_ERROR_NOT_SUPPORTED;
	case FATBIN_NO_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case FATBIN_INVALID:
	default:
		return CUDA_ERROR_INVALID_IMAGE;
	}
}

static CUresult ptx_result(enum ptx_status status)
{
	switch (status) {
	case PTX_OK:
		return CUDA_SUCCESS;
	case PTX_ERR_UNSUPPORTED:
		return CUDA_ERROR_NOT_SUPPORTED;
	case PTX_ERR_NO_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case PTX_ERR_INVALID:
		return CUDA_ERROR_INVALID_VALUE;
	case PTX_ERR_DEVSIDE_SYNC:
		return CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC;
	case PTX_ERR_SYNTAX:
	case PTX_ERR_LINK:
	default:
		return CUDA_ERROR_INVALID_PTX;
	}
}

/* Allocator the PTX path calls for each .global / .const variable. */
static void *alloc_variable(void *user, size_t size, size_t align,
			    enum ptx_var_space space)
{
	struct CUmod_st *mod = user;
	uint64_t *grown, va;

	/* constant memory is device memory here too; __managed__ variables
	 * are managed memory, as pointer attributes tell */
	enum alloc_kind kind = space == PTX_VAR_MANAGED ? ALLOC_MANAGED
						       : ALLOC_DEVICE;

	(void)align;	/* allocations are page-aligned */
	grown = realloc(mod->variables, (mod->nvariables + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	mod->variables = grown;
	if (mem_alloc(mod->ctx, size ? size : 1, kind,
		      kind == ALLOC_MANAGED ? CU_MEM_ATTACH_GLOBAL : 0, &va))
		return NULL;
	mod->variables[mod->nvariables++] = va;
	return (void *)(uintptr_t)va;
}

/* The sources of an image cuLinkComplete made (link_image.h). */
static CUresult sources_of_link_image(const void *image,
				      struct ptx_source **out, size_t *count)
{
	const struct link_image_header *h = image;
	const struct link_image_entry *e = (const void *)(h + 1);
	struct ptx_source *sources;

	if (h->version != LINK_IMAGE_VERSION || !h->count)
		return CUDA_ERROR_INVALID_IMAGE;
	sources = calloc(h->count, sizeof(*sources));
	if (!sources)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (uint32_t i = 0; i < h->count; i++)
		sources[i] = (struct ptx_source){
			(const char *)image + e[i].text_offset, e[i].text_len,
			(const char *)image + e[i].name_offset,
		};
	*out = sources;
	*count = h->count;
	return CUDA_SUCCESS;
}

static CUresult build_from_link_image(struct CUmod_st *mod, const void *image,
				      char *log, size_t log_len)
{
	struct ptx_source *sources;
	enum ptx_status ps;
	size_t count;
	CUresult res = sources_of_link_image(image, &sources, &count);

	if (res != CUDA_SUCCESS)
		return res;
	/* the register limit the link was given holds for its image */
	mod->max_registers =
		((const struct link_image_header *)image)->max_registers;
	ps = ptx_program_build(sources, count, &mod->program, log, log_len);
	if (ps == PTX_OK)
		ps = ptx_program_place_variables(mod->program, alloc_variable,
						 mod, log, log_len);
	free(sources);
	return ptx_result(ps);
}

static CUresult build_program(struct CUmod_st *mod, const void *image,
			      size_t size, char *log, size_t log_len)
{
	const struct drm_vcuda_device_info *info = &mod->ctx->dev->info;
	struct fatbin_ptx_list list = { 0 };
	struct ptx_source *sources;
	enum fatbin_status fs;
	enum ptx_status ps;

	if (*(const uint32_t *)image == LINK_IMAGE_MAGIC)
		return build_from_link_image(mod, image, log, log_len);
	fs = fatbin_collect_ptx(image, size, info->cc_major * 10 + info->cc_minor,
				&list, log, log_len);
	if (fs != FATBIN_OK)
		return fatbin_result(fs);
	sources = calloc(list.count, sizeof(*sources));
	if (!sources) {
		fatbin_ptx_list_free(&list);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	for (size_t i = 0; i < list.count; i++) {
		sources[i].text = list.items[i].text;
		sources[i].len = list.items[i].len;
		sources[i].name = list.items[i].source_name
				  ? list.items[i].source_name : "<fatbin>";
	}
	ps = ptx_program_build(sources, list.count, &mod->program, log, log_len);
	if (ps == PTX_OK)
		ps = ptx_program_place_variables(mod->program, alloc_variable,
						 mod, log, log_len);
	free(sources);
	fatbin_ptx_list_free(&list);
	return ptx_result(ps);
}

static void free_module(struct CUmod_st *mod)
{
	if (mod->library)
		library_forget_module(mod);
	for (size_t i = 0; i < mod->nvariables; i++)
		mem_free(mod->variables[i]);
	while (mod->functions) {
		struct CUfunc_st *f = mod->functions;

		mod->functions = f->next;
		free(f);
	}
	if (mod->program)
		ptx_program_destroy(mod->program);
	pthread_mutex_destroy(&mod->lock);
	free(mod->variables);
	free(mod);
}

CUresult module_load(struct CUctx_st *ctx, const void *image, size_t size,
		     struct CUmod_st **out, char *log, size_t log_len)
{
	struct CUmod_st *mod = calloc(1, sizeof(*mod));
	char fallback_log[512];
	CUresult res;

	if (!mod)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!log || !log_len) {
		log = fallback_log;
		log_len = sizeof(fallback_log);
	}
	ctx_flush_printf(ctx);
	log[0] = '\0';
	mod->ctx = ctx;
	pthread_mutex_init(&mod->lock, NULL);
	res = build_program(mod, image, size, log, log_len);
	if (res != CUDA_SUCCESS) {
		/*
		 * CUDA reports bad images by code alone, and so do we unless
		 * VCUDA_DEBUG is set; a valid image that vcuda cannot run
		 * is our limitation, and the user needs to know which.
		 */
		if (res == CUDA_ERROR_NOT_SUPPORTED ||
		    res == CUDA_ERROR_NO_BINARY_FOR_GPU)
			fprintf(stderr, "vcuda: cannot load module: %s\n", log);
		else
			debug_log("cannot load module: %s", log);
		free_module(mod);
		return res;
	}
	pthread_mutex_lock(&ctx->lock);
	mod->next = ctx->modules;
	ctx->modules = mod;
	pthread_mutex_unlock(&ctx->lock);
	*out = mod;
	return CUDA_SUCCESS;
}

void module_unload(struct CUmod_st *mod)
{
	struct CUctx_st *ctx = mod->ctx;

	pthread_mutex_lock(&ctx->lock);
	for (struct CUmod_st **link = &ctx->modules; *link; link = &(*link)->next) {
		if (*link == mod) {
			*link = mod->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	free_module(mod);
}

static void modules_unload_all(struct CUctx_st *ctx)
{
	while (ctx->modules)
		module_unload(ctx->modules);
}

CUresult module_get_function(struct CUmod_st *mod, const char *name,
			     struct CUfunc_st **out)
{
	const struct ptx_kernel *kernel = NULL;
	struct CUfunc_st *f;

	pthread_mutex_lock(&mod->lock);
	for (f = mod->functions; f; f = f->next)
		if (strcmp(f->info.name, name) == 0)
			break;
	if (!f && (kernel = ptx_program_kernel(mod->program, name))) {
		f = calloc(1, sizeof(*f));
		if (f) {
			f->magic = FUNCTION_MAGIC;
			f->module = mod;
			f->kernel = kernel;
			ptx_kernel_get_info(kernel, &f->info);
			if (mod->max_registers &&
			    f->info.num_regs > mod->max_registers)
				f->info.num_regs = mod->max_registers;
			f->max_dynamic_shared =
				mod->ctx->dev->info.shared_mem_per_block -
				f->info.static_shared_size;
			f->shared_carveout = -1;
			f->next = mod->functions;
			mod->functions = f;
		}
	}
	pthread_mutex_unlock(&mod->lock);
	if (!f)
		return kernel ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_NOT_FOUND;
	*out = f;
	return CUDA_SUCCESS;
}

/* --- API --- */

/* Copies the error log asked for with CU_JIT_ERROR_LOG_BUFFER. */
static void jit_log_options(unsigned int n, CUjit_option *options,
			    void **values, char **log, size_t *log_len)
{
	for (unsigned int i = 0; i < n; i++) {
		if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
			*log = values[i];
		else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			*log_len = (size_t)(uintptr_t)values[i];
	}
}

/*
 * The log sizes are in/out: CUDA writes back how much of each buffer its
 * log fills, the buffer's size when the message was cut (as NVIDIA's
 * driver did on an H200). vcuda's loads write no info log: it is left
 * empty, its size 0.
 */
static void jit_log_publish(unsigned int n, CUjit_option *options,
			    void **values, const char *log, size_t log_len)
{
	size_t len = log && log_len ? strnlen(log, log_len) : 0;
	char *info = NULL;
	size_t info_size = 0;

	if (log_len && len + 1 >= log_len)
		len = log_len;
	for (unsigned int i = 0; i < n; i++) {
		if (options[i] == CU_JIT_INFO_LOG_BUFFER)
			info = values[i];
		else if (options[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
			info_size = (size_t)(uintptr_t)values[i];
	}
	if (info && info_size)
		info[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			values[i] = (void *)(uintptr_t)len;
		else if (options[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
			values[i] = NULL;
	}
}

/* CU_JIT_MAX_REGISTERS among @options, or 0. */
static unsigned int jit_max_registers(unsigned int n, CUjit_option *options,
				      void **values)
{
	unsigned int max = 0;

	for (unsigned int i = 0; i < n; i++)
		if (options[i] == CU_JIT_MAX_REGISTERS)
			max = (unsigned int)(uintptr_t)values[i];
	return max;
}

CUDA_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
					unsigned int num_options,
					CUjit_option *options, void **values)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	char *log = NULL;
	size_t log_len = 0;

	if (res != CUDA_SUCCESS)
		return res;
	if (!module || !image || (num_options && (!options || !values)))
		return CUDA_ERROR_INVALID_VALUE;
	jit_log_options(num_options, options, values, &log, &log_len);
	if (log && log_len)
		log[0] = '\0';
	res = module_load(ctx, image, 0, module, log, log_len);
	jit_log_publish(num_options, options, values, log, log_len);
	if (res == CUDA_SUCCESS) {
		unsigned int max = jit_max_registers(num_options, options,
						     values);

		if (max)	/* else a link image's own limit stands */
			(*module)->max_registers = max;
	}
	return res;
}

CUDA_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	return cuModuleLoadDataEx(module, image, 0, NULL, NULL);
}

CUDA_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatbin)
{
	return cuModuleLoadDataEx(module, fatbin, 0, NULL, NULL);
}

CUDA_EXPORT CUresult cuModuleUnload(CUmodule module)
{
	/* A module knows its context: none need be current. */
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!module)
		return CUDA_ERROR_INVALID_HANDLE;
	res = ctx_synchronize(module->ctx);
	ctx_flush_printf(module->ctx);
	module_unload(module);
	return res;
}

CUDA_EXPORT CUresult cuModuleGetFunction(CUfunction *func, CUmodule module,
					 const char *name)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!func || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!module)
		return CUDA_ERROR_INVALID_HANDLE;
	return module_get_function(module, name, func);
}

CUresult module_get_global(struct CUmod_st *mod, const char *name,
			   CUdeviceptr *dptr, size_t *bytes)
{
	uint64_t addr;
	size_t size;

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!mod)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!ptx_program_variable(mod->program, name, &addr, &size))
		return CUDA_ERROR_NOT_FOUND;
	if (dptr)
		*dptr = addr;
	if (bytes)
		*bytes = size;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes,
				       CUmodule module, const char *name)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	return res == CUDA_SUCCESS ? module_get_global(module, name, dptr, bytes) : res;
}

CUDA_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *path)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);
	char *image = NULL;
	size_t size = 0;
	FILE *f;

	if (res != CUDA_SUCCESS)
		return res;
	if (!module || !path)
		return CUDA_ERROR_INVALID_VALUE;
	f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? CUDA_ERROR_FILE_NOT_FOUND
				       : CUDA_ERROR_INVALID_VALUE;
	res = read_file(f, &image, &size);
	fclose(f);
	if (res == CUDA_SUCCESS)
		res = module_load(ctx, image, size, module, NULL, 0);
	free(image);
	return res;
}

static const struct ctx_hooks modules_hooks = {
	.name = "modules",
	.order = CTX_HOOKS_MODULES,
	.teardown = modules_unload_all,
};
CTX_HOOKS_REGISTER(modules_hooks)
