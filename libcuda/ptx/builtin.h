/* SPDX-License-Identifier: MIT */
/*
 * Functions PTX programs call without defining: the CUDA device runtime's
 * vprintf and __assertfail, run natively by the interpreter.
 */
#ifndef VCUDA_PTX_BUILTIN_H
#define VCUDA_PTX_BUILTIN_H

#include "exec.h"

/* Lowers a call to the undefined function @fn (a builtin, or an error). */
bool lower_builtin_call(struct lower_ctx *c, const struct ir_insn *in,
			const struct ir_sym *fn, const struct ir_operand *rets,
			const struct ir_operand *args);

#endif
