// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: buffer objects.
 */

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "vcuda_drv.h"
#include "vcuda_gem.h"
#include "vcuda_ipc.h"
#include "vcuda_prime.h"

/**
 * DOC: Buffer objects
 *
 * A buffer object is a shmem-backed GEM object (&drm_gem_shmem_object),
 * in device or host placement; both are ordinary kernel pages, the
 * placement only decides what the object is charged to: device memory,
 * which is limited by ``vram_mb``, or host_pinned and the creator's
 * RLIMIT_MEMLOCK (vcuda_pin_charge(), unless it has CAP_IPC_LOCK), as
 * pinned host memory. The shmem pages of both are charged to the
 * creator's memory cgroup like any shmem page.
 *
 * The object's pages are allocated and pinned when it is created, as real
 * device memory is committed by cudaMalloc(), and released when the last
 * reference goes. That keeps the copy engine and address resolution
 * simple: while an object is mapped in an address space its pages exist,
 * and &drm_gem_shmem_object.pages can be read without taking the object's
 * reservation lock. Allocation uses __GFP_RETRY_MAYFAIL, so a request
 * larger than the machine can hold fails with -ENOMEM instead of calling
 * the OOM killer.
 *
 * DRM_VCUDA_BO_USERPTR makes an object of the caller's own memory, as
 * cudaHostRegister() does: the pages of [addr, addr + size) are pinned
 * (FOLL_LONGTERM, writable), charged to the caller's RLIMIT_MEMLOCK (unless
 * it has CAP_IPC_LOCK, vcuda_pin_charge()) and to host_pinned, and become the object's page
 * array; userspace typically binds the object at addr itself. Such an
 * object cannot be mmap()ed through the DRM file (it is already mapped)
 * nor exported as a dma-buf: its pages belong to a process's address
 * space, and another device or process has no business keeping them
 * (i915 and amdgpu refuse to export userptr objects too).
 *
 * Userspace maps an object with mmap() on the DRM file at the offset from
 * DRM_VCUDA_BO_MMAP_OFFSET, with MAP_SHARED (private mappings are
 * refused by the shmem helper), typically with MAP_FIXED at the address
 * where it also binds the object in its context's address space.
 *
 * The device address space: page-table entries (vcuda_pt.c) hold device
 * addresses, as a GPU's hold physical addresses. Every buffer object of a
 * device, whatever its kind, owns one segment of its device's address
 * space, allocated when its pages are pinned (vcuda_bo_register()): the
 * device address of its byte at offset O is seg << 40 | O. A device
 * address becomes a page again through the device's segment table
 * (vcuda_bo_from_devaddr(), a lock-free xarray lookup), then the
 * object's page array. Segments are 1 TiB, so 2 MiB-aligned offsets are
 * 2 MiB-aligned device addresses and large pages need nothing more than
 * an aligned binding. The table holds no reference: a page-table entry
 * exists only while its mapping holds the object.
 */

/**
 * vcuda_bo_register() - Give a buffer object its segment of the device
 * address space.
 * @bo: Buffer object whose @pages are set.
 *
 * Return: 0, or -ENOMEM when the device has no free segment.
 */
int vcuda_bo_register(struct vcuda_bo *bo)
{
	struct vcuda_device *vdev = to_vcuda_device(bo->base.base.dev);
	u32 seg;
	int ret;

	ret = xa_alloc_cyclic(&vdev->bo_ids, &seg, bo,
			      XA_LIMIT(1, VCUDA_DEVADDR_MAX_SEG),
			      &vdev->next_bo_id, VCUDA_GFP_CLIENT);
	if (ret < 0)
		return -ENOMEM;
	bo->seg = seg;
	atomic_inc(&vdev->live.bos);
	return 0;
}

/**
 * vcuda_bo_unregister() - Give a freed buffer object's segment back.
 * @bo: Buffer object.
 */
void vcuda_bo_unregister(struct vcuda_bo *bo)
{
	struct vcuda_device *vdev = to_vcuda_device(bo->base.base.dev);

	if (bo->seg) {
		xa_erase(&vdev->bo_ids, bo->seg);
		atomic_dec(&vdev->live.bos);
	}
}

/**
 * vcuda_bo_from_devaddr() - The buffer object at a device address.
 * @vdev: Device.
 * @addr: Device address, from a page-table entry.
 * @offset: Output: offset of @addr in the object.
 *
 * The caller keeps the object alive by other means (it holds the address
 * space's lock, and a mapping of the object).
 *
 * Return: The object, without a new reference, or NULL.
 */
struct vcuda_bo *vcuda_bo_from_devaddr(struct vcuda_device *vdev, u64 addr,
				       u64 *offset)
{
	struct vcuda_bo *bo;

	bo = xa_load(&vdev->bo_ids, addr >> VCUDA_DEVADDR_SEG_SHIFT);
	*offset = addr & (VCUDA_BO_MAX_SIZE - 1);
	if (bo && *offset >= bo->base.base.size)
		bo = NULL;
	return bo;
}

/**
 * vcuda_pin_charge() - Charge pinned pages to the caller's RLIMIT_MEMLOCK.
 * @npages: Pages about to be pinned for the caller.
 *
 * Pinned pages count in the caller's &mm_struct.pinned_vm (VmPin in
 * /proc/PID/status), as RDMA and io_uring count theirs, against
 * RLIMIT_MEMLOCK unless the caller has CAP_IPC_LOCK. pinned_vm is an
 * atomic counter, so the charge can be given back from any context, the
 * munmap() that drops an object's last reference included (where the
 * mmap lock that locked_vm needs is held).
 *
 * Return: The mm charged, grabbed (give it to vcuda_pin_uncharge()), or
 * ERR_PTR(-ENOMEM) past the limit.
 */
struct mm_struct *vcuda_pin_charge(unsigned long npages)
{
	struct mm_struct *mm = current->mm;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned;

	if (!mm)
		return ERR_PTR(-ENOMEM);
	pinned = atomic64_add_return(npages, &mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return ERR_PTR(-ENOMEM);
	}
	mmgrab(mm);
	return mm;
}

/**
 * vcuda_pin_uncharge() - Give back what vcuda_pin_charge() charged.
 * @mm: The mm it returned.
 * @npages: The same number of pages.
 *
 * Context: Any context that may sleep; takes no mm lock.
 */
void vcuda_pin_uncharge(struct mm_struct *mm, unsigned long npages)
{
	atomic64_sub(npages, &mm->pinned_vm);
	mmdrop(mm);
}

static void vcuda_bo_free(struct drm_gem_object *obj)
{
	struct vcuda_bo *bo = to_vcuda_bo(obj);
	struct vcuda_device *vdev = to_vcuda_device(obj->dev);

	vcuda_ipc_forget(bo);
	vcuda_bo_unregister(bo);
	if (bo->pinned)
		drm_gem_shmem_unpin(&bo->base);

	if (bo->placement == DRM_VCUDA_BO_PLACEMENT_DEVICE) {
		vcuda_vram_uncharge(vdev, bo->charged);
	} else {
		atomic64_sub(bo->charged, &vdev->host_pinned);
		vcuda_pin_uncharge(bo->mm, bo->charged >> PAGE_SHIFT);
	}

	mutex_destroy(&bo->gpuva_lock);
	drm_gem_shmem_free(&bo->base);
}

static enum drm_gem_object_status vcuda_bo_status(struct drm_gem_object *obj)
{
	return to_vcuda_bo(obj)->pinned ? DRM_GEM_OBJECT_RESIDENT : 0;
}

static const struct drm_gem_object_funcs vcuda_gem_funcs = {
	.free = vcuda_bo_free,
	.export = vcuda_gem_prime_export,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.status = vcuda_bo_status,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * vcuda_gem_create_object() - &drm_driver.gem_create_object.
 * @drm: Device.
 * @size: Size of the object.
 *
 * Allocates a &struct vcuda_bo for the shmem helper to initialize.
 *
 * Return: The embedded GEM object or an ERR_PTR.
 */
struct drm_gem_object *vcuda_gem_create_object(struct drm_device *drm,
					       size_t size)
{
	struct vcuda_bo *bo;

	bo = kzalloc(sizeof(*bo), VCUDA_GFP_CLIENT);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	bo->base.base.funcs = &vcuda_gem_funcs;
	mutex_init(&bo->gpuva_lock);
	drm_gem_gpuva_set_lock(&bo->base.base, &bo->gpuva_lock);
	return &bo->base.base;
}

static int vcuda_bo_check_args(const struct drm_vcuda_bo_create *args)
{
	if (args->pad || !args->size)
		return -EINVAL;
	/* Rounding up must not overflow; sizes past the VA range are bogus. */
	if (args->size > (1ULL << 47))
		return -EINVAL;

	switch (args->placement) {
	case DRM_VCUDA_BO_PLACEMENT_DEVICE:
		if (args->flags)
			return -EINVAL;
		break;
	case DRM_VCUDA_BO_PLACEMENT_HOST:
		if (args->flags & ~(DRM_VCUDA_BO_HOST_PORTABLE |
				    DRM_VCUDA_BO_HOST_MAPPED |
				    DRM_VCUDA_BO_HOST_WRITE_COMBINED))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/**
 * vcuda_ioctl_bo_create() - DRM_IOCTL_VCUDA_BO_CREATE.
 * @drm: Device.
 * @data: &struct drm_vcuda_bo_create.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for bad arguments, -ENOMEM when device memory or
 * host memory is exhausted.
 */
int vcuda_ioctl_bo_create(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	struct mm_struct *mm = NULL;
	struct vcuda_bo *bo;
	u64 size;
	u32 handle;
	int ret;

	ret = vcuda_bo_check_args(args);
	if (ret)
		return ret;

	size = PAGE_ALIGN(args->size);
	if (size > VCUDA_BO_MAX_SIZE)
		return -ENOMEM;
	if (args->placement == DRM_VCUDA_BO_PLACEMENT_DEVICE) {
		ret = vcuda_vram_charge(vdev, size);
		if (ret)
			return ret;
	} else {
		if (size > (u64)totalram_pages() << PAGE_SHIFT)
			return -ENOMEM;
		/* Pinned host memory, as BO_USERPTR's: RLIMIT_MEMLOCK. */
		mm = vcuda_pin_charge(size >> PAGE_SHIFT);
		if (IS_ERR(mm))
			return PTR_ERR(mm);
		atomic64_add(size, &vdev->host_pinned);
	}

	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		if (args->placement == DRM_VCUDA_BO_PLACEMENT_DEVICE) {
			vcuda_vram_uncharge(vdev, size);
		} else {
			atomic64_sub(size, &vdev->host_pinned);
			vcuda_pin_uncharge(mm, size >> PAGE_SHIFT);
		}
		return PTR_ERR(shmem);
	}

	/* From here on, vcuda_bo_free() gives back what was charged. */
	bo = container_of(shmem, struct vcuda_bo, base);
	bo->placement = args->placement;
	bo->flags = args->flags;
	bo->charged = size;
	bo->mm = mm;

	ret = drm_gem_shmem_pin(shmem);
	if (ret) {
		/* A signal may interrupt it; anything else is lack of memory. */
		if (ret != -EINTR && ret != -ERESTARTSYS)
			ret = -ENOMEM;
		goto out_put;
	}
	bo->pinned = true;
	bo->pages = shmem->pages;

	ret = vcuda_bo_register(bo);
	if (ret)
		goto out_put;

	ret = drm_gem_handle_create(file, &shmem->base, &handle);
	if (ret)
		goto out_put;

	args->size = size;
	args->handle = handle;

out_put:
	/* The handle holds the object now, or nothing does. */
	drm_gem_object_put(&shmem->base);
	return ret;
}

/**
 * vcuda_ioctl_bo_mmap_offset() - DRM_IOCTL_VCUDA_BO_MMAP_OFFSET.
 * @drm: Device.
 * @data: &struct drm_vcuda_bo_mmap_offset.
 * @file: DRM file.
 *
 * Return: 0, -EINVAL for non-zero padding or a userptr object, -ENOENT for
 * an unknown handle.
 */
int vcuda_ioctl_bo_mmap_offset(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_vcuda_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	/* Userptr objects are mapped already: the caller's own memory. */
	ret = to_vcuda_bo(obj)->kind == VCUDA_BO_USERPTR ? -EINVAL :
	      drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);

	drm_gem_object_put(obj);
	return ret;
}

static void vcuda_userptr_free(struct drm_gem_object *obj)
{
	struct vcuda_bo *bo = to_vcuda_bo(obj);
	unsigned long npages = obj->size >> PAGE_SHIFT;

	vcuda_ipc_forget(bo);
	vcuda_bo_unregister(bo);
	unpin_user_pages_dirty_lock(bo->pages, npages, true);
	vcuda_pin_uncharge(bo->mm, npages);
	kvfree(bo->pages);
	atomic64_sub(bo->charged, &to_vcuda_device(obj->dev)->host_pinned);

	drm_gem_object_release(obj);
	mutex_destroy(&bo->gpuva_lock);
	kfree(bo);
}

static struct dma_buf *vcuda_userptr_export(struct drm_gem_object *obj,
					    int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs vcuda_userptr_funcs = {
	.free = vcuda_userptr_free,
	.export = vcuda_userptr_export,
	.status = vcuda_bo_status,
};

/* Pins [addr, addr + npages pages) of the current process into pages. */
static int vcuda_userptr_pin(u64 addr, unsigned long npages,
			     struct page **pages)
{
	unsigned long pinned = 0;
	int ret;

	while (pinned < npages) {
		ret = pin_user_pages_fast(addr + (pinned << PAGE_SHIFT),
					  min_t(unsigned long, npages - pinned,
						SZ_64K),
					  FOLL_WRITE | FOLL_LONGTERM,
					  pages + pinned);
		if (ret <= 0) {
			unpin_user_pages(pages, pinned);
			return ret ? ret : -EFAULT;
		}
		pinned += ret;
	}
	return 0;
}

/**
 * vcuda_ioctl_bo_userptr() - DRM_IOCTL_VCUDA_BO_USERPTR.
 * @drm: Device.
 * @data: &struct drm_vcuda_bo_userptr.
 * @file: DRM file.
 *
 * Return: 0; -EINVAL for non-zero flags, an unaligned or empty range or
 * one that wraps around; -EFAULT if the range is not all mapped writable;
 * -ENOMEM, including when RLIMIT_MEMLOCK would be exceeded.
 */
int vcuda_ioctl_bo_userptr(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_bo_userptr *args = data;
	unsigned long npages;
	struct page **pages;
	struct vcuda_bo *bo;
	u64 end;
	int ret;

	if (args->flags || !args->size ||
	    !IS_ALIGNED(args->addr, PAGE_SIZE) ||
	    !IS_ALIGNED(args->size, PAGE_SIZE) ||
	    check_add_overflow(args->addr, args->size, &end))
		return -EINVAL;
	if (args->size > (1ULL << 47) ||
	    !access_ok(u64_to_user_ptr(args->addr), args->size))
		return -EFAULT;
	npages = args->size >> PAGE_SHIFT;
	/* More than the machine has cannot be pinned anyway. */
	if (npages > totalram_pages() || args->size > VCUDA_BO_MAX_SIZE)
		return -ENOMEM;

	bo = kzalloc(sizeof(*bo), VCUDA_GFP_CLIENT);
	pages = kvmalloc_array(npages, sizeof(*pages), VCUDA_GFP_CLIENT);
	if (!bo || !pages) {
		ret = -ENOMEM;
		goto err_free;
	}

	bo->mm = vcuda_pin_charge(npages);
	if (IS_ERR(bo->mm)) {
		ret = PTR_ERR(bo->mm);
		goto err_free;
	}

	ret = vcuda_userptr_pin(args->addr, npages, pages);
	if (ret) {
		vcuda_pin_uncharge(bo->mm, npages);
		goto err_free;
	}

	bo->base.base.funcs = &vcuda_userptr_funcs;
	drm_gem_private_object_init(drm, &bo->base.base, args->size);
	mutex_init(&bo->gpuva_lock);
	drm_gem_gpuva_set_lock(&bo->base.base, &bo->gpuva_lock);
	bo->pages = pages;
	bo->kind = VCUDA_BO_USERPTR;
	bo->placement = DRM_VCUDA_BO_PLACEMENT_HOST;
	bo->pinned = true;
	bo->charged = args->size;
	atomic64_add(bo->charged, &vdev->host_pinned);

	/* From here on, vcuda_userptr_free() undoes everything. */
	ret = vcuda_bo_register(bo);
	if (!ret)
		ret = drm_gem_handle_create(file, &bo->base.base,
					    &args->handle);
	/* The handle holds the object now, or nothing does. */
	drm_gem_object_put(&bo->base.base);
	return ret;

err_free:
	kvfree(pages);
	kfree(bo);
	return ret;
}

/**
 * vcuda_gem_show_fdinfo() - Print a client's memory use.
 * @p: Printer.
 * @file: DRM file.
 *
 * Device buffer objects of this device count as vram, host and userptr
 * objects as system memory; peer objects are another device's memory and
 * count in neither. Every object is resident.
 */
void vcuda_gem_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct drm_gem_object *obj;
	u64 vram = 0, system = 0;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		struct vcuda_bo *bo = to_vcuda_bo(obj);

		if (bo->kind == VCUDA_BO_PEER)
			continue;
		if (bo->placement == DRM_VCUDA_BO_PLACEMENT_DEVICE)
			vram += obj->size;
		else
			system += obj->size;
	}
	spin_unlock(&file->table_lock);

	drm_printf(p, "drm-total-vram:\t%llu KiB\n", vram >> 10);
	drm_printf(p, "drm-resident-vram:\t%llu KiB\n", vram >> 10);
	drm_printf(p, "drm-total-system:\t%llu KiB\n", system >> 10);
	drm_printf(p, "drm-resident-system:\t%llu KiB\n", system >> 10);
	drm_printf(p, "drm-memory-vram:\t%llu KiB\n", vram >> 10);
}
