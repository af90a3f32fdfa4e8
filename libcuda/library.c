// SPDX-License-Identifier: MIT
/*
 * Context-independent loading (CUDA 12's libraries), which NVIDIA's own
 * runtime uses for every program's device code.
 *
 * A CUlibrary keeps its image and is loaded, as a module, into a context
 * the first time something in that context needs it: a kernel's function,
 * a global, the module itself (lazy loading, CUDA 13's default; with
 * CUDA_MODULE_LOADING=EAGER the current context gets it at load). A
 * CUkernel is a library's kernel by name, good in every context; launches,
 * occupancy queries and graph kernel nodes take one where they take a
 * CUfunction, and function_resolve() turns it into the current context's
 * function (the function-attribute calls refuse one, as NVIDIA's do,
 * through function_checked()). When a context goes, its
 * modules go with it and tell their library (library_forget_module()).
 */
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "context.h"
#include "file.h"
#include "link_image.h"
#include "module.h"

/* A library's kernel's function in one context. */
struct kernel_function {
	struct CUfunc_st *function;
	struct kernel_function *next;
};

struct CUkern_st {
	uint32_t magic;			/* KERNEL_MAGIC */
	struct CUlib_st *library;
	char *name;
	int max_dynamic_shared;		/* -1: not set with cuKernelSetAttribute */
	int shared_carveout;		/* -1: not set */
	struct kernel_function *functions;
	struct CUkern_st *next;
};

/* A library's module in one context. */
struct library_module {
	struct CUmod_st *module;
	struct library_module *next;
};

struct CUlib_st {
	const void *image;
	void *owned_image;		/* our copy, when the caller keeps none */
	pthread_mutex_t lock;		/* modules, kernels */
	struct library_module *modules;	/* one per context */
	struct CUkern_st *kernels;
};

#define FATBIN_MAGIC 0xba55ed50u
#define WRAPPER_MAGIC 0x466243b1u
#define ELF_MAGIC 0x464c457fu		/* "\x7fELF" */

/* The size of the image at @code, from its header (PTX: its text). */
static size_t image_size(const void *code)
{
	uint32_t magic = *(const uint32_t *)code;

	switch (magic) {
	case FATBIN_MAGIC:
		return 16 + ((const uint64_t *)code)[1];
	case LINK_IMAGE_MAGIC:	/* cuLinkComplete's */
		return ((const struct link_image_header *)code)->size;
	case ELF_MAGIC:
		/* a cubin, SASS only: its header is all loading reads,
		 * to refuse it (CUDA_ERROR_NO_BINARY_FOR_GPU) */
		return sizeof(Elf64_Ehdr);
	default:
		return strlen(code) + 1;	/* PTX text */
	}
}

static CUresult keep_image(struct CUlib_st *lib, const void *code, int preserved)
{
	uint32_t magic = *(const uint32_t *)code;
	size_t size;

	/* A registration wrapper points into the program's own image. */
	if (preserved || magic == WRAPPER_MAGIC) {
		lib->image = code;
		return CUDA_SUCCESS;
	}
	size = image_size(code);
	lib->owned_image = malloc(size);
	if (!lib->owned_image)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(lib->owned_image, code, size);
	lib->image = lib->owned_image;
	return CUDA_SUCCESS;
}

static int eager_loading(void)
{
	const char *mode = getenv("CUDA_MODULE_LOADING");

	return mode && !strcmp(mode, "EAGER");
}

/* The library's module in @ctx, loading it there the first time. */
static CUresult library_module(struct CUlib_st *lib, struct CUctx_st *ctx,
			       struct CUmod_st **out)
{
	struct library_module *m;
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&lib->lock);
	for (m = lib->modules; m; m = m->next)
		if (m->module->ctx == ctx)
			break;
	if (!m) {
		struct CUmod_st *mod;

		res = module_load(ctx, lib->image, 0, &mod, NULL, 0);
		m = res == CUDA_SUCCESS ? calloc(1, sizeof(*m)) : NULL;
		if (res == CUDA_SUCCESS && !m) {
			module_unload(mod);
			res = CUDA_ERROR_OUT_OF_MEMORY;
		} else if (m) {
			mod->library = lib;
			m->module = mod;
			m->next = lib->modules;
			lib->modules = m;
		}
	}
	pthread_mutex_unlock(&lib->lock);
	if (res == CUDA_SUCCESS)
		*out = m->module;
	return res;
}

/* Drops @mod's kernel functions and its place in the library's list. */
void library_forget_module(struct CUmod_st *mod)
{
	struct CUlib_st *lib = mod->library;

	pthread_mutex_lock(&lib->lock);
	for (struct library_module **link = &lib->modules;
	     *link; link = &(*link)->next) {
		if ((*link)->module == mod) {
			struct library_module *gone = *link;

			*link = gone->next;
			free(gone);
			break;
		}
	}
	for (struct CUkern_st *k = lib->kernels; k; k = k->next) {
		for (struct kernel_function **link = &k->functions; *link;) {
			struct kernel_function *kf = *link;

			if (kf->function->module == mod) {
				*link = kf->next;
				free(kf);
			} else {
				link = &kf->next;
			}
		}
	}
	pthread_mutex_unlock(&lib->lock);
}

static void apply_kernel_settings(const struct CUkern_st *k, struct CUfunc_st *f)
{
	if (k->max_dynamic_shared >= 0)
		f->max_dynamic_shared = k->max_dynamic_shared;
	if (k->shared_carveout >= 0)
		f->shared_carveout = k->shared_carveout;
}

/* @k's function in @ctx. */
static CUresult kernel_function(struct CUkern_st *k, struct CUctx_st *ctx,
				struct CUfunc_st **out)
{
	struct kernel_function *kf;
	struct CUmod_st *mod;
	struct CUfunc_st *f;
	CUresult res;

	pthread_mutex_lock(&k->library->lock);
	for (kf = k->functions; kf; kf = kf->next)
		if (kf->function->module->ctx == ctx)
			break;
	pthread_mutex_unlock(&k->library->lock);
	if (kf) {
		*out = kf->function;
		return CUDA_SUCCESS;
	}
	res = library_module(k->library, ctx, &mod);
	if (res == CUDA_SUCCESS)
		res = module_get_function(mod, k->name, &f);
	if (res != CUDA_SUCCESS)
		return res;
	kf = calloc(1, sizeof(*kf));
	if (!kf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	apply_kernel_settings(k, f);
	kf->function = f;
	pthread_mutex_lock(&k->library->lock);
	kf->next = k->functions;
	k->functions = kf;
	pthread_mutex_unlock(&k->library->lock);
	*out = f;
	return CUDA_SUCCESS;
}

struct CUfunc_st *function_resolve(CUfunction handle)
{
	struct CUkern_st *k = (struct CUkern_st *)handle;
	struct CUfunc_st *f = NULL;
	struct CUctx_st *ctx;

	if (!handle)
		return NULL;
	/* NVIDIA's runtime hands over whatever the program gave it, a host
	 * function too: anything but a function or a kernel is no handle. */
	if (k->magic != KERNEL_MAGIC)
		return handle->magic == FUNCTION_MAGIC ? handle : NULL;
	if (ctx_enter(&ctx) != CUDA_SUCCESS || kernel_function(k, ctx, &f) != CUDA_SUCCESS)
		return NULL;
	return f;
}

struct CUfunc_st *function_checked(CUfunction handle)
{
	return handle && handle->magic == FUNCTION_MAGIC ? handle : NULL;
}

static void library_free(struct CUlib_st *lib)
{
	while (lib->kernels) {
		struct CUkern_st *k = lib->kernels;

		lib->kernels = k->next;
		while (k->functions) {
			struct kernel_function *kf = k->functions;

			k->functions = kf->next;
			free(kf);
		}
		free(k->name);
		free(k);
	}
	pthread_mutex_destroy(&lib->lock);
	free(lib->owned_image);
	free(lib);
}

/* --- API --- */

static CUresult check_options(unsigned int n, const void *options, void **values)
{
	return n && (!options || !values) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static int binary_preserved(CUlibraryOption *options, void **values, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (options[i] == CU_LIBRARY_BINARY_IS_PRESERVED && values[i])
			return 1;	/* the value itself, as JIT options' are */
	return 0;
}

CUDA_EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
				       CUjit_option *jit_options, void **jit_values,
				       unsigned int num_jit_options,
				       CUlibraryOption *options, void **values,
				       unsigned int num_options)
{
	struct CUlib_st *lib;
	struct CUctx_st *ctx;
	struct CUmod_st *mod;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!library || !code ||
	    check_options(num_jit_options, jit_options, jit_values) ||
	    check_options(num_options, options, values))
		return CUDA_ERROR_INVALID_VALUE;
	lib = calloc(1, sizeof(*lib));
	if (!lib)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_init(&lib->lock, NULL);
	res = keep_image(lib, code, binary_preserved(options, values, num_options));
	if (res == CUDA_SUCCESS && eager_loading() && ctx_enter(&ctx) == CUDA_SUCCESS)
		res = library_module(lib, ctx, &mod);
	if (res != CUDA_SUCCESS) {
		library_free(lib);
		return res;
	}
	*library = lib;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *path,
					   CUjit_option *jit_options, void **jit_values,
					   unsigned int num_jit_options,
					   CUlibraryOption *options, void **values,
					   unsigned int num_options)
{
	char *image = NULL;
	size_t size = 0;
	CUresult res;
	FILE *f;

	if (!library || !path)
		return CUDA_ERROR_INVALID_VALUE;
	f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? CUDA_ERROR_FILE_NOT_FOUND : CUDA_ERROR_INVALID_VALUE;
	res = read_file(f, &image, &size);
	fclose(f);
	if (res == CUDA_SUCCESS)
		res = cuLibraryLoadData(library, image, jit_options, jit_values,
					num_jit_options, options, values, num_options);
	free(image);
	return res;
}

CUDA_EXPORT CUresult cuLibraryUnload(CUlibrary library)
{
	struct library_module *m;
	CUresult res = driver_check_init(), sync;

	if (res != CUDA_SUCCESS)
		return res;
	if (!library)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&library->lock);
	m = library->modules;
	library->modules = NULL;
	pthread_mutex_unlock(&library->lock);
	while (m) {
		struct library_module *next = m->next;

		m->module->library = NULL;	/* no one to tell now */
		sync = ctx_synchronize(m->module->ctx);
		if (res == CUDA_SUCCESS)
			res = sync;
		module_unload(m->module);
		free(m);
		m = next;
	}
	library_free(library);
	return res;
}

/* The library's kernel named @name, created on first request. */
static CUresult library_kernel(struct CUlib_st *lib, const char *name,
			       struct CUkern_st **out)
{
	struct CUkern_st *k;

	pthread_mutex_lock(&lib->lock);
	for (k = lib->kernels; k; k = k->next)
		if (!strcmp(k->name, name))
			break;
	if (!k && (k = calloc(1, sizeof(*k)))) {
		k->name = strdup(name);
		if (!k->name) {
			free(k);
			k = NULL;
		} else {
			k->magic = KERNEL_MAGIC;
			k->library = lib;
			k->max_dynamic_shared = -1;
			k->shared_carveout = -1;
			k->next = lib->kernels;
			lib->kernels = k;
		}
	}
	pthread_mutex_unlock(&lib->lock);
	if (!k)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = k;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuLibraryGetKernel(CUkernel *kernel, CUlibrary library,
					const char *name)
{
	struct CUkern_st *k;
	struct CUfunc_st *f;
	struct CUctx_st *ctx;
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!kernel || !name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!library)
		return CUDA_ERROR_INVALID_HANDLE;
	res = library_kernel(library, name, &k);
	/* With a context at hand, a name the image lacks is an error now. */
	if (res == CUDA_SUCCESS && ctx_enter(&ctx) == CUDA_SUCCESS)
		res = kernel_function(k, ctx, &f);
	if (res == CUDA_SUCCESS)
		*kernel = k;
	return res;
}

/*
 * Where a library's globals live when asked for outside any context:
 * NVIDIA's runtime asks for __managed__ variables before it makes a
 * context current, and the first device's primary context is the one it
 * will make current.
 */
static CUresult library_context(struct CUctx_st **ctx)
{
	CUresult res = driver_check_init();

	if (res == CUDA_SUCCESS)
		res = ctx_current() ? ctx_enter(ctx) : ctx_primary_unretained(0, ctx);
	return res;
}

CUDA_EXPORT CUresult cuLibraryGetModule(CUmodule *module, CUlibrary library)
{
	struct CUctx_st *ctx;
	CUresult res = library_context(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!module)
		return CUDA_ERROR_INVALID_VALUE;
	if (!library)
		return CUDA_ERROR_INVALID_HANDLE;
	return library_module(library, ctx, module);
}

CUDA_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes,
					CUlibrary library, const char *name)
{
	CUmodule mod;
	CUresult res = cuLibraryGetModule(&mod, library);

	return res == CUDA_SUCCESS ? module_get_global(mod, name, dptr, bytes) : res;
}

CUDA_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
					 CUlibrary library, const char *name)
{
	/* __managed__ variables are globals in memory every side shares. */
	return cuLibraryGetGlobal(dptr, bytes, library, name);
}

CUDA_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary library)
{
	CUmodule mod;
	CUresult res = cuLibraryGetModule(&mod, library);

	if (res == CUDA_SUCCESS && !count)
		res = CUDA_ERROR_INVALID_VALUE;
	return res == CUDA_SUCCESS ? cuModuleGetFunctionCount(count, mod) : res;
}

CUDA_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int n,
					       CUlibrary library)
{
	const struct ptx_kernel *pk;
	struct CUkern_st *k;
	CUmodule mod;
	CUresult res = cuLibraryGetModule(&mod, library);

	if (res == CUDA_SUCCESS && (!kernels || !n))
		res = CUDA_ERROR_INVALID_VALUE;
	for (unsigned int i = 0; res == CUDA_SUCCESS && i < n; i++) {
		pk = ptx_program_kernel_at(mod->program, i);
		if (!pk)
			break;
		struct ptx_kernel_info info;

		ptx_kernel_get_info(pk, &info);
		res = library_kernel(library, info.name, &k);
		if (res == CUDA_SUCCESS)
			kernels[i] = k;
	}
	return res;
}

CUDA_EXPORT CUresult cuKernelGetFunction(CUfunction *func, CUkernel kernel)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!func)
		return CUDA_ERROR_INVALID_VALUE;
	if (!kernel || kernel->magic != KERNEL_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	return kernel_function(kernel, ctx, func);
}

CUDA_EXPORT CUresult cuKernelGetLibrary(CUlibrary *library, CUkernel kernel)
{
	if (!library)
		return CUDA_ERROR_INVALID_VALUE;
	if (!kernel || kernel->magic != KERNEL_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	*library = kernel->library;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuKernelGetName(const char **name, CUkernel kernel)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!kernel || kernel->magic != KERNEL_MAGIC)
		return CUDA_ERROR_INVALID_HANDLE;
	*name = kernel->name;
	return CUDA_SUCCESS;
}

/* The kernel's function in the current context, whose device must be @dev. */
static CUresult kernel_function_on(CUkernel kernel, CUdevice dev, CUfunction *f)
{
	CUdevice current;
	CUresult res = cuKernelGetFunction(f, kernel);

	if (res == CUDA_SUCCESS && cuCtxGetDevice(&current) == CUDA_SUCCESS &&
	    current != dev)
		res = CUDA_ERROR_INVALID_DEVICE;
	return res;
}

CUDA_EXPORT CUresult cuKernelGetAttribute(int *value, CUfunction_attribute attr,
					  CUkernel kernel, CUdevice dev)
{
	CUfunction f;
	CUresult res = kernel_function_on(kernel, dev, &f);

	return res == CUDA_SUCCESS ? cuFuncGetAttribute(value, attr, f) : res;
}

CUDA_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attr, int value,
					  CUkernel kernel, CUdevice dev)
{
	CUfunction f;
	CUresult res = kernel_function_on(kernel, dev, &f);

	if (res == CUDA_SUCCESS)
		res = cuFuncSetAttribute(f, attr, value);
	if (res != CUDA_SUCCESS)
		return res;
	/* Functions loaded later, in other contexts, get it too. */
	if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
		kernel->max_dynamic_shared = value;
	else if (attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
		kernel->shared_carveout = value;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
					    CUdevice dev)
{
	CUfunction f;
	CUresult res = kernel_function_on(kernel, dev, &f);

	return res == CUDA_SUCCESS ? cuFuncSetCacheConfig(f, config) : res;
}

static CUresult param_info(CUfunction f, size_t index, size_t *offset, size_t *size)
{
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (index >= f->info.param_count || (!offset && !size))
		return CUDA_ERROR_INVALID_VALUE;
	if (offset)
		*offset = f->info.params[index].offset;
	if (size)
		*size = f->info.params[index].size;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t index,
					  size_t *offset, size_t *size)
{
	CUfunction f;
	CUresult res = cuKernelGetFunction(&f, kernel);

	return res == CUDA_SUCCESS ? param_info(f, index, offset, size) : res;
}

CUDA_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t index,
					size_t *offset, size_t *size)
{
	return param_info(function_resolve(func), index, offset, size);
}

CUDA_EXPORT CUresult cuFuncGetName(const char **name, CUfunction func)
{
	struct CUfunc_st *f = function_resolve(func);

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*name = f->info.name;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuFuncGetModule(CUmodule *module, CUfunction func)
{
	struct CUfunc_st *f = function_resolve(func);

	if (!module)
		return CUDA_ERROR_INVALID_VALUE;
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*module = f->module;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction func)
{
	if (!state)
		return CUDA_ERROR_INVALID_VALUE;
	if (!func)
		return CUDA_ERROR_INVALID_HANDLE;
	/* A CUfunction exists only once its module is built. */
	*state = CU_FUNCTION_LOADING_STATE_LOADED;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuFuncLoad(CUfunction func)
{
	return func ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUDA_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	*mode = eager_loading() ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
	unsigned int n = 0;

	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	if (!mod)
		return CUDA_ERROR_INVALID_HANDLE;
	while (ptx_program_kernel_at(mod->program, n))
		n++;
	*count = n;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int n,
						CUmodule mod)
{
	CUresult res = CUDA_SUCCESS;

	if (!functions || !n)
		return CUDA_ERROR_INVALID_VALUE;
	if (!mod)
		return CUDA_ERROR_INVALID_HANDLE;
	for (unsigned int i = 0; res == CUDA_SUCCESS && i < n; i++) {
		const struct ptx_kernel *pk = ptx_program_kernel_at(mod->program, i);
		struct ptx_kernel_info info;

		if (!pk)
			break;
		ptx_kernel_get_info(pk, &info);
		res = module_get_function(mod, info.name, &functions[i]);
	}
	return res;
}
