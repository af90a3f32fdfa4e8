// SPDX-License-Identifier: MIT
/*
 * user_object_api: user objects as CUDA documents them (cuUserObjectCreate
 * and the programming guide's "CUDA User Objects"): the destructor runs
 * once the last reference goes, on an internal thread, never in the call
 * that dropped it; graphs own references, and so do their clones, child
 * graph nodes and executable graphs; a launch keeps its objects alive
 * until its work is done; CU_GRAPH_USER_OBJECT_MOVE moves the caller's
 * references; CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is the required flag.
 * Its own check (destructors run asynchronously and no recording can pin
 * their timing down): exits 0 on success, 1 on failure.
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

static int failures;

#define EXPECT(call, want)                                                   \
	do {                                                                 \
		int got_ = (int)(call);                                      \
		if (got_ != (int)(want)) {                                   \
			printf("FAIL: line %d: %s = %d, want %d\n", __LINE__, \
			       #call, got_, (int)(want));                    \
			failures++;                                          \
		}                                                            \
	} while (0)

/* What one object's destructor saw. */
struct tracked {
	atomic_int runs;
	pthread_t thread;
};

static pthread_t main_thread;

static void destroy(void *p)
{
	struct tracked *t = p;
	t->thread = pthread_self();
	atomic_fetch_add(&t->runs, 1);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	nanosleep(&ts, NULL);
}

/* Waits up to 5 s for @t's destructor; it must run once, off this thread. */
static void expect_destroyed(const char *what, struct tracked *t)
{
	for (int i = 0; i < 500 && !atomic_load(&t->runs); i++)
		sleep_ms(10);
	if (atomic_load(&t->runs) != 1) {
		printf("FAIL: %s: destructor ran %d times\n", what,
		       atomic_load(&t->runs));
		failures++;
	} else if (pthread_equal(t->thread, main_thread)) {
		printf("FAIL: %s: destructor ran in the API call\n", what);
		failures++;
	}
}

/* A destructor queued by mistake runs within this time. */
static void expect_alive(const char *what, struct tracked *t)
{
	sleep_ms(100);
	if (atomic_load(&t->runs)) {
		printf("FAIL: %s: destroyed while referenced\n", what);
		failures++;
	}
}

static CUuserObject make(struct tracked *t, unsigned int refs)
{
	CUuserObject o = NULL;
	EXPECT(cuUserObjectCreate(&o, t, destroy, refs,
				  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
	       CUDA_SUCCESS);
	return o;
}

static void bad_arguments(void)
{
	static struct tracked t;
	CUuserObject o = NULL;
	CUgraph g;

	EXPECT(cuUserObjectCreate(&o, &t, destroy, 1, 0),
	       CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuUserObjectCreate(&o, &t, destroy, 0,
				  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
	       CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuUserObjectCreate(&o, &t, NULL, 1,
				  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
	       CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuUserObjectCreate(NULL, &t, destroy, 1,
				  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
	       CUDA_ERROR_INVALID_VALUE);
	o = make(&t, 1);
	EXPECT(cuUserObjectRetain(o, 0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuUserObjectRetain(o, (unsigned int)INT_MAX + 1),
	       CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuUserObjectRelease(o, 0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphCreate(&g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphRetainUserObject(g, o, 1, 2), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphRetainUserObject(g, o, 0, 0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphReleaseUserObject(g, o, 1), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphDestroy(g), CUDA_SUCCESS);
	EXPECT(cuUserObjectRelease(o, 1), CUDA_SUCCESS);
	expect_destroyed("bad arguments", &t);
}

static void caller_references(void)
{
	static struct tracked t;
	CUuserObject o = make(&t, 1);

	EXPECT(cuUserObjectRetain(o, 2), CUDA_SUCCESS);
	EXPECT(cuUserObjectRelease(o, 2), CUDA_SUCCESS);
	expect_alive("one reference left", &t);
	EXPECT(cuUserObjectRelease(o, 1), CUDA_SUCCESS);
	expect_destroyed("the caller's last reference", &t);
}

/* A graph's own references: new ones, moved ones, released ones. */
static void graph_references(void)
{
	static struct tracked t;
	CUuserObject o = make(&t, 2);
	CUgraph g;

	EXPECT(cuGraphCreate(&g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE),
	       CUDA_SUCCESS);
	EXPECT(cuGraphRetainUserObject(g, o, 2, 0), CUDA_SUCCESS);
	/* the graph owns 3, the caller 1 */
	EXPECT(cuGraphReleaseUserObject(g, o, 4), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphReleaseUserObject(g, o, 2), CUDA_SUCCESS);
	EXPECT(cuUserObjectRelease(o, 1), CUDA_SUCCESS);
	expect_alive("the graph's reference", &t);
	EXPECT(cuGraphReleaseUserObject(g, o, 1), CUDA_SUCCESS);
	expect_destroyed("the graph's last reference", &t);
	EXPECT(cuGraphDestroy(g), CUDA_SUCCESS);
}

/* Clones and child graph nodes own references of their own. */
static void copies(void)
{
	static struct tracked t;
	CUuserObject o = make(&t, 1);
	CUgraph g, clone, parent;
	CUgraphNode child;

	EXPECT(cuGraphCreate(&g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE),
	       CUDA_SUCCESS);
	EXPECT(cuGraphClone(&clone, g), CUDA_SUCCESS);
	EXPECT(cuGraphCreate(&parent, 0), CUDA_SUCCESS);
	EXPECT(cuGraphAddChildGraphNode(&child, parent, NULL, 0, g),
	       CUDA_SUCCESS);
	EXPECT(cuGraphDestroy(g), CUDA_SUCCESS);
	EXPECT(cuGraphDestroy(clone), CUDA_SUCCESS);
	expect_alive("held by a child graph node", &t);
	EXPECT(cuGraphDestroy(parent), CUDA_SUCCESS);
	expect_destroyed("the last copy", &t);
}

/* A host node that waits until the test lets it finish. */
static atomic_int gate_open;

static void host_gate(void *unused)
{
	(void)unused;
	while (!atomic_load(&gate_open))
		sleep_ms(1);
}

/* The guide's example: the executable graph outlives the graph, and a
 * launch outlives the executable graph. */
static void launches(void)
{
	static struct tracked t;
	CUuserObject o = make(&t, 1);
	CUgraph g;
	CUgraphNode host;
	CUgraphExec exec;
	CUstream s;
	CUDA_HOST_NODE_PARAMS hp = { host_gate, NULL };

	EXPECT(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
	EXPECT(cuGraphCreate(&g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphAddHostNode(&host, g, NULL, 0, &hp), CUDA_SUCCESS);
	EXPECT(cuGraphRetainUserObject(g, o, 1, CU_GRAPH_USER_OBJECT_MOVE),
	       CUDA_SUCCESS);
	EXPECT(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
	EXPECT(cuGraphDestroy(g), CUDA_SUCCESS);
	expect_alive("held by the executable graph", &t);
	EXPECT(cuGraphLaunch(exec, s), CUDA_SUCCESS);
	EXPECT(cuGraphExecDestroy(exec), CUDA_SUCCESS);
	expect_alive("held by a running launch", &t);
	atomic_store(&gate_open, 1);
	EXPECT(cuStreamSynchronize(s), CUDA_SUCCESS);
	expect_destroyed("after the launch", &t);
	EXPECT(cuStreamDestroy(s), CUDA_SUCCESS);
}

static void runtime_forms(void)
{
	static struct tracked t;
	cudaUserObject_t o;
	cudaGraph_t g;

	EXPECT(cudaUserObjectCreate(&o, &t, destroy, 1,
				    cudaUserObjectNoDestructorSync),
	       cudaSuccess);
	EXPECT(cudaUserObjectRetain(o, 1), cudaSuccess);
	EXPECT(cudaGraphCreate(&g, 0), cudaSuccess);
	EXPECT(cudaGraphRetainUserObject(g, o, 2, cudaGraphUserObjectMove),
	       cudaSuccess);
	EXPECT(cudaGraphReleaseUserObject(g, o, 1), cudaSuccess);
	EXPECT(cudaGraphDestroy(g), cudaSuccess);
	expect_destroyed("runtime API", &t);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;

	main_thread = pthread_self();
	EXPECT(cuInit(0), CUDA_SUCCESS);
	EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	EXPECT(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	if (failures)
		return 1;
	bad_arguments();
	caller_references();
	graph_references();
	copies();
	launches();
	runtime_forms();
	printf("%s\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
