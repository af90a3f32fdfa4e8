// SPDX-License-Identifier: MIT
/*
 * stream_priority_api: a stream's priority set as an attribute after its
 * creation (cuStreamSetAttribute, CU_LAUNCH_ATTRIBUTE_PRIORITY) applies
 * to the stream's later work, which still comes after its earlier work
 * (stream order, as CUDA specifies). Whether the later work ran on a
 * high-priority kernel queue is read from the device's debugfs contexts
 * file (kernel/vcuda_debugfs.c): vcuda's own check, run as root in the
 * test VM; exits 0 on success, 1 on failure (debugfs unreadable
 * included).
 */
#include <glob.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#define GIVE_UP_MS 3000

static int failures;
static atomic_int gate_open;
static atomic_int order;	/* bumped by each host function */
static int held_at, marked_at;

#define EXPECT(call, want)                                                   \
	do {                                                                 \
		int got_ = (int)(call);                                      \
		if (got_ != (int)(want)) {                                   \
			printf("FAIL: line %d: %s = %d, want %d\n", __LINE__, \
			       #call, got_, (int)(want));                    \
			failures++;                                          \
		}                                                            \
	} while (0)

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* Holds its stream until the gate opens (or GIVE_UP_MS passes). */
static void CUDA_CB hold(void *unused)
{
	(void)unused;
	for (int i = 0; i < GIVE_UP_MS && !atomic_load(&gate_open); i++)
		sleep_ms(1);
	held_at = atomic_fetch_add(&order, 1);
}

static void CUDA_CB mark(void *unused)
{
	(void)unused;
	marked_at = atomic_fetch_add(&order, 1);
}

/*
 * Whether a context of this process has an "ENGINE:PRIORITY" queue: 1 or
 * 0, -1 if debugfs cannot be read. (A device's contexts show in the
 * directories of both its minors.)
 */
static int has_queue(const char *engine_priority)
{
	char pid[32], line[4096];
	glob_t g;
	int n = 0;

	snprintf(pid, sizeof(pid), " %d ", (int)getpid());
	if (glob("/sys/kernel/debug/dri/*/contexts", 0, NULL, &g))
		return -1;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");

		if (!f) {
			n = -1;
			break;
		}
		while (fgets(line, sizeof(line), f)) {
			if (strstr(line, pid) && strstr(line, engine_priority))
				n = 1;
		}
		fclose(f);
	}
	globfree(&g);
	return n;
}

int main(void)
{
	CUstreamAttrValue high = { .priority = -1 };
	CUcontext ctx;
	CUdevice dev;
	CUstream s;
	int prio = 7;

	EXPECT(cuInit(0), CUDA_SUCCESS);
	EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	EXPECT(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, 0),
	       CUDA_SUCCESS);
	EXPECT(cuLaunchHostFunc(s, hold, NULL), CUDA_SUCCESS);
	EXPECT(has_queue(":compute:high"), 0);

	EXPECT(cuStreamSetAttribute(s, CU_LAUNCH_ATTRIBUTE_PRIORITY, &high),
	       CUDA_SUCCESS);
	EXPECT(cuStreamGetPriority(s, &prio), CUDA_SUCCESS);
	EXPECT(prio, -1);
	EXPECT(cuLaunchHostFunc(s, mark, NULL), CUDA_SUCCESS);
	/* The new queue's work waits for the old queue's. */
	sleep_ms(200);
	EXPECT(cuStreamQuery(s), CUDA_ERROR_NOT_READY);
	EXPECT(atomic_load(&order), 0);
	EXPECT(has_queue(":compute:high"), 1);

	atomic_store(&gate_open, 1);
	EXPECT(cuStreamSynchronize(s), CUDA_SUCCESS);
	EXPECT(held_at, 0);
	EXPECT(marked_at, 1);
	EXPECT(cuStreamDestroy(s), CUDA_SUCCESS);
	/* The kernel may finish a destroyed queue a moment later. */
	for (int i = 0; i < 100 && has_queue(":compute:high") == 1; i++)
		sleep_ms(10);
	EXPECT(has_queue(":compute:high"), 0);
	EXPECT(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
	printf("%s: stream priority set after creation\n",
	       failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
