// SPDX-License-Identifier: GPL-2.0-only
/* drm_sched_job_init() takes the DRM client id (6.16, backported). */
#include <drm/drm_file.h>
#include <drm/gpu_scheduler.h>

int vcuda_probe(struct drm_sched_job *job, struct drm_sched_entity *entity,
		struct drm_file *file);
int vcuda_probe(struct drm_sched_job *job, struct drm_sched_entity *entity,
		struct drm_file *file)
{
	return drm_sched_job_init(job, entity, 1, NULL, file->client_id);
}
