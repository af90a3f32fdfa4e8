/* SPDX-License-Identifier: MIT */
/*
 * Reference counts of GEM handles that several owners may share. A GEM
 * handle is not counted by the kernel, and importing a dma-buf or an
 * object this file already has a handle for gives back that same handle:
 * memory imported twice (a peer mapping and a VMM import of one object,
 * say) must not be closed by the first owner to let go.
 */
#ifndef VCUDA_GEM_REF_H
#define VCUDA_GEM_REF_H

#include <stdint.h>

#include <cuda.h>

struct vc_device;

/* One more owner of @handle on @dev (the first call starts the count). */
CUresult gem_ref_get(struct vc_device *dev, uint32_t handle);
/* One owner less; the handle is closed with its last owner. */
void gem_ref_put(struct vc_device *dev, uint32_t handle);

/*
 * A counted handle on @dev for the object @handle names on @owner: the
 * same handle (counted once more) on the same device, which its creator
 * must therefore count too, else a peer object imported through a
 * dma-buf.
 */
CUresult gem_import_to(struct vc_device *owner, uint32_t handle,
		       struct vc_device *dev, uint32_t *out);

#endif
