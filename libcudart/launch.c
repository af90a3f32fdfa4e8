// SPDX-License-Identifier: MIT
/*
 * Kernel launches: <<<>>> becomes __cudaPushCallConfiguration, then the
 * stub calls __cudaPopCallConfiguration, __cudaGetKernel (once per launch
 * site) and __cudaLaunchKernel, which ends in cuLaunchKernel.
 */
#include <stddef.h>

#include "register.h"

#define CONFIG_STACK_MAX 16

struct call_config {
	dim3 grid, block;
	size_t shared;
	cudaStream_t stream;
};

/* <<<>>> configurations not yet popped by their launch stubs. */
static _Thread_local struct call_config config_stack[CONFIG_STACK_MAX];
static _Thread_local int config_depth;

CUDART_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
						   size_t shared,
						   struct CUstream_st *stream);
CUDART_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
						     size_t *shared,
						     void *stream);
CUDART_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel,
					  const void *host_fun);
CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid,
					     dim3 block, void **args,
					     size_t shared,
					     cudaStream_t stream);
CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel,
						  dim3 grid, dim3 block,
						  void **args, size_t shared,
						  cudaStream_t stream);

CUDART_EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
						   size_t shared,
						   struct CUstream_st *stream)
{
	if (config_depth == CONFIG_STACK_MAX)
		return 1;
	config_stack[config_depth++] = (struct call_config){
		grid, block, shared, stream,
	};
	return 0;
}

CUDART_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
						     size_t *shared,
						     void *stream)
{
	struct call_config *c;

	if (!config_depth)
		return rt_return(cudaErrorMissingConfiguration);
	c = &config_stack[--config_depth];
	*grid = c->grid;
	*block = c->block;
	*shared = c->shared;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel,
					  const void *host_fun)
{
	struct rt_function *fn = rt_function_find(host_fun);

	if (!kernel)
		return rt_return(cudaErrorInvalidValue);
	if (!fn)
		return rt_return(cudaErrorInvalidDeviceFunction);
	*kernel = (cudaKernel_t)fn;
	return cudaSuccess;
}

/* Launches @fn with a runtime-style configuration. */
static cudaError_t launch(struct rt_function *fn, dim3 grid, dim3 block,
			  void **args, size_t shared, cudaStream_t stream)
{
	CUcontext ctx;
	CUfunction f;
	CUresult res;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return err;
	if (!fn)
		return cudaErrorInvalidDeviceFunction;
	err = rt_function_get(fn, &f);
	if (err != cudaSuccess)
		return err;
	/* Bad configurations are cudaErrorInvalidValue, as on CUDA 13. */
	res = cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y,
			     block.z, (unsigned int)shared, (CUstream)stream,
			     args, NULL);
	return rt_error(res);
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid,
					     dim3 block, void **args,
					     size_t shared,
					     cudaStream_t stream)
{
	return rt_return(launch((struct rt_function *)kernel, grid, block,
				args, shared, stream));
}

CUDART_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel,
						  dim3 grid, dim3 block,
						  void **args, size_t shared,
						  cudaStream_t stream)
{
	if (stream == NULL)
		stream = cudaStreamPerThread;
	return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

/* A kernel of a library (cudaLibraryGetKernel) is the driver's handle. */
static cudaError_t launch_library_kernel(const void *kernel, dim3 grid, dim3 block,
					 void **args, size_t shared, cudaStream_t stream)
{
	CUcontext ctx;
	CUresult res;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return err;
	res = cuLaunchKernel((CUfunction)kernel, grid.x, grid.y, grid.z, block.x,
			     block.y, block.z, (unsigned int)shared, (CUstream)stream,
			     args, NULL);
	return res == CUDA_ERROR_INVALID_HANDLE ? cudaErrorInvalidDeviceFunction
						: rt_error(res);
}

CUDART_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 grid,
					   dim3 block, void **args,
					   size_t shared, cudaStream_t stream)
{
	struct rt_function *fn = rt_function_find(func);

	if (!fn && func)
		return rt_return(launch_library_kernel(func, grid, block, args,
						       shared, stream));
	return rt_return(launch(fn, grid, block, args, shared, stream));
}

/*
 * The device function of host stub @func in the current context, for the
 * cudaFunc* and occupancy calls; @unknown is the error for a stub that is
 * not a kernel (CUDA 13: "invalid resource handle").
 */
static cudaError_t stub_function(const void *func, cudaError_t unknown,
				 CUfunction *f)
{
	struct rt_function *fn = rt_function_find(func);
	CUcontext ctx;
	cudaError_t err = rt_enter(&ctx);

	if (err != cudaSuccess)
		return err;
	return fn ? rt_function_get(fn, f) : unknown;
}

CUDART_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
						const void *func)
{
	CUfunction f;
	cudaError_t err;
	int v;

	if (!attr)
		return rt_return(cudaErrorInvalidValue);
	err = stub_function(func, cudaErrorInvalidResourceHandle, &f);
	if (err != cudaSuccess)
		return rt_return(err);
#define GET(field, what) \
	do { cuFuncGetAttribute(&v, what, f); attr->field = v; } while (0)
	GET(sharedSizeBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	GET(constSizeBytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
	GET(localSizeBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
	GET(maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	GET(numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS);
	GET(ptxVersion, CU_FUNC_ATTRIBUTE_PTX_VERSION);
	GET(binaryVersion, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
	GET(cacheModeCA, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
	GET(maxDynamicSharedSizeBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
	GET(preferredShmemCarveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
#undef GET
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaFuncSetAttribute(const void *func,
					       enum cudaFuncAttribute attr,
					       int value)
{
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidResourceHandle, &f);

	if (err != cudaSuccess)
		return rt_return(err);
	switch (attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:
		return rt_return(rt_error(cuFuncSetAttribute(
			f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, value)));
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		return rt_return(rt_error(cuFuncSetAttribute(
			f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, value)));
	default:
		return rt_return(cudaErrorNotSupported);
	}
}

CUDART_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func,
						 enum cudaFuncCache config)
{
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidResourceHandle, &f);

	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaFuncCache and CUfunc_cache share their values. */
	return rt_return(rt_error(cuFuncSetCacheConfig(f, (CUfunc_cache)config)));
}

CUDART_EXPORT cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks,
						       const void *func,
						       int block_size,
						       size_t dynamic_shared,
						       unsigned int flags)
{
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidResourceHandle, &f);

	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaOccupancy* flags are the driver's CU_OCCUPANCY_* values. */
	return rt_return(rt_error(
		cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
			blocks, f, block_size, dynamic_shared, flags)));
}

CUDART_EXPORT cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
					      int block_size,
					      size_t dynamic_shared)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		blocks, func, block_size, dynamic_shared, cudaOccupancyDefault);
}

CUDART_EXPORT cudaError_t
cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamic_shared,
					  const void *func, int blocks,
					  int block_size)
{
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidResourceHandle, &f);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuOccupancyAvailableDynamicSMemPerBlock(
		dynamic_shared, f, blocks, block_size)));
}

CUDART_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func,
						      dim3 grid, dim3 block,
						      void **args,
						      size_t shared,
						      cudaStream_t stream)
{
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidDeviceFunction, &f);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuLaunchCooperativeKernel(
		f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
		(unsigned int)shared, (CUstream)stream, args)));
}

CUDART_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
					      const void *func, void **args)
{
	CUlaunchConfig c;
	CUfunction f;
	cudaError_t err = stub_function(func, cudaErrorInvalidDeviceFunction, &f);

	if (err == cudaSuccess && !config)
		err = cudaErrorInvalidValue;
	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaLaunchAttribute has CUlaunchAttribute's layout and values. */
	c = (CUlaunchConfig){
		.gridDimX = config->gridDim.x, .gridDimY = config->gridDim.y,
		.gridDimZ = config->gridDim.z, .blockDimX = config->blockDim.x,
		.blockDimY = config->blockDim.y, .blockDimZ = config->blockDim.z,
		.sharedMemBytes = (unsigned int)config->dynamicSmemBytes,
		.hStream = (CUstream)config->stream,
		.attrs = (CUlaunchAttribute *)config->attrs,
		.numAttrs = config->numAttrs,
	};
	return rt_return(rt_error(cuLaunchKernelEx(&c, f, args, NULL)));
}
