// SPDX-License-Identifier: MIT
/*
 * Memory instructions: ld, ldu, st (every space, scalar and vector),
 * cvta, isspacep, prefetch, and cp.async done synchronously. Every access
 * is checked: alignment, the bounds of shared, local and parameter
 * memory, and the launch's global ranges when it has some: once per warp
 * access when every lane passes (by its first and last lane where the
 * kernel's shapes know the lanes strided), lane by lane (through the
 * run-time helpers) to find the first that does not.
 */
#include "ir_shape.h"
#include "lanes.h"
#include "whole_access.h"

/* ---- address checks: the run-time helpers, located on failure ---- */

static bool in_block(uint64_t addr, unsigned size, const void *base,
		     uint64_t len)
{
	uint64_t b = (uintptr_t)base;
	return addr >= b && addr - b + size <= len;
}

uint8_t *mem_host(struct warp *w, const struct xinsn *ip, enum xspace sp,
		  uint32_t lane, uint64_t addr, unsigned size, bool write)
{
	struct rt_cta *c = &w->cta->rt;
	uint32_t t = warp_thread(w, lane);
	uint8_t *p;
	switch (sp) {
	case XS_SHARED:
		p = rt_shared(c, t, addr, size);
		break;
	case XS_LOCAL:
		/* the lane's stack, from the frame base of its warp */
		p = rt_local(c, t, addr, size);
		break;
	case XS_KPARAM:
		p = rt_param(c, t, addr, size, write);
		break;
	default:
		p = rt_global(c, t, addr, size, write);
		break;
	}
	if (!p)
		xfault_located(w, ip);
	return p;
}

/* ---- loads and stores ---- */

static inline uint64_t load(const uint8_t *p, unsigned size, bool sign)
{
	switch (size) {
	case 1: {
		uint8_t v = *p;
		return sign ? (uint64_t)(int64_t)(int8_t)v : v;
	}
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return sign ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return sign ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
}

static inline void store(uint8_t *p, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		*p = (uint8_t)v;
		break;
	case 2: {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;
		memcpy(p, &x, 4);
		break;
	}
	default:
		memcpy(p, &v, 8);
	}
}

/* A vector's @n elements of @size bytes at @p into lane @l of the
 * registers @d, read in one access (whole_access.h). */
static inline void load_elems(const uint8_t *p, unsigned size, unsigned n,
			      bool sign, uint64_t *const *d, uint32_t l)
{
	uint8_t buf[WHOLE_MAX] __attribute__((aligned(16)));
	whole_read(p, size * n, buf);
	for (unsigned i = 0; i < n; i++)
		d[i][l] = load(buf + i * size, size, sign);
}

/* Lane @l of the registers @s as one vector, written in one access. */
static inline void store_elems(uint8_t *p, unsigned size, unsigned n,
			       const uint64_t *const *s, uint32_t l)
{
	uint8_t buf[WHOLE_MAX] __attribute__((aligned(16)));
	for (unsigned i = 0; i < n; i++)
		store(buf + i * size, size, s[i][l]);
	whole_write(p, size * n, buf);
}

static inline uint64_t base_offset(const struct warp *w,
				   const struct xinsn *ip)
{
	return (uint64_t)ip->imm + (ip->frame_rel ? w->local_base : 0);
}

/*
 * Per-lane accesses through the helpers: the path of accesses that fail
 * the warp-wide check below. The first lane whose access is bad faults,
 * after the lanes before it have done theirs, as one at a time would.
 */
static __attribute__((noinline)) const struct xinsn *
ld_each(struct warp *w, const struct xinsn *ip, enum xspace sp, uint32_t m)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	unsigned size = ip->size, n = ip->vec;
	const xref *dst = n > 1 ? (const xref *)ip->aux : &ip->d;
	uint64_t *d[8];
	for (unsigned i = 0; i < n; i++)
		d[i] = xr(w, dst[i]);
	FOR_LANES(m, l) {
		uint8_t *p = mem_host(w, ip, sp, l, pa[l] + off, size * n,
				      false);
		if (!p)
			return NULL;
		load_elems(p, size, n, ip->mode, d, l);
	}
	return ip + 1;
}

static __attribute__((noinline)) const struct xinsn *
st_each(struct warp *w, const struct xinsn *ip, enum xspace sp, uint32_t m)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	unsigned size = ip->size, n = ip->vec;
	const xref *src = n > 1 ? (const xref *)ip->aux : &ip->b;
	const uint64_t *s[8];
	for (unsigned i = 0; i < n; i++)
		s[i] = xr(w, src[i]);
	FOR_LANES(m, l) {
		uint8_t *p = mem_host(w, ip, sp, l, pa[l] + off, size * n,
				      true);
		if (!p)
			return NULL;
		store_elems(p, size, n, s, l);
	}
	return ip + 1;
}

/*
 * One check per warp access. Shared, local and parameter addresses are
 * 32-bit offsets, truncated as the helpers truncate them.
 */
static inline uint64_t lane_addr(const uint64_t *pa, uint64_t off,
				 uint32_t l, bool narrow)
{
	uint64_t a = pa[l] + off;
	return narrow ? (uint32_t)a : a;
}

/*
 * Whether every executing lane's address is in [@lo, @hi] (both below
 * 2^63) and aligned to @size. With those bounds, a - lo and hi - a are
 * both below 2^63 exactly when lo <= a <= hi: the test is an OR of
 * differences, which the compiler vectorises.
 */
static inline bool lanes_within(const uint64_t *pa, uint64_t off, uint32_t m,
				bool narrow, uint64_t lo, uint64_t hi,
				unsigned size)
{
	uint64_t out = 0, bits = 0;
	LANE_LOOP(m, uint64_t a = lane_addr(pa, off, l, narrow);
		  out |= (a - lo) | (hi - a); bits |= a);
	return !(out >> 63) && !(bits & (size - 1));
}

/* Lowest and highest address of the executing lanes. */
static void lane_bounds(const uint64_t *pa, uint64_t off, uint32_t m,
			uint64_t *lo, uint64_t *hi)
{
	*lo = UINT64_MAX;
	*hi = 0;
	FOR_LANES(m, l) {
		uint64_t a = pa[l] + off;
		*lo = a < *lo ? a : *lo;
		*hi = a > *hi ? a : *hi;
	}
}

static inline bool range_holds(const struct ptx_mem_range *r, unsigned size,
			       bool write)
{
	return r && r->end >> 63 == 0 && r->end - r->start >= size &&
	       (r->writable || !write);
}

/* The range hint of @ip, kept by the CTA: the range it hit last. */
static inline const struct ptx_mem_range **range_hint(struct warp *w,
						      const struct xinsn *ip)
{
	return &w->cta->range_hint[(uintptr_t)ip / sizeof(*ip) % RANGE_HINTS];
}

/* Whether @r holds accesses of @size bytes at every address from @lo to
 * @hi. */
static inline bool range_spans(const struct ptx_mem_range *r, uint64_t lo,
			       uint64_t hi, unsigned size, bool write)
{
	return range_holds(r, size, write) && lo >= r->start && lo <= hi &&
	       hi <= r->end - size;
}

/* The launch's range holding @lo, looked up, when it holds every access
 * up to @hi; it becomes @ip's hint. */
static bool global_lookup(struct warp *w, const struct xinsn *ip,
			  uint64_t lo, uint64_t hi, unsigned size, bool write)
{
	const struct ptx_mem_range *r =
		lo <= hi ? rt_global_span(&w->cta->rt, lo, hi, size, write) :
			   NULL;
	if (!range_spans(r, lo, hi, size, write))
		return false;
	*range_hint(w, ip) = r;
	return true;
}

/*
 * Whether accesses of @size bytes at every address from @lo to @hi are
 * inside one of the launch's ranges: the one this instruction hit last
 * (a hint kept by the CTA), else the one holding @lo. Without ranges,
 * anything above the first page below 2^63.
 */
static bool global_holds(struct warp *w, const struct xinsn *ip, uint64_t lo,
			 uint64_t hi, unsigned size, bool write)
{
	if (!w->cta->rt.launch->ranges)
		return lo >= 4096 && lo <= hi && hi <= INT64_MAX;
	return range_spans(*range_hint(w, ip), lo, hi, size, write) ||
	       global_lookup(w, ip, lo, hi, size, write);
}

/*
 * Global accesses: every lane inside one of the launch's ranges, and
 * aligned; the hint's range is tried first lane by lane, without
 * looking for the lowest and highest address, and only a miss looks
 * the lanes' range up (not the hint again).
 */
static bool global_within(struct warp *w, const struct xinsn *ip,
			  const uint64_t *pa, uint64_t off, uint32_t m,
			  unsigned size, bool write)
{
	if (!w->cta->rt.launch->ranges)
		return lanes_within(pa, off, m, false, 4096, INT64_MAX, size);
	const struct ptx_mem_range *r = *range_hint(w, ip);
	if (range_holds(r, size, write) &&
	    lanes_within(pa, off, m, false, r->start, r->end - size, size))
		return true;
	uint64_t lo, hi;
	lane_bounds(pa, off, m, &lo, &hi);
	return lanes_within(pa, off, m, false, lo, hi, size) &&
	       global_lookup(w, ip, lo, hi, size, write);
}

/*
 * Strided accesses. The lowering marks accesses whose address register
 * the kernel's shapes (ir_shape.c) say holds lane 0's value + l * stride
 * in lane l, for warps of 32 consecutive threads of one row. Where the
 * launch's warps are so, every executing lane's address lies on the line
 * from the first's to the last's: those two are the whole check of the
 * window, and the lanes' addresses follow from the first's. Accesses
 * through each lane's own address still compare the lanes with the line
 * (lanes_on_stride), so that a register the shapes mislabelled costs
 * speed, never an unchecked access.
 */
static inline bool lanes_strided(const struct warp *w,
				 const struct xinsn *ip, uint32_t m)
{
	return ip->strided && w->cta->warp_rows && m;
}

/* Lane l's address, from the first executing lane @f's, @a. */
static inline uint64_t strided_addr(uint64_t a, uint32_t f, uint32_t l,
				    int32_t stride)
{
	return a + (uint64_t)((int64_t)l - f) * (uint64_t)(int64_t)stride;
}

/*
 * Whether every executing lane's address is where the stride puts it,
 * from the first's, @a (lane @f): one pass of compares, against lane
 * 0's place on the line and a step added per lane (an induction the
 * compiler vectorises; AVX2 has no 64-bit multiply). The sums of lanes
 * f to last do not wrap (strided_span checked the last), so they are
 * the 32-bit offsets of shared memory too.
 */
static inline bool lanes_on_stride(const uint64_t *pa, uint64_t off,
				   uint32_t m, bool narrow, uint64_t a,
				   uint32_t f, int32_t stride)
{
	uint64_t step = (uint64_t)(int64_t)stride;
	uint64_t want = a - f * step, diff = 0;
	if (m == FULL_MASK) {
		for (uint32_t l = 0; l < WARP_SIZE; l++, want += step)
			diff |= lane_addr(pa, off, l, narrow) ^ want;
		return !diff;
	}
	FOR_LANES(m, l)
		diff |= lane_addr(pa, off, l, narrow) ^ (want + l * step);
	return !diff;
}

/*
 * Whether every executing lane's access is valid, by the first and the
 * last lane's; if so, *@first is the first's address and lane l's is at
 * host address *@base + strided_addr(). The last lane's address must be
 * where the stride puts it (not wrapped around 2^32 for a shared offset),
 * so that the lanes between lie between the two. An access through each
 * lane's own address (@own: stores, vector loads) also needs every lane
 * on the line; a scalar load reads at the line's addresses
 * (ld_strided_lanes), all inside the checked span whatever the lanes
 * hold.
 */
static inline bool strided_span(struct warp *w, const struct xinsn *ip,
				enum xspace sp, uint32_t m, unsigned size,
				bool write, bool own, uintptr_t *base,
				uint64_t *first)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	bool narrow = sp != XS_GLOBAL;
	int32_t stride = ip->lane_stride;
	uint32_t f = (uint32_t)__builtin_ctz(m);
	uint32_t last = 31u - (uint32_t)__builtin_clz(m);
	uint64_t a = lane_addr(pa, off, f, narrow);
	uint64_t b = lane_addr(pa, off, last, narrow);
	*first = a;
	if (strided_addr(a, f, last, stride) != b ||
	    ((a | (uint64_t)(int64_t)stride) & (size - 1)) ||
	    (own && !lanes_on_stride(pa, off, m, narrow, a, f, stride)))
		return false;
	uint64_t lo = stride < 0 ? b : a, hi = stride < 0 ? a : b;
	if (sp == XS_GLOBAL) {
		*base = 0;
		return global_holds(w, ip, lo, hi, size, write);
	}
	struct rt_cta *c = &w->cta->rt;
	*base = (uintptr_t)c->shared;
	return hi + size <= c->shared_size;
}

/* A checked strided load of one element per lane. */
static inline void ld_strided_lanes(struct warp *w, const struct xinsn *ip,
				    uint32_t m, uintptr_t base,
				    uint64_t first, unsigned size, bool sign)
{
	uint64_t *d = xr(w, ip->d);
	int32_t stride = ip->lane_stride;
	uint32_t f = (uint32_t)__builtin_ctz(m);
	const uint8_t *p = (const uint8_t *)(base + first);
	if (m == FULL_MASK && stride == (int32_t)size) {
		for (uint32_t l = 0; l < WARP_SIZE; l++)
			d[l] = load(p + l * size, size, sign);
	} else if (!stride) {
		uint64_t v = load(p, size, sign);
		LANE_LOOP(m, d[l] = v);
	} else {
		FOR_LANES(m, l)
			d[l] = load((const uint8_t *)base +
					    strided_addr(first, f, l, stride),
				    size, sign);
	}
}

/*
 * Whether every executing lane's access of @size bytes in @sp is valid;
 * if so, lane l's address a is at host address *@base + l * *@step + a
 * (the step of local stacks). False sends the lanes one at a time
 * through the helpers, which find the first bad one.
 */
static inline bool span_host(struct warp *w, const struct xinsn *ip,
			     enum xspace sp, uint32_t m, unsigned size,
			     bool write, uintptr_t *base, uint64_t *step)
{
	struct rt_cta *c = &w->cta->rt;
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip), len;
	*step = 0;
	switch (sp) {
	case XS_SHARED:
		*base = (uintptr_t)c->shared;
		len = c->shared_size;
		break;
	case XS_LOCAL:
		*base = (uintptr_t)w->lane_local[0];
		*step = len = c->kernel->layout.local_stride;
		break;
	case XS_KPARAM:
		*base = (uintptr_t)c->launch->params;
		len = write ? 0 : c->kernel->info.param_size;
		break;
	default:
		*base = 0;
		return global_within(w, ip, pa, off, m, size, write);
	}
	return len >= size && len >> 32 == 0 &&
	       lanes_within(pa, off, m, true, 0, len - size, size);
}

bool mem_span(struct warp *w, const struct xinsn *ip, enum xspace sp,
	      uint32_t m, unsigned size, bool write, uintptr_t *base,
	      uint64_t *step)
{
	return span_host(w, ip, sp, m, size, write, base, step);
}

/*
 * The lanes of a checked vector load. When every lane reads one address
 * (n-body's shared tiles), the elements are read once, for all lanes.
 */
static void ld_vec_lanes(struct warp *w, const struct xinsn *ip, uint32_t m,
			 uintptr_t base, uint64_t step, bool narrow, bool sign)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip), diff = 0;
	unsigned size = ip->size, n = ip->vec;
	const xref *dst = ip->aux;
	uint8_t *p[WARP_SIZE];
	if (!m)
		return;
	/* every address first: a destination may be the address */
	uint64_t first = lane_addr(pa, off, (uint32_t)__builtin_ctz(m),
				   narrow);
	FOR_LANES(m, l) {
		uint64_t a = lane_addr(pa, off, l, narrow);
		p[l] = (uint8_t *)(base + l * step + a);
		diff |= a ^ first;
	}
	if (!diff && !step) {
		uint8_t buf[WHOLE_MAX] __attribute__((aligned(16)));
		whole_read((uint8_t *)(base + first), size * n, buf);
		for (unsigned i = 0; i < n; i++) {
			uint64_t *d = xr(w, dst[i]);
			uint64_t v = load(buf + i * size, size, sign);
			LANE_LOOP(m, d[l] = v);
		}
		return;
	}
	uint64_t *d[8];
	for (unsigned i = 0; i < n; i++)
		d[i] = xr(w, dst[i]);
	FOR_LANES(m, l)
		load_elems(p[l], size, n, sign, d, l);
}

/*
 * A whole warp's scalar shared load. Tiled kernels read shared memory
 * in rows of 8, 16 or 32 lanes: each row of lanes either reads one
 * address (ta[ty][k]) or consecutive elements (tb[k][tx]). Each group
 * of 8 lanes is sorted into one of those shapes by the differences of
 * its addresses: a uniform group is one read given to its lanes, a
 * consecutive one a copy the compiler does in vectors, and only a group
 * of neither shape is read lane by lane. The whole warp is checked at
 * once, by the lowest and highest difference of its lanes to lane 0.
 * Later loads through the same unchanged register reuse the shapes and
 * differences (lower_rows.c). An address out of bounds sends the warp
 * through the helpers, which name the first bad lane.
 */
enum row_shape { ROW_UNIFORM, ROW_CONSECUTIVE, ROW_SCATTERED };

/* A group's shape, from the differences of its addresses to the first
 * (the offset cancels). */
static inline uint8_t row_shape(const uint64_t *a, unsigned size)
{
	uint64_t spread = 0, gaps = 0;
	for (uint32_t i = 0; i < ROW_GROUP; i++) {
		spread |= a[i] - a[0];
		gaps |= (a[i] - a[0]) ^ (i * size);
	}
	return !spread ? ROW_UNIFORM : !gaps ? ROW_CONSECUTIVE : ROW_SCATTERED;
}

/*
 * The plan of a warp's shared addresses @pa: each group's shape, and
 * every lane's 32-bit difference to lane 0. The offset of an access
 * cancels in both, so a plan holds for every load through the register.
 */
static inline void row_plan_of(const uint64_t *pa, unsigned size,
			       struct row_plan *plan)
{
	int32_t lo = 0, hi = 0;
	uint32_t bits = 0;
	for (uint32_t g = 0; g < ROW_GROUPS; g++)
		plan->shape[g] = row_shape(pa + g * ROW_GROUP, size);
	for (uint32_t l = 0; l < WARP_SIZE; l++) {
		int32_t d = (int32_t)((uint32_t)pa[l] - (uint32_t)pa[0]);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		bits |= (uint32_t)d;
	}
	plan->dmin = lo;
	plan->dmax = hi;
	plan->bits = bits;
}

/*
 * Whether every lane's access is in the window of @len bytes and
 * aligned, lane 0's at @x0: lane l's address is x0 + its difference
 * modulo 2^32, and is exactly that when every such sum is in the window.
 */
static inline bool plan_fits(const struct row_plan *plan, uint32_t x0,
			     uint64_t len, unsigned size)
{
	return (int64_t)x0 + plan->dmin >= 0 &&
	       (uint64_t)((int64_t)x0 + plan->dmax) + size <= len &&
	       !((x0 | plan->bits) & (size - 1));
}

/* The plan of @ip's address register: the chain's, when its head noted
 * it in this pass (lower_rows.c); else made now, and noted by a head. */
static inline void row_plan(struct warp *w, const struct xinsn *ip,
			    const uint64_t *pa, unsigned size,
			    struct row_plan *plan)
{
	struct row_memo *memo = &w->rows[ip->row_slot];
	if (ip->row_tag && !ip->row_head && memo->tag == ip->row_tag) {
		*plan = memo->plan;
		return;
	}
	row_plan_of(pa, size, plan);
	if (ip->row_head) {
		memo->tag = ip->row_tag;
		memo->plan = *plan;
	}
}

static inline __attribute__((always_inline)) const struct xinsn *
ld_shared_warp(struct warp *w, const struct xinsn *ip, unsigned size,
	       bool sign)
{
	struct rt_cta *c = &w->cta->rt;
	const uint8_t *base = c->shared;
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip);
	struct row_plan plan;
	row_plan(w, ip, pa, size, &plan);
	/* every address checked first: a destination may be the address */
	if (!plan_fits(&plan, (uint32_t)(pa[0] + off), c->shared_size, size))
		return ld_each(w, ip, XS_SHARED, FULL_MASK);
	uint64_t *d = xr(w, ip->d);
	for (uint32_t g = 0; g < ROW_GROUPS; g++) {
		uint64_t *dg = d + g * ROW_GROUP;
		/* lanes before this group's wrote only theirs */
		const uint64_t *a = pa + g * ROW_GROUP;
		const uint8_t *p = base + (uint32_t)(a[0] + off);
		if (plan.shape[g] == ROW_UNIFORM) {
			uint64_t v = load(p, size, sign);
			for (uint32_t i = 0; i < ROW_GROUP; i++)
				dg[i] = v;
		} else if (plan.shape[g] == ROW_CONSECUTIVE) {
			for (uint32_t i = 0; i < ROW_GROUP; i++)
				dg[i] = load(p + i * size, size, sign);
		} else {
			for (uint32_t i = 0; i < ROW_GROUP; i++)
				dg[i] = load(base + (uint32_t)(a[i] + off),
					     size, sign);
		}
	}
	if (ip->mode16 == MOD_ACQUIRE)
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ip + 1;
}

/* Inlined into each handler, so that its width and space are constants. */
static inline __attribute__((always_inline)) const struct xinsn *
ld_warp(struct warp *w, const struct xinsn *ip, enum xspace sp,
	unsigned size, bool sign, unsigned n)
{
	uint32_t m = xmask(w, ip);
	bool narrow = sp != XS_GLOBAL;
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip), step;
	uintptr_t base;
	if ((sp == XS_GLOBAL || sp == XS_SHARED) && lanes_strided(w, ip, m)) {
		uint64_t first;
		if (sp == XS_SHARED && n == 1 && ip->row_head)
			w->rows[ip->row_slot].tag = 0;	/* no plan made */
		if (!strided_span(w, ip, sp, m, size * n, false, n > 1, &base,
				  &first)) {
			if (!ld_each(w, ip, sp, m))
				return NULL;
		} else if (n == 1)
			ld_strided_lanes(w, ip, m, base, first, size, sign);
		else
			ld_vec_lanes(w, ip, m, base, 0, narrow, sign);
		if (ip->mode16 == MOD_ACQUIRE)
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		return ip + 1;
	}
	if (sp == XS_SHARED && n == 1 && m == FULL_MASK)
		return ld_shared_warp(w, ip, size, sign);
	if (sp == XS_SHARED && n == 1 && ip->row_head)
		w->rows[ip->row_slot].tag = 0;	/* not every lane: none */
	if (!span_host(w, ip, sp, m, size * n, false, &base, &step)) {
		if (!ld_each(w, ip, sp, m))
			return NULL;
	} else if (n == 1) {
		uint64_t *d = xr(w, ip->d);
		LANE_LOOP(m, d[l] = load((const uint8_t *)(base + l * step +
					 lane_addr(pa, off, l, narrow)),
					 size, sign));
	} else {
		ld_vec_lanes(w, ip, m, base, step, narrow, sign);
	}
	if (ip->mode16 == MOD_ACQUIRE)
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ip + 1;
}

static inline __attribute__((always_inline)) const struct xinsn *
st_warp(struct warp *w, const struct xinsn *ip, enum xspace sp,
	unsigned size, unsigned n)
{
	uint32_t m = xmask(w, ip);
	bool narrow = sp != XS_GLOBAL;
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = base_offset(w, ip), step;
	uintptr_t base;
	uint64_t first;
	if (ip->mode16 == MOD_RELEASE)
		__atomic_thread_fence(__ATOMIC_RELEASE);
	if ((sp == XS_GLOBAL || sp == XS_SHARED) && lanes_strided(w, ip, m)) {
		if (!strided_span(w, ip, sp, m, size * n, true, true, &base,
				  &first))
			return st_each(w, ip, sp, m);
		step = 0;
	} else if (!span_host(w, ip, sp, m, size * n, true, &base, &step)) {
		return st_each(w, ip, sp, m);
	}
	const xref *src = n > 1 ? (const xref *)ip->aux : &ip->b;
	const uint64_t *s[8];
	for (unsigned i = 0; i < n; i++)
		s[i] = xr(w, src[i]);
	/* lane order: of two lanes storing to one address, the last wins
	 * (LANE_LOOP goes up the lanes too, without a search per lane) */
	LANE_LOOP(m, {
		uint8_t *p = (uint8_t *)(base + l * step +
					 lane_addr(pa, off, l, narrow));
		if (n == 1)
			store(p, size, s[0][l]);
		else
			store_elems(p, size, n, s, l);
	});
	return ip + 1;
}

/*
 * Handlers by state space and width: scalar accesses of 1, 2, 4 and 8
 * bytes (loads signed or not), and vectors of any width.
 */
#define DEF_LD(space, SP, size, sign)                                       \
	static const struct xinsn *ld_##space##_##sign##size(              \
		struct warp *w, const struct xinsn *ip)                     \
	{                                                                   \
		return ld_warp(w, ip, SP, size, sign, 1);                   \
	}
#define DEF_ST(space, SP, size)                                             \
	static const struct xinsn *st_##space##_##size(                     \
		struct warp *w, const struct xinsn *ip)                     \
	{                                                                   \
		return st_warp(w, ip, SP, size, 1);                         \
	}
#define DEF_SPACE(space, SP)                                                \
	DEF_LD(space, SP, 1, 0) DEF_LD(space, SP, 2, 0)                     \
	DEF_LD(space, SP, 4, 0) DEF_LD(space, SP, 8, 0)                     \
	DEF_LD(space, SP, 1, 1) DEF_LD(space, SP, 2, 1)                     \
	DEF_LD(space, SP, 4, 1)                                             \
	DEF_ST(space, SP, 1) DEF_ST(space, SP, 2) DEF_ST(space, SP, 4)      \
	DEF_ST(space, SP, 8)                                                \
	static const struct xinsn *ld_##space##_vec(struct warp *w,         \
						    const struct xinsn *ip) \
	{                                                                   \
		return ld_warp(w, ip, SP, ip->size, ip->mode, ip->vec);     \
	}                                                                   \
	static const struct xinsn *st_##space##_vec(struct warp *w,         \
						    const struct xinsn *ip) \
	{                                                                   \
		return st_warp(w, ip, SP, ip->size, ip->vec);               \
	}                                                                   \
	static const struct mem_handlers space##_handlers = {               \
		{ { ld_##space##_01, ld_##space##_02, ld_##space##_04,      \
		    ld_##space##_08 },                                      \
		  { ld_##space##_11, ld_##space##_12, ld_##space##_14,      \
		    ld_##space##_08 } },                                    \
		{ st_##space##_1, st_##space##_2, st_##space##_4,           \
		  st_##space##_8 },                                         \
		ld_##space##_vec, st_##space##_vec,                         \
	};

struct mem_handlers {
	xhandler ld[2][4];	/* [signed][log2 size] */
	xhandler st[4];
	xhandler ld_vec, st_vec;
};

DEF_SPACE(global, XS_GLOBAL)
DEF_SPACE(shared, XS_SHARED)
DEF_SPACE(local, XS_LOCAL)
DEF_SPACE(kparam, XS_KPARAM)

static const struct mem_handlers *const space_handlers[] = {
	&global_handlers, &shared_handlers, &local_handlers, &kparam_handlers
};

/* A good read of @bytes at @addr in the parameter or shared window, or
 * NULL, for the helpers to check again and report. */
static inline const uint8_t *window_read(struct warp *w, enum xspace sp,
					 uint64_t addr, unsigned bytes)
{
	struct rt_cta *c = &w->cta->rt;
	uint32_t a = (uint32_t)addr;
	if (addr & (bytes - 1))
		return NULL;
	if (sp == XS_KPARAM && (uint64_t)a + bytes <= c->kernel->info.param_size)
		return (const uint8_t *)c->launch->params + a;
	if (sp == XS_SHARED && (uint64_t)a + bytes <= c->shared_size)
		return c->shared + a;
	return NULL;
}

/*
 * A load from one address for the whole warp (a kernel parameter, a
 * constant or shared variable by name): read once, given to every lane.
 */
static const struct xinsn *ld_uniform(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (m) {
		uint32_t first = (uint32_t)__builtin_ctz(m);
		unsigned size = ip->size, n = ip->vec;
		const xref *dst = n > 1 ? (const xref *)ip->aux : &ip->d;
		uint64_t addr = xr(w, ip->a)[first] + (uint64_t)ip->imm;
		const uint8_t *p = window_read(w, (enum xspace)ip->space, addr,
					       size * n);
		if (!p)
			p = mem_host(w, ip, (enum xspace)ip->space, first,
				     addr, size * n, false);
		if (!p)
			return NULL;
		uint8_t buf[WHOLE_MAX] __attribute__((aligned(16)));
		whole_read(p, size * n, buf);
		for (unsigned i = 0; i < n; i++) {
			uint64_t v = load(buf + i * size, size, ip->mode);
			uint64_t *d = xr(w, dst[i]);
			LANE_LOOP(m, d[l] = v);
		}
	}
	if (ip->mode16 == MOD_ACQUIRE)
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ip + 1;
}

/* The handler of a load or store of @n elements of @size bytes. */
static xhandler ldst_handler(enum xspace sp, bool is_store, unsigned size,
			     unsigned n, bool sign, bool uniform)
{
	const struct mem_handlers *h = space_handlers[sp];
	unsigned log2 = (unsigned)__builtin_ctz(size);
	if (uniform && !is_store && sp != XS_LOCAL)
		return ld_uniform;
	if (n > 1)
		return is_store ? h->st_vec : h->ld_vec;
	return is_store ? h->st[log2] : h->ld[sign][log2];
}

/* ---- cvta, isspacep ---- */

static uint64_t window_base(struct warp *w, enum xspace sp, uint32_t lane)
{
	switch (sp) {
	case XS_SHARED:
		return (uintptr_t)w->cta->rt.shared;
	case XS_LOCAL:
		return (uintptr_t)w->lane_local[lane];
	case XS_KPARAM:
		return (uintptr_t)w->cta->rt.launch->params;
	default:
		return 0;
	}
}

static const struct xinsn *x_cvta(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	enum xspace sp = (enum xspace)ip->mode;
	bool to_space = ip->flags >> FL_TO & 1;
	FOR_LANES(m, l) {
		uint64_t base = window_base(w, sp, l);
		uint64_t a = pa[l];
		if (sp != XS_GLOBAL && !to_space)
			a = (uint32_t)a;
		d[l] = to_space ? a - base : a + base;
	}
	return ip + 1;
}

/* cvta of global addresses: the address itself, either way. */
static const struct xinsn *x_cvta_global(struct warp *w,
					 const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	LANE_LOOP(m, d[l] = pa[l]);
	return ip + 1;
}

static const struct xinsn *x_isspacep(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip), r = 0;
	const uint64_t *pa = xr(w, ip->a);
	struct cta *cta = w->cta;
	enum xspace sp = (enum xspace)ip->mode;
	FOR_LANES(m, l) {
		bool sh = in_block(pa[l], 1, cta->rt.shared, cta->rt.shared_size);
		bool lo = in_block(pa[l], 1, w->lane_local[l],
				   cta->rt.kernel->layout.local_stride);
		bool in = sp == XS_SHARED ? sh :
			  sp == XS_LOCAL  ? lo :
			  sp == XS_KPARAM ? in_block(pa[l], 1,
						     cta->rt.launch->params,
						     cta->rt.kernel->info.param_size) :
					    !sh && !lo;
		r |= (uint32_t)in << l;
	}
	uint32_t *d = xpred(w, ip->d);
	*d = (*d & ~m) | r;
	return ip + 1;
}

/* ---- cp.async, done at once ---- */

static const struct xinsn *x_cp_async(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pd = xr(w, ip->d), *ps = xr(w, ip->a);
	const uint64_t *psz = ip->b ? xr(w, ip->b) : NULL;
	const int64_t *off = ip->aux;	/* destination, source offsets */
	unsigned n = ip->size;
	FOR_LANES(m, l) {
		uint8_t *dst = mem_host(w, ip, XS_SHARED, l,
					pd[l] + (uint64_t)off[0], n, true);
		uint32_t copy = psz ? (uint32_t)psz[l] : n;
		copy = copy < n ? copy : n;
		uint64_t sa = ps[l] + (uint64_t)off[1];
		if (dst && (sa & (n - 1)))
			return xfault(w, ip, PTX_FAULT_MISALIGNED, l, sa,
				      "misaligned %u-byte copy from 0x%llx", n,
				      (unsigned long long)sa);
		uint8_t *src = dst;
		if (dst && copy) {	/* first and last byte in range */
			src = mem_host(w, ip, XS_GLOBAL, l, sa, 1, false);
			if (src && !mem_host(w, ip, XS_GLOBAL, l,
					     sa + copy - 1, 1, false))
				src = NULL;
		}
		if (!dst || !src)
			return NULL;
		memcpy(dst, src, copy);
		memset(dst + copy, 0, n - copy);
	}
	return ip + 1;
}

static const struct xinsn *x_nop(struct warp *w, const struct xinsn *ip)
{
	(void)w;
	return ip + 1;
}

/* ---- lowering ---- */

static bool vector_refs(struct lower_ctx *c, const struct ir_operand *v,
			unsigned n, bool dst, unsigned t, xref **out)
{
	xref *e = arena_alloc(&c->prog->arena, n * sizeof(*e));
	if (!e)
		return lower_nomem(c);
	for (unsigned i = 0; i < n; i++) {
		const struct ir_operand *o = &ir_vec_elems(c->f, v)[i];
		if (!(dst ? ref_dst(c, o, &e[i]) : ref_src(c, o, t, &e[i])))
			return false;
	}
	*out = e;
	return true;
}

static bool lower_ldst_b128(struct lower_ctx *c, const struct ir_insn *in,
			    bool is_store);

/* Strides a warp's lanes keep apart within 32-bit arithmetic. */
#define LANE_STRIDE_MAX (1 << 24)

/*
 * Notes the stride of @x's address across a warp where the kernel's
 * shapes know it: in all 64 bits for a global address, in the low 32
 * for a shared offset, which the access truncates to 32 bits.
 */
static void note_lane_stride(struct lower_ctx *c,
			     const struct ir_operand *addr, enum xspace sp,
			     struct xinsn *x)
{
	if (!c->shapes || addr->kind != OPND_ADDR ||
	    addr->addr_base != ADDR_REG ||
	    (sp != XS_GLOBAL && sp != XS_SHARED))
		return;
	struct ir_shape s = ir_shape_operand(c->shapes, addr);
	bool known = s.kind == SHAPE_UNIFORM ||
		     (s.kind == SHAPE_STRIDED && (s.exact || sp == XS_SHARED));
	int64_t stride = s.kind == SHAPE_STRIDED ? s.stride : 0;
	if (!known || stride < -LANE_STRIDE_MAX || stride > LANE_STRIDE_MAX)
		return;
	x->strided = true;
	x->lane_stride = (int32_t)stride;
	ik(c->kernel)->stats.strided++;
}

static bool lower_ldst(struct lower_ctx *c, const struct ir_insn *in,
		       bool is_store)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t), n = in->vec;
	if (size == 16 && n == 1 && in->opnd[is_store].kind == OPND_REG)
		return lower_ldst_b128(c, in, is_store);
	if (in->nopnds != 2 || !size || size > 8 || n > 8)
		return lower_unsupported(c, "type or operands");
	const struct ir_operand *addr = &in->opnd[is_store ? 0 : 1];
	const struct ir_operand *val = &in->opnd[is_store ? 1 : 0];
	if ((n > 1) != (val->kind == OPND_VEC) || (n > 1 && val->reg2 != n))
		return lower_unsupported(c, "vector operand");
	xref base, v = 0, *vec = NULL;
	int64_t off;
	enum xspace sp;
	bool frame_rel;
	if (!ref_addr(c, addr, in->space, &base, &off, &sp, &frame_rel))
		return false;
	if (n > 1 ? !vector_refs(c, val, n, !is_store, t, &vec) :
		    !(is_store ? ref_src(c, val, t, &v) : ref_dst(c, val, &v)))
		return false;
	bool sign = ptx_type_is_signed(t) && size < 8;
	bool uniform = (base & 3) == SEL_ABS && !frame_rel;
	struct xinsn *x = emit(c, ldst_handler(sp, is_store, size, n, sign,
					       uniform));
	if (!x)
		return lower_nomem(c);
	x->a = base;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->size = (uint8_t)size;
	x->vec = (uint8_t)n;
	x->aux = vec;
	x->mode = sign;
	x->space = (uint8_t)sp;
	x->mode16 = in->sem;
	if (is_store)
		x->b = v;
	else
		x->d = v;
	if (!uniform && !frame_rel)
		note_lane_stride(c, addr, sp, x);
	if (sp == XS_SHARED && !is_store && n == 1 && !uniform && !frame_rel &&
	    addr->kind == OPND_ADDR && addr->addr_base == ADDR_REG)
		lower_rows_load(c, in, x, addr->reg, size);
	return true;
}

/* ld/st .b128: the register's two 64-bit halves, as a .v2.b64 access
 * (16-byte aligned, as the ISA requires). */
static bool lower_ldst_b128(struct lower_ctx *c, const struct ir_insn *in,
			    bool is_store)
{
	const struct ir_operand *addr = &in->opnd[is_store ? 0 : 1];
	const struct ir_operand *val = &in->opnd[is_store ? 1 : 0];
	xref base, *vec = arena_alloc(&c->prog->arena, 2 * sizeof(xref));
	int64_t off;
	enum xspace sp;
	bool frame_rel;
	if (in->nopnds != 2 || ptx_type_size(reg_type(c, val)) != 16)
		return lower_unsupported(c, "b128 operands");
	if (!vec)
		return lower_nomem(c);
	if (!ref_addr(c, addr, in->space, &base, &off, &sp, &frame_rel) ||
	    !ref_src(c, val, PTX_T_B64, &vec[0]))
		return false;
	vec[1] = vec[0] + LANE_BYTES;
	bool uniform = (base & 3) == SEL_ABS && !frame_rel;
	struct xinsn *x = emit(c, ldst_handler(sp, is_store, 8, 2, false,
					       uniform));
	if (!x)
		return lower_nomem(c);
	x->a = base;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->size = 8;
	x->vec = 2;
	x->aux = vec;
	x->mode16 = in->sem;
	x->space = (uint8_t)sp;
	return true;
}

static bool lower_cp(struct lower_ctx *c, const struct ir_insn *in)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == MOD_MBARRIER)
			return lower_mbarrier(c, in);
	if (in->has_raw)
		return lower_unsupported(c, NULL);
	if (in->mode2 == MOD_COMMIT_GROUP || in->mode2 == MOD_WAIT_GROUP ||
	    in->mode2 == MOD_WAIT_ALL)
		return emit(c, x_nop) ? true : lower_nomem(c);
	if (in->mode != MOD_ASYNC || in->mode2 || in->has_raw ||
	    in->nopnds < 3 || in->opnd[2].kind != OPND_IMM)
		return lower_unsupported(c, NULL);
	xref dbase, sbase, srcsize = 0;
	int64_t doff, soff;
	enum xspace dsp, ssp;
	bool drel, srel;
	if (!ref_addr(c, &in->opnd[0], SPACE_SHARED, &dbase, &doff, &dsp,
		      &drel) ||
	    !ref_addr(c, &in->opnd[1], SPACE_GLOBAL, &sbase, &soff, &ssp,
		      &srel))
		return false;
	if (dsp != XS_SHARED || ssp != XS_GLOBAL || drel || srel)
		return lower_unsupported(c, "state spaces");
	if (in->nopnds > 3 && !ref_src(c, &in->opnd[3], PTX_T_U32, &srcsize))
		return false;
	int64_t *off = arena_alloc(&c->prog->arena, 2 * sizeof(*off));
	struct xinsn *x = off ? emit(c, x_cp_async) : NULL;
	if (!x)
		return lower_nomem(c);
	off[0] = doff;
	off[1] = soff;
	x->aux = off;
	x->d = dbase;
	x->a = sbase;
	x->b = srcsize;
	x->size = (uint8_t)in->opnd[2].imm;
	return true;
}

bool lower_mem(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_U64;
	switch (in->op) {
	case OP_LD:
	case OP_LDU:
		return lower_ldst(c, in, false);
	case OP_ST:
		return lower_ldst(c, in, true);
	case OP_CVTA:
	case OP_ISSPACEP: {
		enum xspace sp = space_class(c, in->space);
		xhandler h = in->op == OP_ISSPACEP ? x_isspacep :
			     sp == XS_GLOBAL ? x_cvta_global : x_cvta;
		if (!emit_alu(c, in, h, t, 1))
			return false;
		last_emitted(c)->mode = (uint8_t)sp;
		return true;
	}
	case OP_PREFETCH:
	case OP_PREFETCHU:
		return emit(c, x_nop) ? true : lower_nomem(c);
	case OP_CP:
		return lower_cp(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}
