// SPDX-License-Identifier: GPL-2.0-only
/* drm_sched_init() takes a struct drm_sched_init_args (6.15, backported). */
#include <drm/gpu_scheduler.h>

int vcuda_probe(struct drm_gpu_scheduler *sched);
int vcuda_probe(struct drm_gpu_scheduler *sched)
{
	const struct drm_sched_init_args args = { .name = "probe" };

	return drm_sched_init(sched, &args);
}
