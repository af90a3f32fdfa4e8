// SPDX-License-Identifier: MIT
/*
 * cuDeviceGetAttribute's values. Limits come from the kernel's device
 * info; capabilities say what vcuda implements today, so a program that
 * checks an attribute before using a feature is told the truth (see
 * docs/compatibility.md).
 */
#include "api.h"
#include "device.h"

/* Attributes with one value on every vcuda device. */
static const struct {
	CUdevice_attribute attr;
	int value;
} fixed_values[] = {
	/* Texture and surface limits of a compute-capability 8.x GPU. */
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 268435456 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512 },
	{ CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT, 512 },
	{ CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32 },
	{ CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647 },
	{ CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, 2 },
	{ CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, 1 },
	{ CU_DEVICE_ATTRIBUTE_NUMA_ID, -1 },
	{ CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID, -1 },
	/* Features vcuda implements. */
	{ CU_DEVICE_ATTRIBUTE_GPU_OVERLAP, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1 },
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
	{ CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1 },
	{ CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 1 },
	{ CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 1 },
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS, 1 },
	/* Managed memory is mapped in the process: coherent, no migration. */
	{ CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1 },
	{ CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 1 },
	{ CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 1 },
};

static int fixed_value(CUdevice_attribute attr, int *value)
{
	for (size_t i = 0; i < sizeof(fixed_values) / sizeof(fixed_values[0]); i++) {
		if (fixed_values[i].attr == attr) {
			*value = fixed_values[i].value;
			return 1;
		}
	}
	return 0;
}

/* Limits the kernel reports. */
static int device_limit(const struct drm_vcuda_device_info *info,
			CUdevice_attribute attr, int *value)
{
	switch (attr) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		*value = info->max_threads_per_block;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
		*value = info->max_block_dim[attr - CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X];
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
		*value = info->max_grid_dim[attr - CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X];
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
		*value = info->shared_mem_per_block;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
		*value = info->shared_mem_per_block_optin;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
		*value = info->shared_mem_per_sm;
		return 1;
	case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
		*value = info->const_mem_size;
		return 1;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
		*value = info->warp_size;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
		*value = info->regs_per_block;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
		*value = info->regs_per_sm;
		return 1;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
		*value = info->clock_rate_khz;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
		*value = info->memory_clock_rate_khz;
		return 1;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
		*value = info->memory_bus_width;
		return 1;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
		*value = info->l2_cache_size;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		*value = info->sm_count;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
		*value = info->max_threads_per_sm;
		return 1;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
		*value = info->max_blocks_per_sm;
		return 1;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
		*value = info->copy_engine_count;
		return 1;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE:
		*value = info->compute_mode;
		return 1;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*value = info->cc_major;
		return 1;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		*value = info->cc_minor;
		return 1;
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
		*value = info->pci_domain;
		return 1;
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
		*value = info->pci_bus;
		return 1;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
		*value = info->pci_device;
		return 1;
	default:
		return 0;
	}
}

/*
 * Every other attribute of the enum is a feature vcuda does not provide yet
 * (managed memory, cooperative launch, VMM, IPC, ...) or one a virtual
 * device does not have (ECC, TCC, integrated, ...): zero.
 */
static int absent_feature(CUdevice_attribute attr, int *value)
{
	if (attr <= 0 ||
	    attr > CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED)
		return 0;
	*value = 0;
	return 1;
}

int device_attribute(const struct vc_device *dev, CUdevice_attribute attr,
		     int *value)
{
	return device_limit(&dev->info, attr, value) ||
	       fixed_value(attr, value) || absent_feature(attr, value);
}
