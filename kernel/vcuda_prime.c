// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: dma-buf (PRIME) export and import, and peer objects.
 */

#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include "vcuda_drv.h"
#include "vcuda_gem.h"
#include "vcuda_ipc.h"
#include "vcuda_prime.h"

/**
 * DOC: dma-buf sharing and peer objects
 *
 * Buffer objects are shared as dma-bufs through the DRM core's PRIME
 * ioctls (DRM_IOCTL_PRIME_HANDLE_TO_FD and DRM_IOCTL_PRIME_FD_TO_HANDLE).
 * Every kind of object can be exported but userptr objects (vcuda_gem.c
 * says why): device and host objects, and objects imported from another
 * device. vcuda exports with its own &dma_buf_ops (the DRM core's
 * helpers, in a table of our own) so that an importer can tell a vcuda
 * dma-buf from any other; for importers of other drivers they are
 * ordinary GEM dma-bufs (an sg table of the object's pages, mmap, vmap
 * of shmem objects).
 *
 * Import (vcuda_gem_prime_import()):
 *
 * - a dma-buf of an object of the same device gives that very object, as
 *   the DRM core does (a peer object exported by another device and
 *   imported back gives the original object). The DRM core records one
 *   dma-buf per object (&drm_gem_object.dma_buf); when the object is
 *   known by another dma-buf by now (it was exported anew after all its
 *   handles had gone, while the first dma-buf lived on in another
 *   device), the import gives a peer object of the same device instead,
 *   an alias with the same pages;
 * - a dma-buf of another vcuda device gives a *peer object*: an object of
 *   the importing device whose pages are those of the exporter's object,
 *   which it references (and the exporter's DRM device with it). It has a
 *   segment of the importer's device address space like any object, so
 *   the importer's contexts map it with VM_BIND, their copy engines and
 *   workers reach it through their own page tables, and it can be
 *   mmap()ed (the mapping is the exporter's) and exported again. It is
 *   charged to neither device's memory: the exporter's object stays
 *   charged to the exporter's VRAM until the peer object lets go of it.
 *   This is how CUDA's peer access is built: libcuda exports an
 *   allocation of device A and imports it into device B, then binds it in
 *   the context of B at the address it has in A;
 * - a dma-buf of another driver is refused with -EOPNOTSUPP: its pages
 *   may not be struct pages, and nothing in CUDA needs it.
 */

/*
 * A dma-buf of a peer object maps the exporter's object directly. The
 * DRM core's drm_gem_prime_mmap() cannot be given the peer object: it
 * installs the object as the mapping's private data after the object's
 * mmap callback has run, so a callback that redirects the mapping to
 * another object (as vcuda_peer_mmap() does for the DRM file) would leave
 * a mapping whose private data is the unreferenced peer object under the
 * exporter's vm_ops. The dma-buf holds the peer object, which holds the
 * exporter's object, for as long as the mapping's file lives.
 */
static int vcuda_dmabuf_mmap(struct dma_buf *dma_buf,
			     struct vm_area_struct *vma)
{
	struct vcuda_bo *bo = to_vcuda_bo(dma_buf->priv);

	if (bo->kind == VCUDA_BO_PEER)
		bo = bo->peer;
	return drm_gem_prime_mmap(&bo->base.base, vma);
}

static const struct dma_buf_ops vcuda_dmabuf_ops = {
	.cache_sgt_mapping = true,
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = drm_gem_map_dma_buf,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = vcuda_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
};

/**
 * vcuda_gem_prime_export() - &drm_gem_object_funcs.export.
 * @obj: Buffer object.
 * @flags: Flags of the dma-buf file.
 *
 * Return: The dma-buf or an ERR_PTR.
 */
struct dma_buf *vcuda_gem_prime_export(struct drm_gem_object *obj, int flags)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);

	exp_info.ops = &vcuda_dmabuf_ops;
	exp_info.size = obj->size;
	exp_info.flags = flags;
	exp_info.priv = obj;
	exp_info.resv = obj->resv;
	return drm_gem_dmabuf_export(obj->dev, &exp_info);
}

static void vcuda_peer_free(struct drm_gem_object *obj)
{
	struct vcuda_bo *bo = to_vcuda_bo(obj);
	struct drm_gem_object *exp = &bo->peer->base.base;
	struct drm_device *exp_drm = exp->dev;

	vcuda_ipc_forget(bo);
	vcuda_bo_unregister(bo);
	drm_gem_object_release(obj);
	mutex_destroy(&bo->gpuva_lock);
	kfree(bo);

	drm_gem_object_put(exp);
	drm_dev_put(exp_drm);
}

/*
 * The mapping is the exporter's object's: drm_gem_mmap_obj() took a
 * reference to the peer object for it, which is traded for one to the
 * exporter's object, whose vm_ops release it. Only the DRM file's mmap
 * comes here; a dma-buf's goes to vcuda_dmabuf_mmap().
 */
static int vcuda_peer_mmap(struct drm_gem_object *obj,
			   struct vm_area_struct *vma)
{
	struct drm_gem_object *exp = &to_vcuda_bo(obj)->peer->base.base;
	int ret;

	drm_gem_object_get(exp);
	vma->vm_private_data = exp;
	vma->vm_ops = exp->funcs->vm_ops;
	ret = exp->funcs->mmap(exp, vma);
	if (ret) {
		vma->vm_private_data = obj;
		vma->vm_ops = obj->funcs->vm_ops;
		drm_gem_object_put(exp);
		return ret;
	}
	drm_gem_object_put(obj);
	return 0;
}

static struct sg_table *vcuda_peer_get_sg_table(struct drm_gem_object *obj)
{
	return drm_prime_pages_to_sg(obj->dev, to_vcuda_bo(obj)->pages,
				     obj->size >> PAGE_SHIFT);
}

static enum drm_gem_object_status vcuda_peer_status(struct drm_gem_object *obj)
{
	return DRM_GEM_OBJECT_RESIDENT;
}

static const struct drm_gem_object_funcs vcuda_peer_funcs = {
	.free = vcuda_peer_free,
	.export = vcuda_gem_prime_export,
	.get_sg_table = vcuda_peer_get_sg_table,
	.mmap = vcuda_peer_mmap,
	.status = vcuda_peer_status,
};

/* A peer object of @drm for @exp, an object of another device. */
static struct drm_gem_object *vcuda_peer_create(struct drm_device *drm,
						struct vcuda_bo *exp)
{
	struct drm_gem_object *obj;
	struct vcuda_bo *bo;
	int ret;

	bo = kzalloc(sizeof(*bo), VCUDA_GFP_CLIENT);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	obj = &bo->base.base;
	obj->funcs = &vcuda_peer_funcs;
	drm_gem_private_object_init(drm, obj, exp->base.base.size);
	obj->resv = exp->base.base.resv;
	mutex_init(&bo->gpuva_lock);
	drm_gem_gpuva_set_lock(obj, &bo->gpuva_lock);
	bo->kind = VCUDA_BO_PEER;
	bo->placement = exp->placement;
	bo->flags = exp->flags;
	bo->pinned = true;
	bo->pages = exp->pages;
	bo->peer = exp;
	drm_gem_object_get(&exp->base.base);
	drm_dev_get(exp->base.base.dev);

	/* From here on, vcuda_peer_free() undoes everything. */
	ret = vcuda_bo_register(bo);
	if (ret) {
		drm_gem_object_put(obj);
		return ERR_PTR(ret);
	}
	return obj;
}

/**
 * vcuda_gem_prime_import() - &drm_driver.gem_prime_import.
 * @drm: Importing device.
 * @dma_buf: The dma-buf.
 *
 * Return: The object, with a new reference: the exported object itself
 * for a dma-buf of this device, a new peer object for one of another
 * vcuda device; ERR_PTR(-EOPNOTSUPP) for other drivers' dma-bufs.
 */
struct drm_gem_object *vcuda_gem_prime_import(struct drm_device *drm,
					      struct dma_buf *dma_buf)
{
	struct drm_gem_object *obj;
	struct vcuda_bo *exp;

	if (dma_buf->ops != &vcuda_dmabuf_ops)
		return ERR_PTR(-EOPNOTSUPP);

	/* Peer objects are exported too: go back to the pages' owner. */
	exp = to_vcuda_bo(dma_buf->priv);
	if (exp->kind == VCUDA_BO_PEER && exp->peer->base.base.dev == drm)
		exp = exp->peer;

	/* The caller holds drm->object_name_lock, which guards dma_buf. */
	obj = &exp->base.base;
	if (obj->dev == drm && (!obj->dma_buf || obj->dma_buf == dma_buf)) {
		drm_gem_object_get(obj);
		return obj;
	}
	if (exp->kind == VCUDA_BO_PEER)
		exp = exp->peer;
	return vcuda_peer_create(drm, exp);
}
