/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the unit tests: the corpus (build/tests/ptx), building
 * programs, tracked host memory, launches, and result checks whose
 * expected values may come from data files (tests/ptx/expected/) measured
 * on a real GPU instead of from the C references.
 */
#ifndef TESTS_UNIT_HARNESS_H
#define TESTS_UNIT_HARNESS_H

#include "ptx.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whole file, NUL-terminated (malloc'ed), or NULL. */
uint8_t *read_file(const char *path, size_t *len);
/* A corpus file: CORPUS_DIR (or $PTX_CORPUS) / @name. */
uint8_t *corpus_file(const char *name, size_t *len);
/* Names in the corpus ending in @suffix, sorted; free with free_names. */
char **corpus_list(const char *suffix, size_t *n);
void free_names(char **names, size_t n);

/* An ELF file's section by name (points into @img). */
const uint8_t *elf_section(const uint8_t *img, size_t len, const char *name,
			   size_t *size);

/* Host memory that launches with ranges may access; freed by
 * test_free_all. Zeroed, 256-byte aligned. */
void *test_alloc(size_t size);
void test_free_all(void);

/* Builds PTX texts into a program and places its variables. */
enum ptx_status build_texts(const char *const *texts, const char *const *names,
			    size_t n, struct ptx_program **out, char *log,
			    size_t log_len);
/* The same for corpus files. */
enum ptx_status build_corpus(const char *const *files, size_t n,
			     struct ptx_program **out, char *log,
			     size_t log_len);

struct launch_cfg {
	uint32_t grid[3], block[3];
	uint32_t shared;	/* dynamic shared bytes */
	unsigned threads;	/* worker threads; 0 or 1: this one */
	bool unchecked;		/* no ranges (default: test_alloc ranges) */
	uint32_t flags;		/* PTX_LAUNCH_* */
	/*
	 * Cooperative launches: each worker thread gets one range of
	 * ceil(CTAs / threads) CTAs, all resident at once; the harness
	 * provides the grid workspace (%envreg1:%envreg2).
	 */
	struct ptx_heap *heap;	/* from test_heap(); NULL: none */
	struct ptx_printf_fifo *printf_fifo;	/* from test_printf_fifo() */
	const atomic_bool *kill;	/* ptx_launch.kill; NULL: none */
};

/* A device heap of @size bytes over test memory (freed at exit). */
struct ptx_heap *test_heap(size_t size);
/* A printf FIFO of @size bytes (freed by the caller). */
struct ptx_printf_fifo *test_printf_fifo(size_t size);

/* Texture and surface objects over test memory, recorded for replay. */
uint64_t test_texture(const struct ptx_texture_desc *d);
uint64_t test_surface(const struct ptx_texture_desc *d);

/*
 * Runs @kernel with arguments @args (pointers to each value, as
 * cuLaunchKernel takes them). False with @fault filled when it faulted.
 */
bool run(struct ptx_program *p, const char *kernel,
	 const struct launch_cfg *cfg, const void *const *args,
	 struct ptx_fault *fault);
/* run() that reports a fault as a test diagnostic. */
bool run_ok(struct ptx_program *p, const char *kernel,
	    const struct launch_cfg *cfg, const void *const *args);

/*
 * Compares @got with the expected bytes: tests/ptx/expected/@name.bin
 * when it exists (ground truth from a GPU), else @ref. With
 * $PTX_WRITE_RESULTS set, also writes @got there as @name.bin. Prints a
 * diagnostic for the first differences; @elem (4 or 8) is how to show
 * them.
 */
bool expect_bytes(const char *name, const void *got, const void *ref,
		  size_t bytes, unsigned elem);

/*
 * expect_bytes() for results that are not all defined: bytes where
 * @care is zero are not compared (with the file, or @ref).
 */
bool expect_bytes_mask(const char *name, const void *got, const void *ref,
		       const uint8_t *care, size_t bytes, unsigned elem);

/*
 * Compares @got with the expected text: tests/ptx/expected/@name.txt
 * when it exists, else @ref; records it as what the last launch printed.
 */
bool expect_text(const char *name, const char *got, const char *ref);

/* Records @got as ground truth to collect (no comparison here). */
void expect_record(const char *name, const void *got, size_t bytes);

/* Whether tests/ptx/expected/ has @name.@ext. */
bool expected_exists(const char *name, const char *ext);
/* The expected data of @name from tests/ptx/expected/, or NULL. */
uint8_t *expected_file(const char *name, const char *ext, size_t *len);

/*
 * The three ways the JIT tests run a kernel, numbered 0 to 2: the
 * interpreter, the JIT's scalar form, its vector form. The environment
 * settings of each, read when a program is built and at a kernel's
 * first launch.
 */
extern const char *const exec_mode_name[3];
void set_exec_mode(int mode);
/* Back to the default settings. */
void unset_exec_mode(void);

#endif
