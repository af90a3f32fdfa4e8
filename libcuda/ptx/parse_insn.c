// SPDX-License-Identifier: MIT
/*
 * PTX parser, instructions: the guard, the dotted instruction name
 * decoded into opcode, types and modifier fields, and the operands.
 */
#include "parse_internal.h"

#include <string.h>

/* Interns an unknown modifier word; returns its module-local id. */
static unsigned intern_raw_mod(struct parser *p, const char *s, size_t len)
{
	uintptr_t id = (uintptr_t)strmap_get(&p->raw_mods, s, len);
	if (id)
		return (unsigned)(id - 1);
	char *name = pstrndup(p, s, len);
	char **slot = pvec_push(p, &p->raw_names, sizeof(*slot));
	*slot = name;
	id = MOD_STATIC_COUNT + p->raw_names.len - 1;
	if (!strmap_put(&p->raw_mods, name, len, (void *)(id + 1)))
		perr_nomem(p);
	return (unsigned)id;
}

static bool is_hint_word(const char *s, size_t len)
{
	return (len > 4 && (!memcmp(s, "L1::", 4) || !memcmp(s, "L2::", 4))) ||
	       (len > 7 && !memcmp(s, "level::", 7));
}

/*
 * Words that newer PTX adds to an old instruction to make another one of
 * it ("red.async", "st.async": sm_90). PTX that uses them is valid; the
 * instruction is one the executor lacks, which lowering reports as
 * unsupported, as it does the rest of that instruction's words.
 */
static bool is_newer_form_word(const char *s, size_t len)
{
	return len == 5 && !memcmp(s, "async", 5);
}

static void set_once(struct parser *p, const struct token *at,
		     uint16_t *field, unsigned mod, const char *what)
{
	if (*field && *field != mod)
		perr(p, at, "two %s modifiers", what);
	*field = (uint16_t)mod;
}

/* Sorts one known modifier into its field of @in. */
static void apply_mod(struct parser *p, const struct token *at,
		      struct ir_insn *in, unsigned mod, const char *word,
		      size_t len)
{
	bool lenient = ptx_opcode_flags(in->op) & OPF_LENIENT;
	int slot = ptx_opcode_mode_slot(in->op, mod);
	if (slot == 1) {
		set_once(p, at, &in->mode, mod, "mode");
		return;
	}
	if (slot == 2) {
		set_once(p, at, &in->mode2, mod, "mode");
		return;
	}
	const struct mod_info *mi = ptx_mod_info(mod);
	if (!(ptx_opcode_cats(in->op) & C(mi->cat)) || mi->cat == MC_MODE) {
		if (is_newer_form_word(word, len))
			p->newer_form = true;
		if (!lenient && !p->newer_form)
			perr(p, at, "modifier '.%.*s' is not valid for '%s'",
			     (int)len, word, ptx_opcode_name(in->op));
		in->has_raw = true;
		return;
	}
	switch (mi->cat) {
	case MC_TYPE:
		if (in->ntypes == 4)
			perr(p, at, "too many types");
		in->types[in->ntypes++] = mi->value;
		break;
	case MC_RND:
		set_once(p, at, &in->rnd, mod, "rounding");
		break;
	case MC_CMP:
		set_once(p, at, &in->cmp, mod, "comparison");
		break;
	case MC_BOOL:
		set_once(p, at, &in->boolop, mod, "boolean");
		break;
	case MC_SPACE:
		if (in->space && in->space != mi->value && !lenient &&
		    in->op != OP_CVTA)
			perr(p, at, "two state spaces");
		if (!in->space)
			in->space = mi->value;
		break;
	case MC_SEM:
		set_once(p, at, &in->sem, mod, "ordering");
		break;
	case MC_SCOPE:
		set_once(p, at, &in->scope, mod, "scope");
		break;
	case MC_VEC:
		in->vec = mi->value;
		break;
	case MC_CACHE:
		set_once(p, at, &in->cache, mod, "cache");
		break;
	case MC_FLAG:
		in->flags |= 1u << mi->value;
		break;
	case MC_GEOM:
		set_once(p, at, &in->geom, mod, "geometry");
		break;
	default:
		break;
	}
}

static void add_mod_word(struct parser *p, const struct token *at,
			 struct ir_insn *in, const char *w, size_t len)
{
	if (in->nmods == IR_MAX_MODS)
		perr(p, at, "too many modifiers");
	unsigned mod = ptx_mod_lookup(w, len);
	if (mod) {
		apply_mod(p, at, in, mod, w, len);
	} else if (is_hint_word(w, len) &&
		   (ptx_opcode_cats(in->op) & C(MC_HINT))) {
		mod = intern_raw_mod(p, w, len);
	} else if ((ptx_opcode_flags(in->op) & OPF_LENIENT) ||
		   p->newer_form) {
		mod = intern_raw_mod(p, w, len);
		in->has_raw = true;
	} else {
		perr(p, at, "unknown modifier '.%.*s' for '%s'", (int)len, w,
		     ptx_opcode_name(in->op));
	}
	in->mods[in->nmods++] = (uint16_t)mod;
}

/* "ld.global.v4.u32" -> opcode, types and modifier fields. */
static void decode_name(struct parser *p, const struct token *t,
			struct ir_insn *in)
{
	const char *s = t->p, *end = t->p + t->len;
	const char *dot = memchr(s, '.', t->len);
	const char *w_end = dot ? dot : end;
	in->op = (uint16_t)ptx_opcode_lookup(s, (size_t)(w_end - s));
	if (!in->op)
		perr(p, t, "unknown instruction '%.*s'", (int)(w_end - s), s);
	in->vec = 1;
	p->newer_form = false;
	while (w_end < end) {
		const char *w = w_end + 1;
		dot = memchr(w, '.', (size_t)(end - w));
		w_end = dot ? dot : end;
		add_mod_word(p, t, in, w, (size_t)(w_end - w));
	}
}

/* ---- operands ---- */

static void parse_operand(struct parser *p, struct ir_operand *o,
			  bool in_call);

static uint32_t expect_pred_reg(struct parser *p, const struct token *t)
{
	uint32_t reg;
	const struct name_entry *e = lookup_name(p, t->p, t->len, &reg);
	if (!e || e->kind == NAME_VAR)
		perr(p, t, "'%.*s' is not a register", (int)t->len, t->p);
	const struct ir_reg *r = &VEC_AT(p->fs->regs, struct ir_reg, reg);
	if (r->type != PTX_T_PRED)
		perr(p, t, "'%.*s' is not a predicate", (int)t->len, t->p);
	return reg;
}

static void make_immediate(struct ir_operand *o, const struct cval *v)
{
	o->kind = OPND_IMM;
	if (!v->is_float) {
		o->imm_kind = IMM_INT;
		o->imm = (uint64_t)v->i;
	} else if (v->fbits == 32) {
		o->imm_kind = IMM_F32;
		o->imm = (uint32_t)v->i;
	} else {
		o->imm_kind = IMM_F64;
		if (v->fbits == 64)
			o->imm = (uint64_t)v->i;
		else
			memcpy(&o->imm, &v->d, sizeof(double));
	}
}

static int64_t parse_offset(struct parser *p)
{
	if (accept(p, '+'))
		return parse_int_expr(p, "offset");
	struct token minus = expect(p, '-');
	(void)minus;
	return -parse_int_expr(p, "offset");
}

static bool peek_offset(struct parser *p)
{
	const struct token *t = lex_peek(&p->lx, 0);
	return tok_is(t, '+') || tok_is(t, '-');
}

/* %v.x, %v.y, ... : an element of a .v2/.v4 register. */
static bool resolve_vector_element(struct parser *p, const struct token *t,
				   struct ir_operand *o)
{
	if (t->len < 3 || t->p[t->len - 2] != '.')
		return false;
	const char *comps = "xyzwrgba";
	const char *c = memchr(comps, t->p[t->len - 1], 8);
	uint32_t reg;
	const struct name_entry *e = c ? lookup_name(p, t->p, t->len - 2,
						       &reg) : NULL;
	if (!e || e->kind == NAME_VAR)
		return false;
	o->kind = OPND_REG;
	o->reg = reg;
	o->comp = (uint8_t)((c - comps) % 4 + 1);
	return true;
}

static void parse_ident_operand(struct parser *p, struct ir_operand *o)
{
	struct token t = lex_next(&p->lx);
	uint32_t reg;
	unsigned sreg, comp;
	if (tok_equals(&t, "_")) {
		o->kind = OPND_SINK;
		return;
	}
	const struct name_entry *e = lookup_name(p, t.p, t.len, &reg);
	if (e && e->kind != NAME_VAR) {
		o->kind = OPND_REG;
		o->reg = reg;
		if (accept(p, '|')) {
			struct token q = expect_ident(p, "a predicate");
			o->pair = true;
			o->reg2 = expect_pred_reg(p, &q);
		}
		return;
	}
	/*
	 * WARP_SZ is PTX's predefined constant for the warp size, an
	 * immediate (nvcc emits "mov.u32 %r, WARP_SZ;" for warpSize).
	 */
	if (tok_equals(&t, "WARP_SZ")) {
		o->kind = OPND_IMM;
		o->imm_kind = IMM_INT;
		o->imm = 32;
		return;
	}
	if (ptx_sreg_lookup(t.p, t.len, &sreg, &comp)) {
		o->kind = OPND_SREG;
		o->reg = sreg;
		o->comp = (uint8_t)comp;
		return;
	}
	if (resolve_vector_element(p, &t, o))
		return;
	struct ir_sym *s = lookup_sym(p, t.p, t.len);
	if (s) {
		o->kind = OPND_SYM;
		o->sym = s;
		if (peek_offset(p))
			o->offset = parse_offset(p);
		return;
	}
	o->kind = OPND_LABEL;
	o->reg = label_ref(p, &t);
}

static void parse_address(struct parser *p, struct ir_operand *o)
{
	struct token open = expect(p, '[');
	struct ir_operand first = { 0 };
	parse_operand(p, &first, false);
	if (tok_is(lex_peek(&p->lx, 0), ',')) {
		/* [tex, {coords}]: an operand list in brackets */
		struct fn_state *fs = p->fs;
		struct vec *tmp = tmp_vec(p);
		*(struct ir_operand *)pvec_push(p, tmp, sizeof(first)) = first;
		while (accept(p, ','))
			parse_operand(p, pvec_push(p, tmp, sizeof(first)),
				      false);
		expect(p, ']');
		o->kind = OPND_VEC;
		o->comp = '[';
		o->reg = (uint32_t)fs->vec_opnds.len;
		o->reg2 = (uint32_t)tmp->len;
		for (size_t i = 0; i < tmp->len; i++)
			*(struct ir_operand *)pvec_push(p, &fs->vec_opnds,
							sizeof(first)) =
				VEC_AT(*tmp, struct ir_operand, i);
		tmp_done(p, tmp);
		return;
	}
	o->kind = OPND_ADDR;
	switch (first.kind) {
	case OPND_REG:
		o->addr_base = ADDR_REG;
		o->reg = first.reg;
		break;
	case OPND_SYM:
		o->addr_base = ADDR_SYM;
		o->sym = first.sym;
		o->offset = first.offset;
		break;
	case OPND_IMM:
		if (first.imm_kind != IMM_INT)
			perr(p, &open, "floating-point address");
		o->addr_base = ADDR_NONE;
		o->offset = (int64_t)first.imm;
		break;
	default:
		perr(p, &open, "bad address");
	}
	if (peek_offset(p))
		o->offset += parse_offset(p);
	expect(p, ']');
}

void parse_operand_list_into(struct parser *p, struct ir_operand *o,
			     char close, bool in_call)
{
	struct fn_state *fs = p->fs;
	struct vec *tmp = tmp_vec(p);
	lex_next(&p->lx);	/* the opening bracket */
	if (!tok_is(lex_peek(&p->lx, 0), close)) {
		do
			parse_operand(p, pvec_push(p, tmp, sizeof(*o)),
				      in_call);
		while (accept(p, ','));
	}
	expect(p, close);
	o->kind = close == '}' ? OPND_VEC : OPND_LIST;
	o->reg = (uint32_t)fs->vec_opnds.len;
	o->reg2 = (uint32_t)tmp->len;
	for (size_t i = 0; i < tmp->len; i++)
		*(struct ir_operand *)pvec_push(p, &fs->vec_opnds,
						sizeof(*o)) =
			VEC_AT(*tmp, struct ir_operand, i);
	tmp_done(p, tmp);
}

static void parse_operand(struct parser *p, struct ir_operand *o,
			  bool in_call)
{
	const struct token *t = lex_peek(&p->lx, 0);
	if (tok_is(t, '[')) {
		parse_address(p, o);
	} else if (tok_is(t, '{')) {
		parse_operand_list_into(p, o, '}', false);
	} else if (tok_is(t, '(') && in_call) {
		parse_operand_list_into(p, o, ')', false);
	} else if (tok_is(t, '!') && lex_peek(&p->lx, 1)->kind == TOK_IDENT) {
		lex_next(&p->lx);
		struct token r = lex_next(&p->lx);
		o->kind = OPND_REG;
		o->neg = true;
		o->reg = expect_pred_reg(p, &r);
	} else if (t->kind == TOK_IDENT) {
		parse_ident_operand(p, o);
	} else if (starts_expr(t)) {
		struct cval v = parse_expr(p);
		make_immediate(o, &v);
	} else {
		perr(p, t, "expected an operand");
	}
}

void parse_instruction(struct parser *p)
{
	struct fn_state *fs = p->fs;
	struct ir_insn in = { 0 };
	struct token start = *lex_peek(&p->lx, 0);
	if (accept(p, '@')) {
		in.guarded = true;
		in.guard_neg = accept(p, '!');
		struct token g = expect_ident(p, "a predicate");
		in.guard_reg = expect_pred_reg(p, &g);
	}
	struct token name = lex_next(&p->lx);
	if (name.kind != TOK_IDENT)
		perr(p, &name, "expected an instruction");
	decode_name(p, &name, &in);
	bool in_call = in.op == OP_CALL;
	if (!tok_is(lex_peek(&p->lx, 0), ';')) {
		do {
			if (in.nopnds == IR_MAX_OPNDS)
				perr(p, lex_peek(&p->lx, 0),
				     "too many operands");
			parse_operand(p, &in.opnd[in.nopnds++], in_call);
		} while (accept(p, ','));
	}
	expect(p, ';');
	in.line = start.line;
	in.col = start.col;
	in.loc_file = p->loc_file;
	in.loc_line = p->loc_line;
	*(struct ir_insn *)pvec_push(p, &fs->insns, sizeof(in)) = in;
}
