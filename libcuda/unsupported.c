// SPDX-License-Identifier: MIT
/*
 * Entry points listed in unsupported.def: each returns
 * CUDA_ERROR_NOT_SUPPORTED.
 *
 * No CUDA header is included here: cuda.h declares these functions with
 * their real parameters. These take none on purpose: on the x86-64
 * calling convention a caller's arguments are simply ignored, and every
 * one returns a CUresult in a register, so one shape serves all.
 */

/* In init.c: logs @name once and returns CUDA_ERROR_NOT_SUPPORTED. */
int driver_not_supported(const char *name);

#define UNSUPPORTED(name)						\
	__attribute__((visibility("default"))) int name(void);		\
	int name(void)							\
	{								\
		return driver_not_supported(#name);			\
	}

#include "unsupported.def"
