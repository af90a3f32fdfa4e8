/* SPDX-License-Identifier: MIT */
/*
 * User objects owned by graphs (graph_user_object.c).
 */
#ifndef VCUDA_GRAPH_USER_OBJECT_H
#define VCUDA_GRAPH_USER_OBJECT_H

#include <cuda.h>

struct CUgraph_st;

/*
 * Keeps every object that @graph and its child graphs own alive until the
 * work a launch just put on @stream is done: references dropped in the
 * meantime (cuGraphExecDestroy) run no destructor before then. A graph
 * without user objects costs a walk of its nodes.
 */
CUresult graph_hold_user_objects(const struct CUgraph_st *graph,
				 CUstream stream);

#endif
