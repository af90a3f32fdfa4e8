// SPDX-License-Identifier: MIT
/*
 * PTX parser, declarations: state-space variables (qualifiers, arrays,
 * initialisers) at module and function scope, and registers.
 */
#include "parse_internal.h"

#include <string.h>

/* ---- variable declarations ---- */


static unsigned directive_type(const struct token *t)
{
	unsigned mod = ptx_mod_lookup(t->p + 1, t->len - 1);
	const struct mod_info *mi = ptx_mod_info(mod);
	return mi && mi->cat == MC_TYPE ? mi->value : PTX_T_NONE;
}

unsigned directive_space(const struct token *t)
{
	static const struct {
		const char *name;
		uint8_t space;
	} spaces[] = {
		{ ".global", SPACE_GLOBAL }, { ".const", SPACE_CONST },
		{ ".shared", SPACE_SHARED }, { ".local", SPACE_LOCAL },
		{ ".param", SPACE_PARAM },   { ".reg", SPACE_REG },
		{ ".tex", SPACE_TEX },	     { ".shared::cta", SPACE_SHARED },
		{ ".shared::cluster", SPACE_SHARED },
	};
	for (size_t i = 0; i < ARRAY_SIZE(spaces); i++)
		if (tok_equals(t, spaces[i].name))
			return spaces[i].space;
	return SPACE_NONE;
}

void skip_parenthesized(struct parser *p)
{
	expect(p, '(');
	for (int depth = 1; depth;) {
		struct token t = lex_next(&p->lx);
		if (t.kind == TOK_EOF)
			perr(p, &t, "unbalanced parentheses");
		depth += tok_is(&t, '(') - tok_is(&t, ')');
	}
}

static void parse_attribute(struct parser *p, struct decl_quals *q)
{
	expect(p, '(');
	struct token t = lex_next(&p->lx);
	if (tok_equals(&t, ".managed"))
		q->managed = true;
	else if (!tok_equals(&t, ".unified"))
		perr(p, &t, "unknown attribute");
	if (tok_is(lex_peek(&p->lx, 0), '('))
		skip_parenthesized(p);
	expect(p, ')');
}

static void parse_ptr_attr(struct parser *p, struct decl_quals *q)
{
	q->ptr.space = SPACE_NONE;
	while (lex_peek(&p->lx, 0)->kind == TOK_DIRECTIVE) {
		const struct token *t = lex_peek(&p->lx, 0);
		unsigned s = directive_space(t);
		if (s) {
			q->ptr.space = (uint8_t)s;
			lex_next(&p->lx);
		} else if (tok_equals(t, ".align")) {
			lex_next(&p->lx);
			q->ptr.align = parse_uint(p, "alignment");
		} else {
			break;
		}
	}
	if (!q->ptr.space)
		q->ptr.space = SPACE_NONE;	/* .ptr alone: generic */
}

/* Qualifiers after the state space: .align, .vN, type, attributes. */
void parse_quals(struct parser *p, struct decl_quals *q)
{
	for (;;) {
		const struct token *t = lex_peek(&p->lx, 0);
		if (t->kind != TOK_DIRECTIVE)
			break;
		unsigned type = directive_type(t);
		struct token d = *t;
		if (type) {
			lex_next(&p->lx);
			if (q->type)
				perr(p, &d, "two types in a declaration");
			q->type = (uint8_t)type;
		} else if (tok_equals(t, ".align")) {
			lex_next(&p->lx);
			q->align = parse_uint(p, "alignment");
			if (!q->align || (q->align & (q->align - 1)))
				perr(p, &d, "alignment must be a power of 2");
		} else if (tok_equals(t, ".v2") || tok_equals(t, ".v4") ||
			   tok_equals(t, ".v8")) {
			lex_next(&p->lx);
			q->vec = (uint8_t)(t->p[2] - '0');
		} else if (tok_equals(t, ".attribute")) {
			lex_next(&p->lx);
			parse_attribute(p, q);
		} else if (tok_equals(t, ".ptr")) {
			lex_next(&p->lx);
			parse_ptr_attr(p, q);
		} else if (tok_equals(t, ".texref") ||
			   tok_equals(t, ".samplerref") ||
			   tok_equals(t, ".surfref")) {
			lex_next(&p->lx);
			q->type = PTX_T_B64;
			q->space = t->p[1] == 't'   ? SPACE_TEX :
				   t->p[2] == 'a' ? SPACE_SAMPLER :
						    SPACE_SURF;
		} else if (tok_equals(t, ".volatile")) {
			lex_next(&p->lx);	/* old PTX; no meaning for us */
		} else {
			break;
		}
	}
	if (!q->type)
		perr(p, lex_peek(&p->lx, 0), "expected a type");
}

/* [N][M]... or [] after a variable name. */
void parse_dims(struct parser *p, struct ir_sym *v)
{
	while (tok_is(lex_peek(&p->lx, 0), '[')) {
		struct token at = lex_next(&p->lx);
		if (v->ndims == ARRAY_SIZE(v->dims))
			perr(p, &at, "too many array dimensions");
		v->is_array = true;
		if (accept(p, ']')) {
			if (v->ndims)
				perr(p, &at, "only the first dimension may "
					     "be left out");
			v->unsized = true;
			v->dims[v->ndims++] = 0;
			continue;
		}
		int64_t n = parse_int_expr(p, "array size");
		if (n < 0)
			perr(p, &at, "negative array size");
		v->dims[v->ndims++] = (uint64_t)n;
		expect(p, ']');
	}
}

void finish_var_layout(struct ir_sym *v, const struct decl_quals *q)
{
	unsigned esize = ptx_type_size(q->type) * (q->vec ? q->vec : 1);
	v->space = q->space;
	v->type = q->type;
	v->vec = q->vec ? q->vec : 1;
	v->managed = q->managed;
	v->ptr = q->ptr;
	v->align = q->align ? q->align : (esize ? esize : 1);
	uint64_t n = esize;
	bool over = false;
	for (uint32_t i = 0; i < v->ndims; i++)
		over |= __builtin_mul_overflow(n, v->dims[i] ? v->dims[i] : 1,
					       &n);
	v->size = v->unsized ? 0 : over ? UINT64_MAX : n;
}

/* The largest variable: the 4 GiB PTX's 32-bit offsets into a
 * variable's state space can address. */
#define VAR_SIZE_MAX (1ull << 32)

/* One declarator: name, dimensions, initialiser. */
static struct ir_sym *parse_declarator(struct parser *p,
				       const struct decl_quals *q,
				       struct token *name_out)
{
	struct token name = expect_ident(p, "a variable name");
	struct ir_sym *v = new_sym(p, &name, SYM_VAR);
	parse_dims(p, v);
	finish_var_layout(v, q);
	if (v->size > VAR_SIZE_MAX)	/* the device could not hold it */
		perr(p, &name, "'%s' is larger than %llu bytes", v->name,
		     (unsigned long long)VAR_SIZE_MAX);
	if (accept(p, '=')) {
		if (q->space != SPACE_GLOBAL && q->space != SPACE_CONST)
			perr(p, &name, "only .global and .const variables "
				       "can be initialised");
		parse_initializer(p, v);
	}
	*name_out = name;
	return v;
}

static void merge_module_var(struct parser *p, struct ir_sym *old,
			     struct ir_sym *v, const struct token *name)
{
	bool old_def = old->linkage != LINK_EXTERN;
	bool new_def = v->linkage != LINK_EXTERN;
	if (old->kind != SYM_VAR || (old_def && new_def && !old->unsized &&
				     old->linkage != LINK_COMMON))
		perr(p, name, "'%s' is already defined", v->name);
	/* Operands may point to @old already: update it in place. */
	if (new_def) {
		*old = *v;
		old->def = old;
	}
}

static void declare_module_var(struct parser *p, struct ir_sym *v,
			       const struct token *name)
{
	struct ir_sym *old = strmap_get(&p->syms, v->name, strlen(v->name));
	if (old)
		merge_module_var(p, old, v, name);
	else
		add_module_sym(p, v);
}

static void declare_function_var(struct parser *p, struct ir_sym *v,
				 const struct token *name)
{
	struct fn_state *fs = p->fs;
	v->owner = fs->f;
	v->name = declare_name(p, name, (struct name_entry){
						.kind = NAME_VAR, .sym = v });
	struct ir_sym **slot = pvec_push(p, &fs->vars, sizeof(*slot));
	*slot = v;
}

void parse_var_decl(struct parser *p, unsigned linkage,
			   const struct token *space_tok)
{
	struct decl_quals q = { .space = (uint8_t)directive_space(space_tok) };
	parse_quals(p, &q);
	do {
		struct token name;
		struct ir_sym *v = parse_declarator(p, &q, &name);
		v->linkage = (uint8_t)linkage;
		if (p->fs)
			declare_function_var(p, v, &name);
		else
			declare_module_var(p, v, &name);
	} while (accept(p, ','));
	expect(p, ';');
}

/* ---- registers ---- */

uint32_t add_regs(struct parser *p, const struct token *name,
			 size_t name_len, uint32_t count,
			 const struct decl_quals *q)
{
	struct fn_state *fs = p->fs;
	uint32_t first = (uint32_t)fs->regs.len;
	const char *stored = NULL;
	struct name_entry e = { .kind = count ? NAME_REG_RANGE : NAME_REG,
				.reg = first, .count = count };
	struct token t = *name;
	t.len = (uint32_t)name_len;
	stored = declare_name(p, &t, e);
	for (uint32_t i = 0; i < (count ? count : 1); i++) {
		struct ir_reg *r = pvec_push(p, &fs->regs, sizeof(*r));
		r->name = stored;
		r->suffix = count ? (int32_t)i : -1;
		r->type = q->type;
		r->vec = q->vec ? q->vec : 1;
	}
	struct ir_regdecl *d = pvec_push(p, &fs->regdecls, sizeof(*d));
	d->first = first;
	d->count = count ? count : 1;
	d->range = count != 0;
	d->at = (uint32_t)fs->insns.len;
	return first;
}

void parse_reg_decl(struct parser *p)
{
	struct decl_quals q = { .space = SPACE_REG };
	parse_quals(p, &q);
	do {
		struct token name = expect_ident(p, "a register name");
		uint32_t count = 0;
		if (accept(p, '<')) {
			/* a literal: '>' would read as an operator */
			struct token n = lex_next(&p->lx);
			if (n.kind != TOK_INT || !n.ival || n.ival > (1 << 24))
				perr(p, &n, "bad register count");
			count = (uint32_t)n.ival;
			expect(p, '>');
		}
		add_regs(p, &name, name.len, count, &q);
	} while (accept(p, ','));
	expect(p, ';');
}

