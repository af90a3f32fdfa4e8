// SPDX-License-Identifier: MIT
/*
 * Per-thread default streams (CU_STREAM_PER_THREAD, the _ptsz/_ptds entry
 * points, nvcc --default-stream per-thread): each host thread has its own
 * stream in each context, made at its first use. It is an ordinary
 * blocking stream (flags 0, priority 0): it synchronizes with the legacy
 * default stream, as CUDA specifies, and with no other stream, so the
 * work of two threads overlaps and a thread's blocked stream holds up no
 * other thread.
 *
 * A thread's streams go when the thread exits (a key destructor) or with
 * their context (per_thread_streams_ctx_gone, from the streams' teardown),
 * whichever comes first. Thread exit destroys outside the lock, since
 * destroying waits for the stream's work, which may wait for another
 * thread that needs the lock; a context going meanwhile waits for those
 * destructions instead of destroying the same streams.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "context.h"
#include "lock_assert.h"
#include "stream.h"
#include "stream_life.h"

struct per_thread_stream {
	struct CUctx_st *ctx;
	pthread_t thread;
	struct CUstream_st *stream;
	struct per_thread_stream *next;		/* @live or @dying */
	struct per_thread_stream *next_mine;	/* at thread exit */
};

static pthread_mutex_t pts_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pts_destroyed = PTHREAD_COND_INITIALIZER;
static struct per_thread_stream *live;		/* under pts_lock */
static struct per_thread_stream *dying;	/* being destroyed at thread exit */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Takes @e off the list at @head; whether it was there. */
static bool unlink_entry(struct per_thread_stream **head,
			 struct per_thread_stream *e)
{
	for (struct per_thread_stream **link = head; *link;
	     link = &(*link)->next) {
		if (*link == e) {
			*link = e->next;
			return true;
		}
	}
	return false;
}

/* The key's destructor: the exiting thread's streams, of every context. */
static void thread_exit(void *unused)
{
	struct per_thread_stream *mine = NULL, *e, *next;
	pthread_t self = pthread_self();

	(void)unused;
	/* Moved to @dying at once: a context going waits for them all. */
	pthread_mutex_lock(&pts_lock);
	for (e = live; e; e = next) {
		next = e->next;
		if (pthread_equal(e->thread, self)) {
			unlink_entry(&live, e);
			e->next = dying;
			dying = e;
			e->next_mine = mine;
			mine = e;
		}
	}
	pthread_mutex_unlock(&pts_lock);
	for (e = mine; e; e = next) {
		next = e->next_mine;
		/* A cuCtxSynchronize walking it holds it: it goes after. */
		stream_destroy(e->stream);
		pthread_mutex_lock(&pts_lock);
		unlink_entry(&dying, e);
		pthread_cond_broadcast(&pts_destroyed);
		pthread_mutex_unlock(&pts_lock);
		free(e);
	}
}

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static struct per_thread_stream *find_locked(struct CUctx_st *ctx,
					    pthread_t self)
{
	lock_assert_held(&pts_lock);
	for (struct per_thread_stream *e = live; e; e = e->next)
		if (e->ctx == ctx && pthread_equal(e->thread, self))
			return e;
	return NULL;
}

struct CUstream_st *per_thread_stream_hold(struct CUctx_st *ctx)
{
	pthread_t self = pthread_self();
	struct per_thread_stream *e;
	struct CUstream_st *s = NULL;

	pthread_once(&exit_key_once, make_exit_key);
	pthread_mutex_lock(&pts_lock);
	e = find_locked(ctx, self);
	if (e) {
		s = e->stream;
	} else {
		e = calloc(1, sizeof(*e));
		if (e && stream_create(ctx, 0, 0, &e->stream) == CUDA_SUCCESS) {
			e->ctx = ctx;
			e->thread = self;
			e->next = live;
			live = e;
			s = e->stream;
			/* Any non-NULL value arms the destructor. */
			pthread_setspecific(exit_key, e);
		} else {
			free(e);
		}
	}
	if (s)
		stream_get(s);
	pthread_mutex_unlock(&pts_lock);
	/* Out of memory: the legacy stream keeps the order, not the overlap. */
	return s ? s : stream_get(ctx->null_stream);
}

static bool dying_in(struct CUctx_st *ctx)
{
	for (struct per_thread_stream *e = dying; e; e = e->next)
		if (e->ctx == ctx)
			return true;
	return false;
}

void per_thread_streams_ctx_gone(struct CUctx_st *ctx)
{
	struct per_thread_stream *e, *next;

	pthread_mutex_lock(&pts_lock);
	/* The streams themselves go with the context's other streams. */
	for (e = live; e; e = next) {
		next = e->next;
		if (e->ctx == ctx) {
			unlink_entry(&live, e);
			free(e);
		}
	}
	while (dying_in(ctx))
		pthread_cond_wait(&pts_destroyed, &pts_lock);
	pthread_mutex_unlock(&pts_lock);
}
