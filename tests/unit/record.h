/* SPDX-License-Identifier: MIT */
/*
 * Recording launches for replay on a real GPU (ground truth).
 *
 * With $PTX_RECORD=DIR set, every launch a test expects to succeed is
 * written to DIR/<test>.manifest with everything needed to run it again
 * through NVIDIA's driver: the PTX sources of its program, the launch
 * configuration, the packed parameters (with the pointers among them
 * marked as pointing into which test buffer), the contents of every test
 * buffer before the launch, the texture and surface objects it uses.
 * Each expect_bytes() of a test buffer becomes an "expect" line: the
 * GPU-side replayer (tests/ptx/gpu/replay.c) writes those bytes, as the
 * GPU left them, to NAME.bin — the files tests/ptx/expected/ holds.
 * Buffer contents go to DIR/blobs/, named by their hash.
 */
#ifndef TESTS_UNIT_RECORD_H
#define TESTS_UNIT_RECORD_H

#include "ptx.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A test buffer, as the harness tracks them. */
struct rec_buffer {
	const uint8_t *p;
	size_t size;
	bool module_var;	/* storage of a module variable: not sent */
};

bool record_on(void);
/* A program built from @n texts. */
void record_program(const struct ptx_program *prog, const char *const *texts,
		    size_t n);

/*
 * A launch about to run: captured now, kept once record_commit() says it
 * succeeded (a faulting launch is never replayed).
 */
void record_launch(const struct ptx_program *prog, const char *kernel,
		   const struct ptx_launch *l,
		   const struct ptx_kernel_info *info,
		   const struct rec_buffer *bufs, size_t nbufs,
		   uint64_t heap_size, uint64_t printf_size);
void record_commit(bool ok);

/* A texture or surface object over test buffers (levels' data). */
void record_texobj(uint64_t handle, bool surface,
		   const struct ptx_texture_desc *d,
		   const struct rec_buffer *bufs, size_t nbufs);

/* @got is compared: its bytes after the last launch are ground truth. */
void record_expect(const char *name, const void *got, size_t bytes,
		   const struct rec_buffer *bufs, size_t nbufs);
/* The text the last launch printed is ground truth. */
void record_expect_text(const char *name);

#endif
