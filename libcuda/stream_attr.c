// SPDX-License-Identifier: MIT
/*
 * Stream attributes (cuStreamSetAttribute, cuStreamGetAttribute,
 * cuStreamCopyAttributes): the access policy window, synchronization
 * policy, priority and memory synchronization domains of a stream.
 * Priority is the stream's own (cuStreamGetPriority reports what was
 * set; the stream's next work goes to queues of that priority); the others
 * are hints kept and reported (launch_attr.h). Captured launches take the
 * stream's values to their kernel nodes (capture.c).
 */
#include "api.h"
#include "context.h"
#include "launch_attr.h"
#include "stream.h"

/* The stream @handle names, held (stream_put when done). */
static CUresult stream_of(CUstream handle, struct CUstream_st **out)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res == CUDA_SUCCESS)
		*out = stream_hold(ctx, handle);
	return res;
}

CUDA_EXPORT CUresult cuStreamSetAttribute(CUstream handle, CUstreamAttrID id,
					  const CUstreamAttrValue *v)
{
	struct CUstream_st *s;
	CUresult res = stream_of(handle, &s);

	if (res != CUDA_SUCCESS)
		return res;
	res = v ? launch_attr_check(LAUNCH_ATTR_STREAM, (CUlaunchAttributeID)id, v)
		: CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS) {
		pthread_mutex_lock(&s->lock);
		if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY)
			s->priority = stream_clamp_priority(v->priority);
		else
			launch_attr_store(&s->attrs, (CUlaunchAttributeID)id, v);
		pthread_mutex_unlock(&s->lock);
	}
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuStreamGetAttribute(CUstream handle, CUstreamAttrID id,
					  CUstreamAttrValue *v)
{
	struct CUstream_st *s;
	CUresult res = stream_of(handle, &s);
	CUlaunchAttributeValue any = { .priority = 0 };

	if (res != CUDA_SUCCESS)
		return res;
	/* Which ids a stream has; a default value is valid for each. */
	if (id == CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY)
		any.syncPolicy = CU_SYNC_POLICY_AUTO;
	res = v ? launch_attr_check(LAUNCH_ATTR_STREAM, (CUlaunchAttributeID)id,
				    &any)
		: CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS) {
		pthread_mutex_lock(&s->lock);
		launch_attr_load(&s->attrs, (CUlaunchAttributeID)id, v);
		if (id == CU_LAUNCH_ATTRIBUTE_PRIORITY)
			v->priority = s->priority;
		pthread_mutex_unlock(&s->lock);
	}
	stream_put(s);
	return res;
}

CUDA_EXPORT CUresult cuStreamCopyAttributes(CUstream dst_handle,
					    CUstream src_handle)
{
	struct CUstream_st *dst, *src;
	struct launch_attrs attrs;
	int priority;
	CUresult res = stream_of(dst_handle, &dst);

	if (res != CUDA_SUCCESS)
		return res;
	res = stream_of(src_handle, &src);
	if (res != CUDA_SUCCESS) {
		stream_put(dst);
		return res;
	}
	pthread_mutex_lock(&src->lock);
	attrs = src->attrs;
	priority = src->priority;
	pthread_mutex_unlock(&src->lock);
	pthread_mutex_lock(&dst->lock);
	dst->attrs = attrs;
	dst->priority = priority;
	pthread_mutex_unlock(&dst->lock);
	stream_put(src);
	stream_put(dst);
	return CUDA_SUCCESS;
}
