// SPDX-License-Identifier: MIT
/*
 * Fuzz target: PTX text through the whole front end — lexer, parser,
 * linker and lowering to the interpreter's code (ptx_program_build), as
 * cuModuleLoadData would run it. Any input must end in a program or an
 * error message, never a crash, a hang or a sanitizer report.
 */
#include "fuzz.h"
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

const char *const fuzz_dictionary[] = {
	".version 8.0\n", ".target sm_80\n", ".address_size 64\n",
	".visible .entry k(\n", ".param .u64 p", ")\n{\n", "}\n", ";\n",
	".reg .b32 %r<8>;\n", ".reg .pred %p<4>;\n", ".reg .f64 %fd<4>;\n",
	".shared .align 16 .b8 s[64];\n", ".global .u32 g[4] = {1, 2};\n",
	".func (.reg .b32 r) f(.reg .b32 a)\n", "call (%r1), f, (%r2);\n",
	"ld.param.u64 %rd1, [p];\n", "st.global.u32 [%rd1+4], %r1;\n",
	"add.s32 %r1, %r2, 1;\n", "@%p1 bra $L1;\n", "$L1:\n",
	"setp.lt.u32 %p1, %r1, %r2;\n", "mov.u32 %r1, %tid.x;\n",
	"cvt.rn.f32.s32 %f1, %r1;\n", "fma.rn.f32 %f1, %f2, %f3, %f4;\n",
	"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n", "bar.sync 0;\n",
	"atom.global.add.u32 %r1, [%rd1], 1;\n", "ret;\n", "exit;\n",
	"{", "}", "[", "]", "(", ")", ",", ";", "%r1", "%rd1", "%p1", "0x7fffffff",
	"-1", "0f7F800000", "0d7FF8000000000000", "4294967296", ".b128",
	".v4", ".u64", ".s8", ".f16x2", ".pragma \"nounroll\";\n",
	"// comment\n", "/* c */", ".loc 1 2 3\n", ".file 1 \"a.cu\"\n",
	"brx.idx %r1, $T;\n", "$T: .branchtargets $L1;\n",
	".callprototype (.param .b32 _) _ (.param .b32 _);\n",
	".maxntid 1024, 1, 1\n", ".reqntid 32\n", NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);	/* the API takes NUL-free text */
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct ptx_source src = { .text = text, .len = strlen(text),
				  .name = "fuzz.ptx" };
	struct ptx_program *prog = NULL;
	char log[1024];
	if (ptx_program_build(&src, 1, &prog, log, sizeof(log)) == PTX_OK)
		ptx_program_destroy(prog);
	free(text);
	return 0;
}
