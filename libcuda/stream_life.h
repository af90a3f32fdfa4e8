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

#endif
