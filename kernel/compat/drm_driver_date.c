// SPDX-License-Identifier: GPL-2.0-only
/* struct drm_driver has a date field (removed in 6.14). */
#include <drm/drm_drv.h>

const struct drm_driver vcuda_probe = { .date = "20250101" };
