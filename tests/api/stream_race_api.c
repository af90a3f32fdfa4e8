// SPDX-License-Identifier: MIT
/*
 * stream_race_api: streams destroyed while other threads walk them. CUDA
 * lets a program destroy a stream with work pending (the work completes,
 * then the stream's resources go) from any thread; a cuCtxSynchronize of
 * another thread, which waits for every stream of the context, must
 * neither touch the destroyed stream's memory nor fail. Three kinds of
 * destruction race a thread that synchronizes the context in a loop:
 * streams destroyed by the program (with a set queued on each), per-thread
 * default streams destroyed as their threads exit, and streams destroyed
 * while their host function still runs.
 *
 * Freed memory is only seen as such when it is overwritten: run it with
 * GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165
 * (tests/vm/guest-tests.sh does), so that a walk reading a freed stream
 * follows a garbage pointer and crashes. Its own check, no recording:
 * exits 0 on success, 1 on failure.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include <cuda.h>

#define ROUNDS 200		/* streams made and destroyed, per kind */
#define AT_ONCE 4		/* streams alive at a time */
#define BYTES 4096

static CUcontext ctx;
static CUdeviceptr buf;
static atomic_int stop;
static atomic_int failures;
static atomic_long syncs;

#define EXPECT(call, want)                                                   \
	do {                                                                 \
		int got_ = (int)(call);                                      \
		if (got_ != (int)(want)) {                                   \
			printf("FAIL: line %d: %s = %d, want %d\n", __LINE__, \
			       #call, got_, (int)(want));                    \
			atomic_fetch_add(&failures, 1);                      \
		}                                                            \
	} while (0)

/* Synchronizes the context until told to stop. */
static void *walker(void *unused)
{
	(void)unused;
	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	while (!atomic_load(&stop)) {
		EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
		atomic_fetch_add(&syncs, 1);
	}
	return NULL;
}

/* Streams of the program, each with a set queued, destroyed at once. */
static void destroyed_by_program(void)
{
	CUstream s[AT_ONCE];

	for (int round = 0; round < ROUNDS; round += AT_ONCE) {
		for (int i = 0; i < AT_ONCE; i++) {
			EXPECT(cuStreamCreate(&s[i], i % 2 ? CU_STREAM_NON_BLOCKING : 0),
			       CUDA_SUCCESS);
			EXPECT(cuMemsetD8Async(buf + i * BYTES, (unsigned char)round,
					       BYTES, s[i]),
			       CUDA_SUCCESS);
		}
		for (int i = 0; i < AT_ONCE; i++)
			EXPECT(cuStreamDestroy(s[i]), CUDA_SUCCESS);
	}
}

/* A thread that sets through its per-thread stream, then exits. */
static void *per_thread_user(void *arg)
{
	int i = (int)(long)arg;

	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuMemsetD8Async(buf + (i % AT_ONCE) * BYTES, (unsigned char)i,
			       BYTES, CU_STREAM_PER_THREAD),
	       CUDA_SUCCESS);
	return NULL;
}

/* Per-thread streams, destroyed as their threads exit. */
static void destroyed_at_thread_exit(void)
{
	pthread_t t[AT_ONCE];

	for (int round = 0; round < ROUNDS; round += AT_ONCE) {
		for (int i = 0; i < AT_ONCE; i++)
			pthread_create(&t[i], NULL, per_thread_user,
				       (void *)(long)(round + i));
		for (int i = 0; i < AT_ONCE; i++)
			pthread_join(t[i], NULL);
	}
}

static void CUDA_CB short_nap(void *unused)
{
	struct timespec ts = { 0, 200000 };

	(void)unused;
	nanosleep(&ts, NULL);
}

/* Streams destroyed while their host function still runs. */
static void destroyed_during_host_function(void)
{
	for (int round = 0; round < ROUNDS / 4; round++) {
		CUstream s;

		EXPECT(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
		EXPECT(cuLaunchHostFunc(s, short_nap, NULL), CUDA_SUCCESS);
		EXPECT(cuMemsetD8Async(buf, (unsigned char)round, BYTES, s),
		       CUDA_SUCCESS);
		EXPECT(cuStreamDestroy(s), CUDA_SUCCESS);
	}
}

int main(void)
{
	unsigned char first = 0;
	pthread_t walkers[2];
	CUdevice dev;

	setvbuf(stdout, NULL, _IONBF, 0);
	EXPECT(cuInit(0), CUDA_SUCCESS);
	EXPECT(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	EXPECT(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
	EXPECT(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	EXPECT(cuMemAlloc(&buf, AT_ONCE * BYTES), CUDA_SUCCESS);
	if (atomic_load(&failures))
		return 1;
	for (int i = 0; i < 2; i++)
		pthread_create(&walkers[i], NULL, walker, NULL);
	destroyed_by_program();
	destroyed_at_thread_exit();
	destroyed_during_host_function();
	atomic_store(&stop, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(walkers[i], NULL);
	/* The last set of the last kind reached the memory. */
	EXPECT(cuCtxSynchronize(), CUDA_SUCCESS);
	EXPECT(cuMemcpyDtoH(&first, buf, 1), CUDA_SUCCESS);
	EXPECT(first, (unsigned char)(ROUNDS / 4 - 1));
	EXPECT(cuMemFree(buf), CUDA_SUCCESS);
	printf("%s: %d rounds of each kind, %ld context synchronizations\n",
	       atomic_load(&failures) ? "FAIL" : "ok", ROUNDS,
	       atomic_load(&syncs));
	return atomic_load(&failures) ? 1 : 0;
}
