// SPDX-License-Identifier: MIT
/*
 * Runtime user objects over the driver's: cudaUserObject_t is the
 * driver's handle, and cudaUserObjectNoDestructorSync and
 * cudaGraphUserObjectMove share the driver's values.
 */
#include "register.h"

CUDART_EXPORT cudaError_t cudaUserObjectCreate(cudaUserObject_t *object,
					       void *ptr, cudaHostFn_t destroy,
					       unsigned int initial_refs,
					       unsigned int flags)
{
	RT_CALL(cuUserObjectCreate((CUuserObject *)object, ptr,
				   (CUhostFn)destroy, initial_refs, flags));
}

CUDART_EXPORT cudaError_t cudaUserObjectRetain(cudaUserObject_t object,
					       unsigned int count)
{
	RT_CALL(cuUserObjectRetain((CUuserObject)object, count));
}

CUDART_EXPORT cudaError_t cudaUserObjectRelease(cudaUserObject_t object,
						unsigned int count)
{
	RT_CALL(cuUserObjectRelease((CUuserObject)object, count));
}

CUDART_EXPORT cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph,
						    cudaUserObject_t object,
						    unsigned int count,
						    unsigned int flags)
{
	RT_CALL(cuGraphRetainUserObject((CUgraph)graph, (CUuserObject)object,
					count, flags));
}

CUDART_EXPORT cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph,
						     cudaUserObject_t object,
						     unsigned int count)
{
	RT_CALL(cuGraphReleaseUserObject((CUgraph)graph, (CUuserObject)object,
					 count));
}
