// SPDX-License-Identifier: MIT
/*
 * Control flow of IR functions: basic blocks, successors, and immediate
 * post-dominators (Cooper, Harvey and Kennedy's iterative algorithm on
 * the reversed graph, with a virtual exit node). A divergent branch's
 * lanes reconverge at its block's immediate post-dominator.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

struct cfg_work {
	struct ir_func *f;
	struct arena *arena;
	uint32_t n;		/* blocks; node n is the virtual exit */
	bool *exits;		/* block may leave the function */
	uint32_t *po;		/* post-order number in the reverse graph */
	uint32_t *order;	/* nodes by decreasing post-order */
	uint32_t norder;
	uint32_t **preds;	/* original predecessors (reverse succs) */
	uint32_t *npreds;
	uint32_t *ipdom;	/* indexed by node; IR_NONE: not yet known */
};

static bool is_terminator(const struct ir_insn *in)
{
	return ptx_opcode_flags(in->op) & (OPF_BRANCH | OPF_RETURN);
}

uint32_t ir_label_block(const struct ir_func *f, uint32_t label)
{
	uint32_t at = f->labels[label].insn;
	return at < f->ninsns ? f->insns[at].block : f->nblocks - 1;
}

/* Marks leaders and numbers blocks into insn->block. */
static bool split_blocks(struct ir_func *f, struct arena *a)
{
	bool *leader = calloc(f->ninsns + 1, sizeof(*leader));
	if (!leader)
		return false;
	leader[0] = true;
	for (uint32_t l = 0; l < f->nlabels; l++)
		if (f->labels[l].kind == LABEL_CODE)
			leader[f->labels[l].insn] = true;
	for (uint32_t i = 0; i < f->ninsns; i++)
		if (is_terminator(&f->insns[i]))
			leader[i + 1] = true;
	/* An empty last block exists when a label points past the end. */
	bool tail = false;
	for (uint32_t l = 0; l < f->nlabels; l++)
		tail |= f->labels[l].insn == f->ninsns;
	uint32_t n = 0;
	for (uint32_t i = 0; i < f->ninsns; i++)
		n += leader[i];
	if (tail || f->ninsns == 0)
		n++;
	f->blocks = arena_alloc(a, n * sizeof(*f->blocks));
	if (!f->blocks) {
		free(leader);
		return false;
	}
	f->nblocks = n;
	uint32_t b = UINT32_MAX;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		if (leader[i])
			f->blocks[++b].first = i;
		f->blocks[b].count++;
		f->insns[i].block = b;
	}
	if (tail || f->ninsns == 0)
		f->blocks[n - 1].first = f->ninsns;
	free(leader);
	return true;
}

static bool set_succs(struct cfg_work *w, uint32_t b, const uint32_t *s,
		      uint32_t n)
{
	struct ir_block *blk = &w->f->blocks[b];
	blk->succ = arena_alloc(w->arena, (n ? n : 1) * sizeof(uint32_t));
	if (!blk->succ)
		return false;
	/* drop duplicates (both edges of a branch to the next block) */
	for (uint32_t i = 0; i < n; i++) {
		bool dup = false;
		for (uint32_t k = 0; k < blk->nsucc; k++)
			dup |= blk->succ[k] == s[i];
		if (!dup)
			blk->succ[blk->nsucc++] = s[i];
	}
	return true;
}

static bool block_succs(struct cfg_work *w, uint32_t b)
{
	struct ir_func *f = w->f;
	const struct ir_block *blk = &f->blocks[b];
	uint32_t next = b + 1 < f->nblocks ? b + 1 : IR_NONE;
	uint32_t s[64], n = 0;
	if (!blk->count) {
		w->exits[b] = true;	/* falls off the end */
		return set_succs(w, b, s, 0);
	}
	const struct ir_insn *in = &f->insns[blk->first + blk->count - 1];
	bool may_fall = !is_terminator(in) || in->guarded;
	if (in->op == OP_BRA && in->nopnds && in->opnd[0].kind == OPND_LABEL)
		s[n++] = ir_label_block(f, in->opnd[0].reg);
	if (in->op == OP_BRX && in->nopnds > 1 &&
	    in->opnd[1].kind == OPND_LABEL) {
		const struct ir_label *t = &f->labels[in->opnd[1].reg];
		for (uint32_t i = 0; i < t->count && n < 63; i++)
			s[n++] = ir_label_block(f, f->vec_opnds[t->first + i].reg);
	}
	if (ptx_opcode_flags(in->op) & OPF_RETURN)
		w->exits[b] = true;
	if (may_fall) {
		if (next == IR_NONE)
			w->exits[b] = true;
		else
			s[n++] = next;
	}
	return set_succs(w, b, s, n);
}

static bool collect_preds(struct cfg_work *w)
{
	struct ir_func *f = w->f;
	w->npreds = calloc(w->n + 1, sizeof(uint32_t));
	w->preds = calloc(w->n + 1, sizeof(uint32_t *));
	if (!w->npreds || !w->preds)
		return false;
	for (uint32_t b = 0; b < w->n; b++) {
		for (uint32_t k = 0; k < f->blocks[b].nsucc; k++)
			w->npreds[f->blocks[b].succ[k]]++;
		w->npreds[w->n] += w->exits[b];
	}
	for (uint32_t b = 0; b <= w->n; b++) {
		w->preds[b] = calloc(w->npreds[b] + 1, sizeof(uint32_t));
		if (!w->preds[b])
			return false;
		w->npreds[b] = 0;
	}
	for (uint32_t b = 0; b < w->n; b++) {
		for (uint32_t k = 0; k < f->blocks[b].nsucc; k++) {
			uint32_t s = f->blocks[b].succ[k];
			w->preds[s][w->npreds[s]++] = b;
		}
		if (w->exits[b])
			w->preds[w->n][w->npreds[w->n]++] = b;
	}
	return true;
}

/* Post-order DFS from the exit over reverse edges (iterative). */
static bool number_nodes(struct cfg_work *w)
{
	uint32_t total = w->n + 1, counter = 0;
	uint32_t *stack = malloc(total * sizeof(uint32_t));
	uint32_t *next = calloc(total, sizeof(uint32_t));
	bool *seen = calloc(total, sizeof(bool));
	w->po = malloc(total * sizeof(uint32_t));
	w->order = malloc(total * sizeof(uint32_t));
	if (!stack || !next || !seen || !w->po || !w->order) {
		free(stack);
		free(next);
		free(seen);
		return false;
	}
	for (uint32_t i = 0; i < total; i++)
		w->po[i] = IR_NONE;
	uint32_t sp = 0;
	stack[sp++] = w->n;
	seen[w->n] = true;
	while (sp) {
		uint32_t v = stack[sp - 1];
		if (next[v] < w->npreds[v]) {
			uint32_t u = w->preds[v][next[v]++];
			if (!seen[u]) {
				seen[u] = true;
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		w->po[v] = counter++;
	}
	w->norder = counter;
	for (uint32_t v = 0; v < total; v++)
		if (w->po[v] != IR_NONE)
			w->order[counter - 1 - w->po[v]] = v;
	free(stack);
	free(next);
	free(seen);
	return true;
}

static uint32_t intersect(const struct cfg_work *w, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (w->po[a] < w->po[b])
			a = w->ipdom[a];
		while (w->po[b] < w->po[a])
			b = w->ipdom[b];
	}
	return a;
}

/* Successors in the original graph, plus the exit for exiting blocks. */
static uint32_t node_succ(const struct cfg_work *w, uint32_t b, uint32_t k)
{
	const struct ir_block *blk = &w->f->blocks[b];
	return k < blk->nsucc ? blk->succ[k] : w->n;
}

static bool compute_ipdoms(struct cfg_work *w)
{
	w->ipdom = malloc((w->n + 1) * sizeof(uint32_t));
	if (!w->ipdom)
		return false;
	for (uint32_t i = 0; i <= w->n; i++)
		w->ipdom[i] = IR_NONE;
	w->ipdom[w->n] = w->n;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 1; i < w->norder; i++) {
			uint32_t b = w->order[i];
			uint32_t nsucc = w->f->blocks[b].nsucc + w->exits[b];
			uint32_t best = IR_NONE;
			for (uint32_t k = 0; k < nsucc; k++) {
				uint32_t s = node_succ(w, b, k);
				if (w->ipdom[s] == IR_NONE)
					continue;
				best = best == IR_NONE ? s :
							 intersect(w, s, best);
			}
			if (best != w->ipdom[b]) {
				w->ipdom[b] = best;
				changed = true;
			}
		}
	}
	for (uint32_t b = 0; b < w->n; b++) {
		uint32_t d = w->ipdom[b];
		w->f->blocks[b].ipdom = d == IR_NONE || d == w->n ? IR_EXIT : d;
	}
	return true;
}

static void mark_reconvergence(struct ir_func *f)
{
	for (uint32_t b = 0; b < f->nblocks; b++) {
		const struct ir_block *blk = &f->blocks[b];
		if (blk->nsucc > 1 && blk->ipdom != IR_EXIT)
			f->blocks[blk->ipdom].is_reconv = true;
	}
}

static void free_work(struct cfg_work *w)
{
	for (uint32_t i = 0; w->preds && i <= w->n; i++)
		free(w->preds[i]);
	free(w->preds);
	free(w->npreds);
	free(w->exits);
	free(w->po);
	free(w->order);
	free(w->ipdom);
}

static bool build_function_cfg(struct ir_func *f, struct arena *a)
{
	struct cfg_work w = { .f = f, .arena = a };
	bool ok = split_blocks(f, a);
	w.n = f->nblocks;
	w.exits = ok ? calloc(w.n + 1, sizeof(bool)) : NULL;
	ok = ok && w.exits;
	for (uint32_t b = 0; ok && b < w.n; b++)
		ok = block_succs(&w, b);
	ok = ok && collect_preds(&w) && number_nodes(&w) &&
	     compute_ipdoms(&w);
	if (ok)
		mark_reconvergence(f);
	free_work(&w);
	return ok;
}

bool ir_build_cfg(struct ir_module *m, struct msgbuf *log)
{
	for (uint32_t i = 0; i < m->nsyms; i++) {
		struct ir_sym *s = m->syms[i];
		if (s->kind != SYM_FUNC || !s->func->has_body ||
		    s->func->blocks)
			continue;
		if (!build_function_cfg(s->func, &m->arena)) {
			msg_printf(log, "%s: out of memory building the CFG "
					"of %s", m->name, s->name);
			return false;
		}
	}
	return true;
}
