/* SPDX-License-Identifier: MIT */
/*
 * User objects: a destructor and a reference count, whose references
 * the caller or graphs own (cuUserObject*, cuGraphRetainUserObject).
 */
#ifndef VCUDA_USER_OBJECT_H
#define VCUDA_USER_OBJECT_H

#include <stdbool.h>

#include <cuda.h>

struct CUgraph_st;

/* The references one graph owns. */
struct user_refs;

/* @to gets references of its own to what @from has (copies of a graph:
 * clones, executable graphs, child graph nodes). False: out of memory. */
bool user_refs_copy(struct user_refs **to, const struct user_refs *from);
/* Drops a graph's references (the graph goes). */
void user_refs_free(struct user_refs *refs);

/*
 * Keeps every object that @graph and its child graphs own alive until the
 * work a launch just put on @stream is done: references dropped in the
 * meantime (cuGraphExecDestroy) run no destructor before then. A graph
 * without user objects costs a walk of its nodes.
 */
CUresult user_refs_hold_for_launch(const struct CUgraph_st *graph,
				   CUstream stream);

#endif
