// SPDX-License-Identifier: MIT
/*
 * Constant expressions (C operators over 64-bit integers, with float
 * literals) and variable initialisers, flattened to bytes plus address
 * relocations.
 */
#include "parse_internal.h"

#include <string.h>

static struct cval parse_ternary(struct parser *p);

static struct cval cint(int64_t v)
{
	return (struct cval){ .i = v };
}

static double as_double(const struct cval *v)
{
	return v->is_float ? v->d : (double)v->i;
}

static float f32_from_bits(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof(f));
	return f;
}

static double f64_from_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, sizeof(d));
	return d;
}

bool starts_expr(const struct token *t)
{
	switch (t->kind) {
	case TOK_INT:
	case TOK_FLOAT:
	case TOK_F32:
	case TOK_F64:
		return true;
	case TOK_PUNCT:
		return t->c == '-' || t->c == '+' || t->c == '~' ||
		       t->c == '(' || t->c == '!';
	default:
		return false;
	}
}

static struct cval parse_primary(struct parser *p)
{
	struct token t = lex_next(&p->lx);
	struct cval v = { 0 };
	switch (t.kind) {
	case TOK_INT:
		v.i = (int64_t)t.ival;
		return v;
	case TOK_FLOAT:
		v.is_float = true;
		v.d = t.fval;
		return v;
	case TOK_F32:
		v.is_float = true;
		v.fbits = 32;
		v.d = f32_from_bits((uint32_t)t.ival);
		v.i = (int64_t)t.ival;	/* keep the exact bits (NaNs) */
		return v;
	case TOK_F64:
		v.is_float = true;
		v.fbits = 64;
		v.d = f64_from_bits(t.ival);
		v.i = (int64_t)t.ival;
		return v;
	default:
		if (tok_is(&t, '(')) {
			v = parse_expr(p);
			expect(p, ')');
			return v;
		}
		perr(p, &t, "expected a constant expression");
	}
}

static struct cval parse_unary(struct parser *p)
{
	const struct token *t = lex_peek(&p->lx, 0);
	if (t->kind != TOK_PUNCT || !strchr("-+~!", t->c))
		return parse_primary(p);
	struct token op = lex_next(&p->lx);
	struct cval v = parse_unary(p);
	if (v.is_float) {
		if (op.c == '-') {
			v.d = -v.d;
			/* flip the sign bit of the literal's exact bits */
			if (v.fbits)
				v.i ^= v.fbits == 32 ? (int64_t)0x80000000 :
						       INT64_MIN;
		} else if (op.c != '+') {
			perr(p, &op, "operator '%c' on a floating constant",
			     op.c);
		}
		return v;
	}
	switch (op.c) {
	case '-':
		return cint((int64_t)(0 - (uint64_t)v.i));
	case '~':
		return cint(~v.i);
	case '!':
		return cint(!v.i);
	default:
		return v;
	}
}

/* Binary operator precedence; 0 when the token is not one. */
static int binop_prec(const struct token *t)
{
	switch (t->kind) {
	case TOK_OROR:
		return 1;
	case TOK_ANDAND:
		return 2;
	case TOK_EQ:
	case TOK_NE:
		return 6;
	case TOK_LE:
	case TOK_GE:
		return 7;
	case TOK_SHL:
	case TOK_SHR:
		return 8;
	case TOK_PUNCT:
		switch (t->c) {
		case '|':
			return 3;
		case '^':
			return 4;
		case '&':
			return 5;
		case '<':
		case '>':
			return 7;
		case '+':
		case '-':
			return 9;
		case '*':
		case '/':
		case '%':
			return 10;
		}
		return 0;
	default:
		return 0;
	}
}

static struct cval apply_float(struct parser *p, const struct token *op,
			       struct cval a, struct cval b)
{
	double x = as_double(&a), y = as_double(&b);
	struct cval r = { .is_float = true };
	switch (op->kind == TOK_PUNCT ? op->c : 0) {
	case '+':
		r.d = x + y;
		break;
	case '-':
		r.d = x - y;
		break;
	case '*':
		r.d = x * y;
		break;
	case '/':
		r.d = x / y;
		break;
	default:
		perr(p, op, "operator not allowed on floating constants");
	}
	return r;
}

static struct cval apply(struct parser *p, const struct token *op,
			 struct cval a, struct cval b)
{
	if (a.is_float || b.is_float)
		return apply_float(p, op, a, b);
	uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;
	switch (op->kind) {
	case TOK_OROR:
		return cint(a.i || b.i);
	case TOK_ANDAND:
		return cint(a.i && b.i);
	case TOK_EQ:
		return cint(a.i == b.i);
	case TOK_NE:
		return cint(a.i != b.i);
	case TOK_LE:
		return cint(a.i <= b.i);
	case TOK_GE:
		return cint(a.i >= b.i);
	case TOK_SHL:
		return cint(y >= 64 ? 0 : (int64_t)(x << y));
	case TOK_SHR:
		return cint(y >= 64 ? (a.i < 0 ? -1 : 0) : a.i >> y);
	default:
		break;
	}
	switch (op->c) {
	case '|':
		return cint((int64_t)(x | y));
	case '^':
		return cint((int64_t)(x ^ y));
	case '&':
		return cint((int64_t)(x & y));
	case '<':
		return cint(a.i < b.i);
	case '>':
		return cint(a.i > b.i);
	case '+':
		return cint((int64_t)(x + y));
	case '-':
		return cint((int64_t)(x - y));
	case '*':
		return cint((int64_t)(x * y));
	case '/':
	case '%':
		if (!b.i)
			perr(p, op, "division by zero in constant");
		if (a.i == INT64_MIN && b.i == -1)
			return cint(op->c == '/' ? INT64_MIN : 0);
		return cint(op->c == '/' ? a.i / b.i : a.i % b.i);
	}
	perr(p, op, "unexpected operator");
}

static struct cval parse_binary(struct parser *p, int min_prec)
{
	struct cval lhs = parse_unary(p);
	for (;;) {
		const struct token *t = lex_peek(&p->lx, 0);
		int prec = binop_prec(t);
		if (!prec || prec < min_prec)
			return lhs;
		struct token op = lex_next(&p->lx);
		struct cval rhs = parse_binary(p, prec + 1);
		lhs = apply(p, &op, lhs, rhs);
	}
}

static struct cval parse_ternary(struct parser *p)
{
	struct cval c = parse_binary(p, 1);
	if (!accept(p, '?'))
		return c;
	struct cval a = parse_expr(p);
	expect(p, ':');
	struct cval b = parse_ternary(p);
	return (c.is_float ? c.d != 0 : c.i != 0) ? a : b;
}

struct cval parse_expr(struct parser *p)
{
	return parse_ternary(p);
}

int64_t parse_int_expr(struct parser *p, const char *what)
{
	const struct token *t = lex_peek(&p->lx, 0);
	struct token at = *t;
	struct cval v = parse_expr(p);
	if (v.is_float)
		perr(p, &at, "%s must be an integer", what);
	return v.i;
}

/* ---- initialisers ---- */

struct init_item {
	struct cval v;
	struct ir_sym *sym;	/* address item when non-NULL */
	int64_t addend;
	bool generic;
	struct token at;
};

struct init_state {
	struct vec *items;	/* struct init_item */
};

static void parse_address_item(struct parser *p, struct init_item *it)
{
	struct token t = lex_next(&p->lx);
	it->generic = tok_equals(&t, "generic");
	if (it->generic) {
		expect(p, '(');
		t = expect_ident(p, "symbol");
	}
	it->sym = lookup_sym(p, t.p, t.len);
	if (!it->sym)
		perr(p, &t, "unknown symbol in initialiser");
	if (it->generic)
		expect(p, ')');
	const struct token *n = lex_peek(&p->lx, 0);
	if (tok_is(n, '+') || tok_is(n, '-'))
		it->addend = parse_int_expr(p, "address offset");
}

static void parse_init_items(struct parser *p, struct init_state *st)
{
	if (accept(p, '{')) {
		if (!tok_is(lex_peek(&p->lx, 0), '}')) {
			do
				parse_init_items(p, st);
			while (accept(p, ','));
		}
		expect(p, '}');
		return;
	}
	struct init_item *it = pvec_push(p, st->items, sizeof(*it));
	it->at = *lex_peek(&p->lx, 0);
	if (it->at.kind == TOK_IDENT)
		parse_address_item(p, it);
	else
		it->v = parse_expr(p);
}

static uint16_t f32_to_f16_bits(float f);

static void store_scalar(struct parser *p, const struct init_item *it,
			 unsigned type, uint8_t *dst)
{
	unsigned size = ptx_type_size(type);
	const struct cval *v = &it->v;
	uint64_t bits = (uint64_t)v->i;
	if (type == PTX_T_F32 && v->fbits != 32) {
		float f = (float)as_double(v);
		uint32_t b;
		memcpy(&b, &f, 4);
		bits = b;
	} else if (type == PTX_T_F64 && v->fbits != 64) {
		double d = as_double(v);
		memcpy(&bits, &d, 8);
	} else if (type == PTX_T_F16 || type == PTX_T_BF16) {
		float f = (float)as_double(v);
		uint32_t b;
		memcpy(&b, &f, 4);
		bits = type == PTX_T_F16 ? f32_to_f16_bits(f) : b >> 16;
	} else if (!ptx_type_is_float(type) && v->is_float && !v->fbits) {
		perr(p, &it->at, "floating value for an integer element");
	} else if (ptx_type_is_float(type) && type != PTX_T_F32 &&
		   type != PTX_T_F64) {
		perr(p, &it->at, "initialiser of type .%s",
		     ptx_type_name(type));
	}
	memcpy(dst, &bits, size);	/* little endian: low bytes */
}

/* f32 -> f16, round to nearest even (initialisers only). */
static uint16_t f32_to_f16_bits(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	int exp = (int)((x >> 23) & 0xff) - 127 + 15;
	uint32_t man = x & 0x7fffff;
	if (((x >> 23) & 0xff) == 0xff)
		return sign | 0x7c00 | (man ? 0x200 : 0);
	if (exp >= 31)
		return sign | 0x7c00;
	if (exp <= 0) {
		if (exp < -10)
			return sign;
		man |= 0x800000;
		unsigned shift = (unsigned)(14 - exp);
		uint32_t half = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return sign | (uint16_t)half;
	}
	uint32_t half = ((uint32_t)exp << 10) | (man >> 13);
	uint32_t rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
		half++;
	return sign | (uint16_t)half;
}

void parse_initializer(struct parser *p, struct ir_sym *var)
{
	struct init_state st = { tmp_vec(p) };
	struct token at = *lex_peek(&p->lx, 0);
	parse_init_items(p, &st);
	unsigned esize = ptx_type_size(var->type);
	size_t n = st.items->len;
	if (!esize)
		perr(p, &at, "initialiser for a variable of type .%s",
		     ptx_type_name(var->type));
	if (var->unsized) {
		var->size = (uint64_t)n * esize;
		var->dims[var->ndims - 1] = n / (var->vec ? var->vec : 1);
		var->unsized = false;
	}
	if ((uint64_t)n * esize > var->size)
		perr(p, &at, "%zu initialisers for %llu elements", n,
		     (unsigned long long)(var->size / esize));
	/* only what is written: a huge array's missing tail is zero */
	var->init_size = (uint64_t)n * esize;
	var->init = palloc(p, var->init_size ? var->init_size : 1);
	struct vec *relocs = tmp_vec(p);
	for (size_t i = 0; i < n; i++) {
		struct init_item *it = &VEC_AT(*st.items, struct init_item, i);
		uint8_t *dst = var->init + i * esize;
		if (!it->sym) {
			store_scalar(p, it, var->type, dst);
			continue;
		}
		if (esize != 4 && esize != 8)
			perr(p, &it->at, "address in a %u-byte element", esize);
		struct ir_reloc *r = pvec_push(p, relocs, sizeof(*r));
		r->offset = (uint32_t)(i * esize);
		r->size = (uint8_t)esize;
		r->generic = it->generic;
		r->target = it->sym;
		r->addend = it->addend;
	}
	var->nrelocs = (uint32_t)relocs->len;
	var->relocs = pvec_to_arena(p, relocs, sizeof(struct ir_reloc));
	tmp_done(p, relocs);
	tmp_done(p, st.items);
}
