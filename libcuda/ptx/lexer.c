// SPDX-License-Identifier: MIT
/* PTX lexer. */
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

void lex_init(struct lexer *lx, const char *text, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->cur = text;
	lx->end = text + len;
	lx->line_start = text;
	lx->line = 1;
}

bool tok_equals(const struct token *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && memcmp(t->p, s, n) == 0;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$' || c == '%';
}

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Skips blanks and comments, counting lines. */
static void skip_space(struct lexer *lx)
{
	const char *p = lx->cur, *end = lx->end;
	while (p < end) {
		char c = *p;
		if (c == '\n') {
			lx->line++;
			lx->line_start = ++p;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			p++;
		} else if (c == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (c == '/' && p + 1 < end && p[1] == '*') {
			p += 2;
			while (p < end && !(*p == '*' && p + 1 < end &&
					    p[1] == '/')) {
				if (*p == '\n') {
					lx->line++;
					lx->line_start = p + 1;
				}
				p++;
			}
			p = p < end ? p + 2 : end;
		} else {
			break;
		}
	}
	lx->cur = p;
}

/* A word: identifier characters plus "::" joins. */
static const char *scan_word(const char *p, const char *end)
{
	for (;;) {
		while (p < end && is_ident_char(*p))
			p++;
		if (p + 2 < end && p[0] == ':' && p[1] == ':' &&
		    is_ident_char(p[2]))
			p += 2;
		else
			return p;
	}
}

static void scan_ident(struct lexer *lx, struct token *t)
{
	const char *p = scan_word(lx->cur + 1, lx->end);
	/* dotted continuation: opcode modifiers, %tid.x, %v.x */
	while (p + 1 < lx->end && p[0] == '.' && is_ident_char(p[1]))
		p = scan_word(p + 1, lx->end);
	t->kind = TOK_IDENT;
	t->len = (uint32_t)(p - lx->cur);
}

static bool scan_hex_float(struct lexer *lx, struct token *t)
{
	const char *p = lx->cur;
	unsigned digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
	if (lx->end - p < 2 + (long)digits)
		return false;
	uint64_t v = 0;
	for (unsigned i = 0; i < digits; i++) {
		int h = hex_value(p[2 + i]);
		if (h < 0)
			return false;
		v = v << 4 | (uint64_t)h;
	}
	if (p + 2 + digits < lx->end && is_ident_char(p[2 + digits]))
		return false;
	t->kind = digits == 8 ? TOK_F32 : TOK_F64;
	t->ival = v;
	t->len = 2 + digits;
	return true;
}

static bool scan_decimal_float(struct lexer *lx, struct token *t)
{
	const char *p = lx->cur;
	while (p < lx->end && is_digit(*p))
		p++;
	bool frac = p < lx->end && *p == '.';
	bool exp = p < lx->end && (*p == 'e' || *p == 'E');
	if (!frac && !exp)
		return false;
	char buf[64];
	size_t n = 0;
	const char *q = lx->cur;
	while (q < lx->end && n < sizeof(buf) - 1 &&
	       (is_digit(*q) || *q == '.' || *q == 'e' || *q == 'E' ||
		((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
		buf[n++] = *q++;
	buf[n] = 0;
	char *stop;
	t->fval = strtod(buf, &stop);
	if (stop == buf)
		return false;
	t->kind = TOK_FLOAT;
	t->len = (uint32_t)(stop - buf);
	return true;
}

static void scan_number(struct lexer *lx, struct token *t)
{
	const char *p = lx->cur, *end = lx->end;
	if (p + 1 < end && p[0] == '0' &&
	    (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D') &&
	    scan_hex_float(lx, t))
		return;
	if (scan_decimal_float(lx, t))
		return;
	uint64_t v = 0;
	unsigned base = 10;
	const char *q = p;
	if (q + 1 < end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (q + 1 < end && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
		base = 2;
		q += 2;
	} else if (q + 1 < end && q[0] == '0' && is_digit(q[1])) {
		base = 8;
		q += 1;
	}
	const char *digits = q;
	for (; q < end; q++) {
		int d = hex_value(*q);
		if (d < 0 || (unsigned)d >= base)
			break;
		v = v * base + (unsigned)d;
	}
	t->kind = q > digits ? TOK_INT : TOK_ERROR;
	t->ival = v;
	if (q < end && *q == 'U') {
		t->is_unsigned = true;
		q++;
	}
	if (q < end && is_ident_char(*q)) {
		t->kind = TOK_ERROR;	/* 12abc: one bad word */
		while (q < end && is_ident_char(*q))
			q++;
	}
	t->len = (uint32_t)(q - p);
}

static void scan_string(struct lexer *lx, struct token *t)
{
	const char *p = lx->cur + 1;
	while (p < lx->end && *p != '"' && *p != '\n') {
		if (*p == '\\' && p + 1 < lx->end)
			p++;
		p++;
	}
	if (p >= lx->end || *p != '"') {
		t->kind = TOK_ERROR;
		t->len = (uint32_t)(p - lx->cur);
		return;
	}
	t->kind = TOK_STRING;
	t->len = (uint32_t)(p + 1 - lx->cur);
}

static bool scan_two_char(struct lexer *lx, struct token *t)
{
	static const struct {
		char a, b;
		uint8_t kind;
	} ops[] = {
		{ '<', '<', TOK_SHL }, { '>', '>', TOK_SHR },
		{ '<', '=', TOK_LE },  { '>', '=', TOK_GE },
		{ '=', '=', TOK_EQ },  { '!', '=', TOK_NE },
		{ '&', '&', TOK_ANDAND }, { '|', '|', TOK_OROR },
	};
	if (lx->end - lx->cur < 2)
		return false;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (lx->cur[0] == ops[i].a && lx->cur[1] == ops[i].b) {
			t->kind = ops[i].kind;
			t->len = 2;
			return true;
		}
	}
	return false;
}

static void scan(struct lexer *lx, struct token *t)
{
	skip_space(lx);
	memset(t, 0, sizeof(*t));
	t->p = lx->cur;
	t->line = lx->line;
	t->col = (uint32_t)(lx->cur - lx->line_start) + 1;
	if (lx->cur >= lx->end) {
		t->kind = TOK_EOF;
		return;
	}
	char c = *lx->cur;
	bool next_ident = lx->cur + 1 < lx->end && is_ident_char(lx->cur[1]);
	/* letters start names; _ $ % need a name character after them,
	 * except a lone _ (the sink operand, unnamed parameters) */
	if ((is_ident_start(c) && (c != '_' && c != '$' && c != '%' ?
					   true : next_ident)) ||
	    c == '_') {
		scan_ident(lx, t);
	} else if (c == '.' && lx->cur + 1 < lx->end &&
		   is_ident_char(lx->cur[1])) {
		t->kind = TOK_DIRECTIVE;
		t->len = (uint32_t)(scan_word(lx->cur + 1, lx->end) - lx->cur);
	} else if (is_digit(c)) {
		scan_number(lx, t);
	} else if (c == '"') {
		scan_string(lx, t);
	} else if (!scan_two_char(lx, t)) {
		t->kind = strchr(",;:[]{}()<>+-*/%!|&^~=@?.", c) ? TOK_PUNCT :
								   TOK_ERROR;
		t->c = c;
		t->len = 1;
	}
	if (t->len == 0)
		t->len = 1;
	lx->cur += t->len;
	if (t->kind == TOK_STRING) {
		t->p++;
		t->len -= 2;
	}
}

const struct token *lex_peek(struct lexer *lx, unsigned n)
{
	while (lx->la_count <= n) {
		unsigned slot = (lx->la_head + lx->la_count) % LEX_LOOKAHEAD;
		scan(lx, &lx->la[slot]);
		lx->la_count++;
	}
	return &lx->la[(lx->la_head + n) % LEX_LOOKAHEAD];
}

struct token lex_next(struct lexer *lx)
{
	struct token t = *lex_peek(lx, 0);
	lx->la_head = (lx->la_head + 1) % LEX_LOOKAHEAD;
	lx->la_count--;
	return t;
}

const char *lex_raw_pos(struct lexer *lx)
{
	return lx->la_count ? lex_peek(lx, 0)->p : lx->cur;
}

void lex_seek(struct lexer *lx, const char *p, uint32_t line,
	      const char *line_start)
{
	lx->cur = p;
	lx->line = line;
	lx->line_start = line_start;
	lx->la_count = 0;
}
