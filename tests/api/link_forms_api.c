// SPDX-License-Identifier: MIT
/*
 * link_forms_api: cuLinkAddFile with each binary form nvcc makes of a
 * device function (link_forms_lib.cu, built into LINK_FORMS_DIR), linked
 * with PTX that calls it, then run. The forms that carry compute_75 PTX
 * link and run on any newer device; those with sm_75 SASS alone carry
 * nothing a newer device can run: NVIDIA's driver refuses the cubin
 * (CUDA_ERROR_NO_BINARY_FOR_GPU) but takes the others, and the link then
 * fails with the call unresolved. One line per call, "what = code";
 * expected lines recorded on an NVIDIA H200, driver 580.159.04, CUDA
 * 13.0.88 (link_forms_api.expected).
 */
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>

#define SHOW(what, form, call) \
	printf("%s(%s) = %d\n", what, form, (int)(call))

static const char caller[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".extern .func (.param .b32 r) add_forms(.param .b32 a, "
	".param .b32 b);\n"
	".visible .entry summed(.param .u64 out)\n"
	"{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 19;\n  mov.u32 %r2, 23;\n"
	"  {\n  .param .b32 a;\n  .param .b32 b;\n  .param .b32 r;\n"
	"  st.param.b32 [a], %r1;\n  st.param.b32 [b], %r2;\n"
	"  call.uni (r), add_forms, (a, b);\n  ld.param.b32 %r3, [r];\n  }\n"
	"  cvta.to.global.u64 %rd1, %rd1;\n  st.global.u32 [%rd1], %r3;\n"
	"  ret;\n}\n";

struct form {
	const char *file;
	CUjitInputType type;
};

static const struct form forms[] = {
	{ "lib.fatbin", CU_JIT_INPUT_FATBINARY },
	{ "lib.o", CU_JIT_INPUT_OBJECT },
	{ "lib.a", CU_JIT_INPUT_LIBRARY },
	{ "lib.sm75.cubin", CU_JIT_INPUT_CUBIN },
	{ "lib.sass75.fatbin", CU_JIT_INPUT_FATBINARY },
	{ "lib.sass75.o", CU_JIT_INPUT_OBJECT },
	{ "lib.sass75.a", CU_JIT_INPUT_LIBRARY },
};

/* Runs the linked image's kernel: 19 + 23 through the linked function. */
static void run_linked(const char *form, void *image)
{
	CUmodule mod;
	CUfunction f;
	CUdeviceptr out = 0;
	unsigned int result = 0;
	void *args[] = { &out };

	SHOW("cuModuleLoadData", form, cuModuleLoadData(&mod, image));
	if (cuModuleGetFunction(&f, mod, "summed") != CUDA_SUCCESS)
		return;
	cuMemAlloc(&out, sizeof(result));
	SHOW("cuLaunchKernel", form,
	     cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	cuMemcpyDtoH(&result, out, sizeof(result));
	printf("result(%s) = %u\n", form, result);
	cuMemFree(out);
	cuModuleUnload(mod);
}

static void link_form(const struct form *fm)
{
	char path[1024];
	CUlinkState st;
	void *image = NULL;
	size_t size = 0;
	CUresult res;

	snprintf(path, sizeof(path), "%s/%s", LINK_FORMS_DIR, fm->file);
	if (cuLinkCreate(0, NULL, NULL, &st) != CUDA_SUCCESS)
		return;
	cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)caller, sizeof(caller),
		      "caller", 0, NULL, NULL);
	res = cuLinkAddFile(st, fm->type, path, 0, NULL, NULL);
	SHOW("cuLinkAddFile", fm->file, res);
	if (res == CUDA_SUCCESS) {
		res = cuLinkComplete(st, &image, &size);
		SHOW("cuLinkComplete", fm->file, res);
		if (res == CUDA_SUCCESS)
			run_linked(fm->file, image);
	}
	cuLinkDestroy(st);
}

int main(void)
{
	CUcontext ctx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		link_form(&forms[i]);
	return 0;
}
