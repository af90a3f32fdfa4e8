// SPDX-License-Identifier: MIT
/*
 * Streams: their queues and timelines, submitting work to them, waiting
 * for them, and the API that needs nothing above them. Their life cycle
 * is in stream_life.c, host-side waits in sync.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "api.h"
#include "context.h"
#include "kmd.h"
#include "launch_record.h"
#include "lock_assert.h"
#include "stream.h"
#include "stream_life.h"

/* CUDA stream priorities: 0 (default, least) and -1 (greatest). */
#define PRIORITY_LEAST 0
#define PRIORITY_GREATEST -1

/* The level of queues (struct CUstream_st) work of @priority goes to. */
static unsigned int queue_level(int priority)
{
	return priority < 0 ? 1 : 0;
}

static const uint32_t level_priority[STREAM_LEVELS] = {
	DRM_VCUDA_QUEUE_PRIORITY_NORMAL, DRM_VCUDA_QUEUE_PRIORITY_HIGH,
};

static unsigned int engine_index(uint32_t engine)
{
	return engine == DRM_VCUDA_ENGINE_COMPUTE ? 0 : 1;
}

int stream_clamp_priority(int priority)
{
	if (priority < PRIORITY_GREATEST)
		return PRIORITY_GREATEST;
	return priority > PRIORITY_LEAST ? PRIORITY_LEAST : priority;
}

CUresult stream_create(struct CUctx_st *ctx, unsigned int flags, int priority,
		       struct CUstream_st **out)
{
	struct CUstream_st *s = calloc(1, sizeof(*s));
	int fd = ctx->dev->fd;
	int err;

	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->ctx = ctx;
	s->refs = 1;			/* the creator's */
	s->flags = flags;
	s->priority = stream_clamp_priority(priority);
	pthread_mutex_init(&s->lock, NULL);
	err = kmd_syncobj_create(fd, &s->syncobj);
	if (!err) {
		err = kmd_syncobj_create(fd, &s->wait_syncobj);
		if (err)
			kmd_syncobj_destroy(fd, s->syncobj);
	}
	if (!err) {
		/* The first queue now: a stream that cannot be made fails. */
		err = kmd_queue_create(fd, ctx->ctx_id, DRM_VCUDA_ENGINE_COMPUTE,
				       level_priority[queue_level(s->priority)],
				       &s->queues[0][queue_level(s->priority)]);
		if (err) {
			kmd_syncobj_destroy(fd, s->syncobj);
			kmd_syncobj_destroy(fd, s->wait_syncobj);
		}
	}
	if (err) {
		free(s);
		return result_from_errno(err);
	}
	pthread_mutex_lock(&ctx->lock);
	s->next = ctx->streams;
	ctx->streams = s;
	ctx->streams_alive++;
	pthread_mutex_unlock(&ctx->lock);
	*out = s;
	return CUDA_SUCCESS;
}

/*
 * Frees the launch records whose point the timeline has passed. The
 * caller holds s->lock, or the stream's last reference (stream_release:
 * no other thread can reach it), so no lock is asserted.
 */
static void reap_records(struct CUstream_st *s, uint64_t completed)
{
	while (s->pending_head && s->pending_head->point <= completed) {
		struct launch_record *done = s->pending_head;

		s->pending_head = done->next;
		launch_record_free(done);
	}
	if (!s->pending_head)
		s->pending_tail = NULL;
}

static void reap(struct CUstream_st *s)
{
	uint64_t completed;

	if (kmd_syncobj_query(s->ctx->dev->fd, s->syncobj, &completed))
		return;
	pthread_mutex_lock(&s->lock);
	reap_records(s, completed);
	pthread_mutex_unlock(&s->lock);
}

static int blocking(const struct CUstream_st *s)
{
	return !(s->flags & CU_STREAM_NON_BLOCKING);
}

/* The sync operations of one job being built. */
struct job_syncs {
	struct drm_vcuda_sync_op ops[KMD_MAX_SYNCS];
	uint32_t n;
};

static void add_sync(struct job_syncs *js, uint32_t direction,
		     const struct timeline_point *tp)
{
	js->ops[js->n++] = (struct drm_vcuda_sync_op){
		.flags = direction |
			 DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ,
		.handle = tp->syncobj,
		.point = tp->point,
	};
}

/*
 * Adds a wait for @tp. Two slots stay free for the job's signals; past
 * that the wait happens here, on the CPU: slower, still right.
 */
static void add_wait(struct CUctx_st *ctx, struct job_syncs *js,
		     const struct timeline_point *tp)
{
	if (tp->point == 0)
		return;
	if (js->n + 2 < KMD_MAX_SYNCS)
		add_sync(js, DRM_VCUDA_SYNC_OP_WAIT, tp);
	else
		kmd_syncobj_wait(ctx->dev->fd, tp->syncobj, tp->point);
}

/* Everything submitted to @other so far. */
static struct timeline_point submitted_point(struct CUstream_st *other)
{
	struct timeline_point tp = { .syncobj = other->syncobj };

	pthread_mutex_lock(&other->lock);
	tp.point = other->submitted;
	pthread_mutex_unlock(&other->lock);
	return tp;
}

/*
 * Legacy default stream semantics: work on the null stream waits for all
 * earlier work of the blocking streams, and work on a blocking stream
 * waits for earlier work of the null stream.
 */
static void implicit_waits(struct CUstream_st *s, struct job_syncs *js)
{
	struct CUctx_st *ctx = s->ctx;
	struct timeline_point tp;

	if (s != ctx->null_stream) {
		if (blocking(s)) {
			tp = submitted_point(ctx->null_stream);
			add_wait(ctx, js, &tp);
		}
		return;
	}
	pthread_mutex_lock(&ctx->lock);
	for (struct CUstream_st *other = ctx->streams; other; other = other->next) {
		if (other != s && blocking(other)) {
			tp = submitted_point(other);
			add_wait(ctx, js, &tp);
		}
	}
	pthread_mutex_unlock(&ctx->lock);
}

/*
 * The queue for @engine at the stream's priority, created on first use;
 * 0 on failure. Under @s->lock.
 */
static uint32_t queue_for(struct CUstream_st *s, uint32_t engine)
{
	unsigned int level = queue_level(s->priority);
	uint32_t *queue = &s->queues[engine_index(engine)][level];

	lock_assert_held(&s->lock);
	if (!*queue &&
	    kmd_queue_create(s->ctx->dev->fd, s->ctx->ctx_id, engine,
			     level_priority[level], queue))
		return 0;
	return *queue;
}

CUresult stream_submit(struct CUstream_st *s, uint32_t engine,
		       const struct drm_vcuda_cmd *cmds, uint32_t count,
		       const struct timeline_point *extra, uint64_t *point)
{
	struct job_syncs js = { .n = 0 };
	struct timeline_point next;
	uint32_t queue;
	int err;

	implicit_waits(s, &js);
	pthread_mutex_lock(&s->lock);
	queue = queue_for(s, engine);
	if (!queue) {
		pthread_mutex_unlock(&s->lock);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	/* One queue runs in order; across queues the timeline orders. */
	if (queue != s->last_queue) {
		struct timeline_point prev = { s->syncobj, s->submitted };

		add_wait(s->ctx, &js, &prev);
	}
	for (unsigned int i = 0; i < s->nwaits; i++)
		add_wait(s->ctx, &js, &s->waits[i]);
	next = (struct timeline_point){ s->syncobj, s->submitted + 1 };
	add_sync(&js, DRM_VCUDA_SYNC_OP_SIGNAL, &next);
	if (extra)
		add_sync(&js, DRM_VCUDA_SYNC_OP_SIGNAL, extra);
	err = kmd_submit(s->ctx->dev->fd, queue, cmds, count, js.ops, js.n);
	if (!err) {
		s->submitted = next.point;
		s->last_queue = queue;
		s->nwaits = 0;
		*point = next.point;
	}
	pthread_mutex_unlock(&s->lock);
	if (err == -EIO)
		return ctx_check_fault(s->ctx);
	return result_from_errno(err);
}

CUresult stream_add_wait(struct CUstream_st *s, const struct timeline_point *wait)
{
	CUresult res = CUDA_SUCCESS;

	int fd = s->ctx->dev->fd;
	struct timeline_point own;

	pthread_mutex_lock(&s->lock);
	own = (struct timeline_point){ s->wait_syncobj, s->wait_points + 1 };
	if (s->nwaits < STREAM_MAX_PENDING_WAITS &&
	    !kmd_syncobj_transfer(fd, own.syncobj, own.point, wait->syncobj,
				  wait->point)) {
		s->wait_points = own.point;
		s->waits[s->nwaits++] = own;
	} else {
		res = result_from_errno(kmd_syncobj_wait(fd, wait->syncobj,
							 wait->point));
	}
	pthread_mutex_unlock(&s->lock);
	return res;
}

void stream_note_follows(struct CUstream_st *s, const struct timeline_point *tp)
{
	unsigned int i;

	if (!tp->syncobj || tp->syncobj == s->syncobj)
		return;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nfollows; i++)
		if (s->follows[i].syncobj == tp->syncobj)
			break;
	if (i == s->nfollows) {
		/* Full: the oldest entry goes; forgetting is only slower. */
		if (s->nfollows == STREAM_MAX_FOLLOWS) {
			memmove(s->follows, s->follows + 1,
				sizeof(s->follows[0]) * --s->nfollows);
			i = s->nfollows;
		}
		s->follows[s->nfollows++] = *tp;
	} else if (s->follows[i].point < tp->point) {
		s->follows[i].point = tp->point;
	}
	pthread_mutex_unlock(&s->lock);
}

bool stream_follows(struct CUstream_st *s, const struct timeline_point *tp)
{
	bool yes = false;

	pthread_mutex_lock(&s->lock);
	for (unsigned int i = 0; i < s->nfollows && !yes; i++)
		yes = s->follows[i].syncobj == tp->syncobj &&
		      s->follows[i].point >= tp->point;
	pthread_mutex_unlock(&s->lock);
	return yes;
}

CUresult stream_launch(struct CUstream_st *s, struct launch_record *rec)
{
	struct drm_vcuda_cmd cmd = {
		.op = DRM_VCUDA_CMD_LAUNCH,
		.u.launch = {
			.descriptor = (uintptr_t)rec,
			.threads = (uint64_t)rec->launch.grid[0] * rec->launch.grid[1] *
				   rec->launch.grid[2] * rec->launch.block[0] *
				   rec->launch.block[1] * rec->launch.block[2],
		},
	};
	CUresult res;

	reap(s);
	res = stream_submit(s, DRM_VCUDA_ENGINE_COMPUTE, &cmd, 1, NULL,
			    &rec->point);
	if (res != CUDA_SUCCESS)
		return res;
	/* Queued: the record lives until the timeline passes its point. */
	pthread_mutex_lock(&s->lock);
	if (s->pending_tail)
		s->pending_tail->next = rec;
	else
		s->pending_head = rec;
	s->pending_tail = rec;
	pthread_mutex_unlock(&s->lock);
	return CUDA_SUCCESS;
}

CUresult stream_wait_idle(struct CUstream_st *s)
{
	uint64_t target, waits;
	int err = 0;

	pthread_mutex_lock(&s->lock);
	target = s->submitted;
	/* Event waits not yet attached to a submission are work too. */
	waits = s->nwaits ? s->wait_points : 0;
	pthread_mutex_unlock(&s->lock);
	if (waits)
		err = kmd_syncobj_wait(s->ctx->dev->fd, s->wait_syncobj, waits);
	if (err)
		return result_from_errno(err);
	if (target == 0)
		return CUDA_SUCCESS;
	err = kmd_syncobj_wait(s->ctx->dev->fd, s->syncobj, target);
	if (err)
		return result_from_errno(err);
	pthread_mutex_lock(&s->lock);
	reap_records(s, target);
	pthread_mutex_unlock(&s->lock);
	return CUDA_SUCCESS;
}

void stream_unlink(struct CUstream_st *s)
{
	struct CUctx_st *ctx = s->ctx;
	struct CUstream_st **link;

	pthread_mutex_lock(&ctx->lock);
	for (link = &ctx->streams; *link; link = &(*link)->next) {
		if (*link == s) {
			*link = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
}

struct CUstream_st *stream_get(struct CUstream_st *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

/* The last reference: the stream is unlinked and no thread has it. */
static void stream_release(struct CUstream_st *s)
{
	struct CUctx_st *ctx = s->ctx;
	int fd = ctx->dev->fd;

	/* Work a holder queued after the destruction completes first. */
	stream_wait_idle(s);
	stream_forget(s);
	free(s->capture_deps);
	for (unsigned int e = 0; e < STREAM_ENGINES; e++)
		for (unsigned int l = 0; l < STREAM_LEVELS; l++)
			if (s->queues[e][l])
				kmd_queue_destroy(fd, s->queues[e][l]);
	kmd_syncobj_destroy(fd, s->syncobj);
	kmd_syncobj_destroy(fd, s->wait_syncobj);
	/* Whatever is left (a fault) was cancelled with the queues. */
	reap_records(s, UINT64_MAX);
	pthread_mutex_destroy(&s->lock);
	free(s);
	pthread_mutex_lock(&ctx->lock);
	if (--ctx->streams_alive == 0)
		pthread_cond_broadcast(&ctx->streams_released);
	pthread_mutex_unlock(&ctx->lock);
}

void stream_put(struct CUstream_st *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		stream_release(s);
}

/* Few streams are held on the stack; more are counted and allocated. */
#define WALK_ON_STACK 16

/*
 * Holds every stream of @ctx, into @stack or, when it is too short, into
 * an allocation returned in @held; returns the count, or -1 without memory.
 */
static ssize_t hold_all(struct CUctx_st *ctx, struct CUstream_st ***held,
			struct CUstream_st **stack)
{
	struct CUstream_st *s;
	size_t n = 0;

	*held = stack;
	pthread_mutex_lock(&ctx->lock);
	for (s = ctx->streams; s; s = s->next)
		n++;
	if (n > WALK_ON_STACK)
		*held = malloc(n * sizeof(**held));
	if (!*held) {
		pthread_mutex_unlock(&ctx->lock);
		return -1;
	}
	n = 0;
	/* Linked streams have their creator's reference: all alive. */
	for (s = ctx->streams; s; s = s->next)
		(*held)[n++] = stream_get(s);
	pthread_mutex_unlock(&ctx->lock);
	return (ssize_t)n;
}

CUresult ctx_synchronize(struct CUctx_st *ctx)
{
	struct CUstream_st *stack[WALK_ON_STACK], **held;
	CUresult res = CUDA_SUCCESS;
	ssize_t n = hold_all(ctx, &held, stack);

	if (n < 0)
		return CUDA_ERROR_OUT_OF_MEMORY;
	/* Held, not locked: a stream destroyed meanwhile is freed by the
	 * put here, and its host step may destroy it while we wait. */
	for (ssize_t i = 0; i < n; i++) {
		CUresult r = stream_wait_idle(held[i]);

		if (res == CUDA_SUCCESS)
			res = r;
		stream_put(held[i]);
	}
	if (held != stack)
		free(held);
	return res != CUDA_SUCCESS ? res : ctx_check_fault(ctx);
}

struct CUstream_st *stream_hold(struct CUctx_st *ctx, CUstream handle)
{
	/* 0 is the legacy stream; the _ptsz entry points pass the other. */
	if (handle == NULL || handle == CU_STREAM_LEGACY)
		return stream_get(ctx->null_stream);
	if (handle == CU_STREAM_PER_THREAD)
		return per_thread_stream_hold(ctx);
	return stream_get(handle);
}

CUDA_EXPORT CUresult cuStreamCreateWithPriority(CUstream *out,
						unsigned int flags,
						int priority)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || (flags & ~CU_STREAM_NON_BLOCKING))
		return CUDA_ERROR_INVALID_VALUE;
	return stream_create(ctx, flags, priority, out);
}

CUDA_EXPORT CUresult cuStreamCreate(CUstream *out, unsigned int flags)
{
	return cuStreamCreateWithPriority(out, flags, 0);
}

CUDA_EXPORT CUresult cuStreamGetPriority(CUstream handle, int *priority)
{
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!priority)
		return CUDA_ERROR_INVALID_VALUE;
	s = stream_hold(ctx, handle);
	pthread_mutex_lock(&s->lock);
	*priority = s->priority;
	pthread_mutex_unlock(&s->lock);
	stream_put(s);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuStreamGetFlags(CUstream handle, unsigned int *flags)
{
	struct CUstream_st *s;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	s = stream_hold(ctx, handle);
	*flags = s->flags;
	stream_put(s);
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (least)
		*least = PRIORITY_LEAST;
	if (greatest)
		*greatest = PRIORITY_GREATEST;
	return CUDA_SUCCESS;
}
