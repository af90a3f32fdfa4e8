/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: job submission.
 */
#ifndef _VCUDA_SUBMIT_H_
#define _VCUDA_SUBMIT_H_

struct drm_device;
struct drm_file;

int vcuda_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file);

#endif /* _VCUDA_SUBMIT_H_ */
