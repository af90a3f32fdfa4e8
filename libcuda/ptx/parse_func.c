// SPDX-License-Identifier: MIT
/*
 * PTX parser, functions: .entry/.func headers and parameters, performance
 * directives, bodies and their statements (labels, blocks, .loc, .pragma,
 * .callprototype, .branchtargets, .calltargets).
 */
#include "parse_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- functions ---- */

static struct ir_sym *parse_param(struct parser *p, struct ir_func *f,
				  bool is_ret)
{
	struct token kw = lex_next(&p->lx);
	struct decl_quals q = { .space = (uint8_t)directive_space(&kw) };
	if (q.space != SPACE_PARAM && q.space != SPACE_REG)
		perr(p, &kw, "expected .param or .reg");
	parse_quals(p, &q);
	struct token name = expect_ident(p, "a parameter name");
	struct ir_sym *v = new_sym(p, &name, SYM_VAR);
	parse_dims(p, v);
	finish_var_layout(v, &q);
	v->owner = f;
	v->is_retval = is_ret;
	return v;
}

static struct ir_sym **parse_param_list(struct parser *p, struct ir_func *f,
					bool is_ret, uint32_t *count)
{
	struct vec *params = tmp_vec(p);
	expect(p, '(');
	if (!accept(p, ')')) {
		do {
			struct ir_sym **slot =
				pvec_push(p, params, sizeof(*slot));
			*slot = parse_param(p, f, is_ret);
		} while (accept(p, ','));
		expect(p, ')');
	}
	*count = (uint32_t)params->len;
	struct ir_sym **list = pvec_to_arena(p, params,
					     sizeof(struct ir_sym *));
	tmp_done(p, params);
	return list;
}

static void parse_dim3(struct parser *p, uint32_t d[3])
{
	d[0] = parse_uint(p, "dimension");
	d[1] = d[2] = 1;
	for (int i = 1; i < 3 && accept(p, ','); i++)
		d[i] = parse_uint(p, "dimension");
}

char *parse_pragma_string(struct parser *p)
{
	struct token s = lex_next(&p->lx);
	if (s.kind != TOK_STRING)
		perr(p, &s, "expected a string");
	char *text = pstrndup(p, s.p, s.len);
	expect(p, ';');
	return text;
}

/* Performance and other directives between the header and the body. */
static void parse_function_directives(struct parser *p, struct ir_func *f,
				      struct vec *pragmas)
{
	for (;;) {
		const struct token *t = lex_peek(&p->lx, 0);
		if (t->kind != TOK_DIRECTIVE)
			return;
		struct token d = lex_next(&p->lx);
		if (tok_equals(&d, ".maxntid"))
			parse_dim3(p, f->maxntid);
		else if (tok_equals(&d, ".reqntid"))
			parse_dim3(p, f->reqntid);
		else if (tok_equals(&d, ".reqnctapercluster"))
			parse_dim3(p, f->reqnctapercluster);
		else if (tok_equals(&d, ".minnctapersm"))
			f->minnctapersm = parse_uint(p, "count");
		else if (tok_equals(&d, ".maxnctapersm"))
			f->maxnctapersm = parse_uint(p, "count");
		else if (tok_equals(&d, ".maxnreg"))
			f->maxnreg = parse_uint(p, "count");
		else if (tok_equals(&d, ".maxclusterrank"))
			f->maxclusterrank = parse_uint(p, "count");
		else if (tok_equals(&d, ".explicitcluster"))
			f->explicitcluster = true;
		else if (tok_equals(&d, ".noreturn"))
			f->noreturn = true;
		else if (tok_equals(&d, ".pragma")) {
			char **slot = pvec_push(p, pragmas, sizeof(*slot));
			*slot = parse_pragma_string(p);
		} else
			perr(p, &d, "unexpected directive in a function "
				    "header");
	}
}

static void enter_params(struct parser *p, struct ir_sym **params,
			 uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ir_sym *v = params[i];
		struct token t = { .kind = TOK_IDENT, .p = v->name,
				   .len = (uint32_t)strlen(v->name),
				   .line = v->line, .col = v->col };
		if (v->space == SPACE_REG) {
			struct decl_quals q = { .type = v->type,
						.vec = v->vec };
			v->reg_index = add_regs(p, &t, t.len, 0, &q);
		} else {
			v->name = declare_name(p, &t, (struct name_entry){
						      .kind = NAME_VAR,
						      .sym = v });
		}
	}
}

static void parse_statement(struct parser *p);

static void check_labels(struct parser *p)
{
	struct fn_state *fs = p->fs;
	for (size_t i = 0; i < fs->labels.len; i++) {
		struct ir_label *l = &VEC_AT(fs->labels, struct ir_label, i);
		if (l->insn != IR_NONE)
			continue;
		struct token t = { .kind = TOK_IDENT, .p = l->name,
				   .len = (uint32_t)strlen(l->name),
				   .line = l->line, .col = l->col };
		perr(p, &t, "undefined label or symbol '%s'", l->name);
	}
}

void free_fn_state(struct fn_state *fs)
{
	vec_free(&fs->regs);
	vec_free(&fs->regdecls);
	vec_free(&fs->insns);
	vec_free(&fs->labels);
	vec_free(&fs->vars);
	vec_free(&fs->vec_opnds);
	vec_free(&fs->pragmas);
	vec_free(&fs->pragma_at);
	strmap_free(&fs->label_map);
	strmap_free(&fs->used_names);
	while (fs->depth)
		strmap_free(&fs->scopes[--fs->depth]);
	for (size_t i = 0; i < fs->entries.len; i++)
		free(VEC_AT(fs->entries, struct name_entry *, i));
	vec_free(&fs->entries);
	free(fs);
}

static void finish_body(struct parser *p)
{
	struct fn_state *fs = p->fs;
	struct ir_func *f = fs->f;
	check_labels(p);
	f->nregs = (uint32_t)fs->regs.len;
	f->regs = pvec_to_arena(p, &fs->regs, sizeof(struct ir_reg));
	f->nregdecls = (uint32_t)fs->regdecls.len;
	f->regdecls = pvec_to_arena(p, &fs->regdecls,
				    sizeof(struct ir_regdecl));
	f->ninsns = (uint32_t)fs->insns.len;
	f->insns = pvec_to_arena(p, &fs->insns, sizeof(struct ir_insn));
	f->nlabels = (uint32_t)fs->labels.len;
	f->labels = pvec_to_arena(p, &fs->labels, sizeof(struct ir_label));
	f->nvars = (uint32_t)fs->vars.len;
	f->vars = pvec_to_arena(p, &fs->vars, sizeof(struct ir_sym *));
	f->nvec_opnds = (uint32_t)fs->vec_opnds.len;
	f->vec_opnds = pvec_to_arena(p, &fs->vec_opnds,
				     sizeof(struct ir_operand));
	f->nbody_pragmas = (uint32_t)fs->pragmas.len;
	f->body_pragmas = pvec_to_arena(p, &fs->pragmas, sizeof(char *));
	f->body_pragma_at = pvec_to_arena(p, &fs->pragma_at,
					  sizeof(uint32_t));
	f->has_body = true;
}

static void parse_body(struct parser *p, struct ir_func *f)
{
	struct token open = expect(p, '{');
	p->fs = calloc(1, sizeof(*p->fs));
	if (!p->fs)
		perr_nomem(p);
	p->fs->f = f;
	p->loc_file = p->loc_line = 0;
	push_scope(p, &open);
	enter_params(p, f->rets, f->nrets);
	enter_params(p, f->params, f->nparams);
	while (!accept(p, '}')) {
		if (lex_peek(&p->lx, 0)->kind == TOK_EOF)
			perr(p, lex_peek(&p->lx, 0), "missing '}'");
		parse_statement(p);
	}
	finish_body(p);
	free_fn_state(p->fs);
	p->fs = NULL;
}

/* A function defined after a declaration: remember where, for printing. */
static void note_definition(struct parser *p, struct ir_sym *s)
{
	for (size_t i = 0; i < p->msyms.len; i++) {
		if (VEC_AT(p->msyms, struct ir_sym *, i) != s)
			continue;
		uint32_t *o = pvec_push(p, &p->order, sizeof(*o));
		*o = (uint32_t)i << 2 | ORDER_DEFINITION;
		s->defined_later = true;
		return;
	}
}

/* Binds a parsed header to its module symbol, merging declarations. */
static struct ir_sym *bind_function(struct parser *p, const struct token *name,
				    struct ir_func *f, unsigned linkage,
				    bool has_body)
{
	struct ir_sym *s = strmap_get(&p->syms, name->p, name->len);
	if (!s) {
		s = new_sym(p, name, SYM_FUNC);
		s->linkage = (uint8_t)linkage;
		s->func = f;
		add_module_sym(p, s);
	} else if (s->kind != SYM_FUNC) {
		perr(p, name, "'%.*s' is already a variable", (int)name->len,
		     name->p);
	} else if (has_body && s->func->has_body) {
		perr(p, name, "function '%.*s' is defined twice",
		     (int)name->len, name->p);
	} else if (has_body || linkage != LINK_EXTERN) {
		if (linkage != LINK_EXTERN)
			s->linkage = (uint8_t)linkage;
		if (has_body || !s->func->has_body)
			s->func = f;
		if (has_body)
			note_definition(p, s);
	}
	f->sym = s;
	return s;
}

void parse_function(struct parser *p, unsigned linkage)
{
	struct token kw = lex_next(&p->lx);
	struct ir_func *f = palloc(p, sizeof(*f));
	struct vec *pragmas = tmp_vec(p);
	f->is_entry = tok_equals(&kw, ".entry");
	while (accept_directive(p, ".attribute"))
		skip_parenthesized(p);
	if (!f->is_entry && tok_is(lex_peek(&p->lx, 0), '('))
		f->rets = parse_param_list(p, f, true, &f->nrets);
	struct token name = expect_ident(p, "a function name");
	if (tok_is(lex_peek(&p->lx, 0), '('))
		f->params = parse_param_list(p, f, false, &f->nparams);
	parse_function_directives(p, f, pragmas);
	f->npragmas = (uint32_t)pragmas->len;
	f->pragmas = pvec_to_arena(p, pragmas, sizeof(char *));
	tmp_done(p, pragmas);
	bool has_body = tok_is(lex_peek(&p->lx, 0), '{');
	struct ir_sym *s = bind_function(p, &name, f, linkage, has_body);
	if (has_body)
		parse_body(p, f);
	else
		expect(p, ';');
	(void)s;
}

/* ---- statements in bodies ---- */

void parse_loc(struct parser *p)
{
	p->loc_file = parse_uint(p, "file index");
	p->loc_line = parse_uint(p, "line");
	parse_uint(p, "column");
	while (accept(p, ',')) {
		struct token k = expect_ident(p, "function_name or inlined_at");
		if (tok_equals(&k, "function_name")) {
			expect_ident(p, "a label");
			if (accept(p, '+'))
				parse_uint(p, "offset");
		} else if (tok_equals(&k, "inlined_at")) {
			for (int i = 0; i < 3; i++)
				parse_uint(p, "location");
		} else {
			perr(p, &k, "unknown .loc attribute");
		}
	}
}

static void parse_callprototype(struct parser *p, struct ir_label *l)
{
	struct ir_func *f = palloc(p, sizeof(*f));
	struct token under = *lex_peek(&p->lx, 0);
	if (tok_is(&under, '('))
		f->rets = parse_param_list(p, f, true, &f->nrets);
	struct token name = expect_ident(p, "'_'");
	if (!tok_equals(&name, "_"))
		perr(p, &name, "a call prototype is named '_'");
	if (tok_is(lex_peek(&p->lx, 0), '('))
		f->params = parse_param_list(p, f, false, &f->nparams);
	if (accept_directive(p, ".noreturn"))
		f->noreturn = true;
	expect(p, ';');
	struct ir_sym *s = new_sym(p, &name, SYM_FUNC);
	s->func = f;
	s->owner = p->fs->f;
	f->sym = s;
	l->kind = LABEL_CALLPROTOTYPE;
	l->proto = s;
}

static void parse_target_list(struct parser *p, struct ir_label *l,
			      bool calls)
{
	struct fn_state *fs = p->fs;
	struct vec *tmp = tmp_vec(p);
	do {
		struct token t = expect_ident(p, calls ? "a function" :
							 "a label");
		struct ir_operand *o = pvec_push(p, tmp, sizeof(*o));
		if (calls) {
			o->kind = OPND_SYM;
			o->sym = lookup_sym(p, t.p, t.len);
			if (!o->sym || o->sym->kind != SYM_FUNC)
				perr(p, &t, "unknown function");
		} else {
			o->kind = OPND_LABEL;
			o->reg = label_ref(p, &t);
		}
	} while (accept(p, ','));
	expect(p, ';');
	/* label_ref may have grown fs->labels: re-find @l by index */
	l->kind = calls ? LABEL_CALLTARGETS : LABEL_BRANCHTARGETS;
	l->first = (uint32_t)fs->vec_opnds.len;
	l->count = (uint32_t)tmp->len;
	for (size_t i = 0; i < tmp->len; i++)
		*(struct ir_operand *)pvec_push(p, &fs->vec_opnds,
						sizeof(struct ir_operand)) =
			VEC_AT(*tmp, struct ir_operand, i);
	tmp_done(p, tmp);
}

static void parse_label_statement(struct parser *p)
{
	struct token name = lex_next(&p->lx);
	lex_next(&p->lx);	/* ':' */
	uint32_t index = (uint32_t)(label_define(p, &name) -
				    (struct ir_label *)p->fs->labels.data);
	struct token d = *lex_peek(&p->lx, 0);
	if (d.kind != TOK_DIRECTIVE)
		return;
	bool proto = tok_equals(&d, ".callprototype");
	bool btargets = tok_equals(&d, ".branchtargets");
	bool ctargets = tok_equals(&d, ".calltargets");
	if (!proto && !btargets && !ctargets)
		return;
	lex_next(&p->lx);
	if (proto) {
		parse_callprototype(p, &VEC_AT(p->fs->labels, struct ir_label,
					       index));
		return;
	}
	struct ir_label tmp = { 0 };
	parse_target_list(p, &tmp, ctargets);
	struct ir_label *l = &VEC_AT(p->fs->labels, struct ir_label, index);
	l->kind = tmp.kind;
	l->first = tmp.first;
	l->count = tmp.count;
}

static void parse_body_directive(struct parser *p)
{
	struct token d = *lex_peek(&p->lx, 0);
	if (tok_equals(&d, ".reg")) {
		lex_next(&p->lx);
		parse_reg_decl(p);
	} else if (directive_space(&d)) {
		lex_next(&p->lx);
		parse_var_decl(p, LINK_INTERNAL, &d);
	} else if (tok_equals(&d, ".pragma")) {
		lex_next(&p->lx);
		char **slot = pvec_push(p, &p->fs->pragmas, sizeof(*slot));
		*slot = parse_pragma_string(p);
		uint32_t *at = pvec_push(p, &p->fs->pragma_at, sizeof(*at));
		*at = (uint32_t)p->fs->insns.len;
	} else if (tok_equals(&d, ".loc")) {
		lex_next(&p->lx);
		parse_loc(p);
	} else {
		perr(p, &d, "unexpected directive in a function body");
	}
}

static void parse_statement(struct parser *p)
{
	const struct token *t = lex_peek(&p->lx, 0);
	if (tok_is(t, '{')) {
		struct token open = lex_next(&p->lx);
		push_scope(p, &open);
		while (!accept(p, '}')) {
			if (lex_peek(&p->lx, 0)->kind == TOK_EOF)
				perr(p, lex_peek(&p->lx, 0), "missing '}'");
			parse_statement(p);
		}
		pop_scope(p);
	} else if (t->kind == TOK_DIRECTIVE) {
		parse_body_directive(p);
	} else if (t->kind == TOK_IDENT && tok_is(lex_peek(&p->lx, 1), ':')) {
		parse_label_statement(p);
	} else {
		parse_instruction(p);
	}
}

