/* SPDX-License-Identifier: MIT */
/*
 * The schedule of an executable graph: which stream ("lane") each node
 * runs on, and the events that carry dependencies between lanes, so that
 * independent branches of a graph run side by side on the device's
 * queues instead of one after the other.
 */
#ifndef VCUDA_GRAPH_SCHED_H
#define VCUDA_GRAPH_SCHED_H

#include <stddef.h>

#include <cuda.h>

struct CUgraphNode_st;
struct graph_sched;

/* Node runner: runs @node on @stream (graph_exec.c). */
typedef CUresult (*graph_run_fn)(const struct CUgraphNode_st *node,
				 CUstream stream);

/*
 * Plans lanes for @count nodes in topological @order. Returns NULL when
 * out of memory; a plan of one lane creates no streams or events.
 */
struct graph_sched *graph_sched_create(struct CUgraphNode_st *const *order,
				       size_t count);
void graph_sched_destroy(struct graph_sched *s);

/*
 * Runs the nodes, lane 0 being @stream and the others internal streams
 * that start after @stream's earlier work and that @stream's later work
 * waits for.
 */
CUresult graph_sched_run(const struct graph_sched *s, CUstream stream,
			 graph_run_fn run);

#endif
