// SPDX-License-Identifier: MIT
/*
 * CTAs are claimed in chunks from an atomic counter, so SM threads balance
 * themselves without a central scheduler. A grid stays on the pool's list
 * while CTAs remain to be claimed; the thread that posted it waits until
 * every thread working on it has left.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "sm_pool.h"

struct grid {
	const struct ptx_launch *launch;
	uint64_t total;			/* CTAs in the grid */
	uint64_t chunk;			/* CTAs claimed at a time */
	atomic_uint_fast64_t next;	/* first CTA not yet claimed */
	unsigned int workers;		/* threads inside, under pool lock */
	bool faulted;			/* under pool lock */
	struct ptx_fault fault;
	struct grid *next_grid;
};

struct sm_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a grid was posted, or stopping */
	pthread_cond_t left;		/* a thread left a grid */
	struct grid *grids;
	bool stopping;
	unsigned int nthreads;
	pthread_t threads[];
};

void block_signals(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
}

static void record_fault(struct sm_pool *pool, struct grid *g,
			 const struct ptx_fault *fault)
{
	pthread_mutex_lock(&pool->lock);
	if (!g->faulted) {
		g->faulted = true;
		g->fault = *fault;
	}
	pthread_mutex_unlock(&pool->lock);
	/* Stop handing out CTAs: a faulted launch is abandoned. */
	atomic_store(&g->next, g->total);
}

/* Claims and runs chunks of @g until none is left. */
static void work_on(struct sm_pool *pool, struct grid *g,
		    struct ptx_worker *worker)
{
	for (;;) {
		uint64_t first = atomic_fetch_add(&g->next, g->chunk);
		uint64_t count;
		struct ptx_fault fault;

		if (first >= g->total)
			return;
		count = g->total - first < g->chunk ? g->total - first : g->chunk;
		if (!ptx_run_ctas(worker, g->launch, first, count, &fault))
			record_fault(pool, g, &fault);
	}
}

static struct grid *claimable_grid(struct sm_pool *pool)
{
	for (struct grid *g = pool->grids; g; g = g->next_grid)
		if (atomic_load(&g->next) < g->total)
			return g;
	return NULL;
}

static void *sm_thread(void *arg)
{
	struct sm_pool *pool = arg;
	struct ptx_worker *worker = ptx_worker_create();

	block_signals();
	pthread_mutex_lock(&pool->lock);
	while (!pool->stopping) {
		struct grid *g = worker ? claimable_grid(pool) : NULL;

		if (!g) {
			pthread_cond_wait(&pool->work, &pool->lock);
			continue;
		}
		g->workers++;
		pthread_mutex_unlock(&pool->lock);
		work_on(pool, g, worker);
		pthread_mutex_lock(&pool->lock);
		g->workers--;
		pthread_cond_broadcast(&pool->left);
	}
	pthread_mutex_unlock(&pool->lock);
	if (worker)
		ptx_worker_destroy(worker);
	return NULL;
}

struct sm_pool *sm_pool_create(unsigned int threads)
{
	struct sm_pool *pool = calloc(1, sizeof(*pool) + threads * sizeof(pthread_t));

	if (!pool)
		return NULL;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->left, NULL);
	for (unsigned int i = 0; i < threads; i++) {
		if (pthread_create(&pool->threads[i], NULL, sm_thread, pool))
			break;
		pool->nthreads++;
	}
	return pool;
}

void sm_pool_destroy(struct sm_pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stopping = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned int i = 0; i < pool->nthreads; i++)
		pthread_join(pool->threads[i], NULL);
	pthread_cond_destroy(&pool->work);
	pthread_cond_destroy(&pool->left);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

static void unlink_grid(struct sm_pool *pool, struct grid *g)
{
	for (struct grid **link = &pool->grids; *link; link = &(*link)->next_grid) {
		if (*link == g) {
			*link = g->next_grid;
			return;
		}
	}
}

bool sm_pool_run(struct sm_pool *pool, struct ptx_worker *caller,
		 const struct ptx_launch *launch, struct ptx_fault *fault)
{
	struct grid g = {
		.launch = launch,
		.total = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2],
		.workers = 1,
	};
	/* Several chunks per thread keep the threads busy to the end. */
	uint64_t per_thread = g.total / ((pool->nthreads + 1) * 8);

	g.chunk = per_thread ? per_thread : 1;
	atomic_init(&g.next, 0);
	pthread_mutex_lock(&pool->lock);
	g.next_grid = pool->grids;
	pool->grids = &g;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);

	work_on(pool, &g, caller);

	pthread_mutex_lock(&pool->lock);
	unlink_grid(pool, &g);
	g.workers--;
	while (g.workers)
		pthread_cond_wait(&pool->left, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
	if (g.faulted)
		*fault = g.fault;
	return !g.faulted;
}
