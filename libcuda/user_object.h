/* SPDX-License-Identifier: MIT */
/*
 * User objects: a destructor and a reference count, whose references
 * the caller or graphs own (cuUserObject*, cuGraphRetainUserObject).
 */
#ifndef VCUDA_USER_OBJECT_H
#define VCUDA_USER_OBJECT_H

#include <stdbool.h>

#include <cuda.h>

/* The references one graph owns. */
struct user_refs;

/* @to gets references of its own to what @from has (copies of a graph:
 * clones, executable graphs, child graph nodes). False: out of memory. */
bool user_refs_copy(struct user_refs **to, const struct user_refs *from);
/* Drops a graph's references (the graph goes). */
void user_refs_free(struct user_refs *refs);

/*
 * What cuGraphRetainUserObject and cuGraphReleaseUserObject do to the
 * references a graph owns (@flags: CU_GRAPH_USER_OBJECT_MOVE or 0).
 */
CUresult user_refs_retain(struct user_refs **refs, CUuserObject o,
			  unsigned int count, unsigned int flags);
CUresult user_refs_release(struct user_refs *refs, CUuserObject o,
			   unsigned int count);
/* Whether @refs holds any reference. */
bool user_refs_any(const struct user_refs *refs);
/* @hold gets one reference more to each object of @from (false: out of
 * memory; @hold keeps what it got). */
bool user_refs_hold(struct user_refs **hold, const struct user_refs *from);

#endif
