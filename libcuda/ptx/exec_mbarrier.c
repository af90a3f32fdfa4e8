// SPDX-License-Identifier: MIT
/*
 * mbarrier: split arrive/wait barriers in shared memory (sm_80), and
 * cp.async.mbarrier.arrive. The 64-bit object holds the phase (bit 63),
 * the expected count (bits 21-41) and the pending count (bits 0-20).
 * Every executing lane arrives on its own, in lane order; a CTA runs on
 * one worker, so no atomics are needed. A wait that finds its phase not
 * complete yields the warp, so that the arriving warps can run.
 */
#include "lanes.h"

#define MB_COUNT_MASK ((1ull << 21) - 1)
#define MB_EXPECTED_SHIFT 21
#define MB_PHASE (1ull << 63)

enum mb_op { MB_INIT, MB_INVAL, MB_ARRIVE, MB_ARRIVE_DROP, MB_TEST_WAIT,
	     MB_PENDING, MB_CP_ARRIVE };

static uint64_t *mb_word(struct warp *w, const struct xinsn *ip, uint32_t l)
{
	const uint64_t *pa = xr(w, ip->a);
	uint64_t off = (uint64_t)ip->imm + (ip->frame_rel ? w->local_base : 0);
	return (uint64_t *)mem_host(w, ip, (enum xspace)ip->space, l,
				    pa[l] + off, 8, true);
}

/* One arrival of @count; returns the object as it was (the state). */
static uint64_t mb_arrive(uint64_t *word, uint64_t count, bool drop,
			  bool complete)
{
	uint64_t old = *word;
	uint64_t pending = old & MB_COUNT_MASK;
	uint64_t expected = old >> MB_EXPECTED_SHIFT & MB_COUNT_MASK;
	uint64_t phase = old & MB_PHASE;
	pending = pending > count ? pending - count : 0;
	if (drop)
		expected = expected > count ? expected - count : 0;
	if (!pending && complete) {
		phase ^= MB_PHASE;
		pending = expected;
	}
	*word = phase | expected << MB_EXPECTED_SHIFT | pending;
	return old;
}

static const struct xinsn *x_mbarrier(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const uint64_t *pb = ip->b ? xr(w, ip->b) : NULL;
	uint64_t *d = ip->d ? xr(w, ip->d) : NULL;
	FOR_LANES(m, l) {
		uint64_t *word = mb_word(w, ip, l);
		if (!word)
			return NULL;
		uint64_t n = pb ? (uint32_t)pb[l] & MB_COUNT_MASK : 1;
		switch (ip->mode) {
		case MB_INIT:
			*word = n << MB_EXPECTED_SHIFT | n;
			break;
		case MB_ARRIVE:
		case MB_ARRIVE_DROP: {
			uint64_t old = mb_arrive(word, n,
						 ip->mode == MB_ARRIVE_DROP,
						 !ip->mode16);
			if (d)
				d[l] = old;
			break;
		}
		case MB_CP_ARRIVE:
			/* the copy is done: without .noinc the count it
			 * would have added is taken back at once */
			if (ip->flags >> FL_NOINC & 1)
				mb_arrive(word, 1, false, true);
			break;
		default:	/* inval */
			break;
		}
	}
	return ip + 1;
}

/* test_wait / try_wait: has the phase of the state (or of the parity)
 * completed? */
static const struct xinsn *x_mbarrier_wait(struct warp *w,
					   const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip), done = 0;
	const uint64_t *state = xr(w, ip->b);
	bool parity = ip->flags >> FL_PARITY & 1;
	FOR_LANES(m, l) {
		uint64_t *word = mb_word(w, ip, l);
		if (!word)
			return NULL;
		uint64_t want = parity ? ((uint64_t)(state[l] & 1) << 63) :
					 state[l] & MB_PHASE;
		done |= (uint32_t)((*word & MB_PHASE) != want) << l;
	}
	uint32_t *p = xpred(w, ip->d);
	*p = (*p & ~m) | done;
	if (done == m)
		return ip + 1;
	w->ip = ip + 1;		/* let the others arrive */
	return NULL;
}

static const struct xinsn *x_mbarrier_pending(struct warp *w,
					      const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a);
	FOR_LANES(m, l)
		d[l] = pa[l] & MB_COUNT_MASK;
	return ip + 1;
}

/* ---- lowering ---- */

static enum mb_op mb_op_of(const struct ir_insn *in)
{
	switch (in->mode) {
	case MOD_INIT:
		return MB_INIT;
	case MOD_INVAL:
		return MB_INVAL;
	case MOD_ARRIVE:
		return MB_ARRIVE;
	case MOD_ARRIVE_DROP:
		return MB_ARRIVE_DROP;
	case MOD_PENDING_COUNT:
		return MB_PENDING;
	default:
		return MB_TEST_WAIT;
	}
}

/* The object's address operand, and the operands around it. */
static bool mb_emit(struct lower_ctx *c, const struct ir_insn *in,
		    xhandler h, enum mb_op op, int dst, int addr, int count)
{
	xref d = 0, a = 0, b = 0;
	int64_t off = 0;
	enum xspace sp = XS_SHARED;
	bool frame_rel = false;
	unsigned space = in->space ? in->space : SPACE_NONE;
	if ((dst >= 0 && !ref_dst(c, &in->opnd[dst], &d)) ||
	    (addr >= 0 && !ref_addr(c, &in->opnd[addr], space, &a, &off, &sp,
				    &frame_rel)) ||
	    (count >= 0 && count < in->nopnds &&
	     !ref_src(c, &in->opnd[count], PTX_T_B64, &b)))
		return false;
	if (addr >= 0 && sp != XS_SHARED && sp != XS_GLOBAL)
		return lower_unsupported(c, "mbarrier state space");
	struct xinsn *x = emit(c, h);
	if (!x)
		return lower_nomem(c);
	x->d = d;
	x->a = a;
	x->b = b;
	x->imm = off;
	x->frame_rel = frame_rel;
	x->space = (uint8_t)sp;
	x->mode = (uint8_t)op;
	x->mode16 = in->mode2;	/* .noComplete */
	return true;
}

static bool has_mod(const struct ir_insn *in, unsigned mod)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == mod)
			return true;
	return false;
}

/* Operand count check, then emission. */
static bool mb_lower(struct lower_ctx *c, const struct ir_insn *in,
		     bool count_ok, xhandler h, enum mb_op op, int dst,
		     int addr, int count)
{
	if (!count_ok)
		return lower_unsupported(c, "operands");
	return mb_emit(c, in, h, op, dst, addr, count);
}

bool lower_mbarrier(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned n = in->nopnds;
	if (in->op == OP_CP)	/* cp.async.mbarrier.arrive{.noinc} */
		return has_mod(in, MOD_ARRIVE) ?
			       mb_lower(c, in, n == 1, x_mbarrier,
					MB_CP_ARRIVE, -1, 0, -1) :
			       lower_unsupported(c, NULL);
	enum mb_op op = mb_op_of(in);
	if (in->has_raw || !in->mode || in->mode == MOD_EXPECT_TX ||
	    in->mode == MOD_COMPLETE_TX)
		return lower_unsupported(c, NULL);
	switch (op) {
	case MB_INIT:
		return mb_lower(c, in, n == 2, x_mbarrier, op, -1, 0, 1);
	case MB_INVAL:
		return mb_lower(c, in, n == 1, x_mbarrier, op, -1, 0, -1);
	case MB_ARRIVE:
	case MB_ARRIVE_DROP:
		return mb_lower(c, in, n == 2 || n == 3, x_mbarrier, op, 0, 1,
				2);
	case MB_PENDING: {
		xref d, a;
		if (n != 2)
			return lower_unsupported(c, "operands");
		if (!ref_dst(c, &in->opnd[0], &d) ||
		    !ref_src(c, &in->opnd[1], PTX_T_B64, &a))
			return false;
		struct xinsn *x = emit(c, x_mbarrier_pending);
		if (!x)
			return lower_nomem(c);
		x->d = d;
		x->a = a;
		return true;
	}
	default:
		return mb_lower(c, in, n == 3 || n == 4, x_mbarrier_wait, op, 0,
				1, 2);
	}
}
