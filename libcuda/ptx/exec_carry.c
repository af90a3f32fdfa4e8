// SPDX-License-Identifier: MIT
/*
 * Extended-precision integer arithmetic: add.cc, addc, sub.cc, subc,
 * mad.cc, madc (lo and hi, 32 and 64 bits) through the condition-code
 * carry flag, and the saturating forms add.sat.s32, sub.sat.s32 and
 * mad.hi.sat.s32.
 *
 * CC.CF is per-thread state: one bit per lane in warp->cc. As the PTX ISA
 * defines it, an addition leaves its carry-out there and a subtraction
 * its borrow-out; addc adds CF, subc subtracts it.
 */
#include "lanes.h"

enum carry_op { CY_ADD, CY_SUB, CY_MADLO, CY_MADHI };

/* Flags in xinsn.mode: read CF, write CF. */
enum { CY_IN = 1, CY_OUT = 2 };

/* One lane: d = f(a, b, c) + cin, with the carry (or borrow) out. */
static inline uint64_t carry_lane(unsigned op, unsigned bits, uint64_t a,
				  uint64_t b, uint64_t c, bool sgn,
				  uint32_t cin, uint32_t *cout)
{
	unsigned __int128 mask = bits == 64 ? ~0ull : 0xffffffffull;
	unsigned __int128 x = a & mask, y = b & mask;
	unsigned __int128 r;
	switch (op) {
	case CY_SUB:
		r = x - y - cin;
		*cout = (uint32_t)(r >> 127);	/* borrow */
		return (uint64_t)(r & mask);
	case CY_MADLO:
	case CY_MADHI: {
		__int128 sp = bits == 64 ? (__int128)(int64_t)a * (int64_t)b :
				   (__int128)((int64_t)(int32_t)a *
					      (int32_t)b);
		unsigned __int128 p = sgn ? (unsigned __int128)sp : x * y;
		unsigned __int128 part = op == CY_MADHI ? p >> bits : p;
		x = part & mask;
		y = c & mask;
		break;
	}
	default:
		break;
	}
	r = x + y + cin;
	*cout = (uint32_t)(r >> bits) & 1;
	return (uint64_t)(r & mask);
}

static const struct xinsn *x_carry(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	uint64_t *d = xr(w, ip->d);
	const uint64_t *pa = xr(w, ip->a), *pb = xr(w, ip->b);
	const uint64_t *pc = ip->c ? xr(w, ip->c) : pb;
	unsigned bits = ip->size * 8;
	bool sgn = ptx_type_is_signed(ip->type);
	uint32_t cf = w->cc, out = 0;
	FOR_LANES(m, l) {
		uint32_t cin = ip->mode & CY_IN ? cf >> l & 1 : 0, co;
		d[l] = carry_lane(ip->mode16, bits, pa[l], pb[l], pc[l], sgn,
				  cin, &co);
		out |= co << l;
	}
	if (ip->mode & CY_OUT)
		w->cc = (cf & ~m) | out;
	return ip + 1;
}

/* ---- saturation: clamp the exact result to the s32 range ---- */

static inline uint64_t sat_s32(int64_t v)
{
	return (uint32_t)(v > INT32_MAX ? INT32_MAX :
			  v < INT32_MIN ? INT32_MIN : v);
}

DEF_BIN(add_sat_s32, int32_t, uint64_t, sat_s32((int64_t)a + b))
DEF_BIN(sub_sat_s32, int32_t, uint64_t, sat_s32((int64_t)a - b))
DEF_TER(madhi_sat_s32, int32_t, uint64_t,
	sat_s32(((int64_t)a * b >> 32) + c))

/* ---- lowering ---- */

bool lower_carry(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	unsigned size = ptx_type_size(t);
	bool cc = in->flags >> FL_CC & 1;
	unsigned op, nsrc = 2, mode = cc ? CY_OUT : 0;
	switch (in->op) {
	case OP_ADDC:
		mode |= CY_IN;
		__attribute__((fallthrough));
	case OP_ADD:
		op = CY_ADD;
		break;
	case OP_SUBC:
		mode |= CY_IN;
		__attribute__((fallthrough));
	case OP_SUB:
		op = CY_SUB;
		break;
	case OP_MADC:
		mode |= CY_IN;
		__attribute__((fallthrough));
	case OP_MAD:
		op = in->mode == MOD_HI ? CY_MADHI : CY_MADLO;
		nsrc = 3;
		break;
	default:
		return lower_unsupported(c, NULL);
	}
	if ((size != 4 && size != 8) || ptx_type_kind(t) == TK_FLOAT ||
	    (in->flags >> FL_SAT & 1) ||
	    (nsrc == 3 && in->mode != MOD_LO && in->mode != MOD_HI))
		return lower_unsupported(c, "type or modifiers");
	if (!emit_alu(c, in, x_carry, t, nsrc))
		return false;
	struct xinsn *x = last_emitted(c);
	x->size = (uint8_t)size;
	x->mode = (uint8_t)mode;
	x->mode16 = (uint16_t)op;
	return true;
}

bool lower_saturating(struct lower_ctx *c, const struct ir_insn *in)
{
	unsigned t = in->ntypes ? in->types[0] : PTX_T_NONE;
	if (t != PTX_T_S32 || (in->flags >> FL_CC & 1))
		return lower_unsupported(c, ".sat needs .s32");
	switch (in->op) {
	case OP_ADD:
		return emit_alu(c, in, add_sat_s32, t, 2);
	case OP_SUB:
		return emit_alu(c, in, sub_sat_s32, t, 2);
	case OP_MAD:
		if (in->mode != MOD_HI)
			return lower_unsupported(c, "mad.sat needs .hi");
		return emit_alu(c, in, madhi_sat_s32, t, 3);
	default:
		return lower_unsupported(c, NULL);
	}
}
