// SPDX-License-Identifier: MIT
/*
 * The runtime's generic graph node calls and conditional nodes:
 * cudaGraphAddNode turns cudaGraphNodeParams into the driver's
 * CUgraphNodeParams member by member (kernels by their host stub, copies
 * by their runtime description), and gives back what the driver fills in
 * (an allocation's address, a conditional node's body graphs).
 */
#include <stdint.h>
#include <string.h>

#include "register.h"

_Static_assert(sizeof(struct cudaGraphNodeParams) == sizeof(CUgraphNodeParams),
	       "the runtime's node parameters are the driver's size");
_Static_assert(sizeof(struct cudaMemAllocNodeParamsV2) ==
	       sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2),
	       "the runtime's allocation parameters are the driver's");

static cudaError_t kernel_member(const struct cudaKernelNodeParamsV2 *k,
				 CUDA_KERNEL_NODE_PARAMS_v3 *d)
{
	struct cudaKernelNodeParams v1 = {
		.func = k->func, .gridDim = k->gridDim, .blockDim = k->blockDim,
		.sharedMemBytes = k->sharedMemBytes,
		.kernelParams = k->kernelParams, .extra = k->extra,
	};

	_Static_assert(sizeof(*d) == sizeof(CUDA_KERNEL_NODE_PARAMS),
		       "v2 and v3 share a layout");
	return rt_kernel_node_params(&v1, (CUDA_KERNEL_NODE_PARAMS *)d);
}

static cudaError_t memcpy_member(const struct cudaMemcpyNodeParams *m,
				 CUDA_MEMCPY_NODE_PARAMS *d, CUcontext ctx)
{
	d->flags = m->flags;
	/* The driver checks its one reserved field; these are ours. */
	d->reserved = m->reserved[0] | m->reserved[1] | m->reserved[2];
	d->copyCtx = ctx;
	return rt_memcpy3d_params(&m->copyParams, &d->copyParams);
}

static void memset_member(const struct cudaMemsetParamsV2 *m,
			  CUDA_MEMSET_NODE_PARAMS_v2 *d, CUcontext ctx)
{
	*d = (CUDA_MEMSET_NODE_PARAMS_v2){
		.dst = (uintptr_t)m->dst, .pitch = m->pitch, .value = m->value,
		.elementSize = m->elementSize, .width = m->width,
		.height = m->height, .ctx = ctx,
	};
}

/* The driver's form of @p; members without runtime types are copied. */
static cudaError_t driver_params(const struct cudaGraphNodeParams *p,
				 CUgraphNodeParams *d, CUcontext ctx)
{
	memcpy(d, p, sizeof(*d));
	memset(&d->reserved1, 0, sizeof(d->reserved1));
	switch (p->type) {
	case cudaGraphNodeTypeKernel:
		return kernel_member(&p->kernel, &d->kernel);
	case cudaGraphNodeTypeMemcpy:
		return memcpy_member(&p->memcpy, &d->memcpy, ctx);
	case cudaGraphNodeTypeMemset:
		memset_member(&p->memset, &d->memset, ctx);
		return cudaSuccess;
	case cudaGraphNodeTypeConditional:
		d->conditional = (CUDA_CONDITIONAL_NODE_PARAMS){
			.handle = p->conditional.handle,
			.type = (CUgraphConditionalNodeType)p->conditional.type,
			.size = p->conditional.size, .ctx = ctx,
		};
		return cudaSuccess;
	default:
		memcpy(d->reserved1, p->reserved1, sizeof(d->reserved1));
		return cudaSuccess;
	}
}

/* What the driver gave back into @d, into the runtime's @p. */
static void give_back(struct cudaGraphNodeParams *p, const CUgraphNodeParams *d)
{
	if (p->type == cudaGraphNodeTypeMemAlloc)
		p->alloc.dptr = (void *)(uintptr_t)d->alloc.dptr;
	else if (p->type == cudaGraphNodeTypeConditional)
		p->conditional.phGraph_out =
			(cudaGraph_t *)d->conditional.phGraph_out;
}

CUDART_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *node,
					   cudaGraph_t graph,
					   const cudaGraphNode_t *deps,
					   const cudaGraphEdgeData *edges,
					   size_t ndeps,
					   struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams d;
	CUcontext ctx;
	cudaError_t err;

	RT_ENTER_CTX(&ctx);
	if (!p)
		return rt_return(cudaErrorInvalidValue);
	err = driver_params(p, &d, ctx);
	if (err == cudaSuccess)
		err = rt_error(cuGraphAddNode((CUgraphNode *)node, (CUgraph)graph,
					      (const CUgraphNode *)deps,
					      (const CUgraphEdgeData *)edges,
					      ndeps, &d));
	if (err == cudaSuccess)
		give_back(p, &d);
	return rt_return(err);
}

CUDART_EXPORT cudaError_t cudaGraphConditionalHandleCreate(
	cudaGraphConditionalHandle *out, cudaGraph_t graph,
	unsigned int default_value, unsigned int flags)
{
	CUcontext ctx;

	RT_ENTER_CTX(&ctx);
	return rt_return(rt_error(cuGraphConditionalHandleCreate(
		(CUgraphConditionalHandle *)out, (CUgraph)graph, ctx,
		default_value, flags)));
}

CUDART_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(
	cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *deps,
	const cudaGraphEdgeData *edges, size_t ndeps,
	enum cudaStreamCaptureMode mode)
{
	RT_CALL(cuStreamBeginCaptureToGraph((CUstream)stream, (CUgraph)graph,
					    (const CUgraphNode *)deps,
					    (const CUgraphEdgeData *)edges,
					    ndeps, (CUstreamCaptureMode)mode));
}
