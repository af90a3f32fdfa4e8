/* SPDX-License-Identifier: MIT */
/*
 * Memory layout for lowering: kernel parameters, the kernel's shared
 * memory (the variables reachable from it), register frames, local
 * frames, and per-thread stack sizes.
 */
#ifndef VCUDA_PTX_LAYOUT_H
#define VCUDA_PTX_LAYOUT_H

#include "exec.h"

/* Function "addresses" (function pointers): a tag plus the function id. */
#define FUNC_ADDR_BASE 0xF0F0000000000000ull
#define FUNC_ADDR_STRIDE 16u

static inline uint64_t func_address(const struct ir_sym *fn)
{
	return FUNC_ADDR_BASE + (uint64_t)fn->id * FUNC_ADDR_STRIDE;
}

/* Extra per-thread stack for recursive kernels (bytes). */
#define RECURSION_STACK (16u * 1024)

bool is_kernel_param(const struct ir_sym *s);
bool layout_kernel(struct lower_ctx *c);
bool layout_function(struct lower_ctx *c);
bool layout_stacks(struct lower_ctx *c);

bool lower_branch_fix(struct lower_ctx *c, uint32_t block, bool reconv);
/* The last emitted xinsn reconverges at xinsn @xi of this function. */
bool lower_reconv_insn(struct lower_ctx *c, uint32_t from, uint32_t xi);
uint32_t lower_label_block(const struct lower_ctx *c, uint32_t label);
struct ptx_kernel *lower_kernel(struct ptx_program *prog,
				struct ir_sym *entry, struct msgbuf *log,
				int *status);

bool sreg_is_dynamic(unsigned sreg);
/* A call to a PTX function (aux is its struct xcall). */
bool xinsn_is_call(const struct xinsn *x);
void const_pool_free(struct ptx_program *prog);

#endif
