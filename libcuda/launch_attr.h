/* SPDX-License-Identifier: MIT */
/*
 * Launch attributes (CUlaunchAttribute): what a stream, a graph kernel
 * node or one cuLaunchKernelEx may carry, the values CUDA accepts, and
 * where a stream's or node's values are kept. Most are hints with no
 * meaning on vcuda (L2 access policy windows, memory synchronization
 * domains, cluster scheduling, shared memory carveout): accepted when
 * valid, reported back as set, otherwise without effect.
 */
#ifndef VCUDA_LAUNCH_ATTR_H
#define VCUDA_LAUNCH_ATTR_H

#include <cuda.h>

/*
 * CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: a compute
 * capability 8.0 GPU's. The persisting L2 it would apply to is 0 bytes
 * (CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE): no lines to set aside.
 */
#define LAUNCH_ATTR_MAX_WINDOW_BYTES 134213632

enum launch_attr_target {
	LAUNCH_ATTR_STREAM,	/* cuStreamSetAttribute */
	LAUNCH_ATTR_NODE,	/* cuGraphKernelNodeSetAttribute */
	LAUNCH_ATTR_LAUNCH,	/* cuLaunchKernelEx */
};

/* The values a stream or a kernel node holds (unset: CUDA's defaults). */
struct launch_attrs {
	CUaccessPolicyWindow window;
	CUsynchronizationPolicy sync_policy;
	int priority;				/* nodes; a stream has its own */
	CUlaunchMemSyncDomainMap domain_map;
	CUlaunchMemSyncDomain domain;
	int cooperative;
	unsigned int cluster[3];
	CUclusterSchedulingPolicy cluster_sched;
	unsigned int carveout;
	unsigned int set;			/* 1 << id of each value set */
};

/*
 * Whether @id with @v may be given to @target: CUDA_ERROR_INVALID_VALUE
 * for an attribute of other targets or a bad value (as NVIDIA's driver
 * answers), CUDA_ERROR_INVALID_HANDLE for a missing event,
 * CUDA_ERROR_NOT_SUPPORTED for what vcuda cannot do.
 */
CUresult launch_attr_check(enum launch_attr_target target,
			   CUlaunchAttributeID id,
			   const CUlaunchAttributeValue *v);

/* Keeps @v (checked) as @a's value of @id. */
void launch_attr_store(struct launch_attrs *a, CUlaunchAttributeID id,
		       const CUlaunchAttributeValue *v);

/* @a's value of @id, or CUDA's default for it. */
void launch_attr_load(const struct launch_attrs *a, CUlaunchAttributeID id,
		      CUlaunchAttributeValue *v);

/* A captured launch's node takes its stream's values and priority. */
void launch_attrs_captured(struct launch_attrs *node,
			   const struct launch_attrs *stream, int priority);

#endif
