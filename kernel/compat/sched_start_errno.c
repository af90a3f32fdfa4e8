// SPDX-License-Identifier: GPL-2.0-only
/* drm_sched_start() takes an error code (6.13 to 6.14). */
#include <drm/gpu_scheduler.h>

void vcuda_probe(struct drm_gpu_scheduler *sched);
void vcuda_probe(struct drm_gpu_scheduler *sched)
{
	drm_sched_start(sched, 0);
}
