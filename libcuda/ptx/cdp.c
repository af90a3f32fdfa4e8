// SPDX-License-Identifier: MIT
/*
 * The launch tree of dynamic parallelism. A host launch is the root;
 * every grid a kernel launches with <<<>>> becomes a node of the tree,
 * appended to the list of the grid that launched it: its children (any
 * stream but the tail stream) or its tail launches. Nothing runs while a
 * kernel launches: once a grid's CTAs have all run, its children run in
 * launch order, each with all of its own descendants, then its tail
 * launches in order (ptx_cdp_finish). That is one of the orders CUDA
 * allows for every stream, event and tail-launch rule at once: a child
 * starts after its launch (it sees what its parent wrote before), a
 * grid completes after its descendants, launches into one stream run one
 * after the other, an event's wait comes after what was recorded before
 * it, and tail launches run after their parent and everything it
 * launched, a tail grid's own tail launches before its parent's next.
 * CDP2 has no device-side synchronization, so no kernel can wait for a
 * child it launched and the order cannot deadlock.
 *
 * A launched grid holds one of cudaLimitDevRuntimePendingLaunchCount
 * slots until its CTAs have run, as an H100 counts them (tail launches
 * and grids queued behind a running one fail with
 * cudaErrorLaunchPendingCountExceeded past the limit).
 */
#include "cdp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A stream or event the tree's kernels created; its address is the handle. */
struct cdp_handle {
	bool event;
	struct cdp_handle *next;
};

/* A thread's last error (cudaGetLastError), kept only while non-zero. */
struct cdp_thread_error {
	uint64_t thread;		/* linear index in the grid */
	uint32_t err;
	struct cdp_thread_error *next;
};

struct cdp_tree {
	pthread_mutex_t lock;
	struct ptx_cdp_config config;
	uint32_t pending;		/* launched grids whose CTAs have not run */
	struct ptx_cdp_grid *prepared;	/* buffers handed out, not launched */
	struct cdp_handle *handles;
};

/* What a node of the tree does when its turn comes. */
enum cdp_node_kind { NODE_GRID, NODE_COPY, NODE_SET };

struct ptx_cdp_grid {
	struct ptx_launch launch;	/* launch.cdp == this (not the root's) */
	enum cdp_node_kind kind;
	uint64_t dst, src, bytes;	/* NODE_COPY, NODE_SET (src: value) */
	struct cdp_tree *tree;
	struct ptx_cdp_grid *next;	/* in a list of its parent, or prepared */
	struct ptx_cdp_grid *children, **children_end;
	struct ptx_cdp_grid *tails, **tails_end;
	struct cdp_thread_error *errors;	/* under the tree's lock */
	uint64_t param_cap;		/* bytes of params[] */
	_Alignas(16) unsigned char params[];
};

static struct ptx_cdp_grid *grid_new(struct cdp_tree *t, uint64_t param_cap)
{
	struct ptx_cdp_grid *g = calloc(1, sizeof(*g) + param_cap);
	if (!g)
		return NULL;
	g->tree = t;
	g->param_cap = param_cap;
	g->children_end = &g->children;
	g->tails_end = &g->tails;
	return g;
}

static void grid_free(struct ptx_cdp_grid *g)
{
	while (g->errors) {
		struct cdp_thread_error *e = g->errors;
		g->errors = e->next;
		free(e);
	}
	free(g);
}

bool ptx_kernel_uses_cdp(const struct ptx_kernel *kernel)
{
	return kernel->prog->uses_cdp;
}

struct ptx_cdp_grid *ptx_cdp_root(struct ptx_launch *launch,
				  const struct ptx_cdp_config *config)
{
	struct cdp_tree *t = calloc(1, sizeof(*t));
	struct ptx_cdp_grid *root = t ? grid_new(t, 0) : NULL;
	if (!root) {
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	t->config = *config;
	launch->cdp = root;
	return root;
}

const struct ptx_cdp_config *cdp_config(const struct ptx_cdp_grid *g)
{
	return &g->tree->config;
}

/* ---- the kernel a function pointer names ---- */

static const struct ptx_kernel *kernel_of(const struct ptx_program *p,
					  uint64_t func)
{
	if (func < FUNC_ADDR_BASE || (func - FUNC_ADDR_BASE) % FUNC_ADDR_STRIDE)
		return NULL;
	uint64_t id = (func - FUNC_ADDR_BASE) / FUNC_ADDR_STRIDE;
	if (id >= p->nfuncs)
		return NULL;
	for (const struct ptx_kernel *k = p->kernels; k; k = k->next)
		if (k->sym == p->funcs[id] || k->sym->def == p->funcs[id])
			return k;
	return NULL;
}

/* ---- per-thread errors ---- */

static uint64_t grid_thread(const struct rt_cta *c, uint32_t thread)
{
	const uint32_t *g = c->launch->grid, *id = c->ctaid;
	uint64_t cta = id[0] + (uint64_t)g[0] * (id[1] + (uint64_t)g[1] * id[2]);
	return cta * c->nthreads + thread;
}

uint32_t rt_cdp_set_error(struct rt_cta *c, uint32_t thread, uint32_t err)
{
	struct ptx_cdp_grid *g = c->launch->cdp;
	if (err == CDP_OK || !g)
		return err;
	uint64_t who = grid_thread(c, thread);
	pthread_mutex_lock(&g->tree->lock);
	struct cdp_thread_error *e = g->errors;
	while (e && e->thread != who)
		e = e->next;
	if (!e && (e = calloc(1, sizeof(*e)))) {
		e->thread = who;
		e->next = g->errors;
		g->errors = e;
	}
	if (e)
		e->err = err;
	pthread_mutex_unlock(&g->tree->lock);
	return err;
}

uint32_t rt_cdp_last_error(struct rt_cta *c, uint32_t thread, bool clear)
{
	struct ptx_cdp_grid *g = c->launch->cdp;
	uint32_t err = CDP_OK;
	if (!g)
		return CDP_OK;
	uint64_t who = grid_thread(c, thread);
	pthread_mutex_lock(&g->tree->lock);
	for (struct cdp_thread_error **e = &g->errors; *e; e = &(*e)->next) {
		if ((*e)->thread != who)
			continue;
		struct cdp_thread_error *hit = *e;
		err = hit->err;
		if (clear) {
			*e = hit->next;
			free(hit);
		}
		break;
	}
	pthread_mutex_unlock(&g->tree->lock);
	return err;
}

/* ---- streams and events ---- */

uint64_t cdp_handle_create(struct ptx_cdp_grid *g, bool event)
{
	struct cdp_handle *h = calloc(1, sizeof(*h));
	if (!h)
		return 0;
	h->event = event;
	pthread_mutex_lock(&g->tree->lock);
	h->next = g->tree->handles;
	g->tree->handles = h;
	pthread_mutex_unlock(&g->tree->lock);
	return (uint64_t)(uintptr_t)h;
}

static struct cdp_handle **find_handle(struct cdp_tree *t, uint64_t handle,
				       bool event)
{
	for (struct cdp_handle **h = &t->handles; *h; h = &(*h)->next)
		if ((uint64_t)(uintptr_t)*h == handle && (*h)->event == event)
			return h;
	return NULL;
}

bool cdp_handle_valid(struct ptx_cdp_grid *g, uint64_t handle, bool event)
{
	pthread_mutex_lock(&g->tree->lock);
	bool found = find_handle(g->tree, handle, event) != NULL;
	pthread_mutex_unlock(&g->tree->lock);
	return found;
}

bool cdp_handle_destroy(struct ptx_cdp_grid *g, uint64_t handle, bool event)
{
	pthread_mutex_lock(&g->tree->lock);
	struct cdp_handle **h = find_handle(g->tree, handle, event), *gone = NULL;
	if (h) {
		gone = *h;
		*h = gone->next;
	}
	pthread_mutex_unlock(&g->tree->lock);
	free(gone);
	return gone != NULL;
}

bool cdp_stream_valid(struct ptx_cdp_grid *g, uint64_t stream)
{
	return stream == CDP_STREAM_NULL || stream == CDP_STREAM_PER_THREAD ||
	       stream == CDP_STREAM_TAIL ||
	       stream == CDP_STREAM_FIRE_AND_FORGET ||
	       cdp_handle_valid(g, stream, false);
}

/* ---- parameter buffers ---- */

/* A node for a launch from @c, with @cap bytes of parameters. */
static struct ptx_cdp_grid *prepare(struct rt_cta *c, uint64_t cap)
{
	struct ptx_cdp_grid *parent = c->launch->cdp;
	struct ptx_cdp_grid *g = grid_new(parent->tree, cap ? cap : 1);
	if (!g)
		return NULL;
	/* The child reaches what its parent reaches. */
	g->launch = (struct ptx_launch){
		.params = g->params,
		.ranges = c->launch->ranges,
		.range_count = c->launch->range_count,
		.heap = c->launch->heap,
		.printf_fifo = c->launch->printf_fifo,
		.sm_count = c->launch->sm_count,
		.kill = c->launch->kill,
		.cdp = g,
	};
	pthread_mutex_lock(&g->tree->lock);
	g->next = g->tree->prepared;
	g->tree->prepared = g;
	pthread_mutex_unlock(&g->tree->lock);
	return g;
}

static void set_config(struct ptx_cdp_grid *g, const struct ptx_kernel *k,
		       const uint32_t grid[3], const uint32_t block[3],
		       uint32_t shared)
{
	g->launch.kernel = k;
	memcpy(g->launch.grid, grid, sizeof(g->launch.grid));
	memcpy(g->launch.block, block, sizeof(g->launch.block));
	g->launch.dynamic_shared_size = shared;
}

/* A parameter buffer request that fails: NULL, and the thread's error. */
static uint64_t no_buffer(struct rt_cta *c, uint32_t thread, uint32_t err)
{
	rt_cdp_set_error(c, thread, err);
	return 0;
}

uint64_t rt_cdp_param_buffer_v2(struct rt_cta *c, uint32_t thread,
				uint64_t func, const uint32_t grid[3],
				const uint32_t block[3], uint32_t shared)
{
	if (!c->launch->cdp)
		return no_buffer(c, thread, CDP_ERR_NOT_SUPPORTED);
	const struct ptx_kernel *k = kernel_of(c->kernel->prog, func);
	if (!k)
		return no_buffer(c, thread, CDP_ERR_INVALID_DEVICE_FUNCTION);
	struct ptx_cdp_grid *g = prepare(c, k->info.param_size);
	if (!g)
		return no_buffer(c, thread, CDP_ERR_MEMORY_ALLOCATION);
	/* A bad configuration is the launch's error, as on an H100. */
	set_config(g, k, grid, block, shared);
	return (uint64_t)(uintptr_t)g->params;
}

uint64_t rt_cdp_param_buffer(struct rt_cta *c, uint32_t thread,
			     uint64_t align, uint64_t size)
{
	if (!c->launch->cdp)
		return no_buffer(c, thread, CDP_ERR_NOT_SUPPORTED);
	/* kernel parameters are at most 32 KiB, 16-byte aligned at most */
	if (align > 16 || size > (32u << 10))
		return no_buffer(c, thread, CDP_ERR_INVALID_VALUE);
	struct ptx_cdp_grid *g = prepare(c, size);
	if (!g)
		return no_buffer(c, thread, CDP_ERR_MEMORY_ALLOCATION);
	return (uint64_t)(uintptr_t)g->params;
}

bool rt_cdp_param_window(const struct ptx_launch *l, uint64_t addr,
			 unsigned size)
{
	struct cdp_tree *t = l->cdp->tree;
	bool found = false;
	pthread_mutex_lock(&t->lock);
	for (struct ptx_cdp_grid *g = t->prepared; g && !found; g = g->next) {
		uint64_t base = (uint64_t)(uintptr_t)g->params;
		found = addr >= base && addr - base + size <= g->param_cap;
	}
	pthread_mutex_unlock(&t->lock);
	return found;
}

/* Takes the prepared node whose buffer is @buf off the prepared list. */
static struct ptx_cdp_grid *take_prepared(struct cdp_tree *t, uint64_t buf)
{
	for (struct ptx_cdp_grid **g = &t->prepared; *g; g = &(*g)->next) {
		if ((uint64_t)(uintptr_t)(*g)->params != buf)
			continue;
		struct ptx_cdp_grid *hit = *g;
		*g = hit->next;
		hit->next = NULL;
		return hit;
	}
	return NULL;
}

static bool dims_fit(const uint32_t d[3], const uint32_t max[3])
{
	for (int i = 0; i < 3; i++)
		if (!d[i] || d[i] > max[i])
			return false;
	return true;
}

/* What cudaLaunchDevice says of the configuration of @g. */
static uint32_t check_config(const struct ptx_cdp_grid *g)
{
	const struct ptx_cdp_config *cf = &g->tree->config;
	const struct ptx_launch *l = &g->launch;
	const struct ptx_kernel_info *ki = &l->kernel->info;
	uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	if (!dims_fit(l->grid, cf->max_grid) ||
	    !dims_fit(l->block, cf->max_block) || threads > cf->max_threads ||
	    (ki->max_threads && threads > ki->max_threads) ||
	    (uint64_t)ki->static_shared_size + l->dynamic_shared_size >
		    cf->max_shared)
		return CDP_ERR_INVALID_CONFIGURATION;
	return CDP_OK;
}

/* Queues @g, taken from the prepared list, as a launch of @parent. */
static uint32_t queue(struct ptx_cdp_grid *parent, struct ptx_cdp_grid *g,
		      uint64_t stream)
{
	struct cdp_tree *t = parent->tree;
	uint32_t err = check_config(g);
	if (err == CDP_OK && !cdp_stream_valid(parent, stream))
		err = CDP_ERR_INVALID_VALUE;
	pthread_mutex_lock(&t->lock);
	if (err == CDP_OK && t->pending >= t->config.pending_limit)
		err = CDP_ERR_PENDING_COUNT;
	if (err == CDP_OK) {
		t->pending++;
		if (stream == CDP_STREAM_TAIL) {
			*parent->tails_end = g;
			parent->tails_end = &g->next;
		} else {
			*parent->children_end = g;
			parent->children_end = &g->next;
		}
	}
	pthread_mutex_unlock(&t->lock);
	if (err != CDP_OK)
		grid_free(g);
	return err;
}

static struct ptx_cdp_grid *take_buffer(struct rt_cta *c, uint64_t buf)
{
	struct ptx_cdp_grid *parent = c->launch->cdp;
	if (!parent)
		return NULL;
	pthread_mutex_lock(&parent->tree->lock);
	struct ptx_cdp_grid *g = take_prepared(parent->tree, buf);
	pthread_mutex_unlock(&parent->tree->lock);
	return g;
}

uint32_t rt_cdp_launch_v2(struct rt_cta *c, uint32_t thread, uint64_t buf,
			  uint64_t stream)
{
	struct ptx_cdp_grid *g = take_buffer(c, buf);
	if (!g || !g->launch.kernel) {
		if (g)
			grid_free(g);
		return rt_cdp_set_error(c, thread, c->launch->cdp ?
				CDP_ERR_INVALID_VALUE : CDP_ERR_NOT_SUPPORTED);
	}
	return rt_cdp_set_error(c, thread, queue(c->launch->cdp, g, stream));
}

uint32_t rt_cdp_launch(struct rt_cta *c, uint32_t thread, uint64_t func,
		       uint64_t buf, const uint32_t grid[3],
		       const uint32_t block[3], uint32_t shared,
		       uint64_t stream)
{
	const struct ptx_kernel *k = kernel_of(c->kernel->prog, func);
	struct ptx_cdp_grid *g = take_buffer(c, buf);
	uint32_t err = !g ? (c->launch->cdp ? CDP_ERR_INVALID_VALUE :
				       CDP_ERR_NOT_SUPPORTED) :
		       !k ? CDP_ERR_INVALID_DEVICE_FUNCTION :
		       g->param_cap < k->info.param_size ? CDP_ERR_INVALID_VALUE :
							   CDP_OK;
	if (err != CDP_OK) {
		if (g)
			grid_free(g);
		return rt_cdp_set_error(c, thread, err);
	}
	set_config(g, k, grid, block, shared);
	return rt_cdp_set_error(c, thread, queue(c->launch->cdp, g, stream));
}

/* ---- device-side copies and fills ---- */

/* Both ends of [addr, addr + bytes) are memory the launch reaches. */
static bool reachable(struct rt_cta *c, uint32_t thread, uint64_t addr,
		      uint64_t bytes, bool write)
{
	return !bytes || (addr + bytes > addr &&
			  rt_global(c, thread, addr, 1, write) &&
			  rt_global(c, thread, addr + bytes - 1, 1, write));
}

bool rt_cdp_memory_op(struct rt_cta *c, uint32_t thread, bool copy,
		      uint64_t dst, uint64_t src, uint64_t bytes,
		      uint64_t stream, uint32_t *err)
{
	struct ptx_cdp_grid *parent = c->launch->cdp;
	*err = CDP_OK;
	if (!reachable(c, thread, dst, bytes, true) ||
	    (copy && !reachable(c, thread, src, bytes, false)))
		return false;
	if (!cdp_stream_valid(parent, stream)) {
		*err = rt_cdp_set_error(c, thread, CDP_ERR_INVALID_VALUE);
		return true;
	}
	struct ptx_cdp_grid *g = bytes ? grid_new(parent->tree, 0) : NULL;
	if (!g) {
		*err = rt_cdp_set_error(c, thread, bytes ?
					CDP_ERR_MEMORY_ALLOCATION : CDP_OK);
		return true;
	}
	g->kind = copy ? NODE_COPY : NODE_SET;
	g->dst = dst;
	g->src = src;
	g->bytes = bytes;
	pthread_mutex_lock(&parent->tree->lock);
	if (stream == CDP_STREAM_TAIL) {
		*parent->tails_end = g;
		parent->tails_end = &g->next;
	} else {
		*parent->children_end = g;
		parent->children_end = &g->next;
	}
	pthread_mutex_unlock(&parent->tree->lock);
	return true;
}

/* ---- running the tree ---- */

struct runner {
	struct cdp_tree *tree;
	ptx_cdp_run_fn run;
	void *user;
	struct ptx_fault *fault;
	bool ok;
};

static void run_descendants(struct runner *r, struct ptx_cdp_grid *g);

/* A device-side cudaMemcpyAsync/cudaMemsetAsync, in its stream's turn
 * (its addresses were checked when it was queued). */
static void do_memory_op(const struct ptx_cdp_grid *g)
{
	void *dst = (void *)(uintptr_t)g->dst;
	if (g->kind == NODE_COPY)
		memmove(dst, (const void *)(uintptr_t)g->src, g->bytes);
	else
		memset(dst, (int)(uint8_t)g->src, g->bytes);
}

/* Runs (or, after a fault, drops) each grid of @list with its subtree. */
static void run_list(struct runner *r, struct ptx_cdp_grid *list)
{
	while (list) {
		struct ptx_cdp_grid *g = list;
		list = g->next;
		if (g->kind != NODE_GRID) {
			if (r->ok)
				do_memory_op(g);
			grid_free(g);
			continue;
		}
		if (r->ok)
			r->ok = r->run(r->user, &g->launch, r->fault);
		pthread_mutex_lock(&r->tree->lock);
		r->tree->pending--;
		pthread_mutex_unlock(&r->tree->lock);
		run_descendants(r, g);
		grid_free(g);
	}
}

/* @g's CTAs have run: its children, then its tail launches. */
static void run_descendants(struct runner *r, struct ptx_cdp_grid *g)
{
	struct ptx_cdp_grid *children = g->children, *tails = g->tails;
	g->children = g->tails = NULL;
	run_list(r, children);
	run_list(r, tails);
}

bool ptx_cdp_finish(struct ptx_cdp_grid *root, bool root_ok,
		    ptx_cdp_run_fn run, void *user, struct ptx_fault *fault)
{
	struct cdp_tree *t = root->tree;
	struct runner r = { t, run, user, fault, root_ok };
	run_descendants(&r, root);
	grid_free(root);
	while (t->prepared) {
		struct ptx_cdp_grid *g = t->prepared;
		t->prepared = g->next;
		grid_free(g);
	}
	while (t->handles) {
		struct cdp_handle *h = t->handles;
		t->handles = h->next;
		free(h);
	}
	pthread_mutex_destroy(&t->lock);
	free(t);
	return r.ok;
}
