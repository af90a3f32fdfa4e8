// SPDX-License-Identifier: MIT
/*
 * cvt with the FP8 formats (exec_cvt_f8.c) against what an NVIDIA H200
 * computed (tests/ptx/expected/fp8_cvt.h200.txt, recorded from the same
 * instructions): every e4m3x2/e5m2x2 pair of bytes widened to f16x2, and
 * f32 pairs (NaN, ±inf, ties, overflow, subnormals) narrowed with
 * .satfinite, directly and through f16x2.
 */
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD ".version 7.8\n.target sm_90\n.address_size 64\n"

static const char kernels[] =
	HEAD
	".visible .entry widen(.param .u64 in, .param .u64 out)\n{\n"
	"\t.reg .b16 %h<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 2;\n"
	"\tadd.u64 %rd3, %rd1, %rd3;\n\tld.global.b16 %h1, [%rd3];\n"
	"\tcvt.rn.f16x2.e4m3x2 %r2, %h1;\n\tcvt.rn.f16x2.e5m2x2 %r3, %h1;\n"
	"\tmul.wide.u32 %rd4, %r1, 8;\n\tadd.u64 %rd4, %rd2, %rd4;\n"
	"\tst.global.v2.b32 [%rd4], {%r2, %r3};\n\tret;\n}\n"
	".visible .entry narrow(.param .u64 in, .param .u64 out)\n{\n"
	"\t.reg .b16 %h<5>;\n\t.reg .b32 %r<3>;\n\t.reg .f32 %f<3>;\n"
	"\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n"
	"\tadd.u64 %rd4, %rd1, %rd3;\n\tld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
	"\tcvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n"
	"\tcvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2;\n"
	"\tcvt.rn.f16x2.f32 %r2, %f1, %f2;\n"
	"\tcvt.rn.satfinite.e4m3x2.f16x2 %h3, %r2;\n"
	"\tcvt.rn.satfinite.e5m2x2.f16x2 %h4, %r2;\n"
	"\tadd.u64 %rd5, %rd2, %rd3;\n"
	"\tst.global.v4.b16 [%rd5], {%h1, %h2, %h3, %h4};\n\tret;\n}\n";

enum { MAX_ROWS = 256 };

struct recording {
	uint16_t w_in[MAX_ROWS];
	uint32_t w_out[MAX_ROWS][2];
	size_t widen;
	uint32_t n_in[MAX_ROWS][2];
	uint16_t n_out[MAX_ROWS][4];
	size_t narrow;
};

/* The "w" and "n" lines of the recording. */
static bool read_recording(struct recording *r)
{
	size_t len;
	char *text = (char *)expected_file("fp8_cvt.h200", "txt", &len);
	char *save = NULL;

	memset(r, 0, sizeof(*r));
	if (!text)
		return false;
	for (char *ln = strtok_r(text, "\n", &save); ln;
	     ln = strtok_r(NULL, "\n", &save)) {
		unsigned a, b, c, d, e, f;

		if (r->widen < MAX_ROWS &&
		    sscanf(ln, "w %x %x %x", &a, &b, &c) == 3) {
			r->w_in[r->widen] = (uint16_t)a;
			r->w_out[r->widen][0] = b;
			r->w_out[r->widen++][1] = c;
		} else if (r->narrow < MAX_ROWS &&
			   sscanf(ln, "n %x %x %x %x %x %x", &a, &b, &c, &d,
				  &e, &f) == 6) {
			uint16_t *o = r->n_out[r->narrow];

			r->n_in[r->narrow][0] = a;
			r->n_in[r->narrow][1] = b;
			o[0] = (uint16_t)c, o[1] = (uint16_t)d;
			o[2] = (uint16_t)e, o[3] = (uint16_t)f;
			r->narrow++;
		}
	}
	free(text);
	return r->widen == 256 && r->narrow > 0;
}

static struct launch_cfg one_cta(unsigned threads)
{
	return (struct launch_cfg){ .grid = { 1, 1, 1 },
				    .block = { threads, 1, 1 } };
}

static bool test_widen(struct ptx_program *p, const struct recording *r)
{
	uint16_t *in = test_alloc(sizeof(r->w_in));
	uint32_t *out = test_alloc(sizeof(r->w_out));
	struct launch_cfg cfg = one_cta((unsigned)r->widen);
	const void *args[] = { &in, &out };
	bool ok;

	memcpy(in, r->w_in, sizeof(r->w_in));
	ok = run_ok(p, "widen", &cfg, args);
	for (size_t i = 0; ok && i < r->widen; i++) {
		ok = out[2 * i] == r->w_out[i][0] &&
		     out[2 * i + 1] == r->w_out[i][1];
		if (!ok)
			tap_diag("%04x: e4m3 %08x e5m2 %08x, H200 %08x %08x",
				 r->w_in[i], out[2 * i], out[2 * i + 1],
				 r->w_out[i][0], r->w_out[i][1]);
	}
	return ok;
}

static bool test_narrow(struct ptx_program *p, const struct recording *r)
{
	uint32_t *in = test_alloc(sizeof(r->n_in));
	uint16_t *out = test_alloc(sizeof(r->n_out));
	struct launch_cfg cfg = one_cta((unsigned)r->narrow);
	const void *args[] = { &in, &out };
	bool ok;

	memcpy(in, r->n_in, sizeof(r->n_in));
	ok = run_ok(p, "narrow", &cfg, args);
	for (size_t i = 0; ok && i < r->narrow; i++) {
		ok = !memcmp(out + 4 * i, r->n_out[i], 8);
		if (!ok)
			tap_diag("%08x %08x: %04x %04x %04x %04x, H200 %04x "
				 "%04x %04x %04x", r->n_in[i][0],
				 r->n_in[i][1], out[4 * i], out[4 * i + 1],
				 out[4 * i + 2], out[4 * i + 3], r->n_out[i][0],
				 r->n_out[i][1], r->n_out[i][2],
				 r->n_out[i][3]);
	}
	return ok;
}

int main(void)
{
	static struct recording r;
	const char *texts[] = { kernels }, *names[] = { "fp8_cvt.ptx" };
	struct ptx_program *p = NULL;
	char log[256] = "";
	bool have = read_recording(&r);
	bool built = build_texts(texts, names, 1, &p, log, sizeof(log)) ==
		     PTX_OK;

	tap_plan(3);
	tap_ok(have, "the H200's recording is there (fp8_cvt.h200.txt)");
	if (!built)
		tap_diag("%s", log);
	tap_ok(built && have && test_widen(p, &r),
	       "cvt.rn.f16x2.{e4m3x2,e5m2x2}: all 256 bytes as the H200");
	tap_ok(built && have && test_narrow(p, &r),
	       "cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2} as the H200");
	ptx_program_destroy(p);
	test_free_all();
	return tap_done();
}
