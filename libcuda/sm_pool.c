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
	/*
	 * Cooperative grids: one range of @chunk CTAs per participant,
	 * claimed whole; the grid waits until every range has a thread.
	 */
	bool cooperative;
	unsigned int workers;		/* threads inside, under pool lock */
	bool faulted;			/* under pool lock */
	struct ptx_fault fault;
	struct grid *next_grid;
};

struct sm_pool {
	pthread_mutex_t lock;
	pthread_mutex_t cooperative;	/* one cooperative launch at a time */
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
	/* A cooperative range is run in one call: its CTAs stay resident. */
	if (g->cooperative) {
		uint64_t first = atomic_fetch_add(&g->next, g->chunk);
		struct ptx_fault fault;

		if (first < g->total &&
		    !ptx_run_ctas(worker, g->launch, first,
				  g->total - first < g->chunk ? g->total - first
							      : g->chunk,
				  &fault))
			record_fault(pool, g, &fault);
		return;
	}
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

struct sm_thread_start {
	struct sm_pool *pool;
	unsigned int smid;
};

static void *sm_thread(void *arg)
{
	struct sm_thread_start *start = arg;
	struct sm_pool *pool = start->pool;
	struct ptx_worker *worker = ptx_worker_create();

	if (worker)
		ptx_worker_set_smid(worker, start->smid);
	free(start);
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
	pthread_mutex_init(&pool->cooperative, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->left, NULL);
	for (unsigned int i = 0; i < threads; i++) {
		struct sm_thread_start *start = malloc(sizeof(*start));

		/* SM 0 is the dispatcher's; the pool's threads follow. */
		if (!start)
			break;
		*start = (struct sm_thread_start){ pool, i + 1 };
		if (pthread_create(&pool->threads[i], NULL, sm_thread, start)) {
			free(start);
			break;
		}
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
	pthread_mutex_destroy(&pool->cooperative);
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

/* Posts @g, works on it, and waits until every thread has left it. */
static bool run_grid(struct sm_pool *pool, struct ptx_worker *caller,
		     struct grid *g, struct ptx_fault *fault)
{
	atomic_init(&g->next, 0);
	g->workers = 1;
	pthread_mutex_lock(&pool->lock);
	g->next_grid = pool->grids;
	pool->grids = g;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);

	work_on(pool, g, caller);

	pthread_mutex_lock(&pool->lock);
	/* A cooperative grid needs every range taken before it can end. */
	while (g->cooperative && atomic_load(&g->next) < g->total)
		pthread_cond_wait(&pool->left, &pool->lock);
	unlink_grid(pool, g);
	g->workers--;
	while (g->workers)
		pthread_cond_wait(&pool->left, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
	if (g->faulted)
		*fault = g->fault;
	return !g->faulted;
}

static uint64_t grid_ctas(const struct ptx_launch *launch)
{
	return (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
}

bool sm_pool_run(struct sm_pool *pool, struct ptx_worker *caller,
		 const struct ptx_launch *launch, struct ptx_fault *fault)
{
	struct grid g = { .launch = launch, .total = grid_ctas(launch) };
	/* Several chunks per thread keep the threads busy to the end. */
	uint64_t per_thread = g.total / ((pool->nthreads + 1) * 8);

	g.chunk = per_thread ? per_thread : 1;
	return run_grid(pool, caller, &g, fault);
}

unsigned int sm_pool_width(const struct sm_pool *pool)
{
	return pool->nthreads + 1;
}

bool sm_pool_run_cooperative(struct sm_pool *pool, struct ptx_worker *caller,
			     const struct ptx_launch *launch,
			     struct ptx_fault *fault)
{
	uint64_t width = sm_pool_width(pool);
	struct grid g = {
		.launch = launch,
		.total = grid_ctas(launch),
		.cooperative = true,
	};
	bool ok;

	g.chunk = (g.total + width - 1) / width;
	pthread_mutex_lock(&pool->cooperative);
	ok = run_grid(pool, caller, &g, fault);
	pthread_mutex_unlock(&pool->cooperative);
	return ok;
}
