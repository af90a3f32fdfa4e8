// SPDX-License-Identifier: MIT
/*
 * link_api: the JIT linker (cuLink*) joining two PTX modules, one calling
 * a function the other defines, and its errors. One line per call,
 * "what = code"; expected lines recorded on an NVIDIA H100
 * (link_api.expected); the linked image loaded as a library and
 * CU_JIT_MAX_REGISTERS given to the linker were recorded on an H200
 * (driver 580.159.04, 2026-11-26), with the same output before them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#define SHOW(what, call) printf("%s = %d\n", what, (int)(call))

static const char defines_twice[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n"
	"{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n"
	"  add.s32 %r2, %r1, %r1;\n  st.param.b32 [r], %r2;\n  ret;\n}\n";

static const char calls_twice[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".visible .entry doubled(.param .u64 out, .param .u32 v)\n"
	"{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
	"  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [v];\n"
	"  {\n  .param .b32 a;\n  .param .b32 b;\n  st.param.b32 [a], %r1;\n"
	"  call.uni (b), twice, (a);\n  ld.param.b32 %r2, [b];\n  }\n"
	"  cvta.to.global.u64 %rd1, %rd1;\n  st.global.u32 [%rd1], %r2;\n"
	"  ret;\n}\n";

static void link_two(void)
{
	char error_log[4096] = "", info_log[4096] = "";
	CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER,
				CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
				CU_JIT_INFO_LOG_BUFFER,
				CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { error_log, (void *)(uintptr_t)sizeof(error_log),
			 info_log, (void *)(uintptr_t)sizeof(info_log) };
	CUlinkState st;
	void *image = NULL;
	size_t size = 0;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr out;
	unsigned int v = 21, result = 0;
	void *args[] = { &out, &v };

	SHOW("cuLinkCreate", cuLinkCreate(4, opts, vals, &st));
	SHOW("cuLinkAddData(calls_twice)",
	     cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)calls_twice,
			   sizeof(calls_twice), "calls", 0, NULL, NULL));
	SHOW("cuLinkAddData(defines_twice)",
	     cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)defines_twice,
			   sizeof(defines_twice), "defines", 0, NULL, NULL));
	SHOW("cuLinkComplete", cuLinkComplete(st, &image, &size));
	printf("image and size = %d\n", image != NULL && size > 0);
	SHOW("cuModuleLoadData(linked)", cuModuleLoadData(&mod, image));
	SHOW("cuLinkDestroy", cuLinkDestroy(st));
	SHOW("cuModuleGetFunction", cuModuleGetFunction(&f, mod, "doubled"));
	cuMemAlloc(&out, 4);
	SHOW("cuLaunchKernel", cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	SHOW("cuCtxSynchronize", cuCtxSynchronize());
	cuMemcpyDtoH(&result, out, 4);
	printf("result = %u\n", result);
	cuMemFree(out);
	cuModuleUnload(mod);
}

/*
 * The linked image loaded as a library (cuda.core, and so numba-cuda,
 * load cuLinkComplete's cubin so), its kernel launched as a CUkernel.
 */
static void link_to_library(void)
{
	CUlinkState st;
	void *image = NULL;
	size_t size = 0;
	CUlibrary lib;
	CUkernel k;
	CUdeviceptr out;
	unsigned int v = 50, result = 0;
	void *args[] = { &out, &v };

	SHOW("cuLinkCreate", cuLinkCreate(0, NULL, NULL, &st));
	cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)calls_twice,
		      sizeof(calls_twice), "calls", 0, NULL, NULL);
	cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)defines_twice,
		      sizeof(defines_twice), "defines", 0, NULL, NULL);
	SHOW("cuLinkComplete", cuLinkComplete(st, &image, &size));
	SHOW("cuLibraryLoadData(linked)",
	     cuLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0));
	SHOW("cuLinkDestroy", cuLinkDestroy(st));
	SHOW("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, "doubled"));
	cuMemAlloc(&out, 4);
	SHOW("cuLaunchKernel(CUkernel)",
	     cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	SHOW("cuCtxSynchronize", cuCtxSynchronize());
	cuMemcpyDtoH(&result, out, 4);
	printf("result = %u\n", result);
	cuMemFree(out);
	SHOW("cuLibraryUnload", cuLibraryUnload(lib));
}

/* A register limit given to the linker bounds the linked kernels. */
static void link_max_registers(void)
{
	static const char many_registers[] =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".visible .entry wide(.param .u64 out)\n{\n"
		"  .reg .b32 %r<64>;\n  .reg .b64 %rd<2>;\n"
		"  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 1;\n"
		"  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
	CUjit_option opts[] = { CU_JIT_MAX_REGISTERS };
	void *vals[] = { (void *)(uintptr_t)32 };
	CUlinkState st;
	void *image = NULL;
	size_t size = 0;
	CUmodule mod;
	CUfunction f;
	int regs = -1;

	SHOW("cuLinkCreate(CU_JIT_MAX_REGISTERS 32)",
	     cuLinkCreate(1, opts, vals, &st));
	cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)many_registers,
		      sizeof(many_registers), "wide", 0, NULL, NULL);
	SHOW("cuLinkComplete", cuLinkComplete(st, &image, &size));
	SHOW("cuModuleLoadData(linked)", cuModuleLoadData(&mod, image));
	cuLinkDestroy(st);
	SHOW("cuModuleGetFunction", cuModuleGetFunction(&f, mod, "wide"));
	SHOW("cuFuncGetAttribute(NUM_REGS)",
	     cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
	printf("NUM_REGS within the limit = %d\n", regs > 0 && regs <= 32);
	cuModuleUnload(mod);
}

static void link_errors(void)
{
	char error_log[4096] = "";
	CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER,
				CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { error_log, (void *)(uintptr_t)sizeof(error_log) };
	CUlinkState st;
	void *image;
	size_t size;

	SHOW("cuLinkCreate(NULL)", cuLinkCreate(0, NULL, NULL, NULL));
	SHOW("cuLinkCreate", cuLinkCreate(2, opts, vals, &st));
	SHOW("cuLinkAddData(bad type)",
	     cuLinkAddData(st, (CUjitInputType)77, (void *)calls_twice,
			   sizeof(calls_twice), "calls", 0, NULL, NULL));
	SHOW("cuLinkAddData(calls_twice only)",
	     cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)calls_twice,
			   sizeof(calls_twice), "calls", 0, NULL, NULL));
	SHOW("cuLinkComplete(unresolved)", cuLinkComplete(st, &image, &size));
	printf("error log written = %d\n", error_log[0] != '\0');
	SHOW("cuLinkDestroy", cuLinkDestroy(st));
	SHOW("cuLinkAddFile(missing)",
	     cuLinkCreate(0, NULL, NULL, &st) ||
	     cuLinkAddFile(st, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL, NULL));
	cuLinkDestroy(st);
}

int main(void)
{
	CUcontext ctx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	link_two();
	link_to_library();
	link_max_registers();
	link_errors();
	return 0;
}
