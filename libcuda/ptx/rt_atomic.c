// SPDX-License-Identifier: MIT
/*
 * Atomic read-modify-write on host memory for every back end: real
 * atomic operations (several workers run CTAs of one launch at once).
 * Operations with no native instruction (float add, min/max, inc/dec)
 * are compare-and-swap loops.
 */
#include "bits.h"
#include "f16.h"
#include "rt.h"

/* atom.add.f32 flushes subnormal inputs and results to zero (the ISA
 * says so; an H100 does) and gives the canonical NaN. */
static uint64_t add_f32_ftz(uint64_t a, uint64_t b)
{
	uint32_t x = (uint32_t)a, y = (uint32_t)b;
	if (!(x & 0x7f800000u))
		x &= 0x80000000u;
	if (!(y & 0x7f800000u))
		y &= 0x80000000u;
	uint32_t r = (uint32_t)bits_f32(f32_of(x) + f32_of(y));
	if ((r & 0x7fffffffu) > 0x7f800000u)
		return 0x7fffffffu;
	return r & 0x7f800000u ? r : r & 0x80000000u;
}

static uint64_t apply(unsigned op, unsigned kind, unsigned size, uint64_t old,
		      uint64_t b)
{
	uint64_t mask = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
	old &= mask;
	b &= mask;
	switch (op) {
	case MOD_ADD:
		if (kind == RT_ATOM_FLOAT)
			return size == 4 ? add_f32_ftz(old, b) :
					   bits_f64(f64_of(old) + f64_of(b));
		if (kind == RT_ATOM_F16 || kind == RT_ATOM_F16X2 || kind == RT_ATOM_BF16X2) {
			uint64_t r = 0;
			bool bf = kind == RT_ATOM_BF16X2;
			for (unsigned h = 0; h < size / 2; h++) {
				uint16_t x = (uint16_t)(old >> 16 * h);
				uint16_t y = (uint16_t)(b >> 16 * h);
				double s = bf ? (double)bf16_to_f32(x) +
							bf16_to_f32(y) :
						(double)f16_to_f32(x) +
							f16_to_f32(y);
				uint64_t v = bf ? f64_to_bf16(s, RND_NEAREST) :
						  f64_to_f16(s, RND_NEAREST);
				r |= v << 16 * h;
			}
			return r;
		}
		return (old + b) & mask;
	case MOD_MIN:
	case MOD_MAX: {
		bool less;
		if (kind == RT_ATOM_SINT)
			less = size == 8 ? (int64_t)old < (int64_t)b :
					   (int32_t)old < (int32_t)b;
		else if (kind == RT_ATOM_FLOAT)
			less = size == 4 ? f32_of(old) < f32_of(b) :
					   f64_of(old) < f64_of(b);
		else
			less = old < b;
		return (op == MOD_MIN) == less ? old : b;
	}
	case MOD_INC:
		return old >= b ? 0 : old + 1;
	case MOD_DEC:
		return old == 0 || old > b ? b : old - 1;
	case MOD_AND:
		return old & b;
	case MOD_OR:
		return old | b;
	case MOD_XOR:
		return old ^ b;
	default:	/* exch */
		return b;
	}
}

/* A compare-and-swap loop around apply(): works for every operation. */
static uint64_t atomic_rmw(uint8_t *p, unsigned size, unsigned op,
			   unsigned kind, uint64_t b)
{
	if (size == 2) {
		uint16_t old = __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(
			(uint16_t *)p, &old,
			(uint16_t)apply(op, kind, 2, old, b), false,
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			;
		return old;
	}
	if (size == 4) {
		uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(
			(uint32_t *)p, &old,
			(uint32_t)apply(op, kind, 4, old, b), false,
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			;
		return old;
	}
	uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n((uint64_t *)p, &old,
					    apply(op, kind, 8, old, b), false,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	return old;
}

/* Native fetch-and-op where there is one. */
uint64_t rt_atomic(uint8_t *p, unsigned size, unsigned op, unsigned kind,
		   uint64_t b, uint64_t c)
{
	if (op == MOD_CAS) {
		if (size == 2) {
			uint16_t e = (uint16_t)b;
			__atomic_compare_exchange_n((uint16_t *)p, &e,
						    (uint16_t)c, false,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
			return e;
		}
		if (size == 4) {
			uint32_t e = (uint32_t)b;
			__atomic_compare_exchange_n((uint32_t *)p, &e,
						    (uint32_t)c, false,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
			return e;
		}
		uint64_t e = b;
		__atomic_compare_exchange_n((uint64_t *)p, &e, c, false,
					    __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		return e;
	}
	bool native = kind == RT_ATOM_UINT || kind == RT_ATOM_SINT;
	if (native && size == 4) {
		uint32_t *q = (uint32_t *)p, v = (uint32_t)b;
		switch (op) {
		case MOD_ADD: return __atomic_fetch_add(q, v, __ATOMIC_SEQ_CST);
		case MOD_AND: return __atomic_fetch_and(q, v, __ATOMIC_SEQ_CST);
		case MOD_OR: return __atomic_fetch_or(q, v, __ATOMIC_SEQ_CST);
		case MOD_XOR: return __atomic_fetch_xor(q, v, __ATOMIC_SEQ_CST);
		case MOD_EXCH: return __atomic_exchange_n(q, v, __ATOMIC_SEQ_CST);
		}
	} else if (native && size == 8) {
		uint64_t *q = (uint64_t *)p;
		switch (op) {
		case MOD_ADD: return __atomic_fetch_add(q, b, __ATOMIC_SEQ_CST);
		case MOD_AND: return __atomic_fetch_and(q, b, __ATOMIC_SEQ_CST);
		case MOD_OR: return __atomic_fetch_or(q, b, __ATOMIC_SEQ_CST);
		case MOD_XOR: return __atomic_fetch_xor(q, b, __ATOMIC_SEQ_CST);
		case MOD_EXCH: return __atomic_exchange_n(q, b, __ATOMIC_SEQ_CST);
		}
	}
	return atomic_rmw(p, size, op, kind, b);
}

bool rt_atom_kind(unsigned t, unsigned *kind)
{
	switch (ptx_type_kind(t)) {
	case TK_BIT:
	case TK_UINT:
		*kind = RT_ATOM_UINT;
		return true;
	case TK_SINT:
		*kind = RT_ATOM_SINT;
		return true;
	default:
		break;
	}
	switch (t) {
	case PTX_T_F32:
	case PTX_T_F64:
		*kind = RT_ATOM_FLOAT;
		return true;
	case PTX_T_F16:
		*kind = RT_ATOM_F16;
		return true;
	case PTX_T_F16X2:
		*kind = RT_ATOM_F16X2;
		return true;
	case PTX_T_BF16X2:
		*kind = RT_ATOM_BF16X2;
		return true;
	default:
		return false;
	}
}
