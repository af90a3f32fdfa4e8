// SPDX-License-Identifier: MIT
/*
 * PTX parser, module level: errors and allocation, module directives
 * (.version, .target, .file, .section, linkage) and the entry points. A
 * recursive-descent parser over lexer.c's tokens; the first error stops
 * it (longjmp) with a "name:line:col: message near 'token'" line.
 */
#include "parse_internal.h"
#include "ptx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors and allocation ---- */

void perr(struct parser *p, const struct token *t, const char *fmt, ...)
{
	msg_printf(&p->log, "%s:%u:%u: ", p->name, t->line, t->col);
	va_list ap;
	va_start(ap, fmt);
	msg_vprintf(&p->log, fmt, ap);
	va_end(ap);
	if (t->kind == TOK_EOF)
		msg_printf(&p->log, " near end of input");
	else
		msg_printf(&p->log, " near '%.*s'",
			   (int)(t->len > 40 ? 40 : t->len), t->p);
	p->status = PTX_ERR_SYNTAX;
	longjmp(p->fail, 1);
}

void perr_nomem(struct parser *p)
{
	msg_printf(&p->log, "%s: out of memory", p->name);
	p->status = PTX_ERR_NO_MEMORY;
	longjmp(p->fail, 1);
}

void *palloc(struct parser *p, size_t size)
{
	void *q = arena_alloc(&p->m->arena, size);
	if (!q)
		perr_nomem(p);
	return q;
}

char *pstrndup(struct parser *p, const char *s, size_t len)
{
	char *q = arena_strndup(&p->m->arena, s, len);
	if (!q)
		perr_nomem(p);
	return q;
}

void *pvec_push(struct parser *p, struct vec *v, size_t elem)
{
	void *q = vec_push(v, elem);
	if (!q)
		perr_nomem(p);
	return q;
}

void *pvec_to_arena(struct parser *p, struct vec *v, size_t elem)
{
	size_t n = v->len;
	void *q = vec_to_arena(v, elem, &p->m->arena);
	if (n && !q)
		perr_nomem(p);
	return q;
}

/*
 * Temporary vectors: a syntax error unwinds the C stack (longjmp), so
 * they live in the parser, which frees those still in use.
 */
struct vec *tmp_vec(struct parser *p)
{
	for (unsigned i = 0; i < ARRAY_SIZE(p->tmp); i++) {
		if (p->tmp_used >> i & 1)
			continue;
		p->tmp_used |= 1u << i;
		memset(&p->tmp[i], 0, sizeof(p->tmp[i]));
		return &p->tmp[i];
	}
	perr_nomem(p);	/* nesting deeper than any PTX needs */
}

void tmp_done(struct parser *p, struct vec *v)
{
	vec_free(v);
	p->tmp_used &= ~(1u << (v - p->tmp));
}

bool accept(struct parser *p, char c)
{
	if (!tok_is(lex_peek(&p->lx, 0), c))
		return false;
	lex_next(&p->lx);
	return true;
}

struct token expect(struct parser *p, char c)
{
	struct token t = lex_next(&p->lx);
	if (!tok_is(&t, c))
		perr(p, &t, "expected '%c'", c);
	return t;
}

struct token expect_ident(struct parser *p, const char *what)
{
	struct token t = lex_next(&p->lx);
	if (t.kind != TOK_IDENT)
		perr(p, &t, "expected %s", what);
	return t;
}

bool peek_directive(struct parser *p, const char *d)
{
	const struct token *t = lex_peek(&p->lx, 0);
	return t->kind == TOK_DIRECTIVE && tok_equals(t, d);
}

bool accept_directive(struct parser *p, const char *d)
{
	if (!peek_directive(p, d))
		return false;
	lex_next(&p->lx);
	return true;
}

uint32_t parse_uint(struct parser *p, const char *what)
{
	struct token at = *lex_peek(&p->lx, 0);
	int64_t v = parse_int_expr(p, what);
	if (v < 0 || v > UINT32_MAX)
		perr(p, &at, "%s out of range", what);
	return (uint32_t)v;
}

/* ---- module directives ---- */

static void parse_version(struct parser *p)
{
	struct token t = lex_next(&p->lx);
	if (t.kind != TOK_FLOAT && t.kind != TOK_INT)
		perr(p, &t, "expected a version number");
	char buf[32];
	snprintf(buf, sizeof(buf), "%.*s", (int)t.len, t.p);
	char *dot;
	p->m->version_major = (unsigned)strtoul(buf, &dot, 10);
	p->m->version_minor = *dot == '.' ?
				      (unsigned)strtoul(dot + 1, NULL, 10) : 0;
	if (p->m->version_major < 1 || p->m->version_major > 9)
		perr(p, &t, "unsupported PTX version");
}

static void parse_target(struct parser *p)
{
	struct msgbuf text = { palloc(p, 256), 256, 0 };
	do {
		struct token t = expect_ident(p, "a target");
		msg_printf(&text, "%s%.*s", text.len ? ", " : "", (int)t.len,
			   t.p);
		if (t.len > 3 && !memcmp(t.p, "sm_", 3))
			p->m->sm = (unsigned)strtoul(t.p + 3, NULL, 10);
		else if (t.len > 8 && !memcmp(t.p, "compute_", 8))
			p->m->sm = (unsigned)strtoul(t.p + 8, NULL, 10);
	} while (accept(p, ','));
	p->m->target = text.buf;
}

static void parse_file(struct parser *p)
{
	struct ir_file *f = pvec_push(p, &p->files, sizeof(*f));
	f->index = parse_uint(p, "file index");
	struct token s = lex_next(&p->lx);
	if (s.kind != TOK_STRING)
		perr(p, &s, "expected a file name");
	f->name = pstrndup(p, s.p, s.len);
	while (accept(p, ','))
		parse_int_expr(p, "file attribute");
}

/* .section name { ... }: kept verbatim, never interpreted. */
static void parse_section(struct parser *p, const struct token *start)
{
	struct token name = lex_next(&p->lx);
	if (name.kind != TOK_DIRECTIVE && name.kind != TOK_IDENT)
		perr(p, &name, "expected a section name");
	expect(p, '{');
	const char *end;
	for (int depth = 1;;) {
		struct token t = lex_next(&p->lx);
		if (t.kind == TOK_EOF)
			perr(p, &t, "unterminated .section");
		depth += tok_is(&t, '{') - tok_is(&t, '}');
		if (!depth) {
			end = t.p + 1;
			break;
		}
	}
	struct ir_section *s = pvec_push(p, &p->sections, sizeof(*s));
	s->text = pstrndup(p, start->p, (size_t)(end - start->p));
	uint32_t *o = pvec_push(p, &p->order, sizeof(*o));
	*o = (uint32_t)(p->sections.len - 1) << 2 | ORDER_SECTION;
}

/* .alias alias, target; both functions, the alias declared before. */
static void parse_alias(struct parser *p)
{
	struct token a = expect_ident(p, "a function");
	expect(p, ',');
	struct token t = expect_ident(p, "a function");
	expect(p, ';');
	struct ir_sym *alias = strmap_get(&p->syms, a.p, a.len);
	struct ir_sym *target = strmap_get(&p->syms, t.p, t.len);
	if (!alias || alias->kind != SYM_FUNC)
		perr(p, &a, "an alias must be a declared function");
	if (!target || target->kind != SYM_FUNC || !target->func->has_body)
		perr(p, &t, "an alias target must be a defined function");
	if (alias->func->has_body || alias->alias_of)
		perr(p, &a, "'%s' is already defined", alias->name);
	alias->alias_of = target;
	for (size_t i = 0; i < p->msyms.len; i++) {
		if (VEC_AT(p->msyms, struct ir_sym *, i) != alias)
			continue;
		uint32_t *o = pvec_push(p, &p->order, sizeof(*o));
		*o = (uint32_t)i << 2 | ORDER_ALIAS;
	}
}

static unsigned parse_linkage(struct parser *p)
{
	unsigned linkage = LINK_INTERNAL;
	for (;;) {
		const struct token *t = lex_peek(&p->lx, 0);
		if (tok_equals(t, ".visible"))
			linkage = LINK_VISIBLE;
		else if (tok_equals(t, ".extern"))
			linkage = LINK_EXTERN;
		else if (tok_equals(t, ".weak"))
			linkage = LINK_WEAK;
		else if (tok_equals(t, ".common"))
			linkage = LINK_COMMON;
		else
			return linkage;
		lex_next(&p->lx);
	}
}

static void parse_module_directive(struct parser *p)
{
	struct token d = *lex_peek(&p->lx, 0);
	if (d.kind != TOK_DIRECTIVE)
		perr(p, &d, "expected a directive");
	if (accept_directive(p, ".version")) {
		parse_version(p);
	} else if (accept_directive(p, ".target")) {
		parse_target(p);
	} else if (accept_directive(p, ".address_size")) {
		p->m->address_size = parse_uint(p, "address size");
	} else if (accept_directive(p, ".file")) {
		parse_file(p);
	} else if (accept_directive(p, ".section")) {
		parse_section(p, &d);
	} else if (accept_directive(p, ".pragma")) {
		parse_pragma_string(p);
	} else if (accept_directive(p, ".loc")) {
		parse_loc(p);
	} else if (accept_directive(p, ".alias")) {
		parse_alias(p);
	} else {
		unsigned linkage = parse_linkage(p);
		struct token t = *lex_peek(&p->lx, 0);
		if (tok_equals(&t, ".entry") || tok_equals(&t, ".func")) {
			parse_function(p, linkage);
		} else if (directive_space(&t) && !tok_equals(&t, ".reg")) {
			lex_next(&p->lx);
			parse_var_decl(p, linkage, &t);
		} else {
			perr(p, &t, "unexpected directive");
		}
	}
}

/* ---- entry points ---- */

const char *ir_mod_name(const struct ir_module *m, unsigned mod)
{
	if (mod < MOD_STATIC_COUNT)
		return ptx_mod_info(mod)->name;
	mod -= MOD_STATIC_COUNT;
	return mod < m->nraw_mods ? m->raw_mods[mod] : "?";
}

static void finish_module(struct parser *p)
{
	struct ir_module *m = p->m;
	m->nsyms = (uint32_t)p->msyms.len;
	m->syms = pvec_to_arena(p, &p->msyms, sizeof(struct ir_sym *));
	m->norder = (uint32_t)p->order.len;
	m->order = pvec_to_arena(p, &p->order, sizeof(uint32_t));
	m->nfiles = (uint32_t)p->files.len;
	m->files = pvec_to_arena(p, &p->files, sizeof(struct ir_file));
	m->nsections = (uint32_t)p->sections.len;
	m->sections = pvec_to_arena(p, &p->sections,
				    sizeof(struct ir_section));
	m->nraw_mods = (uint32_t)p->raw_names.len;
	m->raw_mods = pvec_to_arena(p, &p->raw_names, sizeof(char *));
}

static void free_parser(struct parser *p)
{
	for (unsigned i = 0; i < ARRAY_SIZE(p->tmp); i++)
		if (p->tmp_used >> i & 1)
			vec_free(&p->tmp[i]);
	strmap_free(&p->syms);
	strmap_free(&p->raw_mods);
	vec_free(&p->msyms);
	vec_free(&p->order);
	vec_free(&p->files);
	vec_free(&p->sections);
	vec_free(&p->raw_names);
	if (p->fs)
		free_fn_state(p->fs);
}

static struct ir_module *parse_guarded(struct parser *p, int *status)
{
	if (setjmp(p->fail)) {
		*status = p->status;
		return NULL;
	}
	struct ir_module *m = p->m;
	m->name = pstrndup(p, p->name, strlen(p->name));
	while (lex_peek(&p->lx, 0)->kind != TOK_EOF)
		parse_module_directive(p);
	if (!m->version_major)
		perr(p, lex_peek(&p->lx, 0), "missing .version");
	finish_module(p);
	*status = PTX_OK;
	return m;
}

struct ir_module *ir_parse(const char *text, size_t len, const char *name,
			   int *status, char *log, size_t log_len)
{
	struct parser *p = calloc(1, sizeof(*p));
	struct ir_module *m = calloc(1, sizeof(*m));
	if (!p || !m) {
		free(p);
		free(m);
		*status = PTX_ERR_NO_MEMORY;
		return NULL;
	}
	p->m = m;
	p->name = name ? name : "<ptx>";
	p->log = (struct msgbuf){ log, log_len, 0 };
	if (log && log_len)
		log[0] = 0;
	m->address_size = 64;
	lex_init(&p->lx, text, len);
	struct ir_module *done = parse_guarded(p, status);
	free_parser(p);
	free(p);
	if (!done)
		ir_module_free(m);
	return done;
}

void ir_module_free(struct ir_module *m)
{
	if (!m)
		return;
	arena_release(&m->arena);
	free(m);
}
