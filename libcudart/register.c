// SPDX-License-Identifier: MIT
/*
 * __cudaRegister* and friends: the calls nvcc's start-up code makes.
 * Registration only records; nothing touches the device until a kernel or
 * variable is first used, as with NVIDIA's lazy loading.
 */
#include <stdint.h>
#include <stdlib.h>

#include "register.h"

#define BUCKETS 1024

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_fatbin *fatbins;
static struct rt_function *functions[BUCKETS];
static struct rt_variable *variables[BUCKETS];

static size_t bucket(const void *key)
{
	uintptr_t k = (uintptr_t)key;

	return (k ^ (k >> 12) ^ (k >> 24)) % BUCKETS;
}

/* Forward declarations: these are not in any CUDA header usable from C. */
CUDART_EXPORT void **__cudaRegisterFatBinary(void *fatCubin);
CUDART_EXPORT void __cudaRegisterFatBinaryEnd(void **handle);
CUDART_EXPORT void __cudaUnregisterFatBinary(void **handle);
CUDART_EXPORT char __cudaInitModule(void **handle);
CUDART_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun,
					  char *deviceFun,
					  const char *deviceName,
					  int thread_limit, uint3 *tid,
					  uint3 *bid, dim3 *bDim, dim3 *gDim,
					  int *wSize);
CUDART_EXPORT void __cudaRegisterVar(void **handle, char *hostVar,
				     char *deviceAddress,
				     const char *deviceName, int ext,
				     size_t size, int constant, int global);

CUDART_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
	struct rt_fatbin *fb = calloc(1, sizeof(*fb));

	if (!fb)
		return NULL;
	fb->image = fatCubin;
	pthread_mutex_init(&fb->lock, NULL);
	pthread_mutex_lock(&registry_lock);
	fb->next = fatbins;
	fatbins = fb;
	pthread_mutex_unlock(&registry_lock);
	return (void **)fb;
}

CUDART_EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
	(void)handle;	/* loading is lazy */
}

/*
 * nvcc's code calls this before host code first touches a __managed__
 * variable of the image: load the module on the current device and point
 * each managed variable's host pointer at its (process-visible) storage.
 */
CUDART_EXPORT char __cudaInitModule(void **handle)
{
	struct rt_fatbin *fb = (struct rt_fatbin *)handle;
	CUmodule module;
	CUcontext ctx;

	if (!fb || rt_enter(&ctx) != cudaSuccess ||
	    rt_fatbin_module(fb, rt_current_device(), &module) != cudaSuccess)
		return 0;
	pthread_mutex_lock(&registry_lock);
	for (size_t b = 0; b < BUCKETS; b++) {
		for (struct rt_variable *v = variables[b]; v; v = v->next) {
			CUdeviceptr addr;

			if (v->fatbin != fb || !v->managed_ptr)
				continue;
			if (cuModuleGetGlobal(&addr, NULL, module,
					      v->device_name) == CUDA_SUCCESS)
				*v->managed_ptr = (void *)(uintptr_t)addr;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return 1;
}

static void forget_functions_of(struct rt_fatbin *fb)
{
	for (size_t b = 0; b < BUCKETS; b++) {
		struct rt_function **link = &functions[b];

		while (*link) {
			struct rt_function *fn = *link;

			if (fn->fatbin == fb) {
				*link = fn->next;
				free(fn);
			} else {
				link = &fn->next;
			}
		}
	}
}

static void forget_variables_of(struct rt_fatbin *fb)
{
	for (size_t b = 0; b < BUCKETS; b++) {
		struct rt_variable **link = &variables[b];

		while (*link) {
			struct rt_variable *var = *link;

			if (var->fatbin == fb) {
				*link = var->next;
				free(var);
			} else {
				link = &var->next;
			}
		}
	}
}

CUDART_EXPORT void __cudaUnregisterFatBinary(void **handle)
{
	struct rt_fatbin *fb = (struct rt_fatbin *)handle;

	if (!fb)
		return;
	pthread_mutex_lock(&registry_lock);
	for (struct rt_fatbin **link = &fatbins; *link; link = &(*link)->next) {
		if (*link == fb) {
			*link = fb->next;
			break;
		}
	}
	forget_functions_of(fb);
	forget_variables_of(fb);
	pthread_mutex_unlock(&registry_lock);
	/*
	 * Modules stay loaded: this runs from atexit, after which the driver
	 * tears contexts down with the process.
	 */
	pthread_mutex_destroy(&fb->lock);
	free(fb);
}

CUDART_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun,
					  char *deviceFun,
					  const char *deviceName,
					  int thread_limit, uint3 *tid,
					  uint3 *bid, dim3 *bDim, dim3 *gDim,
					  int *wSize)
{
	struct rt_function *fn = calloc(1, sizeof(*fn));
	size_t b = bucket(hostFun);

	(void)deviceName;
	(void)thread_limit;
	(void)tid;
	(void)bid;
	(void)bDim;
	(void)gDim;
	(void)wSize;
	if (!fn)
		return;	/* the launch will then fail as unregistered */
	fn->fatbin = (struct rt_fatbin *)handle;
	fn->host_fun = hostFun;
	fn->device_name = deviceFun;
	pthread_mutex_lock(&registry_lock);
	fn->next = functions[b];
	functions[b] = fn;
	pthread_mutex_unlock(&registry_lock);
}

CUDART_EXPORT void __cudaRegisterVar(void **handle, char *hostVar,
				     char *deviceAddress,
				     const char *deviceName, int ext,
				     size_t size, int constant, int global)
{
	struct rt_variable *var = calloc(1, sizeof(*var));
	size_t b = bucket(hostVar);

	(void)deviceName;
	(void)ext;
	(void)constant;
	(void)global;
	if (!var)
		return;
	var->fatbin = (struct rt_fatbin *)handle;
	var->host_var = hostVar;
	var->device_name = deviceAddress;
	var->size = size;
	pthread_mutex_lock(&registry_lock);
	var->next = variables[b];
	variables[b] = var;
	pthread_mutex_unlock(&registry_lock);
}

CUDART_EXPORT void __cudaRegisterManagedVar(void **handle,
					    void **hostVarPtrAddress,
					    char *deviceAddress,
					    const char *deviceName, int ext,
					    size_t size, int constant,
					    int global);

CUDART_EXPORT void __cudaRegisterManagedVar(void **handle,
					    void **hostVarPtrAddress,
					    char *deviceAddress,
					    const char *deviceName, int ext,
					    size_t size, int constant,
					    int global)
{
	struct rt_variable *var;

	__cudaRegisterVar(handle, (char *)hostVarPtrAddress, deviceAddress,
			  deviceName, ext, size, constant, global);
	var = rt_variable_find(hostVarPtrAddress);
	if (var)
		var->managed_ptr = hostVarPtrAddress;
}

struct rt_function *rt_function_find(const void *host_fun)
{
	struct rt_function *fn;

	pthread_mutex_lock(&registry_lock);
	for (fn = functions[bucket(host_fun)]; fn; fn = fn->next)
		if (fn->host_fun == host_fun)
			break;
	pthread_mutex_unlock(&registry_lock);
	return fn;
}

/*
 * Host code names a __managed__ variable by its storage (nvcc reads it
 * through the pointer __cudaInitModule set), not by the pointer it was
 * registered with: such a name is found among the managed variables.
 * Called with registry_lock held.
 */
static struct rt_variable *managed_variable_at(const void *storage)
{
	for (size_t b = 0; b < BUCKETS; b++)
		for (struct rt_variable *v = variables[b]; v; v = v->next)
			if (v->managed_ptr && *v->managed_ptr == storage)
				return v;
	return NULL;
}

struct rt_variable *rt_variable_find(const void *host_var)
{
	struct rt_variable *var;

	pthread_mutex_lock(&registry_lock);
	for (var = variables[bucket(host_var)]; var; var = var->next)
		if (var->host_var == host_var)
			break;
	if (!var && host_var)
		var = managed_variable_at(host_var);
	pthread_mutex_unlock(&registry_lock);
	return var;
}

cudaError_t rt_fatbin_module(struct rt_fatbin *fb, int device,
			     CUmodule *module)
{
	CUresult res = CUDA_SUCCESS;

	/*
	 * Modules are loaded once per device, in its primary context: the
	 * runtime's kernels and variables in a context the driver API
	 * created are not supported yet (docs/compatibility.md).
	 */
	if (!rt_current_is_primary())
		return cudaErrorNotSupported;
	pthread_mutex_lock(&fb->lock);
	if (!fb->modules[device])
		res = cuModuleLoadFatBinary(&fb->modules[device], fb->image);
	*module = fb->modules[device];
	pthread_mutex_unlock(&fb->lock);
	return rt_error(res);
}

cudaError_t rt_function_get(struct rt_function *fn, CUfunction *out)
{
	int device = rt_current_device();
	CUmodule module;
	cudaError_t err;

	if (!rt_current_is_primary())
		return cudaErrorNotSupported;	/* see rt_fatbin_module */
	if (fn->functions[device]) {
		*out = fn->functions[device];
		return cudaSuccess;
	}
	err = rt_fatbin_module(fn->fatbin, device, &module);
	if (err != cudaSuccess)
		return err;
	if (cuModuleGetFunction(out, module, fn->device_name) != CUDA_SUCCESS)
		return cudaErrorInvalidDeviceFunction;
	fn->functions[device] = *out;
	return cudaSuccess;
}

const void *rt_function_stub(CUfunction f)
{
	const void *stub = NULL;

	pthread_mutex_lock(&registry_lock);
	for (size_t b = 0; b < BUCKETS && !stub; b++)
		for (struct rt_function *fn = functions[b]; fn && !stub; fn = fn->next)
			for (int d = 0; d < RT_MAX_DEVICES && !stub; d++)
				if (fn->functions[d] == f)
					stub = fn->host_fun;
	pthread_mutex_unlock(&registry_lock);
	return stub;
}

void rt_fatbins_forget_device(int device)
{
	pthread_mutex_lock(&registry_lock);
	for (struct rt_fatbin *fb = fatbins; fb; fb = fb->next) {
		pthread_mutex_lock(&fb->lock);
		fb->modules[device] = NULL;
		pthread_mutex_unlock(&fb->lock);
	}
	for (size_t b = 0; b < BUCKETS; b++)
		for (struct rt_function *fn = functions[b]; fn; fn = fn->next)
			fn->functions[device] = NULL;
	pthread_mutex_unlock(&registry_lock);
}
