// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: GPU virtual address spaces.
 */

#include <linux/err.h>
#include <linux/idr.h>
#include <linux/interval_tree.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gpuvm.h>

#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_gem.h"
#include "vcuda_pt.h"
#include "vcuda_vm.h"

/**
 * DOC: Address spaces
 *
 * Each context owns one address space, a &drm_gpuvm over the device's
 * [va_start, va_end), whose &drm_gpuva mappings point into buffer objects,
 * and the page tables (vcuda_pt.c) that translate its addresses for the
 * device. The mappings are the driver's record of what was bound; the
 * page tables are what the device uses: every access the kernel makes on
 * behalf of a job is translated by walking them (vcuda_vm_resolve()), and
 * so is DRM_VCUDA_VM_TRANSLATE, which reports the leaf's level.
 *
 * DRM_VCUDA_VM_BIND is synchronous. A map must land on unmapped addresses
 * (-EEXIST otherwise), and writes the page-table entries of the new
 * mapping (2 MiB pages where the address and the object offset allow); an
 * unmap must cover only mapped addresses (-ENOENT otherwise) but may cut
 * mappings, which drm_gpuvm_sm_unmap() splits into the kept pieces, and
 * clears the entries of its range. The read-only flag of a mapping is
 * kept in its &drm_gpuva.flags and in its page-table entries, which the
 * copy engine obeys.
 *
 * Reservations (DRM_VCUDA_VM_BIND_OP_MAP_SPARSE, for cuMemAddressReserve)
 * are ranges of addresses kept in an interval tree beside the mappings;
 * they have no page-table entries, so an access to a reserved page faults
 * as an unmapped one. A reservation must not overlap another one or a
 * mapping (-EEXIST). A map may overlap a reservation only if it lies
 * entirely inside it (-EEXIST otherwise); unmapping it gives its pages
 * back to the reservation, which stays. An unmap whose range is not all
 * mapped but is exactly a reservation with nothing mapped in it releases
 * the reservation.
 *
 * Locking: @vcuda_vm.lock (rw_semaphore) protects the mappings, the
 * reservations and the page tables, taken for writing by binds and for
 * reading by translation; inside it, each buffer object's gpuva_lock
 * protects the object's list of mappings (drm_gpuva_link()/
 * drm_gpuva_unlink()). Mappings hold references to their objects through
 * their &drm_gpuvm_bo, which keeps the objects' pages, and so every
 * page-table entry's target, alive. Memory, page tables included, is
 * allocated before the VM lock is taken, so no allocation happens under
 * it: translation runs in the copy engine, on the path that signals
 * fences.
 *
 * Limits: an address space holds at most ``max_mappings`` mappings and
 * reservations together (-ENOSPC past it; an unmap that would cut a
 * mapping in two past it fails too, and changes nothing). Its page
 * tables, mappings and reservations are charged to the memory cgroup
 * of the process that binds (__GFP_ACCOUNT), so a process cannot pin
 * kernel memory its cgroup does not pay for.
 *
 * When the context is destroyed, vcuda_vm_close() removes every mapping
 * and reservation, dropping the objects' references, and refuses later
 * binds.
 */

/**
 * struct vcuda_vm_resv - An address reservation.
 */
struct vcuda_vm_resv {
	/** @it: Node of &vcuda_vm.resv: [start, last]. */
	struct interval_tree_node it;
};

static void vcuda_vm_free(struct drm_gpuvm *gpuvm)
{
	struct vcuda_vm *vm = container_of(gpuvm, struct vcuda_vm, base);

	vcuda_pt_fini(&vm->pt);
	kfree(vm);
}

static inline struct vcuda_vm *to_vcuda_vm(struct drm_gpuvm *gpuvm)
{
	return container_of(gpuvm, struct vcuda_vm, base);
}

/* Removes a mapping from the tree and from its object; VM lock held. */
static void vcuda_vm_remove_va(struct drm_gpuva *va)
{
	struct vcuda_vm *vm = to_vcuda_vm(va->vm);
	struct drm_gem_object *obj = va->gem.obj;
	struct vcuda_bo *bo = to_vcuda_bo(obj);

	lockdep_assert_held_write(&vm->lock);

	vm->nr_vas--;

	/* Unlinking may drop the object's last reference: keep one. */
	drm_gem_object_get(obj);
	drm_gpuva_remove(va);
	mutex_lock(&bo->gpuva_lock);
	drm_gpuva_unlink(va);
	mutex_unlock(&bo->gpuva_lock);
	kfree(va);
	drm_gem_object_put(obj);
}

/* Mappings preallocated for the pieces kept by one unmap. */
struct vcuda_vm_unmap_ctx {
	struct drm_gpuva *prev;
	struct drm_gpuva *next;
};

static int vcuda_vm_step_unmap(struct drm_gpuva_op *op, void *priv)
{
	vcuda_vm_remove_va(op->unmap.va);
	return 0;
}

static int vcuda_vm_step_remap(struct drm_gpuva_op *op, void *priv)
{
	struct vcuda_vm_unmap_ctx *uctx = priv;
	struct drm_gpuva *old = op->remap.unmap->va;
	struct drm_gpuvm_bo *vm_bo = old->vm_bo;
	struct vcuda_bo *bo = to_vcuda_bo(old->gem.obj);
	struct drm_gpuva *prev = NULL, *next = NULL;

	lockdep_assert_held_write(&to_vcuda_vm(old->vm)->lock);

	/*
	 * One unmap cuts at most the mapping at its start (keeping a
	 * "prev" piece) and the one at its end (keeping a "next" piece).
	 */
	if (op->remap.prev) {
		prev = uctx->prev;
		uctx->prev = NULL;
	}
	if (op->remap.next) {
		next = uctx->next;
		uctx->next = NULL;
	}
	if ((op->remap.prev && !prev) || (op->remap.next && !next))
		return -EINVAL;

	drm_gpuva_remap(prev, next, &op->remap);
	/* vcuda_vm_unmap() checked that the pieces fit in max_mappings. */
	to_vcuda_vm(old->vm)->nr_vas += !!prev + !!next - 1;

	mutex_lock(&bo->gpuva_lock);
	if (prev) {
		prev->flags = old->flags;
		drm_gpuva_link(prev, vm_bo);
	}
	if (next) {
		next->flags = old->flags;
		drm_gpuva_link(next, vm_bo);
	}
	/* The kept pieces hold the vm_bo: this does not free anything. */
	drm_gpuva_unlink(old);
	mutex_unlock(&bo->gpuva_lock);
	kfree(old);
	return 0;
}

/* The core allocates these for mappings: charge them to the caller. */
static struct drm_gpuvm_bo *vcuda_vm_bo_alloc(void)
{
	return kzalloc(sizeof(struct drm_gpuvm_bo), VCUDA_GFP_CLIENT);
}

static void vcuda_vm_bo_free(struct drm_gpuvm_bo *vm_bo)
{
	kfree(vm_bo);
}

static const struct drm_gpuvm_ops vcuda_gpuvm_ops = {
	.vm_free = vcuda_vm_free,
	.vm_bo_alloc = vcuda_vm_bo_alloc,
	.vm_bo_free = vcuda_vm_bo_free,
	.sm_step_remap = vcuda_vm_step_remap,
	.sm_step_unmap = vcuda_vm_step_unmap,
};

/**
 * vcuda_vm_create() - Create an empty address space.
 * @vdev: Device.
 *
 * Return: The address space, with one reference, or an ERR_PTR.
 */
struct vcuda_vm *vcuda_vm_create(struct vcuda_device *vdev)
{
	struct drm_gem_object *r_obj;
	struct vcuda_vm *vm;

	vm = kzalloc(sizeof(*vm), VCUDA_GFP_CLIENT);
	if (!vm)
		return ERR_PTR(-ENOMEM);

	r_obj = drm_gpuvm_resv_object_alloc(&vdev->drm);
	if (!r_obj)
		goto err_free_vm;

	init_rwsem(&vm->lock);
	if (vcuda_pt_init(&vm->pt, vdev, &vm->lock))
		goto err_put_resv;

	vm->vdev = vdev;
	vm->resv = RB_ROOT_CACHED;
	drm_gpuvm_init(&vm->base, "vcuda", 0, &vdev->drm, r_obj,
		       vdev->info.va_start,
		       vdev->info.va_end - vdev->info.va_start, 0, 0,
		       &vcuda_gpuvm_ops);
	/* The VM took its own reference. */
	drm_gem_object_put(r_obj);
	return vm;

err_put_resv:
	drm_gem_object_put(r_obj);
err_free_vm:
	kfree(vm);
	return ERR_PTR(-ENOMEM);
}

/**
 * vcuda_vm_close() - Remove every mapping and refuse new ones.
 * @vm: Address space.
 */
void vcuda_vm_close(struct vcuda_vm *vm)
{
	struct vcuda_pt_cache none = {};
	struct interval_tree_node *it;
	struct drm_gpuva *va, *next;

	down_write(&vm->lock);
	vm->closed = true;
	drm_gpuvm_for_each_va_safe(va, next, &vm->base) {
		/* A large page never spans mappings: nothing to split. */
		vcuda_pt_unmap(&vm->pt, &none, va->va.addr, va->va.range);
		vcuda_vm_remove_va(va);
	}
	while ((it = interval_tree_iter_first(&vm->resv, 0, U64_MAX))) {
		interval_tree_remove(it, &vm->resv);
		kfree(container_of(it, struct vcuda_vm_resv, it));
		vm->nr_vas--;
	}
	up_write(&vm->lock);
}

/**
 * vcuda_vm_put() - Drop a reference to an address space.
 * @vm: Address space, closed if this is the last reference.
 */
void vcuda_vm_put(struct vcuda_vm *vm)
{
	drm_gpuvm_put(&vm->base);
}

/**
 * vcuda_vm_resolve() - Find the page backing a GPU virtual address.
 * @vm: Address space.
 * @addr: GPU virtual address.
 * @write: Whether the access writes.
 * @res: Output.
 *
 * This is the device's address translation: every access the kernel
 * makes on behalf of a job goes through it. It walks the page tables to
 * the leaf of @addr, whose device address names a buffer object's page.
 *
 * Return: 0 with @res->page referenced, or -EFAULT with @res->fault_kind
 * set to DRM_VCUDA_FAULT_UNMAPPED or DRM_VCUDA_FAULT_READ_ONLY.
 */
int vcuda_vm_resolve(struct vcuda_vm *vm, u64 addr, bool write,
		     struct vcuda_vm_page *res)
{
	struct vcuda_pt_leaf leaf;
	struct vcuda_bo *bo = NULL;
	u64 offset;
	int ret = 0;

	down_read(&vm->lock);
	if (vcuda_pt_walk(&vm->pt, addr, &leaf))
		bo = vcuda_bo_from_devaddr(vm->vdev, leaf.addr, &offset);
	if (!bo) {
		res->fault_kind = DRM_VCUDA_FAULT_UNMAPPED;
		ret = -EFAULT;
	} else if (write && leaf.readonly) {
		res->fault_kind = DRM_VCUDA_FAULT_READ_ONLY;
		ret = -EFAULT;
	} else {
		res->page = vcuda_bo_page(bo, offset);
		get_page(res->page);
		res->offset = offset_in_page(addr);
		res->len = PAGE_SIZE - res->offset;
		res->fault_kind = DRM_VCUDA_FAULT_NONE;
	}
	up_read(&vm->lock);
	return ret;
}

/*
 * Whether [va, va + size) may be mapped as far as reservations go: it
 * overlaps none, or lies inside one. VM lock held.
 */
static bool vcuda_vm_resv_allows(struct vcuda_vm *vm, u64 va, u64 size)
{
	struct interval_tree_node *it;

	lockdep_assert_held(&vm->lock);

	it = interval_tree_iter_first(&vm->resv, va, va + size - 1);
	return !it || (it->start <= va && it->last >= va + size - 1);
}

/* The reservation that is exactly [va, va + size), if any; lock held. */
static struct vcuda_vm_resv *vcuda_vm_resv_find(struct vcuda_vm *vm, u64 va,
						u64 size)
{
	struct interval_tree_node *it;

	lockdep_assert_held(&vm->lock);

	it = interval_tree_iter_first(&vm->resv, va, va + size - 1);
	if (it && it->start == va && it->last == va + size - 1)
		return container_of(it, struct vcuda_vm_resv, it);
	return NULL;
}

/* Whether a mapping of [va, va + size) may be added now; lock held. */
static int vcuda_vm_map_allowed(struct vcuda_vm *vm, u64 va, u64 size)
{
	lockdep_assert_held_write(&vm->lock);

	if (vm->closed)
		return -ENOENT;
	if (!vcuda_vm_resv_allows(vm, va, size))
		return -EEXIST;
	if (vm->nr_vas >= vcuda_max_mappings)
		return -ENOSPC;
	return 0;
}

static int vcuda_vm_map(struct vcuda_vm *vm, struct drm_file *file,
			const struct drm_vcuda_vm_bind_op *op)
{
	bool readonly = op->flags & DRM_VCUDA_VM_BIND_READONLY;
	struct drm_gpuvm_bo *vm_bo, *prealloc;
	struct vcuda_pt_cache cache = {};
	struct drm_gem_object *obj;
	struct drm_gpuva *va;
	struct vcuda_bo *bo;
	u64 addr;
	int ret;

	obj = drm_gem_object_lookup(file, op->bo_handle);
	if (!obj)
		return -ENOENT;
	bo = to_vcuda_bo(obj);

	if (op->bo_offset > obj->size || op->size > obj->size - op->bo_offset) {
		ret = -EINVAL;
		goto err_put_obj;
	}
	addr = vcuda_bo_devaddr(bo, op->bo_offset);

	/* Everything the bind needs, allocated before the VM lock. */
	ret = -ENOMEM;
	va = kzalloc(sizeof(*va), VCUDA_GFP_CLIENT);
	if (!va)
		goto err_put_obj;
	prealloc = drm_gpuvm_bo_create(&vm->base, obj);
	if (!prealloc)
		goto err_free_va;
	if (vcuda_pt_cache_fill(&cache, vcuda_pt_map_need(op->va, op->size,
							  addr)))
		goto err_drain;

	down_write(&vm->lock);
	ret = vcuda_vm_map_allowed(vm, op->va, op->size);
	if (ret)
		goto err_unlock;
	drm_gpuva_init(va, op->va, op->size, obj, op->bo_offset);
	if (readonly)
		va->flags |= VCUDA_VA_READONLY;
	ret = drm_gpuva_insert(&vm->base, va);
	if (ret)
		goto err_unlock;
	vcuda_pt_map(&vm->pt, &cache, op->va, op->size, addr, readonly);
	vm->nr_vas++;

	mutex_lock(&bo->gpuva_lock);
	vm_bo = drm_gpuvm_bo_obtain_prealloc(prealloc);
	drm_gpuva_link(va, vm_bo);
	/* The mapping holds the vm_bo now. */
	drm_gpuvm_bo_put(vm_bo);
	mutex_unlock(&bo->gpuva_lock);
	up_write(&vm->lock);

	vcuda_pt_cache_drain(&cache);
	drm_gem_object_put(obj);
	return 0;

err_unlock:
	up_write(&vm->lock);
err_drain:
	vcuda_pt_cache_drain(&cache);
	mutex_lock(&bo->gpuva_lock);
	drm_gpuvm_bo_put(prealloc);
	mutex_unlock(&bo->gpuva_lock);
err_free_va:
	kfree(va);
err_put_obj:
	drm_gem_object_put(obj);
	return ret;
}

static int vcuda_vm_unmap(struct vcuda_vm *vm,
			  const struct drm_vcuda_vm_bind_op *op)
{
	struct vcuda_vm_unmap_ctx uctx = {};
	u64 end = op->va + op->size, cursor = op->va;
	struct vcuda_pt_cache cache = {};
	struct vcuda_vm_resv *resv;
	struct drm_gpuva *va;
	int added = 0;
	int ret = 0;

	uctx.prev = kzalloc(sizeof(*uctx.prev), VCUDA_GFP_CLIENT);
	uctx.next = kzalloc(sizeof(*uctx.next), VCUDA_GFP_CLIENT);
	if (!uctx.prev || !uctx.next ||
	    vcuda_pt_cache_fill(&cache, vcuda_pt_unmap_need())) {
		ret = -ENOMEM;
		goto out_free;
	}

	down_write(&vm->lock);
	if (vm->closed) {
		ret = -ENOENT;
		goto out_unlock;
	}

	/*
	 * Every page of the range must be mapped. Mappings cut at the ends
	 * keep a piece each: the only way an unmap adds mappings.
	 */
	drm_gpuvm_for_each_va_range(va, &vm->base, op->va, end) {
		if (va->va.addr > cursor)
			break;
		added += (va->va.addr < op->va) +
			  (va->va.addr + va->va.range > end) - 1;
		cursor = va->va.addr + va->va.range;
	}
	if (cursor < end) {
		/* Or the range is an empty reservation, which goes. */
		resv = vcuda_vm_resv_find(vm, op->va, op->size);
		if (resv && drm_gpuvm_interval_empty(&vm->base, op->va,
						     op->size)) {
			interval_tree_remove(&resv->it, &vm->resv);
			kfree(resv);
			vm->nr_vas--;
		} else {
			ret = -ENOENT;
		}
		goto out_unlock;
	}
	if (added > 0 && vm->nr_vas + added > vcuda_max_mappings) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	vcuda_pt_unmap(&vm->pt, &cache, op->va, op->size);
	ret = drm_gpuvm_sm_unmap(&vm->base, &uctx, op->va, op->size);

out_unlock:
	up_write(&vm->lock);
out_free:
	kfree(uctx.prev);
	kfree(uctx.next);
	vcuda_pt_cache_drain(&cache);
	return ret;
}

static int vcuda_vm_reserve(struct vcuda_vm *vm,
			    const struct drm_vcuda_vm_bind_op *op)
{
	struct vcuda_vm_resv *resv;
	int ret = 0;

	resv = kzalloc(sizeof(*resv), VCUDA_GFP_CLIENT);
	if (!resv)
		return -ENOMEM;
	resv->it.start = op->va;
	resv->it.last = op->va + op->size - 1;

	down_write(&vm->lock);
	if (vm->closed) {
		ret = -ENOENT;
	} else if (interval_tree_iter_first(&vm->resv, resv->it.start,
					    resv->it.last) ||
		   !drm_gpuvm_interval_empty(&vm->base, op->va, op->size)) {
		ret = -EEXIST;
	} else if (vm->nr_vas >= vcuda_max_mappings) {
		ret = -ENOSPC;
	} else {
		interval_tree_insert(&resv->it, &vm->resv);
		vm->nr_vas++;
		resv = NULL;
	}
	up_write(&vm->lock);

	kfree(resv);
	return ret;
}

static int vcuda_vm_check_op(struct vcuda_device *vdev,
			     const struct drm_vcuda_vm_bind_op *op)
{
	u32 kind = op->flags & DRM_VCUDA_VM_BIND_OP_MASK;
	u32 extra = op->flags & ~DRM_VCUDA_VM_BIND_OP_MASK;

	switch (kind) {
	case DRM_VCUDA_VM_BIND_OP_MAP:
		if (extra & ~DRM_VCUDA_VM_BIND_READONLY)
			return -EINVAL;
		break;
	case DRM_VCUDA_VM_BIND_OP_UNMAP:
		if (extra || op->bo_handle || op->bo_offset)
			return -EINVAL;
		break;
	case DRM_VCUDA_VM_BIND_OP_MAP_SPARSE:
		if (extra || op->bo_handle || op->bo_offset)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}

	if (!op->size || !IS_ALIGNED(op->va, DRM_VCUDA_PAGE_SIZE) ||
	    !IS_ALIGNED(op->size, DRM_VCUDA_PAGE_SIZE) ||
	    !IS_ALIGNED(op->bo_offset, DRM_VCUDA_PAGE_SIZE))
		return -EINVAL;
	if (op->va < vdev->info.va_start || op->va >= vdev->info.va_end ||
	    op->size > vdev->info.va_end - op->va)
		return -EINVAL;
	return 0;
}

/**
 * vcuda_ioctl_vm_bind() - DRM_IOCTL_VCUDA_VM_BIND.
 * @drm: Device.
 * @data: &struct drm_vcuda_vm_bind.
 * @file: DRM file.
 *
 * Return: 0; -EINVAL for bad arguments; -ENOENT for an unknown context or
 * buffer object, or an unmap of unmapped pages that is not an empty
 * reservation; -EEXIST for a map over mapped pages or across a
 * reservation's edge, or a reservation over mappings or reservations;
 * -ENOSPC for a map or reservation (or an unmap that cuts a mapping in
 * two) past ``max_mappings``; -ENOMEM. On error @ops.count is set to the
 * number of operations done.
 */
int vcuda_ioctl_vm_bind(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_vm_bind *args = data;
	struct drm_vcuda_vm_bind_op *ops;
	struct vcuda_ctx *ctx;
	u32 i;
	int ret = 0;

	/* The syncs are reserved: every field of them, not just the count. */
	if (args->flags || args->syncs.count || args->syncs.stride ||
	    args->syncs.array)
		return -EINVAL;

	ops = vcuda_obj_array_copy(&args->ops, 1, VCUDA_MAX_BIND_OPS,
				   sizeof(*ops));
	if (IS_ERR(ops))
		return PTR_ERR(ops);

	ctx = vcuda_ctx_lookup(to_vcuda_file(file), args->ctx_id);
	if (!ctx) {
		ret = -ENOENT;
		goto out_free;
	}

	for (i = 0; i < args->ops.count; i++) {
		const struct drm_vcuda_vm_bind_op *op = &ops[i];

		ret = vcuda_vm_check_op(vdev, op);
		if (ret)
			break;
		switch (op->flags & DRM_VCUDA_VM_BIND_OP_MASK) {
		case DRM_VCUDA_VM_BIND_OP_MAP:
			ret = vcuda_vm_map(ctx->vm, file, op);
			break;
		case DRM_VCUDA_VM_BIND_OP_UNMAP:
			ret = vcuda_vm_unmap(ctx->vm, op);
			break;
		default:
			ret = vcuda_vm_reserve(ctx->vm, op);
			break;
		}
		if (ret)
			break;
	}
	if (ret)
		args->ops.count = i;

	vcuda_ctx_put(ctx);
out_free:
	kvfree(ops);
	return ret;
}

/* The handle of @obj in @file, or zero if it has none. */
static u32 vcuda_vm_find_handle(struct drm_file *file,
				struct drm_gem_object *obj)
{
	struct drm_gem_object *entry;
	u32 handle = 0;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, entry, id) {
		if (entry == obj) {
			handle = id;
			break;
		}
	}
	spin_unlock(&file->table_lock);
	return handle;
}

/**
 * vcuda_ioctl_vm_translate() - DRM_IOCTL_VCUDA_VM_TRANSLATE.
 * @drm: Device.
 * @data: &struct drm_vcuda_vm_translate.
 * @file: DRM file.
 *
 * Walks the page tables as the copy engine does, and reports the leaf's
 * level (0 for a 4 KiB page, 1 for a 2 MiB page), its permission, and
 * the buffer object and offset its device address names. The handle is
 * zero if the backing object has no handle in this file.
 *
 * Return: 0, -EINVAL for an address outside the device's range, -ENOENT
 * for an unknown context or an unmapped address.
 */
int vcuda_ioctl_vm_translate(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct vcuda_device *vdev = to_vcuda_device(drm);
	struct drm_vcuda_vm_translate *args = data;
	struct drm_gem_object *obj = NULL;
	struct vcuda_pt_leaf leaf;
	struct vcuda_bo *bo = NULL;
	struct vcuda_ctx *ctx;
	u64 offset;
	int ret = 0;

	if (args->va < vdev->info.va_start || args->va >= vdev->info.va_end)
		return -EINVAL;

	ctx = vcuda_ctx_lookup(to_vcuda_file(file), args->ctx_id);
	if (!ctx)
		return -ENOENT;

	down_read(&ctx->vm->lock);
	if (vcuda_pt_walk(&ctx->vm->pt, args->va, &leaf))
		bo = vcuda_bo_from_devaddr(vdev, leaf.addr, &offset);
	if (bo) {
		obj = &bo->base.base;
		drm_gem_object_get(obj);
		args->flags = leaf.readonly ? DRM_VCUDA_VM_BIND_READONLY : 0;
		args->bo_offset = offset + offset_in_page(args->va);
		args->level = leaf.level;
	} else {
		ret = -ENOENT;
	}
	up_read(&ctx->vm->lock);

	if (obj) {
		args->bo_handle = vcuda_vm_find_handle(file, obj);
		drm_gem_object_put(obj);
	}
	vcuda_ctx_put(ctx);
	return ret;
}

static const char *vcuda_bo_kind_name(const struct vcuda_bo *bo)
{
	switch (bo->kind) {
	case VCUDA_BO_USERPTR:
		return "user";
	case VCUDA_BO_PEER:
		return "peer";
	default:
		return bo->placement == DRM_VCUDA_BO_PLACEMENT_DEVICE ?
		       "device" : "host";
	}
}

/**
 * vcuda_vm_show() - Print an address space, for debugfs.
 * @vm: Address space.
 * @m: Where to print.
 * @page_tables: Print the page-table walk of every mapping, instead of
 *	the mappings and reservations.
 */
void vcuda_vm_show(struct vcuda_vm *vm, struct seq_file *m, bool page_tables)
{
	struct interval_tree_node *it;
	struct drm_gpuva *va;

	down_read(&vm->lock);
	if (page_tables)
		seq_printf(m, "  %lu tables\n", vm->pt.tables);
	drm_gpuvm_for_each_va(va, &vm->base) {
		struct vcuda_bo *bo = to_vcuda_bo(va->gem.obj);

		seq_printf(m, "  0x%012llx-0x%012llx %s %s seg %u +0x%llx\n",
			   va->va.addr, va->va.addr + va->va.range,
			   (va->flags & VCUDA_VA_READONLY) ? "ro" : "rw",
			   vcuda_bo_kind_name(bo), bo->seg, va->gem.offset);
		if (page_tables)
			vcuda_pt_dump(&vm->pt, m, va->va.addr, va->va.range);
	}
	for (it = interval_tree_iter_first(&vm->resv, 0, U64_MAX); it;
	     it = interval_tree_iter_next(it, 0, U64_MAX))
		seq_printf(m, "  0x%012lx-0x%012lx reserved\n", it->start,
			   it->last + 1);
	up_read(&vm->lock);
}
