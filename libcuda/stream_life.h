/* SPDX-License-Identifier: MIT */
/*
 * A stream's end (stream_life.c).
 */
#ifndef VCUDA_STREAM_LIFE_H
#define VCUDA_STREAM_LIFE_H

struct CUstream_st;

/*
 * Waits for @stream's work, tells the capture it joined and the pools that
 * remember it, and frees it.
 */
void stream_destroy(struct CUstream_st *stream);
/*
 * Tells the capture @stream joined and the pools and graph allocations
 * that remember it that it goes (it is idle): at its destruction, and
 * again at its last reference, for what a call holding it across the
 * destruction made remember it since.
 */
void stream_forget(struct CUstream_st *stream);

#endif
