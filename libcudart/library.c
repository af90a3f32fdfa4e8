// SPDX-License-Identifier: MIT
/*
 * The runtime's doors to the driver's tables and libraries:
 * cudaGetDriverEntryPoint(ByVersion), served by the driver's
 * cuGetProcAddress, the runtime forms (cudaLibrary..., cudaKernel...) of the driver's
 * context-independent loading, plus cudaGetKernel and cudaGetFuncBySymbol
 * for the program's own registered kernels.
 */
#include <stdint.h>

#include "register.h"

/* cudaEnable* and CU_GET_PROC_ADDRESS_* flags, and the two query
 * results, share their values. */
static cudaError_t entry_point(const char *symbol, void **fn, unsigned int version,
			       unsigned long long flags,
			       enum cudaDriverEntryPointQueryResult *status)
{
	CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SUCCESS;
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	err = rt_error(cuGetProcAddress_v2(symbol, fn, (int)version, flags, &found));
	if (err == cudaSuccess && status)
		*status = (enum cudaDriverEntryPointQueryResult)found;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(
	const char *symbol, void **fn, unsigned int version, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point(symbol, fn, version, flags, status);
}

/* The CUDA version this runtime is: what the unversioned form asks for. */
CUDART_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn,
						  unsigned long long flags,
						  enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point(symbol, fn, CUDART_VERSION, flags, status);
}

/* --default-stream per-thread builds: no stream flag means per-thread. */
static unsigned long long per_thread_default(unsigned long long flags)
{
	return flags & (cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream)
	       ? flags : flags | cudaEnablePerThreadDefaultStream;
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(
	const char *symbol, void **fn, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point(symbol, fn, CUDART_VERSION, per_thread_default(flags), status);
}

CUDART_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **fn, unsigned int version, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point(symbol, fn, version, per_thread_default(flags), status);
}

/* --- libraries: the driver's, under the runtime's names --- */

static cudaError_t library_call(CUresult res)
{
	return rt_return(rt_error(res));
}

CUDART_EXPORT cudaError_t cudaLibraryLoadData(
	cudaLibrary_t *library, const void *code, enum cudaJitOption *jit_options,
	void **jit_values, unsigned int num_jit, enum cudaLibraryOption *options,
	void **values, unsigned int num_options)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return library_call(cuLibraryLoadData((CUlibrary *)library, code,
					      (CUjit_option *)jit_options, jit_values,
					      num_jit, (CUlibraryOption *)options,
					      values, num_options));
}

CUDART_EXPORT cudaError_t cudaLibraryLoadFromFile(
	cudaLibrary_t *library, const char *path, enum cudaJitOption *jit_options,
	void **jit_values, unsigned int num_jit, enum cudaLibraryOption *options,
	void **values, unsigned int num_options)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	return library_call(cuLibraryLoadFromFile((CUlibrary *)library, path,
						  (CUjit_option *)jit_options, jit_values,
						  num_jit, (CUlibraryOption *)options,
						  values, num_options));
}

CUDART_EXPORT cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
	return library_call(cuLibraryUnload((CUlibrary)library));
}

CUDART_EXPORT cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library,
					       const char *name)
{
	RT_ENTER();
	return library_call(cuLibraryGetKernel((CUkernel *)kernel, (CUlibrary)library, name));
}

CUDART_EXPORT cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes,
					       cudaLibrary_t library, const char *name)
{
	RT_ENTER();
	return library_call(cuLibraryGetGlobal((CUdeviceptr *)dptr, bytes,
					       (CUlibrary)library, name));
}

CUDART_EXPORT cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes,
						cudaLibrary_t library, const char *name)
{
	RT_ENTER();
	return library_call(cuLibraryGetManaged((CUdeviceptr *)dptr, bytes,
						(CUlibrary)library, name));
}

CUDART_EXPORT cudaError_t cudaLibraryGetUnifiedFunction(void **fn, cudaLibrary_t library,
							const char *symbol)
{
	return library_call(cuLibraryGetUnifiedFunction(fn, (CUlibrary)library, symbol));
}

CUDART_EXPORT cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t library)
{
	RT_ENTER();
	return library_call(cuLibraryGetKernelCount(count, (CUlibrary)library));
}

CUDART_EXPORT cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int n,
						      cudaLibrary_t library)
{
	RT_ENTER();
	return library_call(cuLibraryEnumerateKernels((CUkernel *)kernels, n,
						      (CUlibrary)library));
}

CUDART_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
							  enum cudaFuncAttribute attr,
							  int value, int device)
{
	RT_ENTER();
	/* cudaFuncAttribute and CUfunction_attribute share these values. */
	return library_call(cuKernelSetAttribute((CUfunction_attribute)attr, value,
						 (CUkernel)kernel, device));
}

/* --- the program's own kernels --- */

CUDART_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entry)
{
	struct rt_function *fn = rt_function_find(entry);

	if (!kernel)
		return rt_return(cudaErrorInvalidValue);
	if (!fn)
		return rt_return(cudaErrorInvalidDeviceFunction);
	*kernel = (cudaKernel_t)fn;
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *function, const void *symbol)
{
	struct rt_function *fn = rt_function_find(symbol);
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!function)
		err = cudaErrorInvalidValue;
	else if (err == cudaSuccess && !fn)
		err = cudaErrorInvalidDeviceFunction;
	if (err == cudaSuccess)
		err = rt_function_get(fn, (CUfunction *)function);
	return rt_return(err);
}
