/* SPDX-License-Identifier: MIT */
/*
 * Lane-loop templates for arithmetic handlers. Each defines a handler
 * that evaluates EXPR for every executing lane, with the operands a, b, c
 * read as type T from the registers' low bits; a warp with all lanes
 * executing takes a plain loop the compiler can vectorise.
 */
#ifndef VCUDA_PTX_LANES_H
#define VCUDA_PTX_LANES_H

#include "lower.h"

/*
 * With every lane executing, results go to a local array first: the
 * compiler then knows they alias no source and vectorises the loop.
 * The body writes d[l]; @d must name the destination.
 */
/*
 * The full-warp loop is the hot one: 32 iterations with a known count,
 * which the compiler vectorises (with a run-time check that the
 * destination does not overlap a source).
 */
#define LANE_LOOP(m, BODY)                                              \
	do {                                                            \
		if ((m) == FULL_MASK) {                                 \
			for (uint32_t l = 0; l < WARP_SIZE; l++) {      \
				BODY;                                   \
			}                                               \
		} else {                                                \
			FOR_LANES(m, l) {                               \
				BODY;                                   \
			}                                               \
		}                                                       \
	} while (0)

/* d = EXPR(a) */
#define DEF_UN(name, T, R, EXPR)                                            \
	static const struct xinsn *name(struct warp *w,                     \
					const struct xinsn *ip)             \
	{                                                                   \
		uint32_t m = xmask(w, ip);                                  \
		uint64_t *d = xr(w, ip->d);                                 \
		const uint64_t *pa = xr(w, ip->a);                          \
		LANE_LOOP(m, T a = (T)pa[l]; (void)a;                     \
			  d[l] = (uint64_t)(R)(EXPR));   \
		return ip + 1;                                              \
	}

/* d = EXPR(a, b) */
#define DEF_BIN(name, T, R, EXPR)                                           \
	static const struct xinsn *name(struct warp *w,                     \
					const struct xinsn *ip)             \
	{                                                                   \
		uint32_t m = xmask(w, ip);                                  \
		uint64_t *d = xr(w, ip->d);                                 \
		const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);      \
		LANE_LOOP(m, T a = (T)pa[l]; T b = (T)pb[l];                \
			  (void)a; (void)b; d[l] = (uint64_t)(R)(EXPR));                      \
		return ip + 1;                                              \
	}

/* d = EXPR(a, b, c) */
#define DEF_TER(name, T, R, EXPR)                                           \
	static const struct xinsn *name(struct warp *w,                     \
					const struct xinsn *ip)             \
	{                                                                   \
		uint32_t m = xmask(w, ip);                                  \
		uint64_t *d = xr(w, ip->d);                                 \
		const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b),      \
			       *pc = xr(w, ip->c);                          \
		LANE_LOOP(m, T a = (T)pa[l]; T b = (T)pb[l];                \
			  T c = (T)pc[l]; (void)a; (void)b; (void)c;       \
			  d[l] = (uint64_t)(R)(EXPR));      \
		return ip + 1;                                              \
	}

/* Picks a handler by operand size (2, 4, 8 bytes). */
static inline xhandler by_size(unsigned size, xhandler h16, xhandler h32,
			       xhandler h64)
{
	return size == 2 ? h16 : size == 4 ? h32 : size == 8 ? h64 : NULL;
}

/* Emits @h with d = opnd[0] and sources opnd[1..n] read as @type. */
bool emit_alu(struct lower_ctx *c, const struct ir_insn *in, xhandler h,
	      unsigned type, unsigned nsrc);

/* Makes the last emitted handler run under the rounding of @rnd
 * (MOD_RZ, MOD_RM, MOD_RP; nothing for MOD_RN or none). */
bool wrap_rounding(struct lower_ctx *c, unsigned rnd);

static inline struct xinsn *last_emitted(struct lower_ctx *c)
{
	return &((struct xinsn *)c->code.data)[c->code.len - 1];
}

#endif
