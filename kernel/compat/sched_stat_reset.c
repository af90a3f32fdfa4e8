// SPDX-License-Identifier: GPL-2.0-only
/* DRM_GPU_SCHED_STAT_NOMINAL was renamed DRM_GPU_SCHED_STAT_RESET (6.17). */
#include <drm/gpu_scheduler.h>

enum drm_gpu_sched_stat vcuda_probe(void);
enum drm_gpu_sched_stat vcuda_probe(void)
{
	return DRM_GPU_SCHED_STAT_RESET;
}
