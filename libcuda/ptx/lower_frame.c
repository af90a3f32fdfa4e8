// SPDX-License-Identifier: MIT
/*
 * The interpreter's register frames: every IR register of a function gets
 * a slot of 32 lanes in the function's frame, and a warp's register stack
 * must hold the deepest chain of frames its calls can make. Local frames
 * and the thread's stack are not here: they are the kernel's layout
 * (layout.c), shared by every back end.
 */
#include "lower.h"

#include <stdlib.h>

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
