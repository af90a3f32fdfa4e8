/* SPDX-License-Identifier: MIT */
/*
 * Parser internals shared by parse.c (module, declarations, bodies),
 * parse_insn.c (instructions, operands) and parse_expr.c (constant
 * expressions, initialisers). Errors longjmp back to ir_parse.
 */
#ifndef VCUDA_PTX_PARSE_INTERNAL_H
#define VCUDA_PTX_PARSE_INTERNAL_H

#include "ir.h"
#include "lexer.h"

#include <setjmp.h>

enum name_kind { NAME_REG, NAME_REG_RANGE, NAME_VAR };

/* What a name means in one scope. */
struct name_entry {
	uint8_t kind;
	uint32_t reg;		/* NAME_REG, NAME_REG_RANGE: first register */
	uint32_t count;		/* NAME_REG_RANGE */
	struct ir_sym *sym;	/* NAME_VAR */
};

enum { MAX_SCOPES = 64 };

/* State of the function whose body is being parsed. */
struct fn_state {
	struct ir_func *f;
	struct vec regs;	/* struct ir_reg */
	struct vec regdecls;	/* struct ir_regdecl */
	struct vec insns;	/* struct ir_insn */
	struct vec labels;	/* struct ir_label */
	struct vec vars;	/* struct ir_sym * */
	struct vec vec_opnds;	/* struct ir_operand */
	struct vec pragmas;	/* char * */
	struct vec pragma_at;	/* uint32_t */
	struct strmap label_map;	/* name -> label index + 1 */
	struct strmap used_names;	/* every declared name -> count */
	struct strmap scopes[MAX_SCOPES];
	unsigned depth;
	struct vec entries;	/* struct name_entry * owned, for freeing */
};

struct parser {
	struct lexer lx;
	struct ir_module *m;
	const char *name;
	struct msgbuf log;
	jmp_buf fail;
	int status;
	struct strmap syms;	/* module scope: name -> struct ir_sym */
	struct strmap raw_mods;	/* raw modifier spelling -> id + 1 */
	struct vec msyms;	/* struct ir_sym * */
	struct vec order;	/* uint32_t */
	struct vec files;	/* struct ir_file */
	struct vec sections;	/* struct ir_section */
	struct vec raw_names;	/* char * */
	struct fn_state *fs;	/* NULL outside function bodies */
	struct vec tmp[32];	/* temporary vectors (tmp_vec) */
	uint32_t tmp_used;
	uint32_t loc_file, loc_line;
	bool newer_form;	/* this instruction is a newer PTX form */
};

/* Qualifiers of a declaration: state space, type, vector, alignment. */
struct decl_quals {
	uint8_t space;
	uint8_t type;
	uint8_t vec;
	uint32_t align;
	bool managed;
	struct ir_ptr_attr ptr;
};

/* Constant expression value. */
struct cval {
	bool is_float;
	uint8_t fbits;		/* 32/64: @i holds a 0f/0d literal's bits */
	int64_t i;
	double d;
};

/* parse.c: errors, allocation, tokens */
_Noreturn void perr(struct parser *p, const struct token *t,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
_Noreturn void perr_nomem(struct parser *p);
void *palloc(struct parser *p, size_t size);
char *pstrndup(struct parser *p, const char *s, size_t len);
void *pvec_push(struct parser *p, struct vec *v, size_t elem);
void *pvec_to_arena(struct parser *p, struct vec *v, size_t elem);
/* A temporary vector, freed by tmp_done or when parsing fails. */
struct vec *tmp_vec(struct parser *p);
void tmp_done(struct parser *p, struct vec *v);
bool peek_directive(struct parser *p, const char *d);
bool accept_directive(struct parser *p, const char *d);
uint32_t parse_uint(struct parser *p, const char *what);
struct token expect(struct parser *p, char c);
struct token expect_ident(struct parser *p, const char *what);
bool accept(struct parser *p, char c);

/* parse_scope.c: names */
void push_scope(struct parser *p, const struct token *at);
void pop_scope(struct parser *p);
const char *declare_name(struct parser *p, const struct token *t,
			 struct name_entry e);
const struct name_entry *lookup_name(struct parser *p, const char *s,
				     size_t len, uint32_t *reg);
struct ir_sym *lookup_sym(struct parser *p, const char *s, size_t len);
uint32_t label_ref(struct parser *p, const struct token *t);
struct ir_label *label_define(struct parser *p, const struct token *t);
struct ir_sym *new_sym(struct parser *p, const struct token *name,
		       unsigned kind);
void add_module_sym(struct parser *p, struct ir_sym *s);

/* parse_decl.c: declarations */
unsigned directive_space(const struct token *t);
void skip_parenthesized(struct parser *p);
void parse_quals(struct parser *p, struct decl_quals *q);
void parse_dims(struct parser *p, struct ir_sym *v);
void finish_var_layout(struct ir_sym *v, const struct decl_quals *q);
void parse_var_decl(struct parser *p, unsigned linkage,
		    const struct token *space_tok);
uint32_t add_regs(struct parser *p, const struct token *name,
		  size_t name_len, uint32_t count, const struct decl_quals *q);
void parse_reg_decl(struct parser *p);

/* parse_func.c: functions and bodies */
void parse_function(struct parser *p, unsigned linkage);
void parse_loc(struct parser *p);
char *parse_pragma_string(struct parser *p);
void free_fn_state(struct fn_state *fs);

/* parse_insn.c */
void parse_instruction(struct parser *p);
void parse_operand_list_into(struct parser *p, struct ir_operand *o,
			     char close, bool in_call);

/* parse_expr.c */
struct cval parse_expr(struct parser *p);
int64_t parse_int_expr(struct parser *p, const char *what);
bool starts_expr(const struct token *t);
void parse_initializer(struct parser *p, struct ir_sym *var);

#endif
