// SPDX-License-Identifier: MIT
/*
 * User objects owned by graphs: cuGraphRetainUserObject and
 * cuGraphReleaseUserObject, and the references a launch holds until its
 * work is done. The objects and their references are user_object.c's.
 */
#include "api.h"
#include "graph.h"
#include "graph_user_object.h"
#include "user_object.h"

CUDA_EXPORT CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject o,
					     unsigned int count,
					     unsigned int flags)
{
	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	return user_refs_retain(&graph->user_refs, o, count, flags);
}

CUDA_EXPORT CUresult cuGraphReleaseUserObject(CUgraph graph, CUuserObject o,
					      unsigned int count)
{
	if (!graph)
		return CUDA_ERROR_INVALID_VALUE;
	return user_refs_release(graph->user_refs, o, count);
}

/* Adds one reference of @hold to each object of @g and its children. */
static bool hold_graph(const struct CUgraph_st *g, struct user_refs **hold)
{
	if (!user_refs_hold(hold, g->user_refs))
		return false;
	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH &&
		    !hold_graph(g->nodes[i]->u.child, hold))
			return false;
	return true;
}

static void release_hold(void *hold)
{
	user_refs_free(hold);
}

static bool owns_objects(const struct CUgraph_st *g)
{
	if (user_refs_any(g->user_refs))
		return true;
	for (size_t i = 0; i < g->count; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH &&
		    owns_objects(g->nodes[i]->u.child))
			return true;
	return false;
}

CUresult graph_hold_user_objects(const struct CUgraph_st *graph,
				 CUstream stream)
{
	struct user_refs *hold = NULL;
	CUresult res;

	if (!owns_objects(graph))
		return CUDA_SUCCESS;
	if (!hold_graph(graph, &hold)) {
		user_refs_free(hold);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* Runs on a host-call thread once the launch's work is done. */
	res = cuLaunchHostFunc(stream, release_hold, hold);
	if (res != CUDA_SUCCESS)
		user_refs_free(hold);
	return res;
}
