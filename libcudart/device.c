// SPDX-License-Identifier: MIT
/*
 * Device properties: cudaDeviceProp is filled from the driver's device
 * attributes, as the runtime does on NVIDIA's stack.
 */
#include <string.h>

#include "rt.h"

static cudaError_t check_device(int device)
{
	cudaError_t err = rt_init();
	int count = 0;

	if (err != cudaSuccess)
		return err;
	cuDeviceGetCount(&count);
	return device >= 0 && device < count ? cudaSuccess
					     : cudaErrorInvalidDevice;
}

CUDART_EXPORT cudaError_t cudaDeviceGetAttribute(int *value,
						 enum cudaDeviceAttr attr,
						 int device)
{
	cudaError_t err = check_device(device);

	if (err != cudaSuccess)
		return rt_return(err);
	if (!value)
		return rt_return(cudaErrorInvalidValue);
	/* cudaDevAttr* and CU_DEVICE_ATTRIBUTE_* share their numbering. */
	return rt_return(rt_error(cuDeviceGetAttribute(
		value, (CUdevice_attribute)attr, device)));
}

static int attr(int device, CUdevice_attribute a)
{
	int v = 0;

	cuDeviceGetAttribute(&v, a, device);
	return v;
}

static void fill_limits(struct cudaDeviceProp *p, int d)
{
	p->sharedMemPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	p->regsPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	p->warpSize = attr(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	p->memPitch = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
	p->maxThreadsPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i);
		p->maxGridSize[i] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i);
	}
	p->totalConstMem = attr(d, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
	p->major = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	p->minor = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	p->multiProcessorCount = attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	p->maxThreadsPerMultiProcessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	p->maxBlocksPerMultiProcessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
	p->sharedMemPerMultiprocessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	p->sharedMemPerBlockOptin = attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	p->regsPerMultiprocessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
	p->memoryBusWidth = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	p->l2CacheSize = attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	p->asyncEngineCount = attr(d, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
	p->pciBusID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
	p->pciDeviceID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
	p->pciDomainID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
}

static void fill_textures(struct cudaDeviceProp *p, int d)
{
	p->textureAlignment = attr(d, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
	p->texturePitchAlignment = attr(d, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
	p->surfaceAlignment = attr(d, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
	p->maxTexture1D = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
	p->maxTexture1DMipmap = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
	p->maxTexture2D[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
	p->maxTexture2D[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
	p->maxTexture2DMipmap[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
	p->maxTexture2DMipmap[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
	p->maxTexture2DLinear[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
	p->maxTexture2DLinear[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
	p->maxTexture2DLinear[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
	p->maxTexture2DGather[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH);
	p->maxTexture2DGather[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
	p->maxTexture3D[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
	p->maxTexture3D[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
	p->maxTexture3D[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
	p->maxTexture3DAlt[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
	p->maxTexture3DAlt[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
	p->maxTexture3DAlt[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
	p->maxTextureCubemap = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH);
	p->maxTexture1DLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
	p->maxTexture1DLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
	p->maxTexture2DLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
	p->maxTexture2DLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
	p->maxTexture2DLayered[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
	p->maxTextureCubemapLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
	p->maxTextureCubemapLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
	p->maxSurface1D = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
	p->maxSurface2D[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
	p->maxSurface2D[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
	p->maxSurface3D[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
	p->maxSurface3D[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
	p->maxSurface3D[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
	p->maxSurface1DLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH);
	p->maxSurface1DLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS);
	p->maxSurface2DLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH);
	p->maxSurface2DLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
	p->maxSurface2DLayered[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
	p->maxSurfaceCubemap = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH);
	p->maxSurfaceCubemapLayered[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
	p->maxSurfaceCubemapLayered[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
}

static void fill_features(struct cudaDeviceProp *p, int d)
{
	p->integrated = attr(d, CU_DEVICE_ATTRIBUTE_INTEGRATED);
	p->canMapHostMemory = attr(d, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
	p->concurrentKernels = attr(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
	p->ECCEnabled = attr(d, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
	p->tccDriver = attr(d, CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
	p->unifiedAddressing = attr(d, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
	p->persistingL2CacheMaxSize = attr(d, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
	p->streamPrioritiesSupported = attr(d, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
	p->globalL1CacheSupported = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
	p->localL1CacheSupported = attr(d, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
	p->managedMemory = attr(d, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
	p->isMultiGpuBoard = attr(d, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
	p->multiGpuBoardGroupID = attr(d, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
	p->hostNativeAtomicSupported = attr(d, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
	p->pageableMemoryAccess = attr(d, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
	p->concurrentManagedAccess = attr(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
	p->computePreemptionSupported = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
	p->canUseHostPointerForRegisteredMem = attr(d, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
	p->cooperativeLaunch = attr(d, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
	p->pageableMemoryAccessUsesHostPageTables = attr(d, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
	p->directManagedMemAccessFromHost = attr(d, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
	p->accessPolicyMaxWindowSize = attr(d, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
	p->reservedSharedMemPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
	p->hostRegisterSupported = attr(d, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
	p->sparseCudaArraySupported = attr(d, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
	p->hostRegisterReadOnlySupported = attr(d, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
	p->timelineSemaphoreInteropSupported = attr(d, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
	p->memoryPoolsSupported = attr(d, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
	p->gpuDirectRDMASupported = attr(d, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
	p->gpuDirectRDMAFlushWritesOptions = attr(d, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
	p->gpuDirectRDMAWritesOrdering = attr(d, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
	p->memoryPoolSupportedHandleTypes = attr(d, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES);
	p->deferredMappingCudaArraySupported = attr(d, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
	p->ipcEventSupported = attr(d, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
	p->clusterLaunch = attr(d, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
	p->unifiedFunctionPointers = attr(d, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
	p->deviceNumaConfig = attr(d, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG);
	p->deviceNumaId = attr(d, CU_DEVICE_ATTRIBUTE_NUMA_ID);
	p->mpsEnabled = attr(d, CU_DEVICE_ATTRIBUTE_MPS_ENABLED);
	p->hostNumaId = attr(d, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
	p->gpuPciDeviceID = attr(d, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID);
	p->gpuPciSubsystemID = attr(d, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID);
	p->hostNumaMultinodeIpcSupported = attr(d, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED);
}

CUDART_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
						  int device)
{
	cudaError_t err = check_device(device);
	CUuuid uuid;

	if (err != cudaSuccess)
		return rt_return(err);
	if (!prop)
		return rt_return(cudaErrorInvalidValue);
	memset(prop, 0, sizeof(*prop));
	cuDeviceGetName(prop->name, sizeof(prop->name), device);
	cuDeviceGetUuid(&uuid, device);
	memcpy(&prop->uuid, &uuid, sizeof(prop->uuid));
	cuDeviceTotalMem(&prop->totalGlobalMem, device);
	fill_limits(prop, device);
	fill_textures(prop, device);
	fill_features(prop, device);
	return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least,
							   int *greatest)
{
	RT_CALL(cuCtxGetStreamPriorityRange(least, greatest));
}

CUDART_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaDeviceMapHost is always on with unified addressing. */
	flags &= ~(unsigned int)cudaDeviceMapHost;
	return rt_return(rt_error(cuDevicePrimaryCtxSetFlags(
		rt_current_device(), flags)));
}

CUDART_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	cudaError_t err = rt_init();
	int active;

	if (err != cudaSuccess)
		return rt_return(err);
	if (!flags)
		return rt_return(cudaErrorInvalidValue);
	err = rt_error(cuDevicePrimaryCtxGetState(rt_current_device(), flags,
						  &active));
	*flags |= cudaDeviceMapHost;
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *can, int device,
						  int peer)
{
	cudaError_t err = check_device(device);

	if (err == cudaSuccess)
		err = check_device(peer);
	if (err != cudaSuccess)
		return rt_return(err);
	if (!can)
		return rt_return(cudaErrorInvalidValue);
	return rt_return(rt_error(cuDeviceCanAccessPeer(can, device, peer)));
}

CUDART_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	RT_ENTER();
	/* cudaLimit and CUlimit share their values. */
	return rt_return(rt_error(cuCtxSetLimit((CUlimit)limit, value)));
}

CUDART_EXPORT cudaError_t cudaDeviceGetLimit(size_t *value,
					     enum cudaLimit limit)
{
	RT_CALL(cuCtxGetLimit(value, (CUlimit)limit));
}
