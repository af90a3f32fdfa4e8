/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: GPU virtual address spaces.
 */
#ifndef _VCUDA_VM_H_
#define _VCUDA_VM_H_

#include <linux/rbtree_types.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <drm/drm_gpuvm.h>

#include "vcuda_pt.h"

struct drm_device;
struct drm_file;
struct page;
struct seq_file;
struct vcuda_device;

/* &drm_gpuva.flags bit of a mapping the device may only read. */
#define VCUDA_VA_READONLY	DRM_GPUVA_USERBITS

/**
 * struct vcuda_vm - The address space of a context.
 */
struct vcuda_vm {
	/** @base: The GPU VA manager; its reference count is the VM's. */
	struct drm_gpuvm base;

	/** @vdev: Device. */
	struct vcuda_device *vdev;

	/**
	 * @lock: Protects the mappings, the reservations and the page
	 * tables: written by binds, read by address resolution.
	 */
	struct rw_semaphore lock;

	/** @pt: The page tables, in step with the mappings. */
	struct vcuda_pt pt;

	/**
	 * @resv: Address reservations (MAP_SPARSE), an interval tree of
	 * &struct vcuda_vm_resv.
	 */
	struct rb_root_cached resv;

	/**
	 * @nr_vas: Mappings and reservations, at most ``max_mappings``;
	 * under @lock.
	 */
	u32 nr_vas;

	/** @closed: The context is gone; no mapping may be added. */
	bool closed;
};

/**
 * struct vcuda_vm_page - Where a GPU virtual address lands.
 */
struct vcuda_vm_page {
	/** @page: The page, with a reference the caller drops. */
	struct page *page;

	/** @offset: Offset of the address in @page. */
	u32 offset;

	/** @len: Bytes from @offset to the end of @page. */
	u32 len;

	/** @fault_kind: &enum drm_vcuda_fault_kind when resolution fails. */
	u32 fault_kind;
};

struct vcuda_vm *vcuda_vm_create(struct vcuda_device *vdev);
void vcuda_vm_close(struct vcuda_vm *vm);
void vcuda_vm_put(struct vcuda_vm *vm);
int vcuda_vm_resolve(struct vcuda_vm *vm, u64 addr, bool write,
		     struct vcuda_vm_page *res);
void vcuda_vm_show(struct vcuda_vm *vm, struct seq_file *m,
		   bool page_tables);

int vcuda_ioctl_vm_bind(struct drm_device *drm, void *data,
			struct drm_file *file);
int vcuda_ioctl_vm_translate(struct drm_device *drm, void *data,
			     struct drm_file *file);

#endif /* _VCUDA_VM_H_ */
