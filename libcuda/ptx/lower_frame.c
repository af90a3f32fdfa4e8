// SPDX-License-Identifier: MIT
/*
 * The interpreter's register frames: every IR register of a function gets
 * a slot of 32 lanes in the function's frame, and a warp's register stack
 * must hold the deepest chain of frames its calls can make. Local frames
 * and the thread's stack are not here: they are the kernel's layout
 * (layout.c), shared by every back end.
 */
#include "ir_live.h"
#include "lower.h"

#include <stdlib.h>
#include <string.h>

bool lower_frame_registers(struct lower_ctx *c)
{
	const struct ir_func *f = c->f;
	struct xfunc *xf = c->xf;
	xf->reg_off = arena_alloc(&c->prog->arena,
				  (f->nregs + 1) * sizeof(uint32_t));
	if (!xf->reg_off)
		return lower_nomem(c);
	uint64_t off = 0;
	for (uint32_t i = 0; i < f->nregs; i++) {
		if (f->regs[i].type == PTX_T_PRED)
			continue;
		xf->reg_off[i] = (uint32_t)off;
		/* a .b128 register is two 64-bit slots, low half first */
		off += LANE_BYTES * f->regs[i].vec *
		       (ptx_type_size(f->regs[i].type) > 8 ? 2 : 1);
	}
	for (uint32_t i = 0; i < f->nregs; i++) {
		if (f->regs[i].type != PTX_T_PRED)
			continue;
		xf->reg_off[i] = (uint32_t)off;
		off += 8;
	}
	if (off > UINT32_MAX / 2) {
		msg_printf(c->log, "%s: too many registers", f->sym->name);
		c->status = PTX_ERR_UNSUPPORTED;
		return false;
	}
	xf->frame_size = (uint32_t)ALIGN_UP(off, 8);
	return true;
}

/*
 * ---- what a warp's start zeroes ----
 *
 * Registers start at zero. A register every path writes before reading
 * it never shows that zero, so a warp's start need not write it: only
 * the registers live at the entry are zeroed (ir_live.c, as each lane's
 * own path reads and writes them: instructions touching other lanes end
 * no register's liveness), with every register an instruction touching other lanes
 * (shuffles, votes, barriers, calls, ...) or written in part (vector and
 * 128-bit registers) and every byte that is no IR register (the
 * interpreter's temporaries).
 */

enum { ZEROING_MAX_WORDS = 1u << 21 };

/* Every register an instruction touching other lanes names, read or
 * written: another lane's path may not have written it. */
static void cross_lane_regs(const struct ir_func *f, uint64_t *set)
{
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		for (uint32_t k = 0; !insn_lane_local(in) && k < in->nopnds;
		     k++)
			ir_live_operand_regs(f, &in->opnd[k], set);
	}
}

static uint32_t reg_bytes(const struct ir_reg *r)
{
	if (r->type == PTX_T_PRED)
		return 8;
	return LANE_BYTES * r->vec * (ptx_type_size(r->type) > 8 ? 2 : 1);
}

static bool whole_reg(const struct ir_reg *r)
{
	return r->type == PTX_T_PRED ||
	       (r->vec == 1 && ptx_type_size(r->type) <= 8);
}

/* The zero ranges: every 8-byte unit of the frame but those of registers
 * the warp's start need not zero, merged. */
static bool zero_ranges(struct lower_ctx *c, const struct xfunc *xf,
			const uint64_t *need)
{
	const struct ir_func *f = xf->ir;
	uint32_t units = xf->frame_size / 8;
	uint8_t *skip = calloc(units + 1, 1);
	struct vec v = { 0 };
	if (!skip)
		return lower_nomem(c);
	for (uint32_t r = 0; r < f->nregs; r++)
		if (!ir_live_has(need, r) && whole_reg(&f->regs[r]))
			memset(skip + xf->reg_off[r] / 8, 1,
			       reg_bytes(&f->regs[r]) / 8);
	for (uint32_t u = 0; u < units; u++) {
		if (skip[u])
			continue;
		struct zero_range *z = v.len ? &VEC_AT(v, struct zero_range,
						       v.len - 1) : NULL;
		if (z && z->off + z->len == u * 8) {
			z->len += 8;
			continue;
		}
		z = vec_push(&v, sizeof(*z));
		if (!z) {
			free(skip);
			vec_free(&v);
			return lower_nomem(c);
		}
		*z = (struct zero_range){ u * 8, 8 };
	}
	free(skip);
	struct interp_kernel *k = c->kernel->interp;
	k->nzero = (uint32_t)v.len;
	k->zero = vec_to_arena(&v, sizeof(struct zero_range),
			       &c->prog->arena);
	return (k->zero || !k->nzero) ? true : lower_nomem(c);
}

bool lower_start_zeroing(struct lower_ctx *c)
{
	const struct xfunc *xf = c->kernel->interp->entry;
	const struct ir_func *f = xf->ir;
	uint32_t words = (f->nregs + 63) / 64 + 1;
	/* a huge kernel (over 16 MiB of sets) zeroes every register */
	bool analyse = f->nblocks &&
		       (size_t)(f->nblocks + 1) * words <= ZEROING_MAX_WORDS;
	struct ir_live *live = analyse ? ir_live_solve(f, insn_lane_local)
				       : NULL;
	uint64_t *need = calloc(words, 8);
	bool ok = need && (live || !analyse);
	if (ok && analyse) {
		const uint64_t *entry = ir_live_in(live, 0);
		cross_lane_regs(f, need);
		for (uint32_t w = 0; w < words; w++)
			need[w] |= entry[w];
	} else if (ok) {	/* zero every register */
		memset(need, 0xff, words * 8);
	}
	ok = ok && zero_ranges(c, xf, need);
	ir_live_free(live);
	free(need);
	return ok ? true : (c->status ? false : lower_nomem(c));
}

/* ---- the register stack ---- */

struct regs_walk {
	struct interp_kernel *ik;
	uint8_t *state;		/* 0 new, 1 on the path, 2 done */
};

static void walk_regs(struct regs_walk *s, struct xfunc *xf);

static void walk_callee(struct regs_walk *s, struct xfunc *xf,
			struct xfunc *callee)
{
	if (!callee || s->state[callee->id] == 1)
		return;	/* recursion: the kernel's layout says so */
	walk_regs(s, callee);
	if (callee->regs_size > xf->regs_size - xf->frame_size)
		xf->regs_size = xf->frame_size + callee->regs_size;
}

static void walk_regs(struct regs_walk *s, struct xfunc *xf)
{
	if (s->state[xf->id] == 2)
		return;
	s->state[xf->id] = 1;
	xf->regs_size = xf->frame_size;
	for (uint32_t i = 0; i < xf->ncode; i++) {
		const struct xinsn *x = &xf->code[i];
		if (!xinsn_is_call(x))
			continue;
		const struct xcall *call = x->aux;
		if (call->callee) {
			walk_callee(s, xf, (struct xfunc *)call->callee);
			continue;
		}
		for (uint32_t f = 0; f < s->ik->nfuncs; f++)
			walk_callee(s, xf, s->ik->funcs[f]);
	}
	s->state[xf->id] = 2;
}

bool lower_register_stack(struct lower_ctx *c)
{
	struct interp_kernel *k = c->kernel->interp;
	struct regs_walk s = { .ik = k };
	s.state = calloc(k->nfuncs + 1, 1);
	if (!s.state)
		return lower_nomem(c);
	walk_regs(&s, k->entry);
	free(s.state);
	k->regs_stride = k->entry->regs_size;
	if (c->kernel->layout.recursive)
		k->regs_stride *= 4;
	return true;
}
