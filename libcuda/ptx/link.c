// SPDX-License-Identifier: MIT
/* Linker: resolves symbols across the modules of a program. */
#include "link.h"

#include <stdlib.h>
#include <string.h>

static bool is_definition(const struct ir_sym *s)
{
	if (s->kind == SYM_FUNC)
		return s->alias_of || (s->func && s->func->has_body);
	return s->linkage != LINK_EXTERN;
}

static bool is_strong(const struct ir_sym *s)
{
	return s->linkage == LINK_VISIBLE;
}

static bool is_global_name(const struct ir_sym *s)
{
	return s->linkage == LINK_VISIBLE || s->linkage == LINK_WEAK ||
	       s->linkage == LINK_COMMON;
}

/* Registers @s as the definition of its name, or reports a clash. */
static int publish(struct ptx_program *prog, struct ir_sym *s,
		   struct msgbuf *log)
{
	struct ir_sym *old = strmap_get(&prog->globals, s->name,
					strlen(s->name));
	if (old && is_strong(old) && is_strong(s)) {
		msg_printf(log, "duplicate definition of '%s' (in %s and %s)",
			   s->name, old->module->name, s->module->name);
		return PTX_ERR_LINK;
	}
	if (old && old->kind != s->kind) {
		msg_printf(log, "'%s' is a %s in %s and a %s in %s", s->name,
			   old->kind == SYM_FUNC ? "function" : "variable",
			   old->module->name,
			   s->kind == SYM_FUNC ? "function" : "variable",
			   s->module->name);
		return PTX_ERR_LINK;
	}
	bool wins = !old || (is_strong(s) && !is_strong(old)) ||
		    (s->linkage == LINK_COMMON &&
		     old->linkage == LINK_COMMON && s->size > old->size);
	if (wins && !strmap_put(&prog->globals, s->name, strlen(s->name), s))
		return PTX_ERR_NO_MEMORY;
	return PTX_OK;
}

static void resolve(struct ptx_program *prog, struct ir_sym *s)
{
	struct ir_sym *g = NULL;
	if (is_global_name(s) || s->linkage == LINK_EXTERN ||
	    (s->kind == SYM_FUNC && !is_definition(s)))
		g = strmap_get(&prog->globals, s->name, strlen(s->name));
	if (g && g->kind == s->kind) {
		s->def = g;
		return;
	}
	if (is_definition(s) || s->kind == SYM_FUNC ||
	    s->space == SPACE_SHARED) {
		s->def = s;	/* local, builtin, or dynamic shared */
		return;
	}
	s->def = NULL;		/* unresolved .extern variable */
}

/* An alias defines its name as its target's definition. */
static void resolve_aliases(struct ptx_program *prog)
{
	for (uint32_t i = 0; i < prog->nmodules; i++) {
		struct ir_module *m = prog->modules[i];
		for (uint32_t k = 0; k < m->nsyms; k++) {
			struct ir_sym *s = m->syms[k];
			if (s->def && s->def->alias_of)
				s->def = s->def->alias_of->def;
		}
	}
}

static int number_definitions(struct ptx_program *prog)
{
	struct vec funcs = { 0 }, vars = { 0 };
	for (uint32_t i = 0; i < prog->nmodules; i++) {
		struct ir_module *m = prog->modules[i];
		for (uint32_t k = 0; k < m->nsyms; k++) {
			struct ir_sym *s = m->syms[k];
			if (s->def != s || !is_definition(s) || s->alias_of)
				continue;
			struct vec *v = s->kind == SYM_FUNC ? &funcs : &vars;
			if (s->kind == SYM_VAR && s->space != SPACE_GLOBAL &&
			    s->space != SPACE_CONST)
				continue;
			struct ir_sym **slot = vec_push(v, sizeof(*slot));
			if (!slot)
				return PTX_ERR_NO_MEMORY;
			s->id = (uint32_t)(v->len - 1);
			*slot = s;
		}
	}
	prog->nfuncs = (uint32_t)funcs.len;
	prog->funcs = funcs.data;
	prog->nvars = (uint32_t)vars.len;
	prog->vars = vars.data;
	return PTX_OK;
}

int ptx_link(struct ptx_program *prog, struct msgbuf *log)
{
	for (uint32_t i = 0; i < prog->nmodules; i++) {
		struct ir_module *m = prog->modules[i];
		for (uint32_t k = 0; k < m->nsyms; k++) {
			struct ir_sym *s = m->syms[k];
			if (!is_global_name(s) || !is_definition(s))
				continue;
			int st = publish(prog, s, log);
			if (st != PTX_OK)
				return st;
		}
	}
	for (uint32_t i = 0; i < prog->nmodules; i++) {
		struct ir_module *m = prog->modules[i];
		for (uint32_t k = 0; k < m->nsyms; k++)
			resolve(prog, m->syms[k]);
	}
	resolve_aliases(prog);
	return number_definitions(prog);
}
