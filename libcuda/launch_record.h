/* SPDX-License-Identifier: MIT */
/*
 * A launch record: everything a worker needs to run one launch, built by
 * cuLaunchKernel and handed to the kernel as the LAUNCH command's opaque
 * descriptor. The submitting stream owns it and frees it once the
 * stream's timeline passes its point, whether it ran or was cancelled.
 */
#ifndef VCUDA_LAUNCH_RECORD_H
#define VCUDA_LAUNCH_RECORD_H

#include <stdint.h>

#include "alloc_table.h"
#include "ptx/ptx.h"

struct CUctx_st;

struct launch_record {
	struct ptx_launch launch;
	struct CUctx_st *ctx;
	struct range_snapshot *ranges;
	const char *kernel_name;	/* for fault messages */
	uint64_t workspace;		/* cooperative grid workspace slot */
	uint64_t point;			/* stream timeline point */
	struct launch_record *next;	/* stream's pending list */
	_Alignas(16) unsigned char params[];
};

void launch_record_free(struct launch_record *rec);

#endif
