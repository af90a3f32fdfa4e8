// SPDX-License-Identifier: MIT
/*
 * cuProfilerStart and cuProfilerStop: no profiler attaches to vcuda, and
 * with none attached CUDA's are no-ops that succeed.
 */
#include "api.h"

CUDA_EXPORT CUresult cuProfilerStart(void)
{
	return driver_check_init();
}

CUDA_EXPORT CUresult cuProfilerStop(void)
{
	return driver_check_init();
}
