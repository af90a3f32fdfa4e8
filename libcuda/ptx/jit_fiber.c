// SPDX-License-Identifier: MIT
/*
 * Cooperative launches on compiled code. A grid-wide barrier spins (on
 * the grid workspace, with atomics and acquiring loads) until every CTA
 * of the grid has arrived, so every CTA of a worker's range must be
 * resident at once: each runs on a fiber of its own (its own stack and
 * ucontext, its own CTA memory), and the worker's thread switches
 * between them, round robin.
 *
 * Where they switch: at the back-edges of loops that may spin (their
 * body reads memory with an ordered or volatile load or an atomic:
 * jit_emit.c), the compiled code looks at the flag jit_cta.spin points
 * to (other back-edges: jit_cta.kill, the launch's kill flag). A
 * cooperative launch points it at a set flag, so those back-edges call
 * jit_poll(), which looks at the launch's kill flag and, every
 * YIELD_EVERY calls, switches to the next resident CTA
 * (jit_fiber_yield), much as the interpreter's scheduler switches warps
 * at taken backward branches (sched.c). A spinning CTA thus lets the
 * others reach the barrier, and a launch stopped from outside (its kill
 * flag: a time-out, a fault elsewhere) is seen inside spin loops as
 * anywhere. Loops that cannot spin pay nothing more than in other
 * launches (a call per back-edge made a grid-stride loop 2x slower),
 * nor does code of other launches, whose jit_cta.spin is the kill flag.
 *
 * A CTA that ends or faults switches back for good; the first fault
 * ends the range, as on the interpreter. The fibers left then are
 * suspended inside jit_poll(), holding nothing, and are dropped.
 *
 * A worker keeps its fibers (stacks and CTA memory) for its next
 * cooperative launch: mapping and first touching them anew made a
 * launch of 32 CTAs per worker spend most of its time in page faults.
 */
#include "interp.h"
#include "jit.h"

#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

enum {
	FIBER_STACK = 256 << 10,	/* compiled code needs little */
	YIELD_EVERY = 64,		/* back-edges between switches */
};

struct fiber {
	ucontext_t ctx;
	uint8_t *map;		/* the stack, a guard page below it */
	size_t map_size;
	struct rt_cta rt;
	struct jit_cta jc;
	struct jit_worker *mem;	/* the CTA's shared memory, saves, ... */
	uint64_t linear;
	bool done, ok;
};

struct jit_fibers {
	struct fiber *f;
	uint64_t n;
};

struct fiber_sched {
	ucontext_t ctx;		/* the worker thread's own */
	struct fiber *current;
	uint32_t budget;
};

/* The range this thread runs now, if it is a cooperative one. */
static _Thread_local struct fiber_sched *running;
static uint64_t launches;
static const atomic_bool always = true;

uint64_t jit_fiber_launches(void)
{
	return __atomic_load_n(&launches, __ATOMIC_RELAXED);
}

void jit_fiber_yield(void)
{
	struct fiber_sched *s = running;
	if (!s || --s->budget)
		return;
	s->budget = YIELD_EVERY;
	swapcontext(&s->current->ctx, &s->ctx);
}

/* A fiber's body; returning resumes the scheduler (uc_link). */
static void fiber_main(void)
{
	struct fiber *f = running->current;
	f->ok = jit_cta_run(&f->jc, f->rt.kernel->jit, f->linear);
	f->done = true;
}

static bool out_of_memory(struct ptx_fault *fault)
{
	if (!fault->kind) {
		fault->kind = PTX_FAULT_OUT_OF_RESOURCES;
		strcpy(fault->message, "out of memory for resident CTAs");
	}
	return false;
}

/* A stack of FIBER_STACK bytes above a guard page, once per fiber. */
static bool map_stack(struct fiber *f)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (f->map)
		return true;
	uint8_t *m = mmap(NULL, FIBER_STACK + page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
				  MAP_STACK,
			  -1, 0);
	if (m == MAP_FAILED)
		return false;
	/* an overflow faults there rather than writing over memory */
	if (mprotect(m, page, PROT_NONE)) {
		munmap(m, FIBER_STACK + page);
		return false;
	}
	f->map = m;
	f->map_size = FIBER_STACK + page;
	return true;
}

static bool fiber_open(struct fiber *f, struct fiber_sched *s,
		       struct ptx_worker *wk, const struct ptx_launch *l,
		       uint64_t linear, struct ptx_fault *fault)
{
	if (!jit_cta_open(wk, l, fault, &f->mem, &f->rt, &f->jc))
		return false;
	f->jc.spin = &always;	/* spin loops' back-edges call jit_poll() */
	f->linear = linear;
	f->done = f->ok = false;
	if (!map_stack(f) || getcontext(&f->ctx))
		return out_of_memory(fault);
	f->ctx.uc_stack.ss_sp = f->map + (f->map_size - FIBER_STACK);
	f->ctx.uc_stack.ss_size = FIBER_STACK;
	f->ctx.uc_link = &s->ctx;
	makecontext(&f->ctx, fiber_main, 0);
	return true;
}

void jit_fibers_free(struct jit_fibers *p)
{
	if (!p)
		return;
	for (uint64_t i = 0; i < p->n; i++) {
		if (p->f[i].map)
			munmap(p->f[i].map, p->f[i].map_size);
		jit_cta_memory_free(p->f[i].mem);
	}
	free(p->f);
	free(p);
}

/* The worker's fibers, at least @count of them; NULL without memory. */
static struct fiber *worker_fibers(struct ptx_worker *wk, uint64_t count)
{
	struct jit_fibers **pp = jit_worker_fibers(wk), *p;
	if (!pp || (!*pp && !(*pp = calloc(1, sizeof(**pp)))))
		return NULL;
	p = *pp;
	if (count <= p->n)
		return p->f;
	if (count > SIZE_MAX / sizeof(*p->f))
		return NULL;
	/*
	 * Moving a fiber is safe only between launches: glibc's ucontext_t
	 * points into itself (its FP state), and fiber_open() rebuilds every
	 * context with getcontext() before the launch switches to it.
	 */
	struct fiber *f = realloc(p->f, count * sizeof(*f));
	if (!f)
		return NULL;
	memset(f + p->n, 0, (count - p->n) * sizeof(*f));
	p->f = f;
	p->n = count;
	return f;
}

/*
 * Round robin until every CTA ended; false at the first fault. A round
 * in which every CTA only spun (none ended) while other workers run the
 * rest of the grid gives this thread's CPU away: on a machine busier
 * than it has CPUs, the CTAs they wait for may be on a worker that is
 * not running.
 */
static bool run_fibers(struct fiber_sched *s, struct fiber *f, uint64_t count,
		       bool others)
{
	uint64_t live = count;
	bool spun = false;	/* the last round ended no CTA */
	while (live) {
		uint64_t before = live;
		if (others && spun)
			sched_yield();
		for (uint64_t i = 0; i < count; i++) {
			if (f[i].done)
				continue;
			s->current = &f[i];
			s->budget = YIELD_EVERY;
			swapcontext(&s->ctx, &f[i].ctx);
			if (!f[i].done)
				continue;
			if (!f[i].ok)
				return false;
			live--;
		}
		spun = live == before;
	}
	return true;
}

bool jit_fiber_run_ctas(struct ptx_worker *wk,
			const struct ptx_launch *launch, uint64_t first,
			uint64_t count, struct ptx_fault *fault)
{
	if (!launch_is_valid(launch, fault))
		return false;
	memset(fault, 0, sizeof(*fault));
	if (!count)
		return true;
	struct fiber_sched s = { 0 };
	struct fiber *f = worker_fibers(wk, count);
	bool ok = f || out_of_memory(fault);
	for (uint64_t i = 0; ok && i < count; i++)
		ok = fiber_open(&f[i], &s, wk, launch, first + i, fault);
	if (ok) {
		struct fiber_sched *outer = running;
		running = &s;
		uint64_t grid = (uint64_t)launch->grid[0] * launch->grid[1] *
				launch->grid[2];
		ok = run_fibers(&s, f, count, count < grid);
		running = outer;
		__atomic_add_fetch(&launches, 1, __ATOMIC_RELAXED);
	}
	return ok;
}
