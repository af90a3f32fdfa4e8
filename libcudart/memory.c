// SPDX-License-Identifier: MIT
/*
 * Runtime memory management and synchronous copies, over the driver's.
 */
#include <stdint.h>

#include "register.h"
#include "sync_call.h"

CUDART_EXPORT cudaError_t cudaMalloc(void **ptr, size_t size)
{
	CUdeviceptr dptr;
	cudaError_t err;

	RT_ENTER();
	if (!ptr)
		return rt_return(cudaErrorInvalidValue);
	if (size == 0) {
		*ptr = NULL;
		return cudaSuccess;
	}
	err = rt_error(cuMemAlloc(&dptr, size));
	if (err == cudaSuccess)
		*ptr = (void *)(uintptr_t)dptr;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaFree(void *ptr)
{
	/* cudaFree(NULL) is the customary way to create the context. */
	RT_ENTER();
	if (!ptr)
		return rt_return(cudaSuccess);
	return rt_return(rt_error(cuMemFree((uintptr_t)ptr)));
}

CUDART_EXPORT cudaError_t cudaHostAlloc(void **ptr, size_t size,
					unsigned int flags)
{
	RT_ENTER();
	/* cudaHostAlloc* flags are the driver's CU_MEMHOSTALLOC_* values. */
	return rt_return(rt_error(cuMemHostAlloc(ptr, size, flags)));
}

CUDART_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

CUDART_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
	RT_ENTER();
	if (!ptr)
		return rt_return(cudaSuccess);
	return rt_return(rt_error(cuMemFreeHost(ptr)));
}

CUDART_EXPORT cudaError_t cudaHostGetDevicePointer(void **dptr, void *host,
						   unsigned int flags)
{
	CUdeviceptr d;
	cudaError_t err;

	RT_ENTER();
	if (!dptr)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error(cuMemHostGetDevicePointer(&d, host, flags));
	if (err == cudaSuccess)
		*dptr = (void *)(uintptr_t)d;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes,
					 size_t *total_bytes)
{
	RT_CALL(cuMemGetInfo(free_bytes, total_bytes));
}

static CUresult copy(void *dst, const void *src, size_t count,
		     enum cudaMemcpyKind kind, CUstream on)
{
	CUdeviceptr d = (uintptr_t)dst, s = (uintptr_t)src;

	switch (kind) {
	case cudaMemcpyHostToDevice:
		return RT_SYNC_CALL(on, cuMemcpyHtoD_v2, (d, src, count));
	case cudaMemcpyDeviceToHost:
		return RT_SYNC_CALL(on, cuMemcpyDtoH_v2, (dst, s, count));
	case cudaMemcpyDeviceToDevice:
		return RT_SYNC_CALL(on, cuMemcpyDtoD_v2, (d, s, count));
	case cudaMemcpyHostToHost:
	case cudaMemcpyDefault:
		return RT_SYNC_CALL(on, cuMemcpy, (d, s, count));
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

cudaError_t rt_memcpy_on(void *dst, const void *src, size_t count,
			 enum cudaMemcpyKind kind, CUstream on)
{
	RT_ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return rt_return(cudaErrorInvalidMemcpyDirection);
	return rt_return(rt_error(copy(dst, src, count, kind, on)));
}

CUDART_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
				     enum cudaMemcpyKind kind)
{
	return rt_memcpy_on(dst, src, count, kind, CU_STREAM_LEGACY);
}

static CUresult copy_async(void *dst, const void *src, size_t count,
			   enum cudaMemcpyKind kind, CUstream stream)
{
	CUdeviceptr d = (uintptr_t)dst, s = (uintptr_t)src;

	switch (kind) {
	case cudaMemcpyHostToDevice:
		return cuMemcpyHtoDAsync(d, src, count, stream);
	case cudaMemcpyDeviceToHost:
		return cuMemcpyDtoHAsync(dst, s, count, stream);
	case cudaMemcpyDeviceToDevice:
		return cuMemcpyDtoDAsync(d, s, count, stream);
	case cudaMemcpyHostToHost:
	case cudaMemcpyDefault:
		return cuMemcpyAsync(d, s, count, stream);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDART_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src,
					  size_t count,
					  enum cudaMemcpyKind kind,
					  cudaStream_t stream)
{
	RT_ENTER();
	if ((unsigned int)kind > cudaMemcpyDefault)
		return rt_return(cudaErrorInvalidMemcpyDirection);
	return rt_return(rt_error(copy_async(dst, src, count, kind,
					     (CUstream)stream)));
}

CUDART_EXPORT cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count,
					  cudaStream_t stream)
{
	RT_CALL(cuMemsetD8Async((uintptr_t)ptr, (unsigned char)value, count,
				(CUstream)stream));
}

cudaError_t rt_memset_on(void *ptr, int value, size_t count, CUstream on)
{
	RT_CALL(RT_SYNC_CALL(on, cuMemsetD8_v2,
			     ((uintptr_t)ptr, (unsigned char)value, count)));
}

CUDART_EXPORT cudaError_t cudaMemset(void *ptr, int value, size_t count)
{
	return rt_memset_on(ptr, value, count, CU_STREAM_LEGACY);
}

/* The device address of a registered variable on the current device. */
static cudaError_t symbol_address(const void *symbol, CUdeviceptr *addr,
				  size_t *size)
{
	struct rt_variable *var = rt_variable_find(symbol);
	CUmodule module;
	cudaError_t err;

	if (!var)
		return cudaErrorInvalidSymbol;
	err = rt_fatbin_module(var->fatbin, rt_current_device(), &module);
	if (err != cudaSuccess)
		return err;
	if (cuModuleGetGlobal(addr, size, module, var->device_name))
		return cudaErrorInvalidSymbol;
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaGetSymbolAddress(void **dptr, const void *symbol)
{
	CUdeviceptr addr;
	size_t size;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!dptr)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = symbol_address(symbol, &addr, &size);
	if (err == cudaSuccess)
		*dptr = (void *)(uintptr_t)addr;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	CUdeviceptr addr;
	cudaError_t err = cudaSuccess;

	RT_ENTER();
	if (!size)
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess)
		err = symbol_address(symbol, &addr, size);
	return rt_return(err);
}

/*
 * Resolves @symbol and checks [offset, offset + count) against its size and
 * @kind against the directions allowed (@allowed_host_kind, device to
 * device, or default); *@addr is the device address at @offset.
 */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset,
				enum cudaMemcpyKind kind,
				enum cudaMemcpyKind allowed_host_kind,
				CUdeviceptr *addr)
{
	size_t size;
	cudaError_t err;

	RT_ENTER();
	err = symbol_address(symbol, addr, &size);
	if (err == cudaSuccess && (offset > size || count > size - offset))
		err = cudaErrorInvalidValue;
	if (err == cudaSuccess && kind != allowed_host_kind &&
	    kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
		err = cudaErrorInvalidMemcpyDirection;
	*addr += offset;
	return err;
}

cudaError_t rt_memcpy_to_symbol_on(const void *symbol, const void *src,
				   size_t count, size_t offset,
				   enum cudaMemcpyKind kind, CUstream on)
{
	CUdeviceptr addr = 0;
	cudaError_t err = symbol_range(symbol, count, offset, kind,
				       cudaMemcpyHostToDevice, &addr);

	if (err == cudaSuccess)
		err = rt_error(copy((void *)(uintptr_t)addr, src, count, kind,
				    on));
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol,
					     const void *src, size_t count,
					     size_t offset,
					     enum cudaMemcpyKind kind)
{
	return rt_memcpy_to_symbol_on(symbol, src, count, offset, kind,
				      CU_STREAM_LEGACY);
}

cudaError_t rt_memcpy_from_symbol_on(void *dst, const void *symbol,
				     size_t count, size_t offset,
				     enum cudaMemcpyKind kind, CUstream on)
{
	CUdeviceptr addr = 0;
	cudaError_t err = symbol_range(symbol, count, offset, kind,
				       cudaMemcpyDeviceToHost, &addr);

	if (err == cudaSuccess)
		err = rt_error(copy(dst, (void *)(uintptr_t)addr, count, kind,
				    on));
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol,
					       size_t count, size_t offset,
					       enum cudaMemcpyKind kind)
{
	return rt_memcpy_from_symbol_on(dst, symbol, count, offset, kind,
					CU_STREAM_LEGACY);
}

CUDART_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size,
					   unsigned int flags)
{
	RT_ENTER();
	/* cudaHostRegister* flags are the driver's CU_MEMHOSTREGISTER_*. */
	return rt_return(rt_error(cuMemHostRegister(ptr, size, flags)));
}

CUDART_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
	RT_CALL(cuMemHostUnregister(ptr));
}
