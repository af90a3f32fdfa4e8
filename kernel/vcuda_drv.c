// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: module entry points, the DRM driver and its ioctl table.
 */

#include <linux/bits.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

#include "vcuda_compat.h"
#include "vcuda_drv.h"
#include "vcuda_compute.h"
#include "vcuda_ctx.h"
#include "vcuda_gem.h"
#include "vcuda_ipc.h"
#include "vcuda_prime.h"
#include "vcuda_queue.h"
#include "vcuda_submit.h"
#include "vcuda_usage.h"
#include "vcuda_vm.h"

/**
 * DOC: Overview
 *
 * vcuda.ko creates ``num_devices`` virtual GPUs. Each is a platform
 * device ``vcuda.N`` whose driver (vcuda_device.c) registers a DRM device
 * with a render node; userspace finds it by the driver name "vcuda".
 *
 * The module is split by subsystem:
 *
 * - vcuda_drv.c: module parameters, the DRM driver, the ioctl table, the
 *   per-file state and the helper that copies versioned arrays;
 * - vcuda_device.c: the platform driver, device properties, VRAM
 *   accounting, compute mode, device reset and DRM_VCUDA_DEV_QUERY;
 * - vcuda_sysfs.c: per-device sysfs attributes (the admin interface);
 * - vcuda_debugfs.c: debugfs dumps of contexts, address spaces and page
 *   tables;
 * - vcuda_usage.c: busy time of the engines and their utilization;
 * - vcuda_gem.c: buffer objects (shmem-backed GEM objects, and the
 *   caller's own pages for BO_USERPTR) and the device address space
 *   that page tables point into;
 * - vcuda_prime.c: dma-buf export and import, and peer objects (a buffer
 *   of another vcuda device);
 * - vcuda_ipc.c: sharing buffer objects between processes by token;
 * - vcuda_vm.c: GPU address spaces (&drm_gpuvm), VM_BIND, address
 *   reservations, and the function that resolves a GPU virtual address
 *   to a page;
 * - vcuda_pt.c: the multi-level page tables of an address space and
 *   their walker;
 * - vcuda_ctx.c: contexts and their sticky fault state;
 * - vcuda_queue.c: queues, one &drm_gpu_scheduler and one entity each;
 * - vcuda_job.c: jobs and the scheduler callbacks;
 * - vcuda_ring.c: the per-queue ring that executes jobs' commands in
 *   order;
 * - vcuda_engine.c: the copy engines, shared by priority among the copy
 *   queues of a device;
 * - vcuda_submit.c: DRM_VCUDA_SUBMIT: validation and syncobjs;
 * - vcuda_compute.c: the hand-off of launch commands to userspace
 *   workers (COMPUTE_WAIT/COMPUTE_DONE);
 * - vcuda_copy.c: the commands the kernel runs itself: COPY, FILL,
 *   TIMESTAMP and the semaphores.
 *
 * Everything a file creates is released when the file is closed
 * (vcuda_postclose()), including when its process is killed.
 *
 * Per-client usage (fdinfo, vcuda_show_fdinfo()) follows
 * Documentation/gpu/drm-usage-stats.rst: ``drm-engine-compute`` and
 * ``drm-engine-copy`` are the busy times of the client's queues,
 * ``drm-total-vram``/``drm-resident-vram`` its device buffer objects and
 * ``drm-total-system``/``drm-resident-system`` its host and user buffer
 * objects (every object is resident: pages are pinned while it lives),
 * ``drm-memory-vram`` the legacy spelling of ``drm-total-vram``.
 */

unsigned int vcuda_num_devices = 1;
module_param_named(num_devices, vcuda_num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Number of virtual GPUs (1 to 16, default 1)");

unsigned int vcuda_vram_mb = 4096;
module_param_named(vram_mb, vcuda_vram_mb, uint, 0444);
MODULE_PARM_DESC(vram_mb, "Device memory per GPU in MiB (default 4096)");

unsigned int vcuda_sm_count;
module_param_named(sm_count, vcuda_sm_count, uint, 0444);
MODULE_PARM_DESC(sm_count, "SMs reported per GPU (default 0: online CPUs)");

#define VCUDA_MAX_DEVICES	16

/* Per device; the last value given holds for the devices after it. */
static unsigned int vcuda_cc[VCUDA_MAX_DEVICES] = { 80 };
static unsigned int vcuda_cc_count = 1;
module_param_array_named(cc, vcuda_cc, uint, &vcuda_cc_count, 0444);
MODULE_PARM_DESC(cc,
		 "Compute capability times ten, per device: cc=80,90 makes device 0 8.0 and device 1 9.0, a single value all (default 80)");

unsigned int vcuda_job_timeout_ms;
module_param_named(job_timeout_ms, vcuda_job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "Job time-out in ms (default 0: none)");

/*
 * Per-file limits on what a client makes the kernel allocate for it
 * (everything is also charged to its memory cgroup): they bound the
 * kernel memory of one file, the DRM scheduler's fences included, which
 * the cgroup does not see.
 */
unsigned int vcuda_max_contexts = 256;
module_param_named(max_contexts, vcuda_max_contexts, uint, 0444);
MODULE_PARM_DESC(max_contexts, "Contexts per open file (default 256)");

unsigned int vcuda_max_queues = 4096;
module_param_named(max_queues, vcuda_max_queues, uint, 0444);
MODULE_PARM_DESC(max_queues, "Queues per open file (default 4096)");

unsigned int vcuda_max_queued_jobs = 4096;
module_param_named(max_queued_jobs, vcuda_max_queued_jobs, uint, 0444);
MODULE_PARM_DESC(max_queued_jobs,
		 "Jobs submitted and not yet freed per open file; SUBMIT waits for room (64 to 2^20, default 4096)");

unsigned int vcuda_max_mappings = 65536;
module_param_named(max_mappings, vcuda_max_mappings, uint, 0444);
MODULE_PARM_DESC(max_mappings,
		 "Mappings and reservations per address space (default 65536)");
unsigned int vcuda_compute_timeout_ms = 600000;
module_param_named(compute_timeout_ms, vcuda_compute_timeout_ms, uint, 0444);
MODULE_PARM_DESC(compute_timeout_ms,
		 "Time-out of compute jobs in ms when job_timeout_ms is 0 (default 600000; 0: none)");

/* 256 GiB: the page array of the largest object stays below INT_MAX. */
#define VCUDA_MAX_VRAM_MB	BIT(18)
#define VCUDA_MAX_SM_COUNT	4096

struct workqueue_struct *vcuda_wq;
struct workqueue_struct *vcuda_fini_wq;
struct workqueue_struct *vcuda_sched_wq;

static struct platform_device *vcuda_pdevs[VCUDA_MAX_DEVICES];

/**
 * vcuda_obj_array_copy() - Copy an array of versioned structures in.
 * @arr: The array as userspace passed it.
 * @min_count: Fewest elements accepted.
 * @max_count: Most elements accepted.
 * @elem_size: Size of an element as this kernel knows it.
 *
 * Applies the rules of &struct drm_vcuda_obj_array: an element shorter
 * than @elem_size is zero-extended, and the bytes of a longer element
 * beyond @elem_size must be zero. The current element sizes are those of
 * interface version 1.0, the first one, so no userspace can legitimately
 * pass a shorter element: a stride below @elem_size, like one above
 * %VCUDA_MAX_STRIDE, is rejected.
 *
 * Return: A kvmalloc'ed array of @arr->count elements of @elem_size bytes
 * (NULL if @arr->count is zero and @min_count allows it), or an ERR_PTR:
 * -EINVAL for a bad count or stride or non-zero unknown bytes, -EFAULT
 * for a bad pointer, -ENOMEM.
 */
void *vcuda_obj_array_copy(const struct drm_vcuda_obj_array *arr,
			   u32 min_count, u32 max_count, size_t elem_size)
{
	void __user *src = u64_to_user_ptr(arr->array);
	size_t total;
	u8 *out;
	u32 i;
	int ret;

	if (arr->count < min_count || arr->count > max_count)
		return ERR_PTR(-EINVAL);
	if (!arr->count)
		return NULL;
	if (arr->stride < elem_size || arr->stride > VCUDA_MAX_STRIDE)
		return ERR_PTR(-EINVAL);
	if (check_mul_overflow((size_t)arr->count, elem_size, &total))
		return ERR_PTR(-EINVAL);

	out = kvmalloc(total, VCUDA_GFP_CLIENT);
	if (!out)
		return ERR_PTR(-ENOMEM);

	if (arr->stride == elem_size) {
		if (copy_from_user(out, src, total)) {
			ret = -EFAULT;
			goto err_free;
		}
		return out;
	}

	for (i = 0; i < arr->count; i++) {
		ret = copy_struct_from_user(out + i * elem_size, elem_size,
					    src + (size_t)i * arr->stride,
					    arr->stride);
		if (ret) {
			/* -E2BIG: unknown trailing bytes are not zero. */
			if (ret == -E2BIG)
				ret = -EINVAL;
			goto err_free;
		}
	}
	return out;

err_free:
	kvfree(out);
	return ERR_PTR(ret);
}

static int vcuda_open(struct drm_device *drm, struct drm_file *file)
{
	struct vcuda_file *vfile;

	vfile = kzalloc(sizeof(*vfile), VCUDA_GFP_CLIENT);
	if (!vfile)
		return -ENOMEM;

	vfile->usage = vcuda_usage_create();
	if (!vfile->usage) {
		kfree(vfile);
		return -ENOMEM;
	}
	vfile->vdev = to_vcuda_device(drm);
	mutex_init(&vfile->lock);
	xa_init_flags(&vfile->ctxs, XA_FLAGS_ALLOC1);
	xa_init_flags(&vfile->queues, XA_FLAGS_ALLOC1);
	file->driver_priv = vfile;
	return 0;
}

static void vcuda_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vcuda_file *vfile = to_vcuda_file(file);

	/*
	 * Handles of buffer objects and syncobjs are gone already; this
	 * destroys the contexts, their queues (cancelling their jobs) and
	 * their address spaces, which drops the last references to the
	 * buffer objects.
	 */
	vcuda_ctx_file_close(vfile);

	xa_destroy(&vfile->queues);
	xa_destroy(&vfile->ctxs);
	mutex_destroy(&vfile->lock);
	vcuda_usage_put(vfile->usage);
	kfree(vfile);
}

/*
 * Called at every close of a descriptor of the file, and so when each
 * process that has one exits: that process's unreported launches are
 * reported for it, since the file (shared with another process) may
 * outlive it.
 */
static int vcuda_flush(struct file *filp, fl_owner_t id)
{
	struct drm_file *file = filp->private_data;

	if (current->flags & PF_EXITING)
		vcuda_ctx_file_abandon(to_vcuda_file(file),
				       task_tgid_nr(current));
	return 0;
}

static void vcuda_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vcuda_usage *u = to_vcuda_file(file)->usage;

	drm_printf(p, "drm-engine-compute:\t%llu ns\n",
		   vcuda_busy_ns(&u->busy[DRM_VCUDA_ENGINE_COMPUTE]));
	drm_printf(p, "drm-engine-copy:\t%llu ns\n",
		   vcuda_busy_ns(&u->busy[DRM_VCUDA_ENGINE_COPY]));
	vcuda_gem_show_fdinfo(p, file);
}

/*
 * Unplug: once vcuda_remove() has called drm_dev_unplug(), the DRM core
 * refuses every new ioctl with -ENODEV, and drm_dev_unplug() itself
 * waits for the ioctls inside drm_dev_enter(). Those that change the
 * device's state run entirely inside it (VCUDA_DEV_IOCTL), so that when
 * vcuda_remove() faults the device's contexts no ioctl is still adding a
 * context, queue, job, mapping or object behind its back. Two ioctls wait
 * for as long as userspace makes them and must not hold up the unplug:
 * COMPUTE_WAIT only takes launches (the faults wake it), and SUBMIT
 * enters after its wait for room (vcuda_ioctl_submit()).
 */
static int vcuda_ioctl_entered(struct drm_device *drm, void *data,
			       struct drm_file *file, drm_ioctl_t *func)
{
	int idx, ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = func(drm, data, file);
	drm_dev_exit(idx);
	return ret;
}

#define VCUDA_ENTERED(func)						\
static int func##_entered(struct drm_device *drm, void *data,		\
			  struct drm_file *file)			\
{									\
	return vcuda_ioctl_entered(drm, data, file, func);		\
}

VCUDA_ENTERED(vcuda_ioctl_dev_query)
VCUDA_ENTERED(vcuda_ioctl_ctx_create)
VCUDA_ENTERED(vcuda_ioctl_ctx_destroy)
VCUDA_ENTERED(vcuda_ioctl_ctx_get_state)
VCUDA_ENTERED(vcuda_ioctl_bo_create)
VCUDA_ENTERED(vcuda_ioctl_bo_userptr)
VCUDA_ENTERED(vcuda_ioctl_bo_mmap_offset)
VCUDA_ENTERED(vcuda_ioctl_vm_bind)
VCUDA_ENTERED(vcuda_ioctl_vm_translate)
VCUDA_ENTERED(vcuda_ioctl_queue_create)
VCUDA_ENTERED(vcuda_ioctl_queue_destroy)
VCUDA_ENTERED(vcuda_ioctl_compute_done)
VCUDA_ENTERED(vcuda_ioctl_ipc_export)
VCUDA_ENTERED(vcuda_ioctl_ipc_import)
VCUDA_ENTERED(vcuda_ioctl_device_reset)

/* An ioctl that runs inside drm_dev_enter(). */
#define VCUDA_DEV_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(VCUDA_##name, func##_entered, DRM_RENDER_ALLOW)
/* An ioctl that enters the device itself where it needs to, if at all. */
#define VCUDA_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(VCUDA_##name, func, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc vcuda_ioctls[] = {
	VCUDA_DEV_IOCTL(DEV_QUERY, vcuda_ioctl_dev_query),
	VCUDA_DEV_IOCTL(CTX_CREATE, vcuda_ioctl_ctx_create),
	VCUDA_DEV_IOCTL(CTX_DESTROY, vcuda_ioctl_ctx_destroy),
	VCUDA_DEV_IOCTL(CTX_GET_STATE, vcuda_ioctl_ctx_get_state),
	VCUDA_DEV_IOCTL(BO_CREATE, vcuda_ioctl_bo_create),
	VCUDA_DEV_IOCTL(BO_USERPTR, vcuda_ioctl_bo_userptr),
	VCUDA_DEV_IOCTL(BO_MMAP_OFFSET, vcuda_ioctl_bo_mmap_offset),
	VCUDA_DEV_IOCTL(VM_BIND, vcuda_ioctl_vm_bind),
	VCUDA_DEV_IOCTL(VM_TRANSLATE, vcuda_ioctl_vm_translate),
	VCUDA_DEV_IOCTL(QUEUE_CREATE, vcuda_ioctl_queue_create),
	VCUDA_DEV_IOCTL(QUEUE_DESTROY, vcuda_ioctl_queue_destroy),
	VCUDA_IOCTL(SUBMIT, vcuda_ioctl_submit),
	VCUDA_IOCTL(COMPUTE_WAIT, vcuda_ioctl_compute_wait),
	VCUDA_DEV_IOCTL(COMPUTE_DONE, vcuda_ioctl_compute_done),
	VCUDA_DEV_IOCTL(IPC_EXPORT, vcuda_ioctl_ipc_export),
	VCUDA_DEV_IOCTL(IPC_IMPORT, vcuda_ioctl_ipc_import),
	VCUDA_DEV_IOCTL(DEVICE_RESET, vcuda_ioctl_device_reset),
};

static const struct file_operations vcuda_drm_fops = {
	.owner = THIS_MODULE,
	DRM_GEM_FOPS,
	.flush = vcuda_flush,
	.show_fdinfo = drm_show_fdinfo,
};

const struct drm_driver vcuda_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE | DRIVER_GEM_GPUVA,
	.open = vcuda_open,
	.postclose = vcuda_postclose,
	.show_fdinfo = vcuda_show_fdinfo,
	.gem_create_object = vcuda_gem_create_object,
	.gem_prime_import = vcuda_gem_prime_import,
	.ioctls = vcuda_ioctls,
	.num_ioctls = ARRAY_SIZE(vcuda_ioctls),
	.fops = &vcuda_drm_fops,
	.name = DRM_VCUDA_DRIVER_NAME,
	.desc = "vcuda virtual CUDA GPU",
#ifdef VCUDA_HAVE_DRM_DRIVER_DATE
	.date = "20250101",
#endif
	.major = DRM_VCUDA_VERSION_MAJOR,
	.minor = DRM_VCUDA_VERSION_MINOR,
	.patchlevel = DRM_VCUDA_VERSION_PATCH,
};

static int vcuda_check_params(void)
{
	unsigned int i;

	if (vcuda_num_devices < 1 || vcuda_num_devices > VCUDA_MAX_DEVICES) {
		pr_err("vcuda: num_devices must be 1 to %u\n",
		       VCUDA_MAX_DEVICES);
		return -EINVAL;
	}
	if (vcuda_vram_mb < 1 || vcuda_vram_mb > VCUDA_MAX_VRAM_MB) {
		pr_err("vcuda: vram_mb must be 1 to %lu\n", VCUDA_MAX_VRAM_MB);
		return -EINVAL;
	}
	if (vcuda_sm_count > VCUDA_MAX_SM_COUNT) {
		pr_err("vcuda: sm_count must be at most %u\n",
		       VCUDA_MAX_SM_COUNT);
		return -EINVAL;
	}
	if (!vcuda_max_contexts || !vcuda_max_queues || !vcuda_max_mappings) {
		pr_err("vcuda: max_contexts, max_queues and max_mappings must be at least 1\n");
		return -EINVAL;
	}
	/* One SUBMIT must always fit: it reserves room for all its jobs. */
	if (vcuda_max_queued_jobs < VCUDA_MAX_JOBS ||
	    vcuda_max_queued_jobs > BIT(20)) {
		pr_err("vcuda: max_queued_jobs must be %u to %lu\n",
		       VCUDA_MAX_JOBS, BIT(20));
		return -EINVAL;
	}
	for (i = 0; i < vcuda_cc_count; i++) {
		if (vcuda_cc[i] < 10 || vcuda_cc[i] > 199) {
			pr_err("vcuda: cc must be 10 to 199 (major * 10 + minor)\n");
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * vcuda_device_cc() - The compute capability of a device, times ten.
 * @index: the device's index
 *
 * Return: the ``cc`` value given for @index, else the last one given
 * (80 when none was).
 */
unsigned int vcuda_device_cc(unsigned int index)
{
	return vcuda_cc[min(index, max(vcuda_cc_count, 1u) - 1)];
}

static void vcuda_remove_devices(void)
{
	int i;

	for (i = VCUDA_MAX_DEVICES - 1; i >= 0; i--) {
		if (vcuda_pdevs[i]) {
			platform_device_unregister(vcuda_pdevs[i]);
			vcuda_pdevs[i] = NULL;
		}
	}
}

static int __init vcuda_init(void)
{
	unsigned int i;
	int ret;

	ret = vcuda_check_params();
	if (ret)
		return ret;

	vcuda_wq = alloc_workqueue("vcuda", WQ_UNBOUND, 0);
	if (!vcuda_wq)
		return -ENOMEM;
	vcuda_fini_wq = alloc_workqueue("vcuda-fini", WQ_UNBOUND, 0);
	if (!vcuda_fini_wq) {
		ret = -ENOMEM;
		goto err_wq;
	}
	vcuda_sched_wq = alloc_workqueue("vcuda-sched",
					 WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!vcuda_sched_wq) {
		ret = -ENOMEM;
		goto err_fini_wq;
	}

	ret = platform_driver_register(&vcuda_platform_driver);
	if (ret)
		goto err_sched_wq;

	for (i = 0; i < vcuda_num_devices; i++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple(DRM_VCUDA_DRIVER_NAME,
						       i, NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err_devices;
		}
		vcuda_pdevs[i] = pdev;
		/* Probing is synchronous: no driver data means it failed. */
		if (!platform_get_drvdata(pdev)) {
			ret = -ENODEV;
			goto err_devices;
		}
	}
	return 0;

err_devices:
	vcuda_remove_devices();
	platform_driver_unregister(&vcuda_platform_driver);
err_sched_wq:
	destroy_workqueue(vcuda_sched_wq);
err_fini_wq:
	destroy_workqueue(vcuda_fini_wq);
err_wq:
	destroy_workqueue(vcuda_wq);
	return ret;
}

static void __exit vcuda_exit(void)
{
	vcuda_remove_devices();
	platform_driver_unregister(&vcuda_platform_driver);
	/*
	 * Queues torn down after their file was closed may still be
	 * finishing on vcuda_fini_wq; destroying it waits for them.
	 */
	destroy_workqueue(vcuda_fini_wq);
	destroy_workqueue(vcuda_wq);
	destroy_workqueue(vcuda_sched_wq);
}

module_init(vcuda_init);
module_exit(vcuda_exit);

MODULE_DESCRIPTION("vcuda virtual CUDA GPU");
MODULE_LICENSE("GPL");
