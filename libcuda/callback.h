/* SPDX-License-Identifier: MIT */
/*
 * Host functions in streams (cuLaunchHostFunc, cuStreamAddCallback).
 */
#ifndef VCUDA_CALLBACK_H
#define VCUDA_CALLBACK_H

struct CUctx_st;

/* Waits until every host function of @ctx has run and been retired. */
void callbacks_wait_all(struct CUctx_st *ctx);

#endif
