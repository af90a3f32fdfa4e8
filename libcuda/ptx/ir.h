/* SPDX-License-Identifier: MIT */
/*
 * The PTX intermediate representation.
 *
 * Design
 * ------
 * The IR is PTX made explicit, not a different language: one ir_module
 * per PTX text, holding module-scope variables and functions; each
 * function holds its virtual registers, its own variables, and its
 * instructions in a flat array split into basic blocks. It is the common
 * input of every back end: the interpreter (lower.c pre-decodes it into
 * handler calls) and, later, an LLVM JIT (which can map each virtual
 * register to an alloca, each block to a basic block, each opcode+type to
 * IR, and let mem2reg build SSA).
 *
 *  - Names are resolved at parse time. An operand never holds a name: it
 *    is a register index into ir_func.regs, a special register id, a
 *    pointer to an ir_sym (variable or function, possibly of another
 *    module once linked), a label (index of its first instruction, turned
 *    into a block index by ir_build_cfg), or an immediate.
 *  - Instructions are decoded: opcode enum, up to four types, and each
 *    modifier word sorted into a field (rounding, comparison, state
 *    space, ordering, scope, vector width, opcode-specific mode, boolean
 *    flags). The ordered list of modifier ids is kept too, only so the
 *    printer writes the instruction back as it was written. Back ends
 *    switch on fields, never on spellings.
 *  - Registers are typed (the .reg type) and non-SSA, exactly as in PTX.
 *    Scoped declarations ({ } blocks) are flattened: a name declared
 *    twice gets a "$n" suffix, which the printer writes, so that printing
 *    and re-parsing is stable.
 *  - Control flow: ir_build_cfg splits the instructions into blocks
 *    (leaders: labels targets and instructions after branches/returns),
 *    computes successors and each block's immediate post-dominator
 *    (virtual exit node IR_EXIT when none), which SIMT execution uses as
 *    the reconvergence point of divergent branches.
 *  - Symbols carry linkage; the linker (link.h, ptx_link) points each
 *    .extern declaration (and overridden .weak definition, and .alias)
 *    to its definition across modules, so back ends follow ir_sym.def
 *    and never look names up.
 *  - Debug directives (.file, .loc, .section) are kept for messages and
 *    printing, and never executed.
 *
 * Memory: everything is allocated from the module's arena and freed with
 * it; nothing points into the PTX text after parsing.
 */
#ifndef VCUDA_PTX_IR_H
#define VCUDA_PTX_IR_H

#include "ptx_tables.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define IR_EXIT UINT32_MAX	/* virtual exit block / no post-dominator */
#define IR_NONE UINT32_MAX

enum ir_linkage {
	LINK_INTERNAL = 0,	/* no linkage directive: module-local */
	LINK_VISIBLE,
	LINK_EXTERN,
	LINK_WEAK,
	LINK_COMMON,
};

enum ir_sym_kind { SYM_VAR, SYM_FUNC };

struct ir_module;
struct ir_func;

/* Relocation in a variable's initial value: the address of a symbol. */
struct ir_reloc {
	uint32_t offset;	/* byte offset in the variable */
	uint8_t size;		/* 4 or 8 */
	bool generic;		/* generic(x) or plain x (same for us) */
	struct ir_sym *target;
	int64_t addend;
};

/* Parameter attributes: .ptr .global .align N (kernel pointers). */
struct ir_ptr_attr {
	uint8_t space;		/* enum ptx_space, SPACE_NONE if no .ptr */
	uint32_t align;
};

/*
 * A variable or a function. Variables live in a state space; functions
 * are .entry or .func. Function-scope variables have @owner set.
 */
struct ir_sym {
	uint8_t kind;		/* enum ir_sym_kind */
	uint8_t linkage;	/* enum ir_linkage */
	const char *name;	/* as written (scoped duplicates: "name$n") */
	struct ir_module *module;
	struct ir_func *owner;	/* function owning a local declaration */
	struct ir_sym *def;	/* definition after linking (self if defined) */
	uint32_t line, col;	/* declaration, for messages */
	uint32_t id;		/* index in the program, set by the linker */
	/*
	 * Host address of a placed .global/.const variable. Offsets of
	 * shared, local and parameter symbols are per kernel: they live in
	 * the kernel's layout (program.h: layout_offset), not here.
	 */
	uint64_t location;

	/* ---- variables ---- */
	uint8_t space;		/* enum ptx_space */
	uint8_t type;		/* element type */
	uint8_t vec;		/* .v2/.v4 element vectors: 2, 4; else 1 */
	bool is_array;
	bool unsized;		/* name[] : dynamic shared, extern arrays */
	bool managed;		/* .attribute(.managed) */
	bool is_retval;		/* return parameter of a .func */
	uint32_t align;		/* bytes, explicit or natural */
	uint32_t ndims;
	uint64_t dims[4];	/* as written; 0 for [] */
	uint64_t size;		/* bytes (0 when unsized) */
	uint8_t *init;		/* initial bytes, or NULL for zero */
	uint64_t init_size;	/* bytes of init; the rest is zero */
	struct ir_reloc *relocs;
	uint32_t nrelocs;
	struct ir_ptr_attr ptr;
	uint32_t reg_index;	/* .reg symbols: first register */

	/* ---- functions ---- */
	struct ir_func *func;
	bool defined_later;	/* declared before its definition: the
				 * module order lists both places */
	struct ir_sym *alias_of;	/* .alias this, target */
};

/* A virtual register. */
struct ir_reg {
	const char *name;	/* for %r<N> ranges: the prefix "%r" */
	int32_t suffix;		/* index in its range, or -1 */
	uint8_t type;		/* enum ptx_type (PTX_T_PRED for predicates) */
	uint8_t vec;		/* 1, or 2/4 for .v2/.v4 registers */
};

/* One .reg declaration, for printing: %r<count> or a single name. */
struct ir_regdecl {
	uint32_t first, count;
	bool range;
	uint32_t at;		/* instruction index where it was declared */
};

enum ir_opnd_kind {
	OPND_NONE = 0,
	OPND_REG,		/* reg */
	OPND_SREG,		/* sreg, comp */
	OPND_IMM,		/* imm: integer bits, or a float (imm_kind) */
	OPND_SYM,		/* address of sym (+ offset) */
	OPND_ADDR,		/* [base + offset]: base reg, sym or none */
	OPND_VEC,		/* { elems } : first/count into func->vec_opnds */
	OPND_LIST,		/* ( elems ) : call arguments, same storage */
	OPND_LABEL,		/* label: instruction index, later block */
	OPND_SINK,		/* _ */
};

enum ir_imm_kind { IMM_INT, IMM_F32, IMM_F64 };

enum ir_addr_base { ADDR_NONE, ADDR_REG, ADDR_SYM };

/* 32 bytes: instructions hold their operands inline. */
struct ir_operand {
	uint8_t kind;		/* enum ir_opnd_kind */
	uint8_t imm_kind;	/* enum ir_imm_kind */
	uint8_t addr_base;	/* enum ir_addr_base */
	uint8_t comp;		/* sreg component; vector-register element+1 */
	bool neg;		/* !%p */
	bool pair;		/* setp's p|q destination: reg2 is q */
	uint16_t unused;
	/*
	 * OPND_REG: register; OPND_ADDR with ADDR_REG: base register;
	 * OPND_SREG: enum ptx_sreg; OPND_VEC/LIST: first element in
	 * func->vec_opnds; OPND_LABEL: index into func->labels.
	 */
	uint32_t reg;
	uint32_t reg2;		/* pair's q; OPND_VEC/LIST: element count */
	struct ir_sym *sym;	/* OPND_SYM; OPND_ADDR with ADDR_SYM */
	union {
		int64_t offset;	/* OPND_SYM, OPND_ADDR */
		uint64_t imm;	/* OPND_IMM: integer, or float bits */
	};
};

enum { IR_MAX_MODS = 14, IR_MAX_OPNDS = 8 };

struct ir_insn {
	uint16_t op;		/* enum ptx_opcode */
	uint8_t ntypes;
	uint8_t types[4];	/* enum ptx_type, in written order */
	uint8_t nmods;
	uint16_t mods[IR_MAX_MODS];	/* as written, for the printer */

	/* decoded modifiers; 0 (MOD_NONE) when absent */
	uint16_t rnd;		/* MOD_RN ... MOD_RPI */
	uint16_t cmp;		/* MOD_EQ ... MOD_NAN */
	uint16_t boolop;	/* MOD_AND / MOD_OR / MOD_XOR (setp, set) */
	uint16_t mode;		/* first mode-list word of the opcode */
	uint16_t mode2;		/* second mode-list word */
	uint16_t sem;		/* MOD_RELAXED ... */
	uint16_t scope;		/* MOD_CTA ... */
	uint16_t cache;		/* MOD_CA ... */
	uint16_t geom;		/* MOD_G1D ... */
	uint8_t space;		/* enum ptx_space of the instruction */
	uint8_t vec;		/* 1, 2, 4, 8 */
	bool has_raw;		/* some word is unknown (lenient opcodes) */
	uint32_t flags;		/* 1u << FL_* */

	/* guard predicate: @%p or @!%p */
	bool guarded;
	bool guard_neg;
	uint32_t guard_reg;

	uint8_t nopnds;
	struct ir_operand opnd[IR_MAX_OPNDS];

	uint32_t line, col;	/* in the PTX text */
	uint32_t loc_file, loc_line;	/* last .loc, 0 if none */
	uint32_t block;		/* set by ir_build_cfg */
};

struct ir_label {
	const char *name;
	uint32_t insn;		/* first instruction after it; IR_NONE: unseen */
	uint32_t line, col;
	/* .branchtargets / .calltargets lists and .callprototype */
	uint8_t kind;		/* enum ir_label_kind */
	uint32_t first, count;	/* targets: into func->vec_opnds */
	struct ir_sym *proto;	/* .callprototype: a bodiless function */
};

enum ir_label_kind {
	LABEL_CODE,
	LABEL_BRANCHTARGETS,
	LABEL_CALLTARGETS,
	LABEL_CALLPROTOTYPE,
};

struct ir_block {
	uint32_t first, count;	/* instruction range */
	uint32_t nsucc;
	uint32_t *succ;		/* block indices */
	uint32_t ipdom;		/* immediate post-dominator or IR_EXIT */
	bool is_reconv;		/* ipdom of some conditional branch */
};

struct ir_pragma {
	const char *text;
};

struct ir_func {
	struct ir_sym *sym;
	bool is_entry;
	bool has_body;
	bool noreturn;
	struct ir_sym **params;
	uint32_t nparams;
	struct ir_sym **rets;
	uint32_t nrets;

	/* performance directives; 0 when absent */
	uint32_t maxntid[3], reqntid[3];
	uint32_t minnctapersm, maxnctapersm, maxnreg;
	uint32_t reqnctapercluster[3], maxclusterrank;
	bool explicitcluster;
	char **pragmas;		/* .pragma strings before the body */
	uint32_t npragmas;

	struct ir_reg *regs;
	uint32_t nregs;
	struct ir_regdecl *regdecls;
	uint32_t nregdecls;
	struct ir_sym **vars;	/* function-scope variables (not .reg) */
	uint32_t nvars;
	struct ir_insn *insns;
	uint32_t ninsns;
	struct ir_label *labels;
	uint32_t nlabels;
	struct ir_operand *vec_opnds;	/* elements of OPND_VEC/OPND_LIST */
	uint32_t nvec_opnds;
	char **body_pragmas;	/* .pragma inside the body, with position */
	uint32_t *body_pragma_at;
	uint32_t nbody_pragmas;

	struct ir_block *blocks;	/* after ir_build_cfg */
	uint32_t nblocks;

	void *backend;		/* owned by the executor */
};

struct ir_file {
	uint32_t index;
	const char *name;
};

struct ir_section {
	const char *text;	/* verbatim, from ".section" to its '}' */
};

enum ir_order_kind {
	ORDER_SYM,		/* syms[index]: declaration or definition */
	ORDER_SECTION,		/* sections[index] */
	ORDER_DEFINITION,	/* syms[index]: the definition, declared
				 * earlier (see ir_sym.defined_later) */
	ORDER_ALIAS,		/* syms[index] is an .alias */
};

struct ir_module {
	struct arena arena;
	const char *name;	/* source name for messages */
	unsigned version_major, version_minor;
	char *target;		/* as written after .target */
	unsigned sm;		/* numeric sm_XX of the target */
	unsigned address_size;	/* 32 or 64 */
	struct ir_sym **syms;	/* module-scope variables and functions, */
	uint32_t nsyms;		/* in declaration order */
	struct ir_file *files;
	uint32_t nfiles;
	struct ir_section *sections;
	uint32_t nsections;
	char **raw_mods;	/* spellings of raw modifier ids */
	uint32_t nraw_mods;
	/* Order of top-level items for printing: (index << 2) | kind. */
	uint32_t *order;
	uint32_t norder;
};

/* Spelling of a modifier id in @m (static or raw). */
const char *ir_mod_name(const struct ir_module *m, unsigned mod);

/*
 * Parses @len bytes of PTX; @name is used in messages. On error returns
 * NULL and writes "name:line:col: message near 'token'" to @log.
 * @status receives PTX_OK / PTX_ERR_SYNTAX / PTX_ERR_NO_MEMORY.
 */
struct ir_module *ir_parse(const char *text, size_t len, const char *name,
			   int *status, char *log, size_t log_len);
void ir_module_free(struct ir_module *m);

/* Builds blocks, successors and post-dominators of every defined
 * function; false (with a message) on malformed control flow. */
bool ir_build_cfg(struct ir_module *m, struct msgbuf *log);

/* The block that label @label of @f starts (the last block for a label
 * at the end of the function). */
uint32_t ir_label_block(const struct ir_func *f, uint32_t label);

/* Writes @m as PTX text that ir_parse accepts and that prints the same. */
void ir_print_module(const struct ir_module *m, FILE *out);
void ir_print_insn(const struct ir_module *m, const struct ir_func *f,
		   const struct ir_insn *in, FILE *out);

/* Elements of an OPND_VEC / OPND_LIST operand. */
static inline const struct ir_operand *ir_vec_elems(const struct ir_func *f,
						    const struct ir_operand *o)
{
	return &f->vec_opnds[o->reg];
}

#endif
