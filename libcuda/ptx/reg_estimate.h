/* SPDX-License-Identifier: MIT */
/*
 * How many registers per thread ptxas would give a kernel
 * (CU_FUNC_ATTRIBUTE_NUM_REGS, and so the occupancy calculator): the
 * most 32-bit registers live at once along the kernel and the functions
 * it calls, plus a few ptxas keeps for itself. Counting the registers a
 * PTX file declares instead overestimates compiler output badly: NVVM
 * declares one per value, hundreds where ptxas allocates a few dozen.
 */
#ifndef VCUDA_PTX_REG_ESTIMATE_H
#define VCUDA_PTX_REG_ESTIMATE_H

#include "program.h"

#include <stdint.h>

/*
 * Registers ptxas keeps besides the values a kernel holds (measured
 * against ptxas -arch=sm_90 -v, see docs/architecture.md).
 */
#define REG_ESTIMATE_OVERHEAD 4u

/* 32-bit registers one register of @r's type takes: .pred none, a .b64
 * two, a .v4 .b32 four. */
uint32_t reg_units(const struct ir_reg *r);

/*
 * The most 32-bit registers live at once in kernel @k (its layout's
 * reachable functions set), a call counting what is live across it plus
 * the callee's own peak; REG_ESTIMATE_OVERHEAD not included. A function
 * too large to analyse counts every data register it declares.
 */
uint32_t reg_estimate_live(const struct ptx_kernel *k);

#endif
