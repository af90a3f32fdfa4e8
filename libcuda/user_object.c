// SPDX-License-Identifier: MIT
/*
 * User objects (CUDA User Objects in the programming guide): a pointer,
 * its destructor and a reference count. The caller owns references
 * (cuUserObjectCreate/Retain/Release), graphs own references
 * (cuGraphRetainUserObject), and every copy of a graph owns its own: a
 * clone, an executable graph, a child graph node. A launch keeps the
 * objects of its graph alive until its work is done. When the last
 * reference goes, the destructor runs on one internal thread, never in
 * the call that dropped it, as NVIDIA's driver does ("executed by a
 * shared internal thread"); nothing waits for it
 * (CU_USER_OBJECT_NO_DESTRUCTOR_SYNC, the only flag).
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "api.h"
#include "lock_assert.h"
#include "user_object.h"

struct CUuserObject_st {
	void *ptr;
	CUhostFn destroy;
	uint64_t refs;			/* under objects_lock */
	struct CUuserObject_st *next;	/* live objects, then the queue */
};

struct user_ref {
	struct CUuserObject_st *obj;
	uint64_t count;
};

struct user_refs {
	struct user_ref *refs;
	size_t count, cap;
};

static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_nonempty = PTHREAD_COND_INITIALIZER;
static struct CUuserObject_st *live;		/* handles that are valid */
static struct CUuserObject_st *queue, **queue_tail = &queue;
static bool destructor_thread_started;

/* ---- the destructor thread ---- */

static void *destructor_main(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&objects_lock);
	for (;;) {
		while (!queue)
			pthread_cond_wait(&queue_nonempty, &objects_lock);
		struct CUuserObject_st *o = queue;
		queue = o->next;
		if (!queue)
			queue_tail = &queue;
		pthread_mutex_unlock(&objects_lock);
		o->destroy(o->ptr);
		free(o);
		pthread_mutex_lock(&objects_lock);
	}
	return NULL;
}

static bool start_destructor_thread(void)
{
	pthread_attr_t attr;
	pthread_t t;
	bool ok;

	if (destructor_thread_started)
		return true;
	if (pthread_attr_init(&attr))
		return false;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = pthread_create(&t, &attr, destructor_main, NULL) == 0;
	pthread_attr_destroy(&attr);
	destructor_thread_started = ok;
	return ok;
}

/* ---- references, under objects_lock ---- */

static bool is_live(const struct CUuserObject_st *o)
{
	lock_assert_held(&objects_lock);
	for (const struct CUuserObject_st *l = live; l; l = l->next)
		if (l == o)
			return true;
	return false;
}

/* Drops @count references; the last one queues the destructor. */
static void put_locked(struct CUuserObject_st *o, uint64_t count)
{
	lock_assert_held(&objects_lock);
	o->refs -= count;
	if (o->refs)
		return;
	for (struct CUuserObject_st **l = &live; *l; l = &(*l)->next)
		if (*l == o) {
			*l = o->next;
			break;
		}
	o->next = NULL;
	*queue_tail = o;
	queue_tail = &o->next;
	pthread_cond_signal(&queue_nonempty);
}

static bool valid_count(unsigned int count)
{
	return count && count <= INT_MAX;
}

/* ---- the API ---- */

CUDA_EXPORT CUresult cuUserObjectCreate(CUuserObject *out, void *ptr,
					CUhostFn destroy,
					unsigned int initial_refs,
					unsigned int flags)
{
	struct CUuserObject_st *o;

	if (!out || !destroy || !valid_count(initial_refs) ||
	    flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
		return CUDA_ERROR_INVALID_VALUE;
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->ptr = ptr;
	o->destroy = destroy;
	o->refs = initial_refs;
	pthread_mutex_lock(&objects_lock);
	/* Started here, so that dropping a reference never fails. */
	if (!start_destructor_thread()) {
		pthread_mutex_unlock(&objects_lock);
		free(o);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	o->next = live;
	live = o;
	pthread_mutex_unlock(&objects_lock);
	*out = o;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuUserObjectRetain(CUuserObject o, unsigned int count)
{
	CUresult res = CUDA_ERROR_INVALID_VALUE;

	if (!valid_count(count))
		return res;
	pthread_mutex_lock(&objects_lock);
	if (is_live(o)) {
		o->refs += count;
		res = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&objects_lock);
	return res;
}

/* Releasing more than is held is undefined in CUDA: here it is an error
 * that changes nothing. */
CUDA_EXPORT CUresult cuUserObjectRelease(CUuserObject o, unsigned int count)
{
	CUresult res = CUDA_ERROR_INVALID_VALUE;

	if (!valid_count(count))
		return res;
	pthread_mutex_lock(&objects_lock);
	if (is_live(o) && o->refs >= count) {
		put_locked(o, count);
		res = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&objects_lock);
	return res;
}

static struct user_ref *find_ref(struct user_refs *r,
				 const struct CUuserObject_st *o)
{
	for (size_t i = 0; r && i < r->count; i++)
		if (r->refs[i].obj == o)
			return &r->refs[i];
	return NULL;
}

static struct user_ref *add_ref(struct user_refs **rp,
				struct CUuserObject_st *o)
{
	struct user_refs *r = *rp;

	if (!r && !(r = *rp = calloc(1, sizeof(*r))))
		return NULL;
	if (r->count == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4;
		struct user_ref *grown = realloc(r->refs, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		r->refs = grown;
		r->cap = cap;
	}
	r->refs[r->count] = (struct user_ref){ o, 0 };
	return &r->refs[r->count++];
}

/* ---- references owned by graphs ---- */

CUresult user_refs_retain(struct user_refs **refs, CUuserObject o,
			  unsigned int count, unsigned int flags)
{
	struct user_ref *ref;
	CUresult res = CUDA_ERROR_INVALID_VALUE;

	if (!valid_count(count) ||
	    (flags & ~(unsigned int)CU_GRAPH_USER_OBJECT_MOVE))
		return res;
	pthread_mutex_lock(&objects_lock);
	if (!is_live(o) ||
	    (flags & CU_GRAPH_USER_OBJECT_MOVE && o->refs < count))
		goto out;
	ref = find_ref(*refs, o);
	if (!ref)
		ref = add_ref(refs, o);
	res = CUDA_ERROR_OUT_OF_MEMORY;
	if (!ref)
		goto out;
	/* Moved references change owner; new ones add to the count. */
	if (!(flags & CU_GRAPH_USER_OBJECT_MOVE))
		o->refs += count;
	ref->count += count;
	res = CUDA_SUCCESS;
out:
	pthread_mutex_unlock(&objects_lock);
	return res;
}

CUresult user_refs_release(struct user_refs *refs, CUuserObject o,
			   unsigned int count)
{
	struct user_ref *ref;
	CUresult res = CUDA_ERROR_INVALID_VALUE;

	if (!valid_count(count))
		return res;
	pthread_mutex_lock(&objects_lock);
	ref = find_ref(refs, o);
	if (ref && ref->count >= count) {
		ref->count -= count;
		put_locked(o, count);
		if (!ref->count)	/* the last entry takes its place */
			*ref = refs->refs[--refs->count];
		res = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&objects_lock);
	return res;
}

bool user_refs_any(const struct user_refs *r)
{
	return r && r->count;
}

bool user_refs_hold(struct user_refs **hold, const struct user_refs *from)
{
	bool ok = true;

	pthread_mutex_lock(&objects_lock);
	for (size_t i = 0; ok && from && i < from->count; i++) {
		struct CUuserObject_st *o = from->refs[i].obj;
		struct user_ref *ref = find_ref(*hold, o);

		if (!ref && !(ref = add_ref(hold, o))) {
			ok = false;
			break;
		}
		ref->count++;
		o->refs++;
	}
	pthread_mutex_unlock(&objects_lock);
	return ok;
}


bool user_refs_copy(struct user_refs **to, const struct user_refs *from)
{
	struct user_refs *r;

	*to = NULL;
	if (!from || !from->count)
		return true;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->refs = malloc(from->count * sizeof(*r->refs)))) {
		free(r);
		return false;
	}
	r->count = r->cap = from->count;
	pthread_mutex_lock(&objects_lock);
	for (size_t i = 0; i < from->count; i++) {
		r->refs[i] = from->refs[i];
		r->refs[i].obj->refs += r->refs[i].count;
	}
	pthread_mutex_unlock(&objects_lock);
	*to = r;
	return true;
}

void user_refs_free(struct user_refs *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&objects_lock);
	for (size_t i = 0; i < r->count; i++)
		put_locked(r->refs[i].obj, r->refs[i].count);
	pthread_mutex_unlock(&objects_lock);
	free(r->refs);
	free(r);
}
