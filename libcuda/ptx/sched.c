// SPDX-License-Identifier: MIT
/*
 * Running CTAs: per-thread workers, CTA and warp set-up, the warp
 * scheduler (run a warp until it stops; switch at barriers, exits and
 * yields), CTA barriers, and faults.
 */
#include "interp.h"
#include "jit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct ptx_worker *ptx_worker_create(void)
{
	return calloc(1, sizeof(struct ptx_worker));
}

static void free_slot(struct cta_slot *s)
{
	for (uint32_t i = 0; i < s->warp_cap; i++) {
		free(s->warps[i].stack);
		free(s->warps[i].regs);
	}
	free(s->warps);
	free(s->shared);
	free(s->local);
	free(s->sregs);
}

void ptx_worker_destroy(struct ptx_worker *wk)
{
	if (!wk)
		return;
	for (uint32_t i = 0; i < wk->nslots; i++)
		free_slot(&wk->slots[i]);
	free(wk->slots);
	jit_worker_free(wk);
	free(wk);
}

void ptx_worker_set_smid(struct ptx_worker *wk, uint32_t smid)
{
	if (wk)
		wk->smid = smid;
}

void ptx_worker_count(struct ptx_worker *wk, uint64_t *counter)
{
	wk->lane_insns = counter;
}

/* ---- faults ---- */

const struct xinsn *xfault_located(struct warp *w, const struct xinsn *ip)
{
	struct cta *cta = w->cta;
	w->state = WARP_FAULTED;
	if (cta->located || !cta->rt.faulted)
		return NULL;
	cta->located = true;
	if (ip && ip->src && ip->func) {
		struct ptx_fault *f = cta->rt.fault;
		const struct ir_sym *fn = ip->func->ir->sym;
		size_t len = strnlen(f->message, sizeof(f->message));
		struct msgbuf m = { f->message, sizeof(f->message), len };
		msg_printf(&m, " (%s:%u, in %s)", fn->module->name,
			   ip->src->line, fn->name);
	}
	return NULL;
}

const struct xinsn *xfault(struct warp *w, const struct xinsn *ip,
			   enum ptx_fault_kind kind, uint32_t lane,
			   uint64_t addr, const char *fmt, ...)
{
	struct cta *cta = w->cta;
	if (!cta->rt.faulted) {
		va_list ap;
		va_start(ap, fmt);
		rt_vfault(&cta->rt, kind, warp_thread(w, lane), addr, fmt, ap);
		va_end(ap);
	}
	return xfault_located(w, ip);
}

/* ---- barriers: the helpers count, the scheduler parks and wakes ---- */

static uint32_t live_threads(const struct cta *cta)
{
	return cta->live_warps * WARP_SIZE;
}

static uint32_t barrier_expected(const struct cta *cta, uint32_t id)
{
	uint32_t e = cta->bars[id].expected;
	return e ? e : live_threads(cta);
}

static void barrier_release(struct cta *cta, uint32_t id)
{
	struct rt_barrier *b = &cta->bars[id];
	for (uint32_t i = 0; i < cta->rt.nwarps; i++) {
		struct warp *w = &cta->warps[i];
		if (w->state != WARP_AT_BARRIER || w->bar_id != id)
			continue;
		w->state = WARP_RUNNABLE;
		if (!w->bar_dst)
			continue;
		uint64_t *d = xr(w, w->bar_dst);
		if (w->bar_redop == 0) {
			for (int l = 0; l < WARP_SIZE; l++)
				d[l] = b->red_popc;
		} else {
			uint32_t v = w->bar_redop == 1 ? b->red_and : b->red_or;
			*(uint32_t *)d = v ? FULL_MASK : 0;
		}
	}
	rt_barrier_reset(b);
}

static bool barrier_check(struct cta *cta, uint32_t id)
{
	if (!rt_barrier_complete(&cta->bars[id], live_threads(cta)))
		return false;
	barrier_release(cta, id);
	return true;
}

bool barrier_arrive(struct warp *w, uint32_t id, uint32_t threads, bool wait)
{
	struct cta *cta = w->cta;
	rt_barrier_arrive(&cta->bars[id], WARP_SIZE, threads);
	if (wait) {
		w->state = WARP_AT_BARRIER;
		w->bar_id = id;
	}
	barrier_check(cta, id);
	return w->state == WARP_AT_BARRIER;
}

void warp_finish(struct warp *w)
{
	struct cta *cta = w->cta;
	w->state = WARP_DONE;
	w->live = 0;
	cta->live_warps--;
	/* fewer live threads may complete a barrier some have reached */
	for (uint32_t id = 0; id < RT_MAX_BARRIERS; id++)
		if (cta->bars[id].arrived)
			barrier_check(cta, id);
}

/* ---- set-up ---- */

/* A block of at least @need bytes at an @align-byte boundary (at least 64,
 * a power of two): kept when the one held already is both. */
static bool grow(void **p, uint64_t *cap, uint64_t need, uint32_t align)
{
	if (align < 64)
		align = 64;
	if (need <= *cap && !((uintptr_t)*p & (align - 1)))
		return true;
	uint64_t n = need < 4096 ? 4096 : need;
	void *q = aligned_alloc(align, ALIGN_UP(n, align));
	if (!q)
		return false;
	free(*p);
	*p = q;
	*cap = n;
	return true;
}

static bool reserve_warps(struct cta_slot *sl, uint32_t n)
{
	if (n <= sl->warp_cap)
		return true;
	struct warp *w = realloc(sl->warps, n * sizeof(*w));
	if (!w)
		return false;
	memset(w + sl->warp_cap, 0, (n - sl->warp_cap) * sizeof(*w));
	sl->warps = w;
	sl->warp_cap = n;
	return true;
}

bool warp_grow_regs(struct warp *w, uint64_t need)
{
	if (need <= w->regs_cap)
		return true;
	uint64_t cap = w->regs_cap * 2 > need ? w->regs_cap * 2 : need;
	uint8_t *r = aligned_alloc(64, ALIGN_UP(cap, 64));
	if (!r)
		return false;
	if (w->regs)
		memcpy(r, w->regs, w->regs_cap);
	free(w->regs);
	w->regs = r;
	w->regs_cap = ALIGN_UP(cap, 64);
	w->base[SEL_FRAME] = (uintptr_t)(w->regs + w->frame);
	return true;
}

static bool reserve(struct cta_slot *sl, const struct cta *cta,
		    uint32_t nslots)
{
	const struct ptx_kernel *k = cta->rt.kernel;
	uint64_t sregs = (uint64_t)nslots * LANE_BYTES * cta->rt.nwarps;
	if (!reserve_warps(sl, cta->rt.nwarps) ||
	    !grow((void **)&sl->shared, &sl->shared_cap, cta->rt.shared_size,
		  k->layout.shared_align) ||
	    !grow((void **)&sl->local, &sl->local_cap, cta->rt.local_size,
		  k->layout.local_align) ||
	    !grow((void **)&sl->sregs, &sl->sregs_cap, sregs, 64))
		return false;
	for (uint32_t i = 0; i < cta->rt.nwarps; i++) {
		struct warp *w = &sl->warps[i];
		w->frame = 0;
		if (!warp_grow_regs(w, k->interp->regs_stride))
			return false;
		if (!w->stack_cap) {
			struct stack_entry e = { 0 };
			if (!warp_push(w, &e))
				return false;
		}
	}
	return true;
}

static void init_warp(struct cta *cta, struct warp *w, uint32_t index)
{
	const struct ptx_kernel *k = cta->rt.kernel;
	uint32_t first = index * WARP_SIZE;
	uint32_t n = cta->rt.nthreads - first;
	w->cta = cta;
	w->index = index;
	w->live = n >= WARP_SIZE ? FULL_MASK : (1u << n) - 1;
	w->active = w->live;
	w->state = WARP_RUNNABLE;
	w->budget = cta->branch_budget;
	w->cc = 0;
	w->depth = 0;
	w->calls = 0;
	struct stack_entry base = { .mask = w->live, .kind = ENTRY_NORMAL };
	warp_push(w, &base);	/* capacity reserved */
	w->frame = 0;
	w->local_base = 0;
	w->func = k->interp->entry;
	w->ip = k->interp->entry->code;
	w->base[SEL_FRAME] = (uintptr_t)w->regs;
	w->base[SEL_SREG] = (uintptr_t)w->sregs;
	w->base[SEL_ABS] = 0;
	w->base[3] = 0;
	for (uint32_t i = 0; i < k->interp->nzero; i++)
		memset(w->regs + k->interp->zero[i].off, 0,
		       k->interp->zero[i].len);
	for (uint32_t l = 0; l < WARP_SIZE; l++)
		w->lane_local[l] = cta->rt.local + (first + l) * k->layout.local_stride;
	w->bar_dst = 0;
	sreg_fill(w);
}

bool launch_is_valid(const struct ptx_launch *l, struct ptx_fault *f)
{
	const char *why = NULL;
	uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	if (!l->kernel)
		why = "no kernel";
	else if (!threads || threads > 1024)
		why = "bad block size";
	else if (!l->grid[0] || !l->grid[1] || !l->grid[2])
		why = "bad grid size";
	else if (l->kernel->info.param_size && !l->params)
		why = "missing parameters";
	if (!why)
		return true;
	memset(f, 0, sizeof(*f));
	f->kind = PTX_FAULT_ILLEGAL_INSTRUCTION;
	snprintf(f->message, sizeof(f->message), "invalid launch: %s", why);
	return false;
}

static void cta_coords(const struct ptx_launch *l, uint64_t linear,
		       uint32_t out[3])
{
	out[0] = (uint32_t)(linear % l->grid[0]);
	out[1] = (uint32_t)(linear / l->grid[0] % l->grid[1]);
	out[2] = (uint32_t)(linear / ((uint64_t)l->grid[0] * l->grid[1]));
}

/* ---- the scheduler ---- */

static void run_warp(struct warp *w)
{
	const struct xinsn *ip = w->ip;
	while ((ip = ip->fn(w, ip)))
		;
}

/* The same loop, counting the lanes of each instruction it executes. */
static void run_warp_counted(struct warp *w, uint64_t *count)
{
	const struct xinsn *ip = w->ip;
	uint64_t n = (uint64_t)__builtin_popcount(w->active);
	while ((ip = ip->fn(w, ip)))
		n += (uint64_t)__builtin_popcount(w->active);
	*count += n;
}

static void run_one(struct warp *w)
{
	uint64_t *count = w->cta->rt.worker->lane_insns;
	if (count)
		run_warp_counted(w, count);
	else
		run_warp(w);
}

/* Whether the launch was stopped from outside (ptx_launch.kill); a
 * stopped CTA faults, so that the caller stops too. Looked at whenever a
 * warp stops running, which even an endless loop does now and then. */
static bool cta_killed(struct cta *cta)
{
	const atomic_bool *kill = cta->rt.launch->kill;
	if (!kill || !atomic_load_explicit(kill, memory_order_relaxed))
		return false;
	xfault(&cta->warps[0], NULL, PTX_FAULT_KILLED, 0, 0,
	       "launch stopped: its context faulted or is going away");
	return true;
}

/* One round of a CTA: each of its runnable warps runs until it stops.
 * False when the CTA faulted or was stopped; *@ran says whether any
 * warp was runnable. */
static bool cta_round(struct cta *cta, bool *ran)
{
	*ran = false;
	for (uint32_t i = 0; i < cta->rt.nwarps; i++) {
		struct warp *w = &cta->warps[i];
		if (w->state != WARP_RUNNABLE)
			continue;
		run_one(w);
		*ran = true;
		if (cta->rt.faulted || cta_killed(cta))
			return false;
	}
	return true;
}

/* A CTA with live warps none of which can run: they wait at barriers
 * that never complete. Reports it as a fault; returns false. */
static bool cta_deadlocked(struct cta *cta)
{
	struct warp *w = NULL;
	for (uint32_t i = 0; i < cta->rt.nwarps && !w; i++)
		if (cta->warps[i].state == WARP_AT_BARRIER)
			w = &cta->warps[i];
	xfault(w ? w : &cta->warps[0], w ? w->ip : NULL,
	       PTX_FAULT_ILLEGAL_INSTRUCTION, 0, 0,
	       "barrier %u never completes: %u of %u threads arrived",
	       w ? w->bar_id : 0, w ? cta->bars[w->bar_id].arrived : 0,
	       w ? barrier_expected(cta, w->bar_id) : 0);
	return false;
}

/* Runs a CTA to its end, round after round. */
static bool run_cta(struct cta *cta)
{
	bool ran;
	do {
		if (!cta_round(cta, &ran))
			return false;
		if (!cta->live_warps)
			return true;
	} while (ran);
	return cta_deadlocked(cta);
}

static void start_cta(struct cta *cta, uint64_t linear, uint32_t budget)
{
	cta_coords(cta->rt.launch, linear, cta->rt.ctaid);
	cta->branch_budget = budget;
	cta->rt.faulted = false;
	cta->located = false;
	cta->live_warps = cta->rt.nwarps;
	for (uint32_t i = 0; i < RT_MAX_BARRIERS; i++)
		rt_barrier_reset(&cta->bars[i]);
	if (cta->rt.shared_size)
		memset(cta->rt.shared, 0, cta->rt.shared_size);
	for (uint32_t i = 0; i < cta->rt.nwarps; i++)
		init_warp(cta, &cta->warps[i], i);
}

static bool reserve_slots(struct ptx_worker *wk, uint64_t n)
{
	if (n <= wk->nslots)
		return true;
	if (n > UINT32_MAX / sizeof(struct cta_slot))
		return false;
	struct cta_slot *s = realloc(wk->slots, n * sizeof(*s));
	if (!s)
		return false;
	memset(s + wk->nslots, 0, (n - wk->nslots) * sizeof(*s));
	wk->slots = s;
	wk->nslots = (uint32_t)n;
	return true;
}

static bool setup_fault(struct ptx_fault *fault, const char *what,
			uint64_t n)
{
	memset(fault, 0, sizeof(*fault));
	fault->kind = PTX_FAULT_OUT_OF_RESOURCES;
	snprintf(fault->message, sizeof(fault->message),
		 "out of memory for %llu %s", (unsigned long long)n, what);
	return false;
}

/* Gives slot @sl the memory of one CTA of @launch. */
static bool prepare_slot(struct ptx_worker *wk, struct cta_slot *sl,
			 const struct ptx_launch *launch,
			 struct ptx_fault *fault)
{
	const struct ptx_kernel *k = launch->kernel;
	struct cta *cta = &sl->cta;
	memset(cta, 0, sizeof(*cta));
	cta->rt.launch = launch;
	cta->rt.kernel = k;
	cta->rt.worker = wk;
	cta->rt.smid = wk->smid;
	cta->rt.fault = fault;
	cta->warp_rows = launch->block[0] % WARP_SIZE == 0;
	cta->rt.nthreads = launch->block[0] * launch->block[1] * launch->block[2];
	cta->rt.nwarps = (cta->rt.nthreads + WARP_SIZE - 1) / WARP_SIZE;
	rt_cta_shared_window(&cta->rt);
	cta->rt.local_size = (uint64_t)cta->rt.nwarps * WARP_SIZE * k->layout.local_stride;
	if (!reserve(sl, cta, k->prog->interp->nsreg_slots))
		return setup_fault(fault, "warps", cta->rt.nwarps);
	cta->warps = sl->warps;
	cta->rt.shared = sl->shared;
	cta->rt.local = sl->local;
	for (uint32_t i = 0; i < cta->rt.nwarps; i++)
		sl->warps[i].sregs = sl->sregs + (uint64_t)i *
						 k->prog->interp->nsreg_slots *
						 LANE_BYTES;
	return true;
}

/* Cooperative launches: all CTAs of the range resident, interleaved. */
static bool run_resident(struct ptx_worker *wk, uint64_t first,
			 uint64_t count)
{
	uint64_t live = count;
	uint32_t budget = count > 1 ? COOP_BRANCH_BUDGET : BRANCH_BUDGET;
	for (uint64_t i = 0; i < count; i++)
		start_cta(&wk->slots[i].cta, first + i, budget);
	bool *done = calloc(count, sizeof(bool));
	if (!done)
		return setup_fault(wk->slots[0].cta.rt.fault, "CTAs", count);
	bool ok = true;
	while (live && ok) {
		for (uint64_t i = 0; i < count && ok; i++) {
			struct cta *cta = &wk->slots[i].cta;
			bool ran;
			if (done[i])
				continue;
			ok = cta_round(cta, &ran);
			done[i] = ok && !cta->live_warps;
			live -= done[i];
			if (ok && !done[i] && !ran)
				ok = cta_deadlocked(cta);
		}
	}
	free(done);
	return ok;
}

bool interp_run_ctas(struct ptx_worker *wk, const struct ptx_launch *launch,
		     uint64_t first, uint64_t count, struct ptx_fault *fault)
{
	if (!launch_is_valid(launch, fault))
		return false;
	bool coop = launch->flags & PTX_LAUNCH_COOPERATIVE;
	uint64_t resident = coop ? count : 1;
	memset(fault, 0, sizeof(*fault));
	if (!count)
		return true;
	if (!reserve_slots(wk, resident))
		return setup_fault(fault, "resident CTAs", resident);
	for (uint64_t i = 0; i < resident; i++)
		if (!prepare_slot(wk, &wk->slots[i], launch, fault))
			return false;
	if (coop)
		return run_resident(wk, first, count);
	struct cta *cta = &wk->slots[0].cta;
	for (uint64_t i = first; i < first + count; i++) {
		start_cta(cta, i, BRANCH_BUDGET);
		if (!run_cta(cta))
			return false;
	}
	return true;
}
