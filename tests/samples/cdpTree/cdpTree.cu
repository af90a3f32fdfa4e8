// SPDX-License-Identifier: MIT
//
// Dynamic parallelism's ordering and visibility rules, each checked by
// the kernels themselves: a child sees what its parent wrote before the
// launch; launches into a block's NULL stream run in order; a stream
// waiting for an event runs after the work recorded before it; a device
// cudaMemcpyAsync runs in its stream's turn; a tail launch sees its whole
// parent grid and everything the grid launched (fire-and-forget too);
// nested launches build a tree whose every node reports.
#include <cstdio>

#include "../common/check.h"

// A device runtime call that fails counts as an ordering failure.
#define CHECK_DEV(call) \
	do { \
		if ((call) != cudaSuccess) \
			atomicAdd(&b->tail_bad, 1000); \
	} while (0)

struct Board {
	int visible_bad;	// children that did not see their parent's write
	int order_bad;		// NULL-stream launches that ran out of order
	int event_bad;		// waits that ran before what they waited for
	int copy_bad;		// device copies that ran out of turn
	int tail_bad;		// tail launches that ran too early
	int nodes;		// tree nodes that ran
	int seq[4][8];		// per block: the NULL-stream launches' turn
	int ran[4];		// per block: NULL-stream launches that ran
	int flag[4];		// per block: set by the stream-s1 child
	int src[4], dst[4];	// per block: copy source and destination
	int parent_done;	// parent threads that finished
	int ff_done;		// fire-and-forget children that ran
};

__global__ void check_seen(Board *b, int *cell, int want)
{
	if (*cell != want)
		atomicAdd(&b->visible_bad, 1);
}

__global__ void in_turn(Board *b, int blk, int k)
{
	// Runs after launches 0..k-1 of its block: they all counted.
	if (b->ran[blk] != k)
		atomicAdd(&b->order_bad, 1);
	b->seq[blk][k] = k;
	b->ran[blk] = k + 1;
}

__global__ void set_flag(Board *b, int blk) { b->flag[blk] = 1; b->src[blk] = 40 + blk; }

__global__ void after_event(Board *b, int blk)
{
	if (!b->flag[blk])
		atomicAdd(&b->event_bad, 1);
}

__global__ void after_copy(Board *b, int blk)
{
	if (b->dst[blk] != 40 + blk)
		atomicAdd(&b->copy_bad, 1);
}

__global__ void fire_and_forget(Board *b) { atomicAdd(&b->ff_done, 1); }

__global__ void tail(Board *b, int threads)
{
	// After every parent thread, and every grid the parent launched.
	if (b->parent_done != threads || b->ff_done != 4)
		atomicAdd(&b->tail_bad, 1);
	for (int blk = 0; blk < 4; blk++)
		if (b->ran[blk] != 8 || !b->flag[blk])
			atomicAdd(&b->tail_bad, 1);
}

__global__ void node(Board *b, int depth)
{
	if (threadIdx.x == 0)
		atomicAdd(&b->nodes, 1);
	if (depth < 3 && threadIdx.x < 2)
		node<<<2, 32>>>(b, depth + 1);
}

__global__ void parent(Board *b, int *cells)
{
	int blk = blockIdx.x, t = threadIdx.x;
	// Visibility: each thread writes, then launches a child that reads.
	cells[blk * blockDim.x + t] = 1000 + t;
	if (t % 8 == 0)
		check_seen<<<1, 1>>>(b, &cells[blk * blockDim.x + t], 1000 + t);
	if (t == 0) {
		// One thread's launches into the block's NULL stream, in order.
		for (int k = 0; k < 8; k++)
			in_turn<<<1, 1>>>(b, blk, k);
		// Two streams joined by an event; a copy after a kernel.
		cudaStream_t s1, s2;
		cudaEvent_t e;
		CHECK_DEV(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
		CHECK_DEV(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
		CHECK_DEV(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
		set_flag<<<1, 1, 0, s1>>>(b, blk);
		CHECK_DEV(cudaMemcpyAsync(&b->dst[blk], &b->src[blk], sizeof(int),
					  cudaMemcpyDeviceToDevice, s1));
		CHECK_DEV(cudaEventRecord(e, s1));
		CHECK_DEV(cudaStreamWaitEvent(s2, e, 0));
		after_event<<<1, 1, 0, s2>>>(b, blk);
		after_copy<<<1, 1, 0, s2>>>(b, blk);
		CHECK_DEV(cudaStreamDestroy(s1));
		CHECK_DEV(cudaStreamDestroy(s2));
		CHECK_DEV(cudaEventDestroy(e));
		fire_and_forget<<<1, 1, 0, cudaStreamFireAndForget>>>(b);
		if (blk == 0)
			tail<<<1, 1, 0, cudaStreamTailLaunch>>>(b, gridDim.x * blockDim.x);
		if (cudaGetLastError() != cudaSuccess)
			atomicAdd(&b->tail_bad, 100);
	}
	atomicAdd(&b->parent_done, 1);
}

int main()
{
	Board *b;
	int *cells;
	CHECK(cudaMallocManaged(&b, sizeof(Board)));
	CHECK(cudaMalloc(&cells, 4 * 32 * sizeof(int)));
	CHECK(cudaMemset(b, 0, sizeof(Board)));
	parent<<<4, 32>>>(b, cells);
	CHECK(cudaGetLastError());
	node<<<1, 32>>>(b, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	// 1 + 2*2 + 4*2*2... : each node of depth < 3 launches 2 grids of 2 CTAs.
	int want_nodes = 1 + 4 + 16 + 64;
	printf("[cdpTree] visibility %d, NULL-stream order %d, event %d, copy %d, "
	       "tail %d bad; %d of %d tree nodes ran\n", b->visible_bad,
	       b->order_bad, b->event_bad, b->copy_bad, b->tail_bad, b->nodes,
	       want_nodes);
	bool ok = !b->visible_bad && !b->order_bad && !b->event_bad &&
		  !b->copy_bad && !b->tail_bad && b->nodes == want_nodes;
	printf("Result = %s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
