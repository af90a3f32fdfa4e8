/* SPDX-License-Identifier: MIT */
/*
 * The private export tables (export_table.c) keep per-context state for
 * NVIDIA's runtime; it goes, destructors run, when the context goes.
 */
#ifndef VCUDA_EXPORT_TABLE_H
#define VCUDA_EXPORT_TABLE_H

struct CUctx_st;

void context_storage_release(struct CUctx_st *ctx);

#endif
