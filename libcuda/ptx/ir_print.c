// SPDX-License-Identifier: MIT
/*
 * IR printer: writes a module back as PTX. Declarations are flattened to
 * the top of each body (scoped duplicates carry their "$n" names), so the
 * output parses back to the same IR and prints identically.
 */
#include "ir.h"

#include <inttypes.h>
#include <string.h>

static const char *const linkage_names[] = {
	[LINK_INTERNAL] = "", [LINK_VISIBLE] = ".visible ",
	[LINK_EXTERN] = ".extern ", [LINK_WEAK] = ".weak ",
	[LINK_COMMON] = ".common ",
};

static void print_reg_name(const struct ir_func *f, uint32_t reg, FILE *out)
{
	const struct ir_reg *r = &f->regs[reg];
	if (r->suffix >= 0)
		fprintf(out, "%s%d", r->name, r->suffix);
	else
		fputs(r->name, out);
}

static void print_operand(const struct ir_module *m, const struct ir_func *f,
			  const struct ir_operand *o, FILE *out);

static void print_list(const struct ir_module *m, const struct ir_func *f,
		       const struct ir_operand *o, const char *open,
		       const char *close, FILE *out)
{
	const struct ir_operand *e = ir_vec_elems(f, o);
	fputs(open, out);
	for (uint32_t i = 0; i < o->reg2; i++) {
		if (i)
			fputs(", ", out);
		print_operand(m, f, &e[i], out);
	}
	fputs(close, out);
}

static void print_offset(int64_t off, FILE *out)
{
	if (off)
		fprintf(out, "%s%" PRId64, off < 0 ? "" : "+", off);
}

static void print_imm(const struct ir_operand *o, FILE *out)
{
	switch (o->imm_kind) {
	case IMM_F32:
		fprintf(out, "0f%08" PRIX32, (uint32_t)o->imm);
		break;
	case IMM_F64:
		fprintf(out, "0d%016" PRIX64, o->imm);
		break;
	default:
		fprintf(out, "%" PRId64, (int64_t)o->imm);
	}
}

static void print_operand(const struct ir_module *m, const struct ir_func *f,
			  const struct ir_operand *o, FILE *out)
{
	char buf[48];
	switch (o->kind) {
	case OPND_REG:
		if (o->neg)
			fputc('!', out);
		print_reg_name(f, o->reg, out);
		if (o->comp)
			fprintf(out, ".%c", "xyzw"[o->comp - 1]);
		if (o->pair) {
			fputc('|', out);
			print_reg_name(f, o->reg2, out);
		}
		break;
	case OPND_SREG:
		fputs(ptx_sreg_name(o->reg, o->comp, buf, sizeof(buf)), out);
		break;
	case OPND_IMM:
		print_imm(o, out);
		break;
	case OPND_SYM:
		fputs(o->sym->name, out);
		print_offset(o->offset, out);
		break;
	case OPND_ADDR:
		fputc('[', out);
		if (o->addr_base == ADDR_REG)
			print_reg_name(f, o->reg, out);
		else if (o->addr_base == ADDR_SYM)
			fputs(o->sym->name, out);
		if (o->addr_base == ADDR_NONE)
			fprintf(out, "%" PRId64, o->offset);
		else
			print_offset(o->offset, out);
		fputc(']', out);
		break;
	case OPND_VEC:
		if (o->comp == '[')
			print_list(m, f, o, "[", "]", out);
		else
			print_list(m, f, o, "{", "}", out);
		break;
	case OPND_LIST:
		print_list(m, f, o, "(", ")", out);
		break;
	case OPND_LABEL:
		fputs(f->labels[o->reg].name, out);
		break;
	case OPND_SINK:
		fputc('_', out);
		break;
	default:
		fputs("?", out);
	}
}

void ir_print_insn(const struct ir_module *m, const struct ir_func *f,
		   const struct ir_insn *in, FILE *out)
{
	if (in->guarded) {
		fputs(in->guard_neg ? "@!" : "@", out);
		print_reg_name(f, in->guard_reg, out);
		fputc(' ', out);
	}
	fputs(ptx_opcode_name(in->op), out);
	for (unsigned i = 0; i < in->nmods; i++)
		fprintf(out, ".%s", ir_mod_name(m, in->mods[i]));
	for (unsigned i = 0; i < in->nopnds; i++) {
		fputs(i ? ", " : " ", out);
		print_operand(m, f, &in->opnd[i], out);
	}
	fputc(';', out);
}

/* ---- declarations ---- */

static void print_elem(const struct ir_sym *v, uint64_t i, FILE *out)
{
	unsigned size = ptx_type_size(v->type);
	uint64_t off = i * size;
	for (uint32_t r = 0; r < v->nrelocs; r++) {
		const struct ir_reloc *rl = &v->relocs[r];
		if (rl->offset != off)
			continue;
		fprintf(out, rl->generic ? "generic(%s)" : "%s",
			rl->target->name);
		print_offset(rl->addend, out);
		return;
	}
	uint64_t bits = 0;
	memcpy(&bits, v->init + off, size);
	if (v->type == PTX_T_F32)
		fprintf(out, "0f%08" PRIX32, (uint32_t)bits);
	else if (v->type == PTX_T_F64)
		fprintf(out, "0d%016" PRIX64, bits);
	else
		fprintf(out, "%" PRIu64, bits);
}

static void print_init(const struct ir_sym *v, FILE *out)
{
	unsigned size = ptx_type_size(v->type);
	uint64_t n = size ? v->init_size / size : 0;
	bool braces = v->is_array || v->vec > 1;
	fputs(" = ", out);
	if (braces)
		fputc('{', out);
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		print_elem(v, i, out);
	}
	if (braces)
		fputc('}', out);
}

static void print_var_body(const struct ir_sym *v, FILE *out)
{
	if (v->managed)
		fputs(" .attribute(.managed)", out);
	/* .align only where it says more than the natural alignment */
	unsigned natural = ptx_type_size(v->type) * v->vec;
	bool ptr = v->ptr.space || v->ptr.align;
	if (!ptr && (v->is_array || v->align != (natural ? natural : 1)))
		fprintf(out, " .align %u", v->align);
	if (v->vec > 1)
		fprintf(out, " .v%u", v->vec);
	fprintf(out, " .%s", ptx_type_name(v->type));
	if (ptr) {	/* .param .u64 .ptr .global .align 16 name */
		fputs(" .ptr", out);
		if (v->ptr.space)
			fprintf(out, " .%s", ptx_space_name(v->ptr.space));
		if (v->ptr.align)
			fprintf(out, " .align %u", v->ptr.align);
	}
	fprintf(out, " %s", v->name);
	for (uint32_t i = 0; i < v->ndims; i++) {
		if (v->dims[i])
			fprintf(out, "[%" PRIu64 "]", v->dims[i]);
		else
			fputs("[]", out);
	}
}

static const char *var_space_name(const struct ir_sym *v)
{
	switch (v->space) {
	case SPACE_TEX:
		return "global .texref";
	case SPACE_SURF:
		return "global .surfref";
	case SPACE_SAMPLER:
		return "global .samplerref";
	default:
		return ptx_space_name(v->space);
	}
}

static void print_var(const struct ir_sym *v, const char *indent, FILE *out)
{
	fprintf(out, "%s%s.%s", indent, linkage_names[v->linkage],
		var_space_name(v));
	if (v->space == SPACE_TEX || v->space == SPACE_SURF ||
	    v->space == SPACE_SAMPLER) {
		fprintf(out, " %s;\n", v->name);
		return;
	}
	print_var_body(v, out);
	if (v->init)
		print_init(v, out);
	fputs(";\n", out);
}

static void print_params(struct ir_sym *const *params, uint32_t n,
			 FILE *out)
{
	fputc('(', out);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ",\n\t" : "\n\t", out);
		fprintf(out, ".%s", ptx_space_name(params[i]->space));
		print_var_body(params[i], out);
	}
	fputs(n ? "\n)" : ")", out);
}

static void print_dim3(const char *name, const uint32_t d[3], FILE *out)
{
	if (d[0])
		fprintf(out, "%s %u, %u, %u\n", name, d[0], d[1], d[2]);
}

static void print_header(const struct ir_func *f, const char *name,
			 unsigned linkage, FILE *out)
{
	fprintf(out, "%s%s ", linkage_names[linkage],
		f->is_entry ? ".entry" : ".func");
	if (f->nrets || (!f->is_entry && f->rets)) {
		print_params(f->rets, f->nrets, out);
		fputc(' ', out);
	}
	fputs(name, out);
	if (f->nparams || f->is_entry)
		print_params(f->params, f->nparams, out);
	if (f->noreturn)
		fputs(" .noreturn", out);
	fputc('\n', out);
	print_dim3(".maxntid", f->maxntid, out);
	print_dim3(".reqntid", f->reqntid, out);
	print_dim3(".reqnctapercluster", f->reqnctapercluster, out);
	if (f->minnctapersm)
		fprintf(out, ".minnctapersm %u\n", f->minnctapersm);
	if (f->maxnctapersm)
		fprintf(out, ".maxnctapersm %u\n", f->maxnctapersm);
	if (f->maxnreg)
		fprintf(out, ".maxnreg %u\n", f->maxnreg);
	if (f->maxclusterrank)
		fprintf(out, ".maxclusterrank %u\n", f->maxclusterrank);
	if (f->explicitcluster)
		fputs(".explicitcluster\n", out);
	for (uint32_t i = 0; i < f->npragmas; i++)
		fprintf(out, ".pragma \"%s\";\n", f->pragmas[i]);
}

/* ---- bodies ---- */

static bool is_param_reg(const struct ir_func *f, uint32_t reg)
{
	for (uint32_t i = 0; i < f->nparams; i++)
		if (f->params[i]->space == SPACE_REG &&
		    f->params[i]->reg_index == reg)
			return true;
	for (uint32_t i = 0; i < f->nrets; i++)
		if (f->rets[i]->space == SPACE_REG &&
		    f->rets[i]->reg_index == reg)
			return true;
	return false;
}

static void print_regdecls(const struct ir_func *f, FILE *out)
{
	for (uint32_t i = 0; i < f->nregdecls; i++) {
		const struct ir_regdecl *d = &f->regdecls[i];
		const struct ir_reg *r = &f->regs[d->first];
		if (is_param_reg(f, d->first))
			continue;
		fputs("\t.reg ", out);
		if (r->vec > 1)
			fprintf(out, ".v%u ", r->vec);
		fprintf(out, ".%s %s", ptx_type_name(r->type), r->name);
		if (d->range)
			fprintf(out, "<%u>", d->count);
		fputs(";\n", out);
	}
}

static void print_label_decl(const struct ir_module *m,
			     const struct ir_func *f, const struct ir_label *l,
			     FILE *out)
{
	fprintf(out, "%s:", l->name);
	if (l->kind == LABEL_CALLPROTOTYPE) {
		const struct ir_func *p = l->proto->func;
		fputs(" .callprototype ", out);
		if (p->nrets || p->rets) {
			print_params(p->rets, p->nrets, out);
			fputc(' ', out);
		}
		fputs("_ ", out);
		print_params(p->params, p->nparams, out);
		fputs(p->noreturn ? " .noreturn;" : ";", out);
	} else if (l->kind != LABEL_CODE) {
		fputs(l->kind == LABEL_BRANCHTARGETS ? " .branchtargets " :
						       " .calltargets ",
		      out);
		for (uint32_t i = 0; i < l->count; i++) {
			if (i)
				fputs(", ", out);
			print_operand(m, f, &f->vec_opnds[l->first + i], out);
		}
		fputc(';', out);
	}
	fputc('\n', out);
}

static void print_at(const struct ir_module *m, const struct ir_func *f,
		     uint32_t at, FILE *out)
{
	for (uint32_t l = 0; l < f->nlabels; l++)
		if (f->labels[l].insn == at)
			print_label_decl(m, f, &f->labels[l], out);
	for (uint32_t k = 0; k < f->nbody_pragmas; k++)
		if (f->body_pragma_at[k] == at)
			fprintf(out, "\t.pragma \"%s\";\n", f->body_pragmas[k]);
}

static void print_body(const struct ir_module *m, const struct ir_func *f,
		       FILE *out)
{
	uint32_t file = 0, line = 0;
	fputs("{\n", out);
	print_regdecls(f, out);
	for (uint32_t i = 0; i < f->nvars; i++)
		print_var(f->vars[i], "\t", out);
	fputc('\n', out);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		print_at(m, f, i, out);
		if (in->loc_file && (in->loc_file != file ||
				     in->loc_line != line)) {
			file = in->loc_file;
			line = in->loc_line;
			fprintf(out, "\t.loc %u %u 0\n", file, line);
		}
		fputc('\t', out);
		ir_print_insn(m, f, in, out);
		fputc('\n', out);
	}
	print_at(m, f, f->ninsns, out);
	fputs("}\n", out);
}

static void print_function(const struct ir_module *m, const struct ir_sym *s,
			   bool with_body, FILE *out)
{
	const struct ir_func *f = s->func;
	print_header(f, s->name, s->linkage, out);
	if (with_body && f->has_body)
		print_body(m, f, out);
	else
		fputs(";\n", out);
	fputc('\n', out);
}

void ir_print_module(const struct ir_module *m, FILE *out)
{
	fprintf(out, ".version %u.%u\n", m->version_major, m->version_minor);
	if (m->target)
		fprintf(out, ".target %s\n", m->target);
	fprintf(out, ".address_size %u\n\n", m->address_size);
	for (uint32_t i = 0; i < m->nfiles; i++)
		fprintf(out, ".file %u \"%s\"\n", m->files[i].index,
			m->files[i].name);
	for (uint32_t i = 0; i < m->norder; i++) {
		uint32_t idx = m->order[i] >> 2;
		switch (m->order[i] & 3) {
		case ORDER_SECTION:
			fprintf(out, "%s\n", m->sections[idx].text);
			break;
		case ORDER_DEFINITION:
			print_function(m, m->syms[idx], true, out);
			break;
		case ORDER_ALIAS:
			fprintf(out, ".alias %s, %s;\n\n", m->syms[idx]->name,
				m->syms[idx]->alias_of->name);
			break;
		default: {
			const struct ir_sym *s = m->syms[idx];
			if (s->kind == SYM_VAR)
				print_var(s, "", out);
			else
				print_function(m, s, !s->defined_later, out);
		}
		}
	}
}
