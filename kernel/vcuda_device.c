// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: virtual devices, their properties and device memory accounting.
 */

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "vcuda_ctx.h"
#include "vcuda_drv.h"

/**
 * DOC: Devices
 *
 * Each virtual GPU is a platform device ``vcuda.N`` (N = its index)
 * created by the module; this file's platform driver binds to it and
 * registers a DRM device with devm_drm_dev_alloc(), so the DRM device and
 * everything allocated with drmm_ lives as long as the last file open on
 * it, and the platform device's removal unplugs it.
 *
 * The device's properties are fixed when it is created and returned by
 * DRM_VCUDA_DEV_QUERY_DEVICE_INFO: limits of a compute capability 8.0
 * (A100-like) GPU, the compute capability and SM count of the module
 * parameters, a random UUID, a virtual PCI location and the GPU virtual
 * address range, which is the x86-64 user address range above 64 KiB and
 * below 2^47 so that every CPU address of a process can also be its GPU
 * address.
 *
 * Device memory is an accounting limit: device buffer objects charge
 * their size to @vram_used, and creating one that would exceed
 * ``vram_mb`` fails with -ENOMEM. Host buffer objects count as
 * host_pinned instead.
 *
 * The compute mode (&enum drm_vcuda_compute_mode) starts as
 * DRM_VCUDA_COMPUTE_MODE_DEFAULT, is changed through sysfs
 * (vcuda_sysfs.c) and is enforced when a context is created
 * (vcuda_ctx.c); the device query reports the mode in force.
 */

#define VCUDA_VA_START		(64ULL << 10)
#define VCUDA_VA_END		BIT_ULL(47)

/**
 * vcuda_vram_charge() - Charge device memory.
 * @vdev: Device.
 * @size: Bytes.
 *
 * Return: 0, or -ENOMEM if the device memory would be exceeded.
 */
int vcuda_vram_charge(struct vcuda_device *vdev, u64 size)
{
	u64 used = atomic64_read(&vdev->vram_used);

	do {
		if (size > vdev->vram_size - used)
			return -ENOMEM;
	} while (!atomic64_try_cmpxchg(&vdev->vram_used, &used, used + size));

	return 0;
}

/**
 * vcuda_vram_uncharge() - Give back device memory.
 * @vdev: Device.
 * @size: Bytes charged with vcuda_vram_charge().
 */
void vcuda_vram_uncharge(struct vcuda_device *vdev, u64 size)
{
	atomic64_sub(size, &vdev->vram_used);
}

static void vcuda_device_fill_info(struct vcuda_device *vdev)
{
	struct drm_vcuda_device_info *info = &vdev->info;

	strscpy(info->name, "vcuda Virtual GPU", sizeof(info->name));
	memcpy(info->uuid, &vdev->uuid, sizeof(info->uuid));
	info->vram_size = vdev->vram_size;
	info->va_start = VCUDA_VA_START;
	info->va_end = VCUDA_VA_END;
	info->driver_version = VCUDA_DRIVER_VERSION;
	info->index = vdev->index;
	info->cc_major = vcuda_device_cc(vdev->index) / 10;
	info->cc_minor = vcuda_device_cc(vdev->index) % 10;
	info->sm_count = vdev->sm_count;
	info->warp_size = 32;
	info->max_threads_per_block = 1024;
	info->max_block_dim[0] = 1024;
	info->max_block_dim[1] = 1024;
	info->max_block_dim[2] = 64;
	info->max_grid_dim[0] = 0x7fffffff;
	info->max_grid_dim[1] = 65535;
	info->max_grid_dim[2] = 65535;
	info->max_threads_per_sm = 2048;
	info->max_blocks_per_sm = 32;
	info->regs_per_block = 65536;
	info->regs_per_sm = 65536;
	info->shared_mem_per_block = 48 << 10;
	info->shared_mem_per_block_optin = 163 << 10;
	info->shared_mem_per_sm = 164 << 10;
	info->const_mem_size = 64 << 10;
	info->l2_cache_size = 40 << 20;
	info->clock_rate_khz = 1410000;
	info->memory_clock_rate_khz = 1215000;
	info->memory_bus_width = 5120;
	info->copy_engine_count = VCUDA_COPY_ENGINES;
	info->compute_engine_count = 1;
	info->compute_mode = DRM_VCUDA_COMPUTE_MODE_DEFAULT;
	info->pci_domain = 0;
	info->pci_bus = 0x80 + vdev->index;
	info->pci_device = 0;
}

/**
 * vcuda_ioctl_dev_query() - DRM_IOCTL_VCUDA_DEV_QUERY.
 * @drm: Device.
 * @data: &struct drm_vcuda_dev_query.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for an unknown type or a size past
 * %VCUDA_MAX_STRIDE, -EFAULT for a bad pointer.
 */
int vcuda_ioctl_dev_query(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_dev_query *args = data;
	struct drm_vcuda_memory_info mem;
	struct drm_vcuda_device_info info;
	void __user *dst = u64_to_user_ptr(args->pointer);
	const void *src;
	u32 size, n;

	switch (args->type) {
	case DRM_VCUDA_DEV_QUERY_DEVICE_INFO:
		info = vdev->info;
		info.compute_mode = READ_ONCE(vdev->compute_mode);
		src = &info;
		size = sizeof(info);
		break;
	case DRM_VCUDA_DEV_QUERY_MEMORY_INFO:
		memset(&mem, 0, sizeof(mem));
		mem.vram_size = vdev->vram_size;
		mem.vram_used = atomic64_read(&vdev->vram_used);
		mem.host_pinned = atomic64_read(&vdev->host_pinned);
		src = &mem;
		size = sizeof(mem);
		break;
	default:
		return -EINVAL;
	}

	if (!args->pointer) {
		args->size = size;
		return 0;
	}
	/* Zero-filling is bounded: a huge size is a bug, not a newer ABI. */
	if (args->size > VCUDA_MAX_STRIDE)
		return -EINVAL;

	n = min(args->size, size);
	if (copy_to_user(dst, src, n))
		return -EFAULT;
	if (args->size > n && clear_user(dst + n, args->size - n))
		return -EFAULT;
	args->size = size;
	return 0;
}

/*
 * Device memory is host memory: a device larger than the machine's RAM
 * would let device buffers exhaust the host before ``vram_mb`` stops
 * them. It is capped at the RAM, in whole MiB.
 */
static u64 vcuda_vram_size(void)
{
	u64 ram_mb = ((u64)totalram_pages() << PAGE_SHIFT) >> 20;

	if (vcuda_vram_mb <= ram_mb)
		return (u64)vcuda_vram_mb << 20;
	pr_info_once("vcuda: vram_mb=%u is more than the host's %llu MiB of RAM; each device gets %llu MiB\n",
		     vcuda_vram_mb, ram_mb, ram_mb);
	return ram_mb << 20;
}

static void vcuda_device_fini_tables(struct drm_device *drm, void *arg)
{
	struct vcuda_device *vdev = arg;

	/* Objects leave the tables when freed: they are empty by now. */
	xa_destroy(&vdev->ipc);
	xa_destroy(&vdev->bo_ids);
}

static int vcuda_probe(struct platform_device *pdev)
{
	struct vcuda_device *vdev;
	int ret;

	if (pdev->id < 0)
		return -ENODEV;

	/* Buffers may be exported as dma-bufs, which map them. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vcuda_drm_driver,
				  struct vcuda_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);

	vdev->index = pdev->id;
	uuid_gen(&vdev->uuid);
	vdev->vram_size = vcuda_vram_size();
	atomic64_set(&vdev->vram_used, 0);
	atomic64_set(&vdev->host_pinned, 0);
	ret = drmm_mutex_init(&vdev->drm, &vdev->ctx_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&vdev->ctx_list);
	ret = drmm_mutex_init(&vdev->drm, &vdev->ipc_lock);
	if (ret)
		return ret;
	xa_init_flags(&vdev->ipc, XA_FLAGS_ALLOC1);
	xa_init_flags(&vdev->bo_ids, XA_FLAGS_ALLOC1);
	ret = drmm_add_action_or_reset(&vdev->drm, vcuda_device_fini_tables,
				       vdev);
	if (ret)
		return ret;
	vdev->compute_mode = DRM_VCUDA_COMPUTE_MODE_DEFAULT;
	atomic64_set(&vdev->faults, 0);
	ratelimit_state_init(&vdev->xid_ratelimit, 5 * HZ, 10);
	vcuda_busy_init(&vdev->busy[DRM_VCUDA_ENGINE_COMPUTE]);
	vcuda_busy_init(&vdev->busy[DRM_VCUDA_ENGINE_COPY]);
	vcuda_engines_init(vdev);
	vdev->sm_count = vcuda_sm_count ? vcuda_sm_count : num_online_cpus();
	vdev->job_timeout = vcuda_job_timeout_ms ?
			    msecs_to_jiffies(vcuda_job_timeout_ms) :
			    MAX_SCHEDULE_TIMEOUT;
	/* A launch ends when its process reports it: never, if it will not. */
	vdev->compute_timeout = vcuda_job_timeout_ms || !vcuda_compute_timeout_ms ?
				vdev->job_timeout :
				msecs_to_jiffies(vcuda_compute_timeout_ms);
	vcuda_device_fill_info(vdev);
	vcuda_debugfs_init(vdev);

	platform_set_drvdata(pdev, vdev);

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret) {
		platform_set_drvdata(pdev, NULL);
		return ret;
	}

	drm_info(&vdev->drm, "vcuda %u: %llu MiB, %u SMs, compute %u.%u\n",
		 vdev->index, vdev->vram_size >> 20, vdev->sm_count,
		 vdev->info.cc_major, vdev->info.cc_minor);
	return 0;
}

/*
 * Unbinding the driver (or unloading the module) unplugs the device:
 * drm_dev_unplug() shuts new ioctls out and waits for those inside
 * drm_dev_enter() (vcuda_drv.c). Files still open keep the DRM device
 * alive; their contexts are faulted as by a reset, so their work fails
 * and their workers wake up, instead of waiting for an ioctl that can no
 * longer come.
 */
static void vcuda_remove(struct platform_device *pdev)
{
	struct vcuda_device *vdev = platform_get_drvdata(pdev);

	drm_dev_unplug(&vdev->drm);
	vcuda_device_fault_all(vdev);
}

struct platform_driver vcuda_platform_driver = {
	.probe = vcuda_probe,
	.remove = vcuda_remove,
	.driver = {
		.name = DRM_VCUDA_DRIVER_NAME,
		.dev_groups = vcuda_sysfs_groups,
	},
};
