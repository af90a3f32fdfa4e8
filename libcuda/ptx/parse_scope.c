// SPDX-License-Identifier: MIT
/*
 * PTX parser, names: scopes of function bodies (with "$n" renaming of
 * shadowed names), %r<N> register ranges, labels and module symbols.
 */
#include "parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scopes (function bodies) ---- */

void push_scope(struct parser *p, const struct token *at)
{
	struct fn_state *fs = p->fs;
	if (fs->depth == MAX_SCOPES)
		perr(p, at, "blocks nested too deeply");
	memset(&fs->scopes[fs->depth++], 0, sizeof(struct strmap));
}

void pop_scope(struct parser *p)
{
	strmap_free(&p->fs->scopes[--p->fs->depth]);
}

/*
 * Enters @name in the innermost scope. A name already declared elsewhere
 * in the function gets a "$n" suffix in the IR, so that the flattened
 * function has unique names. Returns the spelling to store.
 */
const char *declare_name(struct parser *p, const struct token *t,
				struct name_entry e)
{
	struct fn_state *fs = p->fs;
	struct strmap *scope = &fs->scopes[fs->depth - 1];
	if (strmap_get(scope, t->p, t->len))
		perr(p, t, "'%.*s' is already declared in this scope",
		     (int)t->len, t->p);
	struct name_entry *owned = malloc(sizeof(*owned));
	struct name_entry **slot = vec_push(&fs->entries, sizeof(*slot));
	if (!owned || !slot) {
		free(owned);
		perr_nomem(p);
	}
	*owned = e;
	*slot = owned;
	/* A name that shadows an outer one (also a member of an outer
	 * %r<N> range) is renamed like a second declaration. */
	uint32_t outer_reg;
	bool shadows = lookup_name(p, t->p, t->len, &outer_reg) != NULL;
	const char *stored = pstrndup(p, t->p, t->len);
	uintptr_t seen = (uintptr_t)strmap_get(&fs->used_names, t->p, t->len);
	if (!seen && shadows)
		seen = 1;
	if (!strmap_put(scope, stored, t->len, owned) ||
	    !strmap_put(&fs->used_names, stored, t->len,
			(void *)(seen + 1)))
		perr_nomem(p);
	if (!seen)
		return stored;
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "$%u", (unsigned)seen);
	char *renamed = palloc(p, t->len + (size_t)n + 1);
	memcpy(renamed, t->p, t->len);
	memcpy(renamed + t->len, buf, (size_t)n + 1);
	return renamed;
}

static bool split_range_name(const char *s, size_t len, size_t *prefix,
			     uint32_t *index)
{
	size_t i = len;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == len || i == 0 || len - i > 9)
		return false;
	if (s[i] == '0' && len - i > 1)
		return false;	/* %r01 is not %r1 */
	uint32_t v = 0;
	for (size_t k = i; k < len; k++)
		v = v * 10 + (uint32_t)(s[k] - '0');
	*prefix = i;
	*index = v;
	return true;
}

/*
 * Looks a name up through the scopes; for registers also sets @reg to
 * the register (resolving %r<N> ranges).
 */
const struct name_entry *lookup_name(struct parser *p, const char *s,
				     size_t len, uint32_t *reg)
{
	struct fn_state *fs = p->fs;
	if (!fs)
		return NULL;
	size_t prefix = 0;
	uint32_t index = 0;
	bool ranged = split_range_name(s, len, &prefix, &index);
	for (unsigned d = fs->depth; d-- > 0;) {
		const struct name_entry *e = strmap_get(&fs->scopes[d], s, len);
		if (e && e->kind != NAME_REG_RANGE) {
			*reg = e->reg;
			return e;
		}
		if (!ranged)
			continue;
		e = strmap_get(&fs->scopes[d], s, prefix);
		if (e && e->kind == NAME_REG_RANGE && index < e->count) {
			*reg = e->reg + index;
			return e;
		}
	}
	return NULL;
}

/* A variable or function visible here (function scopes, then module). */
struct ir_sym *lookup_sym(struct parser *p, const char *s, size_t len)
{
	uint32_t reg;
	const struct name_entry *e = lookup_name(p, s, len, &reg);
	if (e && e->kind == NAME_VAR)
		return e->sym;
	return strmap_get(&p->syms, s, len);
}

/* ---- labels ---- */

static uint32_t label_find_or_add(struct parser *p, const struct token *t)
{
	struct fn_state *fs = p->fs;
	uintptr_t idx = (uintptr_t)strmap_get(&fs->label_map, t->p, t->len);
	if (idx)
		return (uint32_t)(idx - 1);
	struct ir_label *l = pvec_push(p, &fs->labels, sizeof(*l));
	l->name = pstrndup(p, t->p, t->len);
	l->insn = IR_NONE;
	l->line = t->line;
	l->col = t->col;
	if (!strmap_put(&fs->label_map, l->name, t->len,
			(void *)(uintptr_t)fs->labels.len))
		perr_nomem(p);
	return (uint32_t)(fs->labels.len - 1);
}

/* A reference to a label, defined already or later in the function. */
uint32_t label_ref(struct parser *p, const struct token *t)
{
	if (!p->fs)
		perr(p, t, "label outside a function");
	return label_find_or_add(p, t);
}

struct ir_label *label_define(struct parser *p, const struct token *t)
{
	struct fn_state *fs = p->fs;
	uint32_t i = label_find_or_add(p, t);
	struct ir_label *l = &VEC_AT(fs->labels, struct ir_label, i);
	if (l->insn != IR_NONE)
		perr(p, t, "label '%.*s' defined twice", (int)t->len, t->p);
	l->insn = (uint32_t)fs->insns.len;
	l->line = t->line;
	l->col = t->col;
	return l;
}

/* ---- module symbols ---- */

struct ir_sym *new_sym(struct parser *p, const struct token *name,
			      unsigned kind)
{
	struct ir_sym *s = palloc(p, sizeof(*s));
	s->kind = (uint8_t)kind;
	s->name = pstrndup(p, name->p, name->len);
	s->module = p->m;
	s->def = s;
	s->line = name->line;
	s->col = name->col;
	s->vec = 1;
	return s;
}

void add_module_sym(struct parser *p, struct ir_sym *s)
{
	struct ir_sym **slot = pvec_push(p, &p->msyms, sizeof(*slot));
	*slot = s;
	uint32_t *o = pvec_push(p, &p->order, sizeof(*o));
	*o = (uint32_t)(p->msyms.len - 1) << 2 | ORDER_SYM;
	if (!strmap_put(&p->syms, s->name, strlen(s->name), s))
		perr_nomem(p);
}

