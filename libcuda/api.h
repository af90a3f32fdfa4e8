/* SPDX-License-Identifier: MIT */
/*
 * Shared by the files that implement driver API entry points.
 */
#ifndef VCUDA_API_H
#define VCUDA_API_H

#include <cuda.h>

/* Marks a definition as part of libcuda.so.1's ABI (all else is hidden). */
#define CUDA_EXPORT __attribute__((visibility("default")))

/* What CUDA returns for a failed ioctl's -errno, outside special cases. */
CUresult result_from_errno(int err);

/* CUDA_ERROR_NOT_INITIALIZED until cuInit succeeded. */
CUresult driver_check_init(void);

/* Logs a diagnostic to stderr when VCUDA_DEBUG is set. */
void debug_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
