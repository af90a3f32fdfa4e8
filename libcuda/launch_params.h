/* SPDX-License-Identifier: MIT */
/*
 * Packing a kernel's parameters into its parameter layout (launch_params.c).
 */
#ifndef VCUDA_LAUNCH_PARAMS_H
#define VCUDA_LAUNCH_PARAMS_H

#include <cuda.h>

struct CUfunc_st;

/*
 * Packs a kernel's parameters (from kernelParams or an extra buffer) into
 * a new buffer of the kernel's parameter layout; the caller frees it.
 */
CUresult launch_pack_params(const struct CUfunc_st *f, void **params,
			    void **extra, unsigned char **packed);

#endif
