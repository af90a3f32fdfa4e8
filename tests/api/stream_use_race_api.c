// SPDX-License-Identifier: MIT
/*
 * stream_use_race_api: a stream destroyed by one thread while another
 * thread's call is still using it. CUDA lets any thread destroy a stream
 * with work pending; a call that began on the stream before must finish
 * as if the stream were still there, on a stream whose memory is not
 * freed under it.
 *
 * Each round makes the race certain rather than likely: a host function
 * holds the stream closed (a gate), the user thread's call starts and, if
 * it is of the kind that waits for the stream (a copy from pageable
 * memory, a graph whose first node is one), blocks inside; the destroying
 * thread starts, and blocks too (destruction waits for the stream's
 * work). The gate opens: the destruction finishes while the call is still
 * at work, then the call goes on with the stream (a graph's later nodes,
 * a copy's end). Calls that do not wait (stream-ordered allocation and
 * free, capture begin and end) run while the destruction is waiting.
 *
 * Freed memory is only seen as such when it is overwritten: run it with
 * GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165
 * (tests/vm/guest-tests.sh does). Its own check, no recording: exits 0
 * on success, 1 on failure. An argument (copy2d, graph, alloc, capture)
 * runs that kind only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>

#define ROUNDS 8		/* per kind */
#define PAGEABLE (1u << 20)	/* bytes the CPU copies, after the gate */
#define ROW 1024		/* the 2-D copy's row */

static CUcontext ctx;
static CUdeviceptr buf;
static unsigned char *pageable;
static atomic_int failures;

#define EXPECT(call, want)                                                   \
	do {                                                                 \
		int got_ = (int)(call);                                      \
		if (got_ != (int)(want)) {                                   \
			printf("FAIL: line %d: %s = %d, want %d\n", __LINE__, \
			       #call, got_, (int)(want));                    \
			atomic_fetch_add(&failures, 1);                      \
		}                                                            \
	} while (0)

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* One round: the stream, its gate, and what the threads did. */
struct round {
	CUstream stream;
	atomic_int gate_open;
	atomic_int entered;		/* the user thread is at its call */
	unsigned char value;		/* what this round writes */
	CUgraphExec exec;		/* the graph kind's */
};

static void CUDA_CB wait_for_gate(void *arg)
{
	struct round *r = arg;

	while (!atomic_load(&r->gate_open))
		nap_ms(1);
}

/* A pageable-to-device 2-D copy of PAGEABLE bytes in rows of ROW. */
static CUDA_MEMCPY2D copy_2d(void)
{
	return (CUDA_MEMCPY2D){
		.srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = pageable,
		.srcPitch = ROW,
		.dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = buf,
		.dstPitch = ROW,
		.WidthInBytes = ROW, .Height = PAGEABLE / ROW,
	};
}

static void *user_copy_2d(void *arg)
{
	struct round *r = arg;
	CUDA_MEMCPY2D p = copy_2d();

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	atomic_store(&r->entered, 1);
	EXPECT(cuMemcpy2DAsync(&p, r->stream), CUDA_SUCCESS);
	return NULL;
}

static void *user_graph(void *arg)
{
	struct round *r = arg;

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	atomic_store(&r->entered, 1);
	EXPECT(cuGraphLaunch(r->exec, r->stream), CUDA_SUCCESS);
	return NULL;
}

static void *user_alloc_free(void *arg)
{
	struct round *r = arg;
	CUdeviceptr p = 0, plain = 0;

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuMemAlloc(&plain, 256), CUDA_SUCCESS);
	atomic_store(&r->entered, 1);
	EXPECT(cuMemAllocAsync(&p, 4096, r->stream), CUDA_SUCCESS);
	EXPECT(cuMemsetD8Async(p, r->value, 4096, r->stream), CUDA_SUCCESS);
	EXPECT(cuMemFreeAsync(p, r->stream), CUDA_SUCCESS);
	/* cuMemAlloc memory: the free waits for the stream (the gate). */
	EXPECT(cuMemFreeAsync(plain, r->stream), CUDA_SUCCESS);
	return NULL;
}

static void *user_capture(void *arg)
{
	struct round *r = arg;
	CUstreamCaptureStatus status;
	CUgraph graph = NULL;

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	atomic_store(&r->entered, 1);
	EXPECT(cuStreamBeginCapture(r->stream, CU_STREAM_CAPTURE_MODE_RELAXED),
	       CUDA_SUCCESS);
	EXPECT(cuStreamIsCapturing(r->stream, &status), CUDA_SUCCESS);
	EXPECT(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
	EXPECT(cuMemsetD8Async(buf, r->value, 16, r->stream), CUDA_SUCCESS);
	EXPECT(cuStreamEndCapture(r->stream, &graph), CUDA_SUCCESS);
	if (graph)
		EXPECT(cuGraphDestroy(graph), CUDA_SUCCESS);
	return NULL;
}

static void *destroyer(void *arg)
{
	struct round *r = arg;

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuStreamDestroy(r->stream), CUDA_SUCCESS);
	return NULL;
}

/* A graph: the pageable copy, then a set of its first byte to @value. */
static CUgraphExec make_exec(unsigned char value)
{
	CUDA_MEMCPY2D p2 = copy_2d();
	CUDA_MEMCPY3D p = {
		.srcMemoryType = p2.srcMemoryType, .srcHost = p2.srcHost,
		.srcPitch = ROW, .srcHeight = PAGEABLE / ROW,
		.dstMemoryType = p2.dstMemoryType, .dstDevice = p2.dstDevice,
		.dstPitch = ROW, .dstHeight = PAGEABLE / ROW,
		.WidthInBytes = ROW, .Height = PAGEABLE / ROW, .Depth = 1,
	};
	CUDA_MEMSET_NODE_PARAMS m = {
		.dst = buf, .elementSize = 1, .value = value,
		.width = 1, .height = 1, .pitch = 1,
	};
	CUgraphNode copy, set;
	CUgraphExec exec = NULL;
	CUgraph g;

	EXPECT(cuGraphCreate(&g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphAddMemcpyNode(&copy, g, NULL, 0, &p, ctx), CUDA_SUCCESS);
	EXPECT(cuGraphAddMemsetNode(&set, g, &copy, 1, &m, ctx), CUDA_SUCCESS);
	EXPECT(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphDestroy(g), CUDA_SUCCESS);
	return exec;
}

/*
 * One round of @user racing a destruction: the user's call starts while
 * the gate is closed, the destruction starts, then the gate opens.
 */
static void race(void *(*user)(void *), unsigned char value, bool graph)
{
	struct round r = { .value = value };
	pthread_t u, d;

	memset(pageable, value, PAGEABLE);
	if (graph)
		r.exec = make_exec(value);
	EXPECT(cuStreamCreate(&r.stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
	EXPECT(cuLaunchHostFunc(r.stream, wait_for_gate, &r), CUDA_SUCCESS);
	pthread_create(&u, NULL, user, &r);
	while (!atomic_load(&r.entered))
		nap_ms(1);
	nap_ms(20);		/* the call is inside, waiting or done */
	pthread_create(&d, NULL, destroyer, &r);
	nap_ms(20);		/* the destruction waits for the gate */
	atomic_store(&r.gate_open, 1);
	pthread_join(d, NULL);
	pthread_join(u, NULL);
	EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
	if (r.exec)
		EXPECT(cuGraphExecDestroy(r.exec), CUDA_SUCCESS);
}

/* The copy's bytes reached the device: the first and the last. */
static void check_copied(unsigned char value)
{
	unsigned char first = 0, last = 0;

	EXPECT(cuMemcpyDtoH(&first, buf, 1), CUDA_SUCCESS);
	EXPECT(cuMemcpyDtoH(&last, buf + PAGEABLE - 1, 1), CUDA_SUCCESS);
	EXPECT(first, value);
	EXPECT(last, value);
}

/* Whether to run @kind: all kinds, or the one named on the command line. */
static bool wanted(int argc, char **argv, const char *kind)
{
	return argc < 2 || !strcmp(argv[1], kind);
}

int main(int argc, char **argv)
{
	CUdevice dev;

	setvbuf(stdout, NULL, _IONBF, 0);
	pageable = malloc(PAGEABLE);
	if (!pageable)
		return 1;
	EXPECT(cuInit(0), CUDA_SUCCESS);
	EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	EXPECT(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuMemAlloc(&buf, PAGEABLE), CUDA_SUCCESS);
	if (atomic_load(&failures))
		return 1;
	for (int i = 0; i < ROUNDS; i++) {
		if (wanted(argc, argv, "copy2d")) {
			race(user_copy_2d, (unsigned char)(10 + i), false);
			check_copied((unsigned char)(10 + i));
		}
		if (wanted(argc, argv, "graph")) {
			race(user_graph, (unsigned char)(40 + i), true);
			check_copied((unsigned char)(40 + i));
		}
		if (wanted(argc, argv, "alloc"))
			race(user_alloc_free, (unsigned char)(70 + i), false);
		if (wanted(argc, argv, "capture"))
			race(user_capture, (unsigned char)(100 + i), false);
	}
	EXPECT(cuMemFree(buf), CUDA_SUCCESS);
	free(pageable);
	printf("%s: %d rounds of each kind\n",
	       atomic_load(&failures) ? "FAIL" : "ok", ROUNDS);
	return atomic_load(&failures) ? 1 : 0;
}
