/* SPDX-License-Identifier: MIT */
/*
 * PTX lexer: turns text into tokens on demand, with a few tokens of
 * lookahead. Instruction names keep their modifiers in one token
 * ("ld.global.v4.u32"), as do special registers ("%tid.x"); directives
 * are one token each (".reg", ".shared::cta").
 */
#ifndef VCUDA_PTX_LEXER_H
#define VCUDA_PTX_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tok_kind {
	TOK_EOF,
	TOK_IDENT,	/* names, dotted instruction words, %regs, $labels */
	TOK_DIRECTIVE,	/* .word */
	TOK_INT,	/* ival; is_unsigned for a U suffix */
	TOK_FLOAT,	/* decimal floating literal: fval */
	TOK_F32,	/* 0fXXXXXXXX: ival holds the bits */
	TOK_F64,	/* 0dXXXXXXXXXXXXXXXX: ival holds the bits */
	TOK_STRING,	/* p/len: the contents without quotes */
	TOK_PUNCT,	/* single character: c */
	TOK_SHL, TOK_SHR, TOK_LE, TOK_GE, TOK_EQ, TOK_NE, TOK_ANDAND,
	TOK_OROR,
	TOK_ERROR,	/* a character that starts no token */
};

struct token {
	uint8_t kind;
	char c;
	bool is_unsigned;
	const char *p;
	uint32_t len;
	uint32_t line, col;
	uint64_t ival;
	double fval;
};

enum { LEX_LOOKAHEAD = 4 };

struct lexer {
	const char *cur, *end;
	const char *line_start;
	uint32_t line;
	struct token la[LEX_LOOKAHEAD];
	unsigned la_head, la_count;
};

void lex_init(struct lexer *lx, const char *text, size_t len);
/* The n-th token ahead (0: next), without consuming. */
const struct token *lex_peek(struct lexer *lx, unsigned n);
struct token lex_next(struct lexer *lx);
/* Position just after the last consumed token, for raw skipping. */
const char *lex_raw_pos(struct lexer *lx);
/* Restarts scanning at @p (drops lookahead); @p must be in the text. */
void lex_seek(struct lexer *lx, const char *p, uint32_t line,
	      const char *line_start);

static inline bool tok_is(const struct token *t, char c)
{
	return t->kind == TOK_PUNCT && t->c == c;
}

bool tok_equals(const struct token *t, const char *s);

#endif
