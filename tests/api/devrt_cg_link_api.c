// SPDX-License-Identifier: MIT
/*
 * devrt_cg_link_api: the link inputs numba-cuda hands the driver for a
 * kernel that uses the grid group (cuda.cg.this_grid(), grid.sync()):
 * NVVM's PTX, with debug line information, calling cudaCGGetIntrinsicHandle
 * and cudaCGSynchronize declared .extern, and the toolkit's libcudadevrt.a
 * (CU_JIT_INPUT_LIBRARY), which defines them in SASS only. NVIDIA's driver
 * links that SASS; vcuda adds its own PTX of them (libcuda/ptx/devrt_cg.c).
 * The linked image is loaded as a module and launched cooperatively, then
 * written to a file, loaded as a library and launched again by a fresh
 * process, as numba-cuda's cache does with the image it saved
 * (test_caching's test_cache_cg; cuda.core loads a cubin as a library).
 * Its own check (exit 0 or 1): the kernel's answers are fixed by the grid
 * barrier, not by a recording.
 */
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#include "self_check.h"

#define BLOCKS 2
#define THREADS 32
#define N (BLOCKS * THREADS)

extern char **environ;


/*
 * rotate(out): thread i writes out[i] = i + 1, syncs the grid, then reads
 * the word of the thread one CTA further on (another CTA's) into
 * out[N + i]; thread 0 writes whether the grid handle was not 0 to
 * out[2N]. Written as NVVM writes numba's kernels with debug=True: a
 * .file, .loc lines and a .debug_info section.
 */
static const char ptx[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".extern .func (.param .b64 func_retval0) cudaCGGetIntrinsicHandle"
	"(.param .b32 cudaCGGetIntrinsicHandle_param_0);\n"
	".extern .func (.param .b32 func_retval0) cudaCGSynchronize"
	"(.param .b64 cudaCGSynchronize_param_0, "
	".param .b32 cudaCGSynchronize_param_1);\n"
	".visible .entry rotate(.param .u64 rotate_param_0)\n{\n"
	"  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
	"  .loc 1 10 0\n"
	"$L__func_begin0:\n"
	"  ld.param.u64 %rd1, [rotate_param_0];\n"
	"  cvta.to.global.u64 %rd2, %rd1;\n"
	"  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
	"  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %nctaid.x;\n"
	"  mad.lo.s32 %r5, %r1, %r2, %r3;\n"
	"  mul.lo.s32 %r6, %r4, %r2;\n"
	"  .loc 1 11 5\n"
	"  add.s32 %r7, %r5, 1;\n"
	"  mul.wide.s32 %rd3, %r5, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
	"  st.global.u32 [%rd4], %r7;\n"
	"  .loc 1 12 5\n"
	"  mov.u32 %r8, 1;\n"
	"  { .param .b32 param0;\n  st.param.b32 [param0], %r8;\n"
	"  .param .b64 retval0;\n"
	"  call.uni (retval0), cudaCGGetIntrinsicHandle, (param0);\n"
	"  ld.param.b64 %rd5, [retval0];\n  }\n"
	"  .loc 1 13 5\n"
	"  mov.u32 %r9, 0;\n"
	"  { .param .b64 param0;\n  st.param.b64 [param0], %rd5;\n"
	"  .param .b32 param1;\n  st.param.b32 [param1], %r9;\n"
	"  .param .b32 retval0;\n"
	"  call.uni (retval0), cudaCGSynchronize, (param0, param1);\n"
	"  ld.param.b32 %r10, [retval0];\n  }\n"
	"  .loc 1 14 5\n"
	"  add.s32 %r11, %r5, %r2;\n  rem.s32 %r11, %r11, %r6;\n"
	"  mul.wide.s32 %rd6, %r11, 4;\n  add.s64 %rd7, %rd2, %rd6;\n"
	"  ld.global.u32 %r11, [%rd7];\n"
	"  mul.wide.s32 %rd8, %r6, 4;\n  add.s64 %rd9, %rd4, %rd8;\n"
	"  st.global.u32 [%rd9], %r11;\n"
	"  setp.ne.s32 %p1, %r5, 0;\n  @%p1 bra $L__BB0_2;\n"
	"  setp.ne.s64 %p1, %rd5, 0;\n  selp.u32 %r11, 1, 0, %p1;\n"
	"  add.s64 %rd10, %rd9, %rd8;\n  st.global.u32 [%rd10], %r11;\n"
	"$L__BB0_2:\n"
	"  .loc 1 15 1\n  ret;\n"
	"$L__func_end0:\n}\n"
	".file 1 \"/tmp/cg_usecases.py\"\n"
	".section .debug_abbrev\n{\n.b8 1\n.b8 17\n.b8 0\n.b8 0\n.b8 0\n}\n"
	".section .debug_info\n{\n.b32 7\n.b8 2\n.b8 0\n"
	".b32 .debug_abbrev\n.b8 8\n.b8 0\n}\n"
	".section .debug_macinfo\t{\t}\n";

static CUresult link_image(void **out, size_t *size)
{
	CUlinkState st;
	void *image;
	CUresult res = cuLinkCreate(0, NULL, NULL, &st);

	expect_result("cuLinkCreate", res, CUDA_SUCCESS);
	if (res != CUDA_SUCCESS)
		return res;
	expect_result("cuLinkAddData(PTX)",
	       cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)ptx, sizeof(ptx),
			     "<cudapy-ptx>", 0, NULL, NULL), CUDA_SUCCESS);
	expect_result("cuLinkAddFile(libcudadevrt.a)",
	       cuLinkAddFile(st, CU_JIT_INPUT_LIBRARY, CUDADEVRT, 0, NULL,
			     NULL), CUDA_SUCCESS);
	res = cuLinkComplete(st, &image, size);
	expect_result("cuLinkComplete", res, CUDA_SUCCESS);
	/* the image belongs to the link state: keep a copy, as numba does */
	if (res == CUDA_SUCCESS && (*out = malloc(*size)))
		memcpy(*out, image, *size);
	else if (res == CUDA_SUCCESS)
		res = CUDA_ERROR_OUT_OF_MEMORY;
	cuLinkDestroy(st);
	return res;
}

/* Makes the device's primary context current. */
static int use_primary_context(void)
{
	CUdevice dev;
	CUcontext ctx;

	expect_result("cuInit", cuInit(0), CUDA_SUCCESS);
	expect_result("cuDeviceGet", cuDeviceGet(&dev, 0), CUDA_SUCCESS);
	expect_result("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, dev),
	       CUDA_SUCCESS);
	if (!self_check_failures)
		expect_result("cuCtxSetCurrent", cuCtxSetCurrent(ctx), CUDA_SUCCESS);
	return self_check_failures;
}

/* rotate() of @image loaded as a module. */
static CUfunction load_module(const void *image, CUmodule *mod)
{
	CUfunction f = NULL;

	expect_result("cuModuleLoadData", cuModuleLoadData(mod, image),
	       CUDA_SUCCESS);
	if (!self_check_failures)
		expect_result("cuModuleGetFunction",
		       cuModuleGetFunction(&f, *mod, "rotate"), CUDA_SUCCESS);
	return f;
}

/* rotate() of @image loaded as a library, as cuda.core loads a cubin. */
static CUfunction load_library(const void *image, CUlibrary *lib)
{
	CUkernel k;
	CUfunction f = NULL;

	expect_result("cuLibraryLoadData",
	       cuLibraryLoadData(lib, image, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_SUCCESS);
	if (!self_check_failures)
		expect_result("cuLibraryGetKernel",
		       cuLibraryGetKernel(&k, *lib, "rotate"), CUDA_SUCCESS);
	if (!self_check_failures)
		expect_result("cuKernelGetFunction", cuKernelGetFunction(&f, k),
		       CUDA_SUCCESS);
	return f;
}

/* Launches rotate() cooperatively and checks its answers. */
static void run_rotate(const char *who, CUfunction f)
{
	CUdeviceptr out;
	unsigned int got[2 * N + 1];
	void *args[] = { &out };

	if (self_check_failures)
		return;
	expect_result("cuMemAlloc", cuMemAlloc(&out, sizeof(got)), CUDA_SUCCESS);
	expect_result("cuMemsetD8", cuMemsetD8(out, 0xff, sizeof(got)), CUDA_SUCCESS);
	expect_result("cuLaunchCooperativeKernel",
	       cuLaunchCooperativeKernel(f, BLOCKS, 1, 1, THREADS, 1, 1, 0,
					 NULL, args), CUDA_SUCCESS);
	expect_result("cuMemcpyDtoH", cuMemcpyDtoH(got, out, sizeof(got)),
	       CUDA_SUCCESS);
	for (unsigned int i = 0; i < N && !self_check_failures; i++)
		if (got[i] != i + 1 || got[N + i] != (i + THREADS) % N + 1) {
			printf("FAIL: %s: thread %u wrote %u, read %u\n", who,
			       i, got[i], got[N + i]);
			self_check_failures++;
		}
	if (got[2 * N] != 1) {
		printf("FAIL: %s: grid handle test %u\n", who, got[2 * N]);
		self_check_failures++;
	}
	cuMemFree(out);
}

/* Runs this program again, as "--load FILE", and waits for it. */
static void run_in_new_process(const char *self, char *path)
{
	char *argv[] = { (char *)self, "--load", path, NULL };
	int status = 0;
	pid_t pid;

	fflush(stdout);
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) ||
	    waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("FAIL: the image loaded by a new process (status 0x%x)\n",
		       status);
		self_check_failures++;
	}
}

static int load_saved(const char *path)
{
	FILE *f = fopen(path, "rb");
	long size = 0;
	char *image = NULL;
	bool read = f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 &&
		    !fseek(f, 0, SEEK_SET) && (image = malloc(size)) &&
		    fread(image, 1, size, f) == (size_t)size;

	if (f)
		fclose(f);
	if (!read) {
		printf("FAIL: cannot read %s\n", path);
		free(image);
		return 1;
	}
	if (!use_primary_context()) {
		CUlibrary lib = NULL;

		run_rotate("the saved image", load_library(image, &lib));
		if (lib)
			cuLibraryUnload(lib);
	}
	free(image);
	return self_check_status();
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/devrt_cg_link_api.XXXXXX";
	void *image = NULL;
	size_t size = 0;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--load"))
		return load_saved(argv[2]);
	if (!use_primary_context() &&
	    link_image(&image, &size) == CUDA_SUCCESS) {
		CUmodule mod = NULL;

		run_rotate("the linked image", load_module(image, &mod));
		if (mod)
			cuModuleUnload(mod);
		fd = mkstemp(path);
		if (fd < 0 || write(fd, image, size) != (ssize_t)size) {
			printf("FAIL: cannot save the image in %s\n", path);
			self_check_failures++;
		}
		if (fd >= 0)
			close(fd);
		if (!self_check_failures)
			run_in_new_process(argv[0], path);
		unlink(path);
	}
	free(image);
	printf("%s\n", self_check_failures ? "FAIL" : "ok");
	return self_check_status();
}
