// SPDX-License-Identifier: MIT
/* Spellings and lookups for types, modifiers, opcodes, special registers. */
#include "ptx_tables.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint8_t size;
	uint8_t kind;
} type_table[PTX_T_COUNT] = {
	[PTX_T_NONE] = { "", 0, TK_NONE },
#define X(id, s, sz, k) [PTX_T_##id] = { s, sz, k },
	PTX_TYPES(X)
#undef X
};

const char *ptx_type_name(unsigned t)
{
	return t < PTX_T_COUNT ? type_table[t].name : "?";
}

unsigned ptx_type_size(unsigned t)
{
	return t < PTX_T_COUNT ? type_table[t].size : 0;
}

enum type_kind ptx_type_kind(unsigned t)
{
	return t < PTX_T_COUNT ? (enum type_kind)type_table[t].kind : TK_NONE;
}

const char *ptx_space_name(unsigned s)
{
	static const char *const names[] = {
		[SPACE_NONE] = "", [SPACE_REG] = "reg",
		[SPACE_SREG] = "sreg", [SPACE_CONST] = "const",
		[SPACE_GLOBAL] = "global", [SPACE_LOCAL] = "local",
		[SPACE_PARAM] = "param", [SPACE_SHARED] = "shared",
		[SPACE_TEX] = "tex", [SPACE_SURF] = "surf",
		[SPACE_SAMPLER] = "sampler",
	};
	return s < ARRAY_SIZE(names) ? names[s] : "?";
}

static struct mod_info mod_table[MOD_STATIC_COUNT] = {
	[MOD_NONE] = { "", MC_NONE, 0 },
#define X(id, s, cat, val) [MOD_##id] = { s, cat, val },
	PTX_MODS(X)
#undef X
};

struct opcode_info {
	const char *name;
	uint32_t cats;
	const char *modes;
	const char *modes2;
	unsigned flags;
	uint16_t mode_ids[12];
	uint16_t mode2_ids[6];
};

static struct opcode_info op_table[OP_COUNT] = {
	[OP_NONE] = { "", 0, "", "", 0, { 0 }, { 0 } },
#define X(id, s, cats, modes, modes2, fl) \
	[OP_##id] = { s, cats, modes, modes2, fl, { 0 }, { 0 } },
	PTX_OPCODES(X)
#undef X
};

static struct strmap mod_map, op_map;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void parse_mode_list(const char *list, uint16_t *ids, size_t max)
{
	size_t n = 0;
	while (*list) {
		size_t len = strcspn(list, " ");
		void *v = strmap_get(&mod_map, list, len);
		if (!v || n == max) {
			fprintf(stderr, "ptx_tables: bad mode list '%s'\n", list);
			abort();	/* a bug in the static tables */
		}
		ids[n++] = (uint16_t)(uintptr_t)v;
		list += len;
		list += strspn(list, " ");
	}
}

static void build_tables(void)
{
	for (unsigned t = 1; t < PTX_T_COUNT; t++) {
		struct mod_info *m = &mod_table[ptx_mod_of_type(t)];
		m->name = type_table[t].name;
		m->cat = MC_TYPE;
		m->value = (uint8_t)t;
	}
	for (unsigned i = 1; i < MOD_STATIC_COUNT; i++) {
		const char *n = mod_table[i].name;
		if (n && !strmap_put(&mod_map, n, strlen(n),
				     (void *)(uintptr_t)i))
			abort();
	}
	for (unsigned i = 1; i < OP_COUNT; i++) {
		struct opcode_info *o = &op_table[i];
		if (!strmap_put(&op_map, o->name, strlen(o->name),
				(void *)(uintptr_t)i))
			abort();
		parse_mode_list(o->modes, o->mode_ids,
				ARRAY_SIZE(o->mode_ids));
		parse_mode_list(o->modes2, o->mode2_ids,
				ARRAY_SIZE(o->mode2_ids));
	}
}

static void tables_init(void)
{
	pthread_once(&tables_once, build_tables);
}

unsigned ptx_mod_lookup(const char *s, size_t len)
{
	tables_init();
	return (unsigned)(uintptr_t)strmap_get(&mod_map, s, len);
}

const struct mod_info *ptx_mod_info(unsigned mod)
{
	tables_init();
	return mod < MOD_STATIC_COUNT ? &mod_table[mod] : NULL;
}

unsigned ptx_opcode_lookup(const char *s, size_t len)
{
	tables_init();
	return (unsigned)(uintptr_t)strmap_get(&op_map, s, len);
}

const char *ptx_opcode_name(unsigned op)
{
	return op < OP_COUNT ? op_table[op].name : "?";
}

uint32_t ptx_opcode_cats(unsigned op)
{
	return op < OP_COUNT ? op_table[op].cats : 0;
}

unsigned ptx_opcode_flags(unsigned op)
{
	return op < OP_COUNT ? op_table[op].flags : 0;
}

int ptx_opcode_mode_slot(unsigned op, unsigned mod)
{
	tables_init();
	if (op >= OP_COUNT)
		return 0;
	const struct opcode_info *o = &op_table[op];
	for (size_t i = 0; i < ARRAY_SIZE(o->mode_ids) && o->mode_ids[i]; i++)
		if (o->mode_ids[i] == mod)
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(o->mode2_ids) && o->mode2_ids[i];
	     i++)
		if (o->mode2_ids[i] == mod)
			return 2;
	return 0;
}

/* ---- special registers ---- */

static const struct {
	const char *name;
	uint8_t comps;	/* 3: .x/.y/.z; n > 3 or 2, 8: numbered; 0: none */
	uint8_t type;
} sreg_table[SREG_COUNT] = {
	[SREG_NONE] = { "", 0, 0 },
#define X(id, s, n, t) [SREG_##id] = { s, n, t },
	PTX_SREGS(X)
#undef X
};

unsigned ptx_sreg_type(unsigned sreg)
{
	return sreg < SREG_COUNT ? sreg_table[sreg].type : 0;
}

unsigned ptx_sreg_components(unsigned sreg)
{
	return sreg < SREG_COUNT ? sreg_table[sreg].comps : 0;
}

static bool parse_index(const char *s, size_t len, unsigned limit,
			unsigned *out)
{
	if (!len || len > 2)
		return false;
	unsigned v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return v < limit;
}

static bool match_sreg(unsigned id, const char *s, size_t len,
		       unsigned *comp)
{
	const char *name = sreg_table[id].name;
	size_t n = strlen(name);
	unsigned comps = sreg_table[id].comps;
	if (id == SREG_PM64) {	/* %pmN_64 */
		return len == 7 && !memcmp(s, "%pm", 3) &&
		       !memcmp(s + 4, "_64", 3) &&
		       parse_index(s + 3, 1, 8, comp);
	}
	if (len < n || memcmp(s, name, n))
		return false;
	if (comps == 0) {
		*comp = 0;
		return len == n;
	}
	if (comps == 3) {
		if (len == n + 2 && s[n] == '.' && s[n + 1] >= 'x' &&
		    s[n + 1] <= 'z') {
			*comp = (unsigned)(s[n + 1] - 'x');
			return true;
		}
		return false;
	}
	return parse_index(s + n, len - n, comps, comp);
}

bool ptx_sreg_lookup(const char *s, size_t len, unsigned *sreg,
		     unsigned *comp)
{
	if (len < 3 || s[0] != '%')
		return false;
	for (unsigned i = 1; i < SREG_COUNT; i++) {
		if (match_sreg(i, s, len, comp)) {
			*sreg = i;
			return true;
		}
	}
	return false;
}

const char *ptx_sreg_name(unsigned sreg, unsigned comp, char *buf,
			  size_t len)
{
	if (sreg >= SREG_COUNT) {
		snprintf(buf, len, "%%?");
	} else if (sreg == SREG_PM64) {
		snprintf(buf, len, "%%pm%u_64", comp);
	} else if (sreg_table[sreg].comps == 3) {
		snprintf(buf, len, "%s.%c", sreg_table[sreg].name,
			 (char)('x' + comp));
	} else if (sreg_table[sreg].comps) {
		snprintf(buf, len, "%s%u", sreg_table[sreg].name, comp);
	} else {
		snprintf(buf, len, "%s", sreg_table[sreg].name);
	}
	return buf;
}
