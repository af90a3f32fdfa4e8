// SPDX-License-Identifier: MIT
/*
 * A sorted array under a read-write lock: lookups are binary searches,
 * inserts and removals move the tail. Allocations are few and long-lived
 * in CUDA programs, so this beats a tree on simplicity and cache use.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_table.h"
#include "binding.h"
#include "context.h"
#include "memcheck.h"

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct vc_alloc *table;
static size_t table_len, table_cap;
/* Bumped on every change, so contexts know their snapshot is stale. */
static uint64_t table_generation = 1;
static uint64_t next_id = 1;

/* Index of the first entry whose va is > @addr. */
static size_t upper_bound(uint64_t addr)
{
	size_t lo = 0, hi = table_len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid].va <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int alloc_table_insert(const struct vc_alloc *alloc)
{
	size_t at;

	pthread_rwlock_wrlock(&table_lock);
	if (table_len == table_cap) {
		size_t cap = table_cap ? table_cap * 2 : 64;
		struct vc_alloc *grown = realloc(table, cap * sizeof(*table));

		if (!grown) {
			pthread_rwlock_unlock(&table_lock);
			return -1;
		}
		table = grown;
		table_cap = cap;
	}
	at = upper_bound(alloc->va);
	memmove(&table[at + 1], &table[at], (table_len - at) * sizeof(*table));
	table[at] = *alloc;
	table[at].id = next_id++;
	table_len++;
	table_generation++;
	pthread_rwlock_unlock(&table_lock);
	return 0;
}

static void remove_at(size_t i, struct vc_alloc *out)
{
	if (out)
		*out = table[i];
	memmove(&table[i], &table[i + 1], (table_len - i - 1) * sizeof(*table));
	table_len--;
	table_generation++;
}

bool alloc_table_remove(uint64_t va, struct vc_alloc *out)
{
	bool found = false;
	size_t at;

	pthread_rwlock_wrlock(&table_lock);
	at = upper_bound(va);
	if (at > 0 && table[at - 1].va == va) {
		remove_at(at - 1, out);
		found = true;
	}
	pthread_rwlock_unlock(&table_lock);
	return found;
}

bool alloc_table_find(uint64_t addr, struct vc_alloc *out)
{
	bool found = false;
	size_t at;

	pthread_rwlock_rdlock(&table_lock);
	at = upper_bound(addr);
	if (at > 0 && addr - table[at - 1].va < table[at - 1].size) {
		*out = table[at - 1];
		found = true;
	}
	pthread_rwlock_unlock(&table_lock);
	return found;
}

bool alloc_table_take_any(struct CUctx_st *ctx, struct vc_alloc *out)
{
	bool found = false;

	pthread_rwlock_wrlock(&table_lock);
	for (size_t i = 0; i < table_len; i++) {
		if (table[i].ctx == ctx) {
			remove_at(i, out);
			found = true;
			break;
		}
	}
	pthread_rwlock_unlock(&table_lock);
	return found;
}

void alloc_table_each(struct CUctx_st *ctx,
		      void (*fn)(const struct vc_alloc *alloc, void *arg),
		      void *arg)
{
	struct vc_alloc *copy;
	size_t n = 0;

	pthread_rwlock_rdlock(&table_lock);
	copy = malloc((table_len + 1) * sizeof(*copy));
	for (size_t i = 0; copy && i < table_len; i++)
		if (table[i].ctx == ctx)
			copy[n++] = table[i];
	pthread_rwlock_unlock(&table_lock);
	for (size_t i = 0; i < n; i++)
		fn(&copy[i], arg);
	free(copy);
}

size_t alloc_table_overlapping(uint64_t start, uint64_t end,
			       struct vc_alloc *out, size_t max)
{
	size_t n = 0, at;

	pthread_rwlock_rdlock(&table_lock);
	at = upper_bound(start);
	if (at > 0 && table[at - 1].va + table[at - 1].size > start)
		at--;
	for (; at < table_len && table[at].va < end; at++) {
		if (table[at].va + table[at].size <= start)
			continue;
		if (n < max)
			out[n] = table[at];
		n++;
	}
	pthread_rwlock_unlock(&table_lock);
	return n;
}

bool alloc_visible_in(const struct vc_alloc *alloc, struct CUctx_st *ctx,
		      uint64_t addr, uint64_t size)
{
	return alloc->ctx == ctx || ctx_foreign_covers(ctx, addr, size);
}

static int by_start(const void *a, const void *b)
{
	const struct ptx_mem_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The context's own allocations and what is bound there from others,
 * sorted by address as the executor's lookups need.
 */
static struct range_snapshot *build_snapshot(struct CUctx_st *ctx)
{
	size_t nforeign = ctx_foreign_count_locked(ctx);
	struct range_snapshot *snap;
	size_t n = nforeign;

	for (size_t i = 0; i < table_len; i++)
		n += table[i].ctx == ctx;
	snap = malloc(sizeof(*snap) + (n + 1) * sizeof(snap->ranges[0]));
	if (!snap)
		return NULL;
	atomic_init(&snap->refs, 1);	/* the context's own reference */
	ctx_foreign_ranges_locked(ctx, snap->ranges);
	snap->count = nforeign;
	for (size_t i = 0; i < table_len; i++) {
		if (table[i].ctx != ctx)
			continue;
		/* Kernels may touch the whole mapped pages, as on a GPU;
		 * VCUDA_MEMCHECK=1 allows only the allocation's bytes. */
		snap->ranges[snap->count++] = memcheck_enabled() ?
			(struct ptx_mem_range){
				.start = table[i].va,
				.end = table[i].va + table[i].size,
				.writable = true,
			} :
			(struct ptx_mem_range){
				.start = table[i].map_va,
				.end = table[i].map_va + table[i].mapped_size,
				.writable = true,
			};
	}
	if (nforeign)
		qsort(snap->ranges, snap->count, sizeof(snap->ranges[0]),
		      by_start);
	return snap;
}

struct range_snapshot *alloc_table_snapshot(struct CUctx_st *ctx)
{
	struct range_snapshot *snap;

	pthread_mutex_lock(&ctx->lock);
	pthread_rwlock_rdlock(&table_lock);
	if (!ctx->ranges || ctx->ranges_generation != table_generation ||
	    ctx->ranges_foreign_generation != ctx->foreign_generation) {
		struct range_snapshot *fresh = build_snapshot(ctx);

		if (fresh) {
			if (ctx->ranges)
				range_snapshot_put(ctx->ranges);
			ctx->ranges = fresh;
			ctx->ranges_generation = table_generation;
			ctx->ranges_foreign_generation = ctx->foreign_generation;
		}
	}
	pthread_rwlock_unlock(&table_lock);
	snap = ctx->ranges;
	if (snap)
		atomic_fetch_add(&snap->refs, 1);
	pthread_mutex_unlock(&ctx->lock);
	return snap;
}

void range_snapshot_put(struct range_snapshot *snap)
{
	if (snap && atomic_fetch_sub(&snap->refs, 1) == 1)
		free(snap);
}
