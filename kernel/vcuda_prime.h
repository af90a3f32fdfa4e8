/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: dma-buf export and import, peer objects.
 */
#ifndef _VCUDA_PRIME_H_
#define _VCUDA_PRIME_H_

struct dma_buf;
struct drm_device;
struct drm_gem_object;

struct dma_buf *vcuda_gem_prime_export(struct drm_gem_object *obj, int flags);
struct drm_gem_object *vcuda_gem_prime_import(struct drm_device *drm,
					      struct dma_buf *dma_buf);

#endif /* _VCUDA_PRIME_H_ */
