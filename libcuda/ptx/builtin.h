/* SPDX-License-Identifier: MIT */
/*
 * Functions PTX programs call without defining: the CUDA device runtime's
 * vprintf, __assertfail, malloc, free and cudaGraphSetConditional, and
 * vcuda's __vcuda_cg_not_cooperative (devrt_cg.c), run natively by the
 * interpreter (the JIT leaves kernels with calls to it).
 */
#ifndef VCUDA_PTX_BUILTIN_H
#define VCUDA_PTX_BUILTIN_H

#include "lower.h"

/* The device heap (heap.c): 0 when exhausted; false for a bad free. */
uint64_t heap_alloc(struct ptx_heap *h, uint64_t size);
bool heap_free(struct ptx_heap *h, uint64_t addr);

/* The printf FIFO (printf_fifo.c): one record of @len bytes of text that
 * costs @cost bytes of the device buffer. */
void printf_fifo_append(struct ptx_printf_fifo *f, const char *text,
			size_t len, size_t cost);

/* Lowers a call to the undefined function @fn (a builtin, or an error). */
bool lower_builtin_call(struct lower_ctx *c, const struct ir_insn *in,
			const struct ir_sym *fn, const struct ir_operand *rets,
			const struct ir_operand *args);

/* Where argument or return value @o of a builtin call lives. */
bool lower_builtin_arg(struct lower_ctx *c, const struct ir_operand *o,
		       struct xcall_arg *a);

/*
 * Lowers a call of the device runtime's launch, stream, event and error
 * functions (exec_cdp.c); *@handled false when @fn is none of them.
 */
bool lower_cdp_call(struct lower_ctx *c, const struct ir_sym *fn,
		    const struct ir_operand *rets, const struct ir_operand *args,
		    bool *handled);

#endif
