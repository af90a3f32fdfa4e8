/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: sharing buffer objects between processes.
 */
#ifndef _VCUDA_IPC_H_
#define _VCUDA_IPC_H_

struct drm_device;
struct drm_file;
struct vcuda_bo;

void vcuda_ipc_forget(struct vcuda_bo *bo);

int vcuda_ioctl_ipc_export(struct drm_device *drm, void *data,
			   struct drm_file *file);
int vcuda_ioctl_ipc_import(struct drm_device *drm, void *data,
			   struct drm_file *file);

#endif /* _VCUDA_IPC_H_ */
