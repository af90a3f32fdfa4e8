// SPDX-License-Identifier: MIT
/*
 * Vector accesses of 8 and 16 bytes are single-copy atomic, as on the
 * GPU (whole_access.h): cub's decoupled look-back publishes a tile's
 * (status, value) as one st.relaxed.gpu.v2.u64 pair that CTAs on other
 * worker threads read with ld.relaxed.gpu.v2.u64. Here even CTAs
 * publish (counter, ~counter) pairs over and over while odd CTAs read
 * them and count the pairs whose halves do not match; CTAs run on
 * several worker threads at once. Any torn read fails. Run under the
 * executor VCUDA_EXECUTOR names (run-unit-tests runs both).
 */
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

enum {
	CTAS = 8,		/* even ones write, odd ones read */
	THREADS = 32,		/* one pair per thread */
	ITERS = 20000,		/* of each thread's loop */
	WORKERS = 4,		/* host threads running CTAs */
};

/*
 * Kernel %s: thread t of a CTA works on pair t. A writer stores
 * (c, ~c) with c its CTA and iteration; a reader loads the pair and
 * counts it torn unless its check holds, then writes its count out.
 * The format's fields: name, the pair's bytes, the store, the load and
 * the check (into %p3, true when torn) of %rd8..%rd11.
 */
static const char kernel_format[] =
	".visible .entry %s(.param .u64 pairs, .param .u64 torn,\n"
	"\t.param .u32 iters)\n{\n"
	"\t.reg .pred %%p<6>;\n\t.reg .b32 %%r<12>;\n\t.reg .b64 %%rd<16>;\n"
	"\tld.param.u64 %%rd1, [pairs];\n\tld.param.u64 %%rd2, [torn];\n"
	"\tld.param.u32 %%r1, [iters];\n"
	"\tmov.u32 %%r3, %%ctaid.x;\n\tmov.u32 %%r4, %%tid.x;\n"
	"\tmul.wide.u32 %%rd3, %%r4, %u;\n\tadd.u64 %%rd4, %%rd1, %%rd3;\n"
	"\tmov.u32 %%r5, 0;\n\tmov.u32 %%r6, 0;\n"
	"\tand.b32 %%r2, %%r3, 1;\n\tsetp.ne.u32 %%p1, %%r2, 0;\n"
	"\t@%%p1 bra READ;\n"
	"WRITE:\n\tshl.b32 %%r7, %%r3, 24;\n\tor.b32 %%r7, %%r7, %%r5;\n"
	"\tcvt.u64.u32 %%rd5, %%r7;\n\tshl.b64 %%rd6, %%rd5, 32;\n"
	"\tor.b64 %%rd5, %%rd5, %%rd6;\n\tnot.b64 %%rd7, %%rd5;\n"
	"\tcvt.u32.u64 %%r8, %%rd5;\n\tnot.b32 %%r9, %%r8;\n"
	"\t%s\n"
	"\tadd.u32 %%r5, %%r5, 1;\n\tsetp.lt.u32 %%p2, %%r5, %%r1;\n"
	"\t@%%p2 bra WRITE;\n\tret;\n"
	"READ:\n\t%s\n\t%s\n"
	"\tselp.u32 %%r10, 1, 0, %%p3;\n\tadd.u32 %%r6, %%r6, %%r10;\n"
	"\tadd.u32 %%r5, %%r5, 1;\n\tsetp.lt.u32 %%p2, %%r5, %%r1;\n"
	"\t@%%p2 bra READ;\n"
	"\tmad.lo.u32 %%r11, %%r3, %u, %%r4;\n"
	"\tmul.wide.u32 %%rd12, %%r11, 4;\n\tadd.u64 %%rd13, %%rd2, %%rd12;\n"
	"\tst.global.u32 [%%rd13], %%r6;\n\tret;\n}\n";

struct tear_case {
	const char *kernel;
	unsigned bytes;		/* of a pair */
	unsigned word;		/* bytes of an element */
	const char *store, *load, *check;
};

static const struct tear_case cases[] = {
	{ "relaxed_v2_u64", 16, 8,
	  "st.relaxed.gpu.global.v2.u64 [%rd4], {%rd5, %rd7};",
	  "ld.relaxed.gpu.global.v2.u64 {%rd8, %rd9}, [%rd4];",
	  "not.b64 %rd10, %rd9;\n\tsetp.ne.u64 %p3, %rd8, %rd10;" },
	{ "volatile_v4_u32", 16, 4,
	  "st.volatile.global.v4.u32 [%rd4], {%r8, %r9, %r8, %r9};",
	  "ld.volatile.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd4];",
	  "xor.b32 %r10, %r10, %r8;\n\txor.b32 %r11, %r11, %r9;\n"
	  "\tor.b32 %r10, %r10, %r11;\n\tnot.b32 %r11, %r9;\n"
	  "\txor.b32 %r11, %r11, %r8;\n\tor.b32 %r10, %r10, %r11;\n"
	  "\tsetp.ne.u32 %p3, %r10, 0;" },
	{ "relaxed_v2_u32", 8, 4,
	  "st.relaxed.gpu.global.v2.u32 [%rd4], {%r8, %r9};",
	  "ld.relaxed.gpu.global.v2.u32 {%r8, %r9}, [%rd4];",
	  "not.b32 %r10, %r9;\n\tsetp.ne.u32 %p3, %r8, %r10;" },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static struct ptx_program *build(void)
{
	static char text[16384];
	char log[512];
	int len = snprintf(text, sizeof(text), ".version 7.0\n.target sm_70\n"
			   ".address_size 64\n");
	for (size_t i = 0; i < NCASES; i++)
		len += snprintf(text + len, sizeof(text) - (size_t)len,
				kernel_format, cases[i].kernel,
				cases[i].bytes, cases[i].store, cases[i].load,
				cases[i].check, THREADS);
	const char *texts[] = { text }, *names[] = { "vector_tear" };
	struct ptx_program *p = NULL;
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK) {
		printf("# build failed: %s\n", log);
		return NULL;
	}
	return p;
}

/* The torn reads of one case's launch, or -1 when it did not run. */
static long torn_reads(struct ptx_program *p, const struct tear_case *c)
{
	uint8_t *pairs = test_alloc(THREADS * c->bytes);
	uint32_t *torn = test_alloc(CTAS * THREADS * 4);
	uint32_t iters = ITERS;
	/* every pair starts whole: words of 0 and ~0 in turn */
	for (unsigned o = 0; o < THREADS * c->bytes; o += c->word)
		memset(pairs + o, o / c->word % 2 ? 0xff : 0, c->word);
	memset(torn, 0xff, CTAS * THREADS * 4);
	struct launch_cfg cfg = { .grid = { CTAS }, .block = { THREADS },
				  .threads = WORKERS };
	const void *args[] = { &pairs, &torn, &iters };
	if (!run_ok(p, c->kernel, &cfg, args))
		return -1;
	long sum = 0;
	for (unsigned b = 1; b < CTAS; b += 2)
		for (unsigned t = 0; t < THREADS; t++) {
			if (torn[b * THREADS + t] == UINT32_MAX)
				return -1;	/* the reader never wrote */
			sum += torn[b * THREADS + t];
		}
	return sum;
}

int main(void)
{
	tap_plan(NCASES);
	struct ptx_program *p = build();
	for (size_t i = 0; i < NCASES; i++) {
		long torn = p ? torn_reads(p, &cases[i]) : -1;
		if (torn > 0)
			printf("# %s: %ld torn reads of %u\n", cases[i].kernel,
			       torn, CTAS / 2 * THREADS * ITERS);
		tap_ok(torn == 0, "%s: no torn read among %d worker threads",
		       cases[i].kernel, WORKERS);
	}
	ptx_program_destroy(p);
	test_free_all();
	return tap_done();
}
