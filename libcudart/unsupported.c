// SPDX-License-Identifier: MIT
/*
 * Entry points listed in unsupported.def: each returns
 * cudaErrorNotSupported and records it as the thread's last error.
 *
 * No CUDA header is included here: they declare these functions with
 * their real parameters. These take none on purpose: on the x86-64
 * calling convention a caller's arguments are simply ignored, and every
 * one returns a cudaError_t in a register, so one shape serves all.
 */

/* In errors.c: logs @name once and returns cudaErrorNotSupported. */
int rt_not_supported(const char *name);

#define UNSUPPORTED(name)						\
	__attribute__((visibility("default"))) int name(void);		\
	int name(void)							\
	{								\
		return rt_not_supported(#name);				\
	}

#include "unsupported.def"
