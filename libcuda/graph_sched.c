// SPDX-License-Identifier: MIT
/*
 * Lanes for an executable graph (see graph_sched.h).
 *
 * Nodes are taken in topological order. A node continues the lane of one
 * of its dependencies when that dependency is the last node of its lane
 * (a chain stays on one stream, with nothing added); otherwise it opens a
 * new lane, up to MAX_LANES, after which it joins the lane that has been
 * idle longest. Each lane runs its nodes in topological order, and a
 * dependency on a node of another lane is an event that node records and
 * this lane waits for; since every wait is on an earlier node, the lanes
 * cannot wait for each other in a circle. A linear graph is one lane and
 * runs on the launching stream exactly as before.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "graph.h"
#include "graph_sched.h"

/* Streams of one graph at the most: enough to fill the compute engine
 * and both copy engines, few enough that wide graphs stay cheap. */
#define MAX_LANES 8

struct graph_sched {
	struct CUgraphNode_st *const *order;
	size_t count;
	unsigned int *lane;		/* per position in @order */
	size_t *dep_first;		/* count + 1 offsets into @dep_pos */
	size_t *dep_pos;		/* positions of each node's deps */
	CUevent *done;			/* per position; NULL: not waited on */
	unsigned int nlanes;
	CUstream streams[MAX_LANES];	/* [0] unused: the launching stream */
	CUevent lane_end[MAX_LANES];
	CUevent start;
};

struct node_pos {
	const struct CUgraphNode_st *node;
	size_t pos;
};

static int by_node(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct node_pos *)a)->node;
	uintptr_t y = (uintptr_t)((const struct node_pos *)b)->node;

	return x < y ? -1 : x > y;
}

static size_t position_of(const struct node_pos *index, size_t count,
			  const struct CUgraphNode_st *node)
{
	struct node_pos key = { node, 0 };
	const struct node_pos *hit = bsearch(&key, index, count, sizeof(key),
					     by_node);

	return hit ? hit->pos : SIZE_MAX;
}

/* Flattens every node's dependencies into positions. */
static int index_deps(struct graph_sched *s)
{
	struct node_pos *index = malloc((s->count + 1) * sizeof(*index));
	size_t total = 0;

	if (!index)
		return -1;
	for (size_t i = 0; i < s->count; i++) {
		index[i] = (struct node_pos){ s->order[i], i };
		total += s->order[i]->ndeps;
	}
	qsort(index, s->count, sizeof(*index), by_node);
	s->dep_pos = malloc((total + 1) * sizeof(*s->dep_pos));
	if (!s->dep_pos) {
		free(index);
		return -1;
	}
	total = 0;
	for (size_t i = 0; i < s->count; i++) {
		s->dep_first[i] = total;
		for (size_t d = 0; d < s->order[i]->ndeps; d++) {
			size_t pos = position_of(index, s->count,
						 s->order[i]->deps[d]);

			if (pos == SIZE_MAX)	/* not of this graph */
				break;
			s->dep_pos[total++] = pos;
		}
	}
	s->dep_first[s->count] = total;
	free(index);
	return 0;
}

/* The lane of the node at @pos, given the last node of each lane. */
static unsigned int pick_lane(struct graph_sched *s, size_t pos,
			      size_t *tail)
{
	unsigned int best = MAX_LANES, idle = 0;

	for (size_t d = s->dep_first[pos]; d < s->dep_first[pos + 1]; d++) {
		unsigned int l = s->lane[s->dep_pos[d]];

		if (tail[l] == s->dep_pos[d] && l < best)
			best = l;
	}
	if (best < MAX_LANES)
		return best;
	if (s->nlanes < MAX_LANES)
		return s->nlanes++;
	for (unsigned int l = 1; l < s->nlanes; l++)
		if (tail[l] < tail[idle])
			idle = l;
	return idle;
}

/* Assigns lanes; marks the nodes another lane waits for. */
static void plan(struct graph_sched *s, bool *waited_on)
{
	size_t tail[MAX_LANES];

	for (size_t i = 0; i < s->count; i++) {
		unsigned int l = pick_lane(s, i, tail);

		s->lane[i] = l;
		tail[l] = i;
		for (size_t d = s->dep_first[i]; d < s->dep_first[i + 1]; d++)
			if (s->lane[s->dep_pos[d]] != l)
				waited_on[s->dep_pos[d]] = true;
	}
}

static CUresult create_sync_objects(struct graph_sched *s,
				    const bool *waited_on)
{
	const unsigned int flags = CU_EVENT_DISABLE_TIMING;
	CUresult res = cuEventCreate(&s->start, flags);

	for (unsigned int l = 1; l < s->nlanes && res == CUDA_SUCCESS; l++) {
		res = cuStreamCreate(&s->streams[l], CU_STREAM_NON_BLOCKING);
		if (res == CUDA_SUCCESS)
			res = cuEventCreate(&s->lane_end[l], flags);
	}
	for (size_t i = 0; i < s->count && res == CUDA_SUCCESS; i++)
		if (waited_on[i])
			res = cuEventCreate(&s->done[i], flags);
	return res;
}

struct graph_sched *graph_sched_create(struct CUgraphNode_st *const *order,
				       size_t count)
{
	struct graph_sched *s = calloc(1, sizeof(*s));
	bool *waited_on = calloc(count + 1, sizeof(*waited_on));

	if (!s || !waited_on)
		goto fail;
	s->order = order;
	s->count = count;
	s->lane = calloc(count + 1, sizeof(*s->lane));
	s->dep_first = calloc(count + 1, sizeof(*s->dep_first));
	s->done = calloc(count + 1, sizeof(*s->done));
	if (!s->lane || !s->dep_first || !s->done || index_deps(s))
		goto fail;
	plan(s, waited_on);
	if (s->nlanes > 1 && create_sync_objects(s, waited_on) != CUDA_SUCCESS)
		goto fail;
	free(waited_on);
	return s;
fail:
	free(waited_on);
	graph_sched_destroy(s);
	return NULL;
}

void graph_sched_destroy(struct graph_sched *s)
{
	if (!s)
		return;
	/* Work still queued keeps running: CUDA releases them after it. */
	for (unsigned int l = 1; l < s->nlanes; l++) {
		if (s->streams[l])
			cuStreamDestroy(s->streams[l]);
		if (s->lane_end[l])
			cuEventDestroy(s->lane_end[l]);
	}
	for (size_t i = 0; s->done && i < s->count; i++)
		if (s->done[i])
			cuEventDestroy(s->done[i]);
	if (s->start)
		cuEventDestroy(s->start);
	free(s->lane);
	free(s->dep_first);
	free(s->dep_pos);
	free(s->done);
	free(s);
}

/*
 * Runs the node at @pos on its lane (lane 0: @launch, the launching
 * stream, which is the launch's, not the schedule's), after its
 * dependencies elsewhere.
 */
static CUresult run_at(const struct graph_sched *s, size_t pos,
		       CUstream launch, graph_run_fn run)
{
	CUstream stream = s->lane[pos] ? s->streams[s->lane[pos]] : launch;
	CUresult res = CUDA_SUCCESS;

	for (size_t d = s->dep_first[pos];
	     d < s->dep_first[pos + 1] && res == CUDA_SUCCESS; d++) {
		size_t dep = s->dep_pos[d];

		if (s->lane[dep] != s->lane[pos])
			res = cuStreamWaitEvent(stream, s->done[dep], 0);
	}
	if (res == CUDA_SUCCESS)
		res = run(s->order[pos], stream);

	if (res == CUDA_SUCCESS && s->done[pos])
		res = cuEventRecord(s->done[pos], stream);
	return res;
}

CUresult graph_sched_run(const struct graph_sched *s, CUstream stream,
			 graph_run_fn run)
{
	CUresult res = CUDA_SUCCESS, joined;

	if (s->nlanes > 1)
		res = cuEventRecord(s->start, stream);
	for (unsigned int l = 1; l < s->nlanes && res == CUDA_SUCCESS; l++)
		res = cuStreamWaitEvent(s->streams[l], s->start, 0);
	for (size_t i = 0; i < s->count && res == CUDA_SUCCESS; i++)
		res = run_at(s, i, stream, run);
	/* The launching stream's later work waits for every lane, even
	 * after a failure part way: nothing may outlive the launch. */
	for (unsigned int l = 1; l < s->nlanes; l++) {
		joined = cuEventRecord(s->lane_end[l], s->streams[l]);
		if (joined == CUDA_SUCCESS)
			joined = cuStreamWaitEvent(stream, s->lane_end[l], 0);
		if (res == CUDA_SUCCESS)
			res = joined;
	}
	return res;
}
