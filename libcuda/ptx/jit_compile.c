// SPDX-License-Identifier: MIT
/*
 * When and on which thread a kernel compiles (jit.h's jit_compile_*).
 *
 * The first launch of a kernel queues it, and one of a few compile
 * threads (one per CPU, at most MAX_COMPILE_THREADS) compiles it; the
 * launch waits for it or, under VCUDA_JIT_ASYNC=1, runs its CTAs on the
 * interpreter meanwhile (backend.c). Kernels queued together compile in
 * parallel (jit_engine.c). Compile threads start as work comes and stay.
 * The queue is newest first, and a kernel launched again while it waits
 * goes back to its head: when compiles back up (a module's kernels
 * launched one after another), the kernel running now, on the
 * interpreter, is the one whose code is worth most.
 *
 * Why not compile on the SM thread that first needs the code: it holds
 * the CTAs it claimed, so the launch could not end before the compile
 * did, however soon the interpreter finished the rest; and a compile
 * inside a launch counts against the job's time-out.
 *
 * Every change of a kernel's jit_state takes queue_lock, which is never
 * held during a compile. A thread that needs the code now
 * (jit_compile_wait) takes a queued kernel off the queue and compiles
 * it itself, or waits for the compile under way.
 *
 * At exit, a handler stops the compile threads taking work and waits
 * for the compiles under way: they must not run on while exit()
 * destroys LLVM's static objects. A forked child has none of its
 * parent's compile threads: it forgets their work and starts its own.
 */
#include "jit.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_COMPILE_THREADS = 8 };

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_queued = PTHREAD_COND_INITIALIZER;
static pthread_cond_t compile_ended = PTHREAD_COND_INITIALIZER;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

/* All under queue_lock. */
static struct ptx_kernel *queue_head, *queue_tail;	/* newest first */
static unsigned int queued;		/* kernels in the queue */
static unsigned int threads, idle;	/* compile threads, those waiting */
static unsigned int running;		/* compiles under way, any thread */
static bool stopping;			/* exiting: no new compiles */
/* What each compile thread compiles, for a forked child to undo. */
static struct ptx_kernel *compiling[MAX_COMPILE_THREADS];

static void set_state(struct ptx_kernel *k, enum jit_state st)
{
	__atomic_store_n(&k->jit_state, st, __ATOMIC_RELEASE);
}

/* At the head: the kernel launched last is the likeliest to be running. */
static void push(struct ptx_kernel *k)
{
	k->jit_queued = queue_head;
	queue_head = k;
	if (!queue_tail)
		queue_tail = k;
	queued++;
}

static struct ptx_kernel *dequeue(void)
{
	struct ptx_kernel *k = queue_head;
	if (k) {
		queue_head = k->jit_queued;
		if (!queue_head)
			queue_tail = NULL;
		queued--;
	}
	return k;
}

static void unqueue(struct ptx_kernel *k)
{
	struct ptx_kernel *prev = NULL;
	for (struct ptx_kernel *q = queue_head; q; prev = q, q = q->jit_queued)
		if (q == k) {
			if (prev)
				prev->jit_queued = k->jit_queued;
			else
				queue_head = k->jit_queued;
			if (queue_tail == k)
				queue_tail = prev;
			queued--;
			return;
		}
}

/* Empties the queue: its kernels have not been tried. */
static void drop_queue(void)
{
	struct ptx_kernel *k;
	while ((k = dequeue()))
		set_state(k, JIT_UNTRIED);
}

static void report(const struct ptx_kernel *k, bool ok, const char *why)
{
	const char *v = getenv("VCUDA_DEBUG");
	if (!v || !*v || !strcmp(v, "0"))
		return;
	if (!ok)
		fprintf(stderr, "vcuda: kernel %s runs on the interpreter: "
				"%s\n", k->sym->name, why);
	else
		fprintf(stderr, "vcuda: kernel %s %s in %.1f ms%s\n",
			k->sym->name, k->jit->from_disk ?
			"loaded from the JIT's disk cache" :
			"compiled by the JIT", k->jit->compile_s * 1e3,
			k->jit->waits ? " (it may wait for other threads: "
					"only its cooperative launches run "
					"compiled)" : "");
}

/*
 * Compiles @k, which this thread set COMPILING (counted in running),
 * with queue_lock held on entry and on return but not in between.
 */
static bool compile_unlocked(struct ptx_kernel *k)
{
	char why[200];
	pthread_mutex_unlock(&queue_lock);
	bool ok = jit_compile_kernel(k, why, sizeof(why));
	report(k, ok, why);
	pthread_mutex_lock(&queue_lock);
	set_state(k, ok ? JIT_READY : JIT_FAILED);
	running--;
	pthread_cond_broadcast(&compile_ended);
	return ok;
}

static void *compile_thread(void *arg)
{
	unsigned int slot = (unsigned int)(uintptr_t)arg;
	pthread_mutex_lock(&queue_lock);
	for (;;) {
		struct ptx_kernel *k = stopping ? NULL : dequeue();
		if (!k) {
			idle++;
			pthread_cond_wait(&work_queued, &queue_lock);
			idle--;
			continue;
		}
		set_state(k, JIT_COMPILING);
		running++;
		compiling[slot] = k;
		compile_unlocked(k);
		compiling[slot] = NULL;
	}
	return NULL;
}

static unsigned int max_threads(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1)
		return 1;
	return cpus > MAX_COMPILE_THREADS ? MAX_COMPILE_THREADS :
					    (unsigned int)cpus;
}

/* A compile thread more (queue_lock); signals are the application's
 * threads' to take, so it blocks them all from its start. */
static void start_thread(void)
{
	sigset_t all, old;
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (!pthread_create(&t, &attr, compile_thread,
			    (void *)(uintptr_t)threads))
		threads++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

static void stop_at_exit(void)
{
	pthread_mutex_lock(&queue_lock);
	stopping = true;
	drop_queue();
	while (running)
		pthread_cond_wait(&compile_ended, &queue_lock);
	pthread_mutex_unlock(&queue_lock);
}

static void before_fork(void)
{
	pthread_mutex_lock(&queue_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&queue_lock);
}

/* The child has only the forking thread: what the compile threads were
 * doing is undone, to be tried again. */
static void after_fork_child(void)
{
	for (unsigned int i = 0; i < MAX_COMPILE_THREADS; i++)
		if (compiling[i]) {
			set_state(compiling[i], JIT_UNTRIED);
			compiling[i] = NULL;
		}
	drop_queue();
	threads = idle = running = 0;
	pthread_mutex_unlock(&queue_lock);
}

static void install_handlers(void)
{
	atexit(stop_at_exit);
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

void jit_compile_start(struct ptx_kernel *k)
{
	int st = __atomic_load_n(&k->jit_state, __ATOMIC_ACQUIRE);
	if (st != JIT_UNTRIED && st != JIT_QUEUED)
		return;
	pthread_once(&handlers_once, install_handlers);
	pthread_mutex_lock(&queue_lock);
	if (k->jit_state == JIT_QUEUED) {
		/* launched again while it waits: first in line */
		unqueue(k);
		push(k);
	} else if (k->jit_state == JIT_UNTRIED && !stopping) {
		set_state(k, JIT_QUEUED);
		push(k);
		if (queued > idle && threads < max_threads())
			start_thread();
		pthread_cond_signal(&work_queued);
	}
	pthread_mutex_unlock(&queue_lock);
}

bool jit_compile_wait(struct ptx_kernel *k)
{
	int st = __atomic_load_n(&k->jit_state, __ATOMIC_ACQUIRE);
	if (st == JIT_READY || st == JIT_FAILED)
		return st == JIT_READY;
	pthread_once(&handlers_once, install_handlers);
	pthread_mutex_lock(&queue_lock);
	for (;;) {
		st = k->jit_state;
		if (st == JIT_READY || st == JIT_FAILED)
			break;
		if (st == JIT_COMPILING) {
			pthread_cond_wait(&compile_ended, &queue_lock);
			continue;
		}
		if (st == JIT_QUEUED)
			unqueue(k);
		set_state(k, JIT_COMPILING);
		running++;
		st = compile_unlocked(k) ? JIT_READY : JIT_FAILED;
		break;
	}
	pthread_mutex_unlock(&queue_lock);
	return st == JIT_READY;
}

void jit_compile_forget(struct ptx_kernel *k)
{
	pthread_mutex_lock(&queue_lock);
	while (k->jit_state == JIT_COMPILING)
		pthread_cond_wait(&compile_ended, &queue_lock);
	if (k->jit_state == JIT_QUEUED) {
		unqueue(k);
		set_state(k, JIT_UNTRIED);
	}
	pthread_mutex_unlock(&queue_lock);
}
