/* SPDX-License-Identifier: MIT */
/*
 * Running a host launch together with the grids its kernels launch.
 */
#ifndef VCUDA_COMPUTE_CDP_H
#define VCUDA_COMPUTE_CDP_H

#include <stdbool.h>

#include "ptx/ptx.h"

struct CUctx_st;

/*
 * Runs @launch's CTAs on the context's SM pool (with @worker, the
 * caller's), then every grid launched from the device under it; false
 * with @fault filled at the first fault.
 */
bool compute_run_tree(struct CUctx_st *ctx, struct ptx_worker *worker,
		      const struct ptx_launch *launch, struct ptx_fault *fault);

#endif
