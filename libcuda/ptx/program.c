// SPDX-License-Identifier: MIT
/*
 * The program API of ptx.h: build (parse, CFG, link, lower every kernel),
 * place variables, look up kernels and variables, destroy.
 */
#include "interp.h"
#include "jit.h"
#include "jit_sha256.h"
#include "link.h"

#include <stdlib.h>
#include <string.h>

void ptx_program_destroy(struct ptx_program *prog)
{
	if (!prog)
		return;
	for (struct ptx_kernel *k = prog->kernels; k; k = k->next)
		backend_release(k);
	for (uint32_t i = 0; i < prog->nmodules; i++)
		ir_module_free(prog->modules[i]);
	free(prog->modules);
	free(prog->funcs);
	free(prog->vars);
	free(prog->addr_taken);
	strmap_free(&prog->globals);
	interp_program_free(prog);
	arena_release(&prog->arena);
	free(prog);
}

static int parse_sources(struct ptx_program *prog,
			 const struct ptx_source *sources, size_t count,
			 struct msgbuf *log)
{
	struct sha256 digest;
	prog->modules = calloc(count ? count : 1, sizeof(*prog->modules));
	if (!prog->modules)
		return PTX_ERR_NO_MEMORY;
	sha256_init(&digest);
	for (size_t i = 0; i < count; i++) {
		const struct ptx_source *s = &sources[i];
		if (!s->text)
			return PTX_ERR_INVALID;
		size_t len = s->len ? s->len : strlen(s->text);
		uint64_t len64 = len;
		int st;
		/* what the JIT's disk cache keys compiled code by */
		sha256_add(&digest, &len64, sizeof(len64));
		sha256_add(&digest, s->text, len);
		struct ir_module *m = ir_parse(s->text, len, s->name, &st,
					       log->buf, log->cap);
		if (!m)
			return st;
		prog->modules[prog->nmodules++] = m;
		if (!ir_build_cfg(m, log))
			return PTX_ERR_NO_MEMORY;
	}
	sha256_finish(&digest, prog->source_digest);
	return PTX_OK;
}

/* ---- functions used as values (indirect call targets) ---- */

static void mark_operand(struct ptx_program *prog, const struct ir_func *f,
			 const struct ir_operand *o)
{
	if (o->kind == OPND_SYM && o->sym->def &&
	    o->sym->def->kind == SYM_FUNC && o->sym->def->def == o->sym->def &&
	    o->sym->def->func->has_body)
		prog->addr_taken[o->sym->def->id] = true;
	if (o->kind == OPND_VEC || o->kind == OPND_LIST)
		for (uint32_t i = 0; i < o->reg2; i++)
			mark_operand(prog, f, &ir_vec_elems(f, o)[i]);
}

static void mark_function(struct ptx_program *prog, const struct ir_func *f)
{
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct ir_insn *in = &f->insns[i];
		uint32_t k = 0;
		if (in->op == OP_CALL) {	/* skip the direct callee */
			k = in->nopnds && in->opnd[0].kind == OPND_LIST ? 2 : 1;
			for (uint32_t a = k; a < in->nopnds; a++)
				mark_operand(prog, f, &in->opnd[a]);
			continue;
		}
		for (; k < in->nopnds; k++)
			mark_operand(prog, f, &in->opnd[k]);
	}
}

static int mark_address_taken(struct ptx_program *prog)
{
	prog->addr_taken = calloc(prog->nfuncs + 1, sizeof(bool));
	if (!prog->addr_taken)
		return PTX_ERR_NO_MEMORY;
	for (uint32_t i = 0; i < prog->nfuncs; i++)
		mark_function(prog, prog->funcs[i]->func);
	for (uint32_t i = 0; i < prog->nvars; i++)
		for (uint32_t r = 0; r < prog->vars[i]->nrelocs; r++) {
			struct ir_sym *t = prog->vars[i]->relocs[r].target->def;
			if (t && t->kind == SYM_FUNC && t->func->has_body)
				prog->addr_taken[t->id] = true;
		}
	return PTX_OK;
}

static int lower_kernels(struct ptx_program *prog, struct msgbuf *log)
{
	for (uint32_t i = 0; i < prog->nfuncs; i++) {
		struct ir_sym *s = prog->funcs[i];
		if (!s->func->is_entry)
			continue;
		int st = PTX_OK;
		struct ptx_kernel *k = arena_alloc(&prog->arena, sizeof(*k));
		if (!k)
			return PTX_ERR_NO_MEMORY;
		k->prog = prog;
		k->sym = s;
		/* the interpreter is every kernel's reference and fallback */
		if (!layout_kernel(k, log, &st) ||
		    !interp_lower_kernel(k, log, &st))
			return st ? st : PTX_ERR_NO_MEMORY;
		k->backend = backend_choose(k);
		k->next = prog->kernels;
		prog->kernels = k;
	}
	return PTX_OK;
}

/*
 * CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: NVIDIA's driver answers with the
 * program's whole user constant bank, every .const variable laid out in
 * order at its alignment, the same for each kernel whether it uses them
 * or not (measured on an H200: 10 words, 3 doublewords and 5 bytes at
 * 16 gave 69 for every kernel).
 */
static void size_const_bank(struct ptx_program *prog)
{
	uint64_t end = 0;

	for (uint32_t i = 0; i < prog->nvars; i++) {
		const struct ir_sym *v = prog->vars[i];

		if (v->space == SPACE_CONST)
			end = ALIGN_UP(end, v->align ? v->align : 1) + v->size;
	}
	for (struct ptx_kernel *k = prog->kernels; k; k = k->next)
		k->info.const_size = (uint32_t)end;
}

enum ptx_status ptx_source_check(const struct ptx_source *source, char *log,
				 size_t log_len)
{
	int st = PTX_ERR_INVALID;
	struct ir_module *m;

	if (log && log_len)
		log[0] = 0;
	if (!source || !source->text)
		return PTX_ERR_INVALID;
	m = ir_parse(source->text, source->len ? source->len :
		     strlen(source->text), source->name, &st, log, log_len);
	if (!m)
		return (enum ptx_status)st;
	ir_module_free(m);
	return PTX_OK;
}

enum ptx_status ptx_program_build(const struct ptx_source *sources,
				  size_t count, struct ptx_program **out,
				  char *log, size_t log_len)
{
	struct msgbuf m = { log, log_len, 0 };
	if (log && log_len)
		log[0] = 0;
	*out = NULL;
	if (!sources || !count) {
		msg_printf(&m, "no PTX sources");
		return PTX_ERR_INVALID;
	}
	struct ptx_program *prog = calloc(1, sizeof(*prog));
	if (!prog)
		return PTX_ERR_NO_MEMORY;
	int st = parse_sources(prog, sources, count, &m);
	if (st == PTX_OK)
		st = devrt_cg_add(prog, &m);
	if (st == PTX_OK) {
		m.len = strnlen(m.buf ? m.buf : "", m.cap);
		st = ptx_link(prog, &m);
	}
	if (st == PTX_OK)
		st = mark_address_taken(prog);
	if (st == PTX_OK && !(prog->interp = calloc(1, sizeof(*prog->interp))))
		st = PTX_ERR_NO_MEMORY;
	if (st == PTX_OK)
		st = lower_kernels(prog, &m);
	if (st == PTX_OK)
		size_const_bank(prog);
	if (st != PTX_OK) {
		if (st == PTX_ERR_NO_MEMORY && log && log_len && !log[0])
			msg_printf(&m, "out of memory");
		ptx_program_destroy(prog);
		return (enum ptx_status)st;
	}
	*out = prog;
	return PTX_OK;
}

/* ---- variables ---- */

static int place_one(struct ir_sym *v, ptx_alloc_fn alloc, void *user,
		     struct msgbuf *log)
{
	uint64_t size = v->size ? v->size : 1;
	enum ptx_var_space sp = v->space == SPACE_CONST ? PTX_VAR_CONST :
				v->managed ? PTX_VAR_MANAGED : PTX_VAR_GLOBAL;
	void *p = alloc(user, size, v->align ? v->align : 1, sp);
	if (!p) {
		msg_printf(log, "cannot allocate %llu bytes for '%s'",
			   (unsigned long long)size, v->name);
		return PTX_ERR_NO_MEMORY;
	}
	v->location = (uintptr_t)p;
	if (v->init)
		memcpy(p, v->init, v->init_size);
	return PTX_OK;
}

static int apply_relocs(struct ir_sym *v, struct msgbuf *log)
{
	for (uint32_t r = 0; r < v->nrelocs; r++) {
		const struct ir_reloc *rl = &v->relocs[r];
		struct ir_sym *t = rl->target->def;
		if (!t) {
			msg_printf(log, "'%s' refers to unresolved '%s'",
				   v->name, rl->target->name);
			return PTX_ERR_LINK;
		}
		uint64_t value = t->kind == SYM_FUNC ? func_address(t) :
						       t->location;
		value += (uint64_t)rl->addend;
		memcpy((uint8_t *)(uintptr_t)v->location + rl->offset, &value,
		       rl->size);
	}
	return PTX_OK;
}

enum ptx_status ptx_program_place_variables(struct ptx_program *prog,
					    ptx_alloc_fn alloc, void *user,
					    char *log, size_t log_len)
{
	struct msgbuf m = { log, log_len, 0 };
	if (log && log_len)
		log[0] = 0;
	if (!prog || !alloc || prog->placed)
		return PTX_ERR_INVALID;
	for (uint32_t i = 0; i < prog->nvars; i++) {
		int st = place_one(prog->vars[i], alloc, user, &m);
		if (st != PTX_OK)
			return (enum ptx_status)st;
	}
	for (uint32_t i = 0; i < prog->nvars; i++) {
		int st = apply_relocs(prog->vars[i], &m);
		if (st != PTX_OK)
			return (enum ptx_status)st;
	}
	interp_apply_fixups(prog);
	prog->placed = true;
	return PTX_OK;
}

static struct ir_sym *find_var(const struct ptx_program *prog,
			       const char *name)
{
	struct ir_sym *s = strmap_get(&prog->globals, name, strlen(name));
	if (s && s->kind == SYM_VAR)
		return s->def;
	for (uint32_t i = 0; i < prog->nvars; i++)
		if (!strcmp(prog->vars[i]->name, name))
			return prog->vars[i];
	return NULL;
}

bool ptx_program_variable(const struct ptx_program *prog, const char *name,
			  uint64_t *addr, size_t *size)
{
	if (!prog || !name || !prog->placed)
		return false;
	struct ir_sym *s = find_var(prog, name);
	if (!s || s->def != s)
		return false;
	if (addr)
		*addr = s->location;
	if (size)
		*size = s->size;
	return true;
}

const struct ptx_kernel *ptx_program_kernel(const struct ptx_program *prog,
					    const char *name)
{
	if (!prog || !name)
		return NULL;
	for (const struct ptx_kernel *k = prog->kernels; k; k = k->next)
		if (!strcmp(k->sym->name, name))
			return k;
	return NULL;
}

const struct ptx_kernel *ptx_program_kernel_at(const struct ptx_program *prog,
					       size_t index)
{
	const struct ptx_kernel *k = prog ? prog->kernels : NULL;

	while (k && index--)
		k = k->next;
	return k;
}

void ptx_kernel_get_info(const struct ptx_kernel *kernel,
			 struct ptx_kernel_info *info)
{
	*info = kernel->info;
}
