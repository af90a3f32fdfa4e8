// SPDX-License-Identifier: MIT
/*
 * The device heap behind kernels' malloc and free (ptx.h). First fit
 * over a list of free extents sorted by address, coalesced on free;
 * allocated blocks in a second sorted list, so that free() can check its
 * argument. Both lists live in host memory, away from the heap itself,
 * so a kernel writing past its block cannot corrupt the allocator.
 */
#include "ptx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_ALIGN 16u

struct extent {
	uint64_t start, len;
};

struct extents {
	struct extent *v;
	size_t n, cap;
};

struct ptx_heap {
	pthread_mutex_t lock;
	uint64_t base, size, used;
	struct extents free, blocks;
};

/* Index of the first extent starting at or after @addr. */
static size_t lower_bound(const struct extents *e, uint64_t addr)
{
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (e->v[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool insert_at(struct extents *e, size_t i, struct extent x)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct extent *v = realloc(e->v, cap * sizeof(*v));
		if (!v)
			return false;
		e->v = v;
		e->cap = cap;
	}
	memmove(&e->v[i + 1], &e->v[i], (e->n - i) * sizeof(*e->v));
	e->v[i] = x;
	e->n++;
	return true;
}

static void remove_at(struct extents *e, size_t i)
{
	memmove(&e->v[i], &e->v[i + 1], (e->n - i - 1) * sizeof(*e->v));
	e->n--;
}

struct ptx_heap *ptx_heap_create(void *base, size_t size)
{
	struct ptx_heap *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	uint64_t b = (uintptr_t)base;
	uint64_t start = (b + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
	pthread_mutex_init(&h->lock, NULL);
	h->base = b;
	h->size = size;
	if (base && start - b < size && !insert_at(&h->free, 0,
			(struct extent){ start, (size - (start - b)) &
						~(uint64_t)(HEAP_ALIGN - 1) })) {
		free(h);
		return NULL;
	}
	return h;
}

void ptx_heap_destroy(struct ptx_heap *h)
{
	if (!h)
		return;
	pthread_mutex_destroy(&h->lock);
	free(h->free.v);
	free(h->blocks.v);
	free(h);
}

size_t ptx_heap_used(const struct ptx_heap *h)
{
	return h ? (size_t)__atomic_load_n(&h->used, __ATOMIC_RELAXED) : 0;
}

/* malloc: a 16-byte aligned block, or 0 when none is left. */
uint64_t heap_alloc(struct ptx_heap *h, uint64_t size)
{
	if (!h || size > h->size)
		return 0;
	uint64_t n = size ? (size + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1) :
			    HEAP_ALIGN;
	uint64_t addr = 0;
	pthread_mutex_lock(&h->lock);
	for (size_t i = 0; i < h->free.n; i++) {
		struct extent *f = &h->free.v[i];
		if (f->len < n)
			continue;
		struct extent b = { f->start, n };
		if (!insert_at(&h->blocks, lower_bound(&h->blocks, b.start), b))
			break;
		addr = f->start;
		f->start += n;
		f->len -= n;
		if (!f->len)
			remove_at(&h->free, i);
		h->used += n;
		break;
	}
	pthread_mutex_unlock(&h->lock);
	return addr;
}

/* free: false if @addr is not a live block (0 is fine). */
bool heap_free(struct ptx_heap *h, uint64_t addr)
{
	if (!addr)
		return true;
	if (!h)
		return false;
	bool ok = false;
	pthread_mutex_lock(&h->lock);
	size_t i = lower_bound(&h->blocks, addr);
	if (i < h->blocks.n && h->blocks.v[i].start == addr) {
		struct extent b = h->blocks.v[i];
		remove_at(&h->blocks, i);
		h->used -= b.len;
		size_t j = lower_bound(&h->free, b.start);
		bool merge_prev = j > 0 && h->free.v[j - 1].start +
						   h->free.v[j - 1].len == b.start;
		bool merge_next = j < h->free.n &&
				  b.start + b.len == h->free.v[j].start;
		if (merge_prev && merge_next) {
			h->free.v[j - 1].len += b.len + h->free.v[j].len;
			remove_at(&h->free, j);
		} else if (merge_prev) {
			h->free.v[j - 1].len += b.len;
		} else if (merge_next) {
			h->free.v[j].start = b.start;
			h->free.v[j].len += b.len;
		} else if (!insert_at(&h->free, j, b)) {
			h->used += 0;	/* the block is lost, not corrupt */
		}
		ok = true;
	}
	pthread_mutex_unlock(&h->lock);
	return ok;
}
