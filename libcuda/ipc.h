/* SPDX-License-Identifier: MIT */
/*
 * Interprocess handles. A CUDA IPC handle is 64 bytes: vcuda puts the
 * kernel's IPC token of the buffer object (56 bytes) in it, and a tag
 * saying what it is (memory, event or pool pointer) with the offset of a
 * pool pointer in its block.
 */
#ifndef VCUDA_IPC_H
#define VCUDA_IPC_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "vcuda_drm.h"

struct CUctx_st;
struct vc_device;

struct ipc_wire {
	struct drm_vcuda_ipc_handle token;
	uint32_t tag;		/* IPC_TAG_MEM or IPC_TAG_EVENT */
	uint32_t offset;	/* of an exported pool pointer in its block */
};

#define IPC_TAG_MEM	0x4d496376u	/* "vcIM" */
#define IPC_TAG_EVENT	0x45496376u	/* "vcIE" */
#define IPC_TAG_POOL	0x50496376u	/* "vcIP": cuMemPoolExportPointer */

_Static_assert(sizeof(struct ipc_wire) == sizeof(CUipcMemHandle),
	       "an IPC handle holds a token, a tag and an offset");

/* Exports @bo of @dev as a wire handle; remembers it as this process's. */
CUresult ipc_export(struct vc_device *dev, uint32_t bo, uint32_t tag,
		    uint32_t offset, struct ipc_wire *out);
/* Whether @w was exported by this very process. */
bool ipc_is_own(const struct ipc_wire *w);
/*
 * A counted handle on @dev (see gem_ref.h) for the object of token @w,
 * whichever device it is on (@owner, if asked), and its size.
 */
CUresult ipc_import(const struct ipc_wire *w, struct vc_device *dev,
		    uint32_t *handle, uint64_t *size,
		    struct vc_device **owner);

#endif
