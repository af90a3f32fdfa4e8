// SPDX-License-Identifier: MIT
/*
 * Launch attributes: which target takes which, their valid values, and
 * the values a stream or kernel node keeps. The answers follow NVIDIA's
 * driver 580 (tests/api/attr_api.expected).
 */
#include <string.h>

#include "launch_attr.h"

/* The attribute ids each target takes (bits of CUlaunchAttributeID). */
#define BIT(id) (1u << (id))
static const unsigned int valid_ids[] = {
	[LAUNCH_ATTR_STREAM] = BIT(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) |
			       BIT(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY) |
			       BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY) |
			       BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) |
			       BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN),
	[LAUNCH_ATTR_NODE] =
		BIT(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) |
		BIT(CU_LAUNCH_ATTRIBUTE_COOPERATIVE) |
		BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) |
		BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) |
		BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY) |
		BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) |
		BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN) |
		BIT(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) |
		BIT(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT),
	[LAUNCH_ATTR_LAUNCH] =
		BIT(CU_LAUNCH_ATTRIBUTE_IGNORE) |
		BIT(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) |
		BIT(CU_LAUNCH_ATTRIBUTE_COOPERATIVE) |
		BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) |
		BIT(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) |
		BIT(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION) |
		BIT(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT) |
		BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY) |
		BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) |
		BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN) |
		BIT(CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION) |
		BIT(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT) |
		BIT(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) |
		BIT(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) |
		BIT(CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING),
};

/* Memory synchronization domains a map may name (an H100 has four). */
#define SYNC_DOMAINS 4
/* cudaSharedmemCarveoutDefault. */
#define CARVEOUT_DEFAULT 0xffffffffu

/*
 * A window's hit ratio is a fraction, and a miss cannot persist; the hit
 * property itself NVIDIA's driver does not check.
 */
static CUresult check_window(const CUaccessPolicyWindow *w)
{
	if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f) ||
	    w->num_bytes > LAUNCH_ATTR_MAX_WINDOW_BYTES ||
	    w->missProp == CU_ACCESS_PROPERTY_PERSISTING)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static CUresult check_value(enum launch_attr_target target,
			    CUlaunchAttributeID id,
			    const CUlaunchAttributeValue *v)
{
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		return check_window(&v->accessPolicyWindow);
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		return v->syncPolicy >= CU_SYNC_POLICY_AUTO &&
		       v->syncPolicy <= CU_SYNC_POLICY_BLOCKING_SYNC
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		return v->memSyncDomainMap.default_ < SYNC_DOMAINS &&
		       v->memSyncDomainMap.remote < SYNC_DOMAINS
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
		return v->memSyncDomain <= CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		return v->clusterSchedulingPolicyPreference <=
		       CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		/* Clusters of one CTA are plain launches; no others yet. */
		return (unsigned long long)v->clusterDim.x * v->clusterDim.y *
		       v->clusterDim.z > 1 ? CUDA_ERROR_NOT_SUPPORTED
					   : CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return v->sharedMemCarveout <= 100 ||
		       v->sharedMemCarveout == CARVEOUT_DEFAULT
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
		return v->nvlinkUtilCentricScheduling <= 1
		       ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
		return v->programmaticEvent.event ? CUDA_SUCCESS
						  : CUDA_ERROR_INVALID_HANDLE;
	case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
		return v->launchCompletionEvent.event ? CUDA_SUCCESS
						      : CUDA_ERROR_INVALID_HANDLE;
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
		/* Graphs only, and device-side graph updates vcuda lacks. */
		if (target == LAUNCH_ATTR_LAUNCH ||
		    v->deviceUpdatableKernelNode.deviceUpdatable)
			return CUDA_ERROR_NOT_SUPPORTED;
		return CUDA_SUCCESS;
	default:
		return CUDA_SUCCESS;
	}
}

CUresult launch_attr_check(enum launch_attr_target target,
			   CUlaunchAttributeID id,
			   const CUlaunchAttributeValue *v)
{
	if ((unsigned int)id >= 32 || !(valid_ids[target] & BIT(id)))
		return CUDA_ERROR_INVALID_VALUE;
	return check_value(target, id, v);
}

void launch_attr_store(struct launch_attrs *a, CUlaunchAttributeID id,
		       const CUlaunchAttributeValue *v)
{
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		a->window = v->accessPolicyWindow;
		break;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		a->sync_policy = v->syncPolicy;
		break;
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		a->priority = v->priority;
		break;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		a->domain_map = v->memSyncDomainMap;
		break;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
		a->domain = v->memSyncDomain;
		break;
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		a->cooperative = v->cooperative;
		break;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		a->cluster[0] = v->clusterDim.x;
		a->cluster[1] = v->clusterDim.y;
		a->cluster[2] = v->clusterDim.z;
		break;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		a->cluster_sched = v->clusterSchedulingPolicyPreference;
		break;
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		a->carveout = v->sharedMemCarveout;
		break;
	default:
		return;
	}
	a->set |= BIT(id);
}

/*
 * Defaults as NVIDIA's driver reports them: the remote domain maps to
 * domain 1, and a stream's synchronization policy reads -1 until set.
 */
static void load_default(CUlaunchAttributeID id, CUlaunchAttributeValue *v)
{
	if (id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP)
		v->memSyncDomainMap.remote = 1;
	else if (id == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY)
		v->syncPolicy = (CUsynchronizationPolicy)-1;
}

void launch_attr_load(const struct launch_attrs *a, CUlaunchAttributeID id,
		      CUlaunchAttributeValue *v)
{
	memset(v, 0, sizeof(*v));
	if (!(a->set & BIT(id))) {
		load_default(id, v);
		return;
	}
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		v->accessPolicyWindow = a->window;
		break;
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		v->syncPolicy = a->sync_policy;
		break;
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
		v->priority = a->priority;
		break;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		v->memSyncDomainMap = a->domain_map;
		break;
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
		v->memSyncDomain = a->domain;
		break;
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		v->cooperative = a->cooperative;
		break;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		v->clusterDim.x = a->cluster[0];
		v->clusterDim.y = a->cluster[1];
		v->clusterDim.z = a->cluster[2];
		break;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		v->clusterSchedulingPolicyPreference = a->cluster_sched;
		break;
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		v->sharedMemCarveout = a->carveout;
		break;
	default:
		break;
	}
}

void launch_attrs_captured(struct launch_attrs *node,
			   const struct launch_attrs *stream, int priority)
{
	const unsigned int taken = BIT(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) |
				   BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP) |
				   BIT(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);

	node->window = stream->window;
	node->domain_map = stream->domain_map;
	node->domain = stream->domain;
	node->priority = priority;
	node->set |= (stream->set & taken) | BIT(CU_LAUNCH_ATTRIBUTE_PRIORITY);
}
