/* SPDX-License-Identifier: MIT */
/*
 * The lowering interface: how the interpreter turns a kernel's IR, laid
 * out by layout.c (program.h), into arrays of struct xinsn (interp.h).
 * lower.c walks functions and resolves operands; each instruction family
 * (exec_*.c) chooses its handlers through the lower_* functions below.
 */
#ifndef VCUDA_PTX_LOWER_H
#define VCUDA_PTX_LOWER_H

#include "interp.h"

struct lower_ctx {
	struct ptx_program *prog;
	struct ptx_kernel *kernel;
	struct xfunc *xf;
	const struct ir_func *f;
	const struct ir_module *m;
	const struct ir_insn *in;	/* being lowered */
	struct vec code;		/* struct xinsn */
	struct vec branch_fix;		/* struct branch_fix */
	struct msgbuf *log;
	int status;
	uint32_t scratch;		/* frame offset of a sink register */
	/* shared loads through one unchanged register (lower_rows.c) */
	struct row_chain {
		uint32_t reg, tag, last_use;
		uint8_t size;
	} rows[ROW_SLOTS];
	uint32_t rows_clock;
	/* the kernel's register shapes across a warp, or NULL */
	struct ir_shapes *shapes;
};

/* One handler family: returns false after lower_fail/unsupported. */
typedef bool (*lower_fn)(struct lower_ctx *c, const struct ir_insn *in);

struct xinsn *emit(struct lower_ctx *c, xhandler fn);
bool lower_unsupported(struct lower_ctx *c, const char *why);
bool lower_nomem(struct lower_ctx *c);

/* Operand references. @type: the instruction type the value is read as. */
bool ref_src(struct lower_ctx *c, const struct ir_operand *o, unsigned type,
	     xref *out);
bool ref_dst(struct lower_ctx *c, const struct ir_operand *o, xref *out);
xref ref_const(struct lower_ctx *c, uint64_t value);
/* An address operand: base reference + offset + space class. */
bool ref_addr(struct lower_ctx *c, const struct ir_operand *o,
	      unsigned ir_space, xref *base, int64_t *offset,
	      enum xspace *space, bool *frame_rel);
/* The executor's class of a PTX state space (SPACE_*), as addresses of
 * it are resolved: a device function's parameters live in its frame. */
enum xspace space_class(const struct lower_ctx *c, unsigned space);
const struct xfunc *lower_function(struct lower_ctx *c, struct ir_sym *fn);
unsigned reg_type(const struct lower_ctx *c, const struct ir_operand *o);

/* Per-family lowerers (exec_*.c). */
/* Families ptx.mk builds twice on x86-64, the second time with AVX2
 * (PTX_AVX2), under these names; lower.c picks by the host's CPU. */
#ifdef PTX_AVX2
#define lower_int lower_int_avx2
#define lower_mov lower_mov_avx2
#define lower_cmp lower_cmp_avx2
#define lower_mem lower_mem_avx2
#define lower_float lower_float_avx2
#define wrap_rounding wrap_rounding_avx2
#endif
bool lower_float_avx2(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mem_avx2(struct lower_ctx *c, const struct ir_insn *in);
bool lower_int_avx2(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mov_avx2(struct lower_ctx *c, const struct ir_insn *in);
bool lower_cmp_avx2(struct lower_ctx *c, const struct ir_insn *in);
bool lower_int(struct lower_ctx *c, const struct ir_insn *in);
bool lower_float(struct lower_ctx *c, const struct ir_insn *in);
bool lower_cvt(struct lower_ctx *c, const struct ir_insn *in);
/* cvt to or from e4m3x2/e5m2x2 (exec_cvt_f8.c) */
bool lower_cvt_f8(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mov(struct lower_ctx *c, const struct ir_insn *in);
bool lower_cmp(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mem(struct lower_ctx *c, const struct ir_insn *in);
bool lower_atom(struct lower_ctx *c, const struct ir_insn *in);
bool lower_ctrl(struct lower_ctx *c, const struct ir_insn *in);
bool lower_warp(struct lower_ctx *c, const struct ir_insn *in);
bool lower_mbarrier(struct lower_ctx *c, const struct ir_insn *in);
/* .cc/addc/subc/madc and add/sub/mad .sat (exec_carry.c) */
bool lower_carry(struct lower_ctx *c, const struct ir_insn *in);
bool lower_saturating(struct lower_ctx *c, const struct ir_insn *in);
/* Texture and surface instructions (exec_tex.c, exec_surf.c). */
bool lower_tex(struct lower_ctx *c, const struct ir_insn *in);
bool lower_surf(struct lower_ctx *c, const struct ir_insn *in);
/* wmma, mma, ldmatrix (exec_mma.c) */
bool lower_matrix(struct lower_ctx *c, const struct ir_insn *in);
/* SIMD video instructions and dp2a (exec_video.c) */
bool lower_video(struct lower_ctx *c, const struct ir_insn *in);

/* Control handlers that lower.c places itself. */
const struct xinsn *x_reconv(struct warp *w, const struct xinsn *ip);
const struct xinsn *x_ret(struct warp *w, const struct xinsn *ip);


/* Branch fix-ups and reconvergence (lower.c). */
bool lower_branch_fix(struct lower_ctx *c, uint32_t block, bool reconv);
/* The last emitted xinsn reconverges at xinsn @xi of this function. */
bool lower_reconv_insn(struct lower_ctx *c, uint32_t from, uint32_t xi);

/* Register frames of the interpreter (lower_frame.c). */
bool lower_frame_registers(struct lower_ctx *c);
bool lower_register_stack(struct lower_ctx *c);
/* What a warp's start zeroes of the entry's frame (interp_kernel.zero). */
bool lower_start_zeroing(struct lower_ctx *c);
/* Chains of scalar shared loads through one address register, within a
 * block (lower_rows.c): forget every chain; forget those @in ends; make
 * @x, a load through @reg of @size bytes, a chain's first or a later. */
void lower_rows_reset(struct lower_ctx *c);
void lower_rows_after(struct lower_ctx *c, const struct ir_insn *in);
void lower_rows_load(struct lower_ctx *c, const struct ir_insn *in,
		     struct xinsn *x, uint32_t reg, unsigned size);
/* Whether @in reads and writes only its own lane's registers (lower.c). */
bool insn_lane_local(const struct ir_insn *in);

bool sreg_is_dynamic(unsigned sreg);
/* A call to a PTX function (aux is its struct xcall). */
bool xinsn_is_call(const struct xinsn *x);
void const_pool_free(struct ptx_program *prog);
/* The interpreter's code of @k (NULL before lowering). */
static inline struct interp_kernel *ik(const struct ptx_kernel *k)
{
	return k->interp;
}

#endif
