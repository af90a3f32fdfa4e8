// SPDX-License-Identifier: MIT
/*
 * SIMD video instructions on the halfwords (vadd2, vsub2, vavrg2,
 * vabsdiff2, vmin2, vmax2, vset2) and bytes (the ...4 forms) of 32-bit
 * registers, with .sat or the secondary .add, and dp2a. Operand
 * selectors and destination masks other than the defaults (.h10, .b3210)
 * are not accepted by the parser, so every lane takes its own part.
 */
#include "lanes.h"

enum vop { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_SET };

/* Flags in xinsn.mode. */
enum { VF_ASIGNED = 1, VF_BSIGNED = 2, VF_DSIGNED = 4, VF_SAT = 8,
       VF_ADD = 16 };

static inline int64_t part(uint32_t v, unsigned i, unsigned bits, bool sgn)
{
	uint32_t x = v >> (i * bits) & ((1u << bits) - 1);
	if (sgn && (x >> (bits - 1)))
		return (int64_t)x - (1ll << bits);
	return x;
}

static inline bool vcompare(int64_t a, int64_t b, unsigned cmp)
{
	switch (cmp) {
	case MOD_EQ: return a == b;
	case MOD_NE: return a != b;
	case MOD_LT: return a < b;
	case MOD_LE: return a <= b;
	case MOD_GT: return a > b;
	default: return a >= b;
	}
}

static uint32_t simd(uint32_t a, uint32_t b, uint32_t c, unsigned lanes,
		     unsigned op, unsigned fl, unsigned cmp)
{
	unsigned bits = 32 / lanes;
	int64_t hi = fl & VF_DSIGNED ? (1ll << (bits - 1)) - 1 :
				       (1ll << bits) - 1;
	int64_t lo = fl & VF_DSIGNED ? -(1ll << (bits - 1)) : 0;
	uint32_t d = fl & VF_ADD ? c : 0;
	for (unsigned i = 0; i < lanes; i++) {
		int64_t x = part(a, i, bits, fl & VF_ASIGNED);
		int64_t y = part(b, i, bits, fl & VF_BSIGNED), t;
		switch (op) {
		case V_ADD: t = x + y; break;
		case V_SUB: t = x - y; break;
		case V_AVRG: t = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
			break;
		case V_ABSDIFF: t = x > y ? x - y : y - x; break;
		case V_MIN: t = x < y ? x : y; break;
		case V_MAX: t = x > y ? x : y; break;
		default: t = vcompare(x, y, cmp); break;
		}
		if (fl & VF_SAT)
			t = t > hi ? hi : t < lo ? lo : t;
		if (fl & VF_ADD)
			d += (uint32_t)t;
		else
			d |= ((uint32_t)t & ((1u << bits) - 1)) << (i * bits);
	}
	return d;
}

DEF_TER(simd2_x, uint32_t, uint32_t,
	simd(a, b, c, 2, ip->mode16 & 0xff, ip->mode, ip->mode16 >> 8))
DEF_TER(simd4_x, uint32_t, uint32_t,
	simd(a, b, c, 4, ip->mode16 & 0xff, ip->mode, ip->mode16 >> 8))

/* dp2a: c + the two 16-bit parts of a times two bytes of b (.lo: bytes
 * 0 and 1, .hi: 2 and 3). */
static inline uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, bool as,
			    bool bs, bool hi)
{
	int64_t acc = (int32_t)c;
	for (unsigned i = 0; i < 2; i++)
		acc += part(a, i, 16, as) * part(b, i + 2 * hi, 8, bs);
	return (uint32_t)acc;
}

DEF_TER(dp2a_x, uint32_t, uint32_t,
	dp2a(a, b, c, ip->mode & VF_ASIGNED, ip->mode & VF_BSIGNED,
	     ip->mode16 == MOD_HI))

/* ---- lowering ---- */

static bool has_word(const struct lower_ctx *c, const char *w)
{
	for (unsigned i = 0; i < c->in->nmods; i++)
		if (!strcmp(ir_mod_name(c->m, c->in->mods[i]), w))
			return true;
	return false;
}

/* vset's comparison, a word the parser keeps raw for video opcodes. */
static unsigned cmp_word(const struct lower_ctx *c)
{
	static const char *const names[] = { "eq", "ne", "lt", "le", "gt",
					     "ge" };
	static const unsigned mods[] = { MOD_EQ, MOD_NE, MOD_LT, MOD_LE,
					 MOD_GT, MOD_GE };
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (has_word(c, names[i]))
			return mods[i];
	return 0;
}

static int vop_of(unsigned op)
{
	switch (op) {
	case OP_VADD2: case OP_VADD4: return V_ADD;
	case OP_VSUB2: case OP_VSUB4: return V_SUB;
	case OP_VAVRG2: case OP_VAVRG4: return V_AVRG;
	case OP_VABSDIFF2: case OP_VABSDIFF4: return V_ABSDIFF;
	case OP_VMIN2: case OP_VMIN4: return V_MIN;
	case OP_VMAX2: case OP_VMAX4: return V_MAX;
	case OP_VSET2: case OP_VSET4: return V_SET;
	default: return -1;
	}
}

static bool four_lanes(unsigned op)
{
	switch (op) {
	case OP_VADD4: case OP_VSUB4: case OP_VAVRG4: case OP_VABSDIFF4:
	case OP_VMIN4: case OP_VMAX4: case OP_VSET4:
		return true;
	default:
		return false;
	}
}

static bool is_32(unsigned t)
{
	return t == PTX_T_U32 || t == PTX_T_S32;
}

bool lower_video(struct lower_ctx *c, const struct ir_insn *in)
{
	if (in->op == OP_DP2A) {
		if (in->ntypes != 2 || !is_32(in->types[0]) ||
		    !is_32(in->types[1]) || !in->mode)
			return lower_unsupported(c, "types");
		if (!emit_alu(c, in, dp2a_x, PTX_T_U32, 3))
			return false;
		struct xinsn *x = last_emitted(c);
		x->mode = (uint8_t)((in->types[0] == PTX_T_S32 ? VF_ASIGNED : 0) |
				    (in->types[1] == PTX_T_S32 ? VF_BSIGNED : 0));
		x->mode16 = in->mode;
		return true;
	}
	int op = vop_of(in->op);
	bool set = op == V_SET, add = has_word(c, "add"),
	     sat = in->flags >> FL_SAT & 1;
	unsigned cmp = set ? cmp_word(c) : 0;
	unsigned nt = set ? 2 : 3, known = nt + add + sat + (set ? 1 : 0);
	if (op < 0 || in->ntypes != nt || in->nmods != known ||
	    (set && !cmp) || (add && sat))
		return lower_unsupported(c, NULL);
	for (unsigned i = 0; i < nt; i++)
		if (!is_32(in->types[i]))
			return lower_unsupported(c, "types");
	unsigned at = set ? 0 : 1;
	unsigned fl = (in->types[at] == PTX_T_S32 ? VF_ASIGNED : 0) |
		      (in->types[at + 1] == PTX_T_S32 ? VF_BSIGNED : 0) |
		      (!set && in->types[0] == PTX_T_S32 ? VF_DSIGNED : 0) |
		      (sat ? VF_SAT : 0) | (add ? VF_ADD : 0);
	if (!emit_alu(c, in, four_lanes(in->op) ? simd4_x : simd2_x, PTX_T_U32,
		      3))
		return false;
	struct xinsn *x = last_emitted(c);
	x->mode = (uint8_t)fl;
	x->mode16 = (uint16_t)(op | cmp << 8);
	return true;
}
