// SPDX-License-Identifier: MIT
/*
 * The JIT log sizes are in/out (CU_JIT_*_LOG_BUFFER_SIZE_BYTES): after a
 * link or a module load, CUDA leaves in each size how much of its buffer
 * the log fills, or the buffer's size when the message was cut. Messages
 * differ between NVIDIA's ptxas and vcuda, so only how the sizes relate
 * to the buffers is printed, and which call failed: CUDA compiles each
 * PTX input when it is added, so bad PTX fails cuLinkAddData (link_api
 * has the unresolved call that fails only cuLinkComplete); a module load
 * calling a function no input defines fails as bad PTX. Recorded on an
 * H200 (tests/api/api.mk).
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char good[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n"
	"ld.param.u64 %rd1, [p];\nret;\n}\n";
static const char bad[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 p)\n{\nbogus.instr %r1;\nret;\n}\n";
static const char unresolved[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".extern .func missing();\n"
	".visible .entry k(.param .u64 p)\n{\ncall missing, ();\nret;\n}\n";

enum { INFO, INFO_SIZE, ERR, ERR_SIZE, NOPTS };

static char info[8192], err[8192];

/* How a size relates to its buffer and the message in it. */
static const char *relation(void *value, const char *buf, size_t size)
{
	size_t v = (size_t)(uintptr_t)value, len = strnlen(buf, size);

	if (v == 0 && len == 0)
		return "0, empty";
	if (v == len && len > 0 && len < size)
		return "the message's length";
	if (v == size && len == size - 1)
		return "the buffer's size, message cut";
	return "something else";
}

static void options(CUjit_option *o, void **v, size_t size)
{
	memset(info, 'X', sizeof(info));
	memset(err, 'X', sizeof(err));
	o[INFO] = CU_JIT_INFO_LOG_BUFFER;
	o[INFO_SIZE] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
	o[ERR] = CU_JIT_ERROR_LOG_BUFFER;
	o[ERR_SIZE] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
	v[INFO] = info;
	v[ERR] = err;
	v[INFO_SIZE] = v[ERR_SIZE] = (void *)(uintptr_t)size;
}

static void report(const char *name, const char *stage, CUresult res,
		   void **v, size_t size)
{
	printf("%s: %s%s (%d); info size: %s; error size: %s\n", name,
	       res == CUDA_SUCCESS ? "ok" : "fails at ",
	       res == CUDA_SUCCESS ? "" : stage, (int)res,
	       relation(v[INFO_SIZE], info, size),
	       relation(v[ERR_SIZE], err, size));
}

static void link_case(const char *name, const char *ptx, size_t size)
{
	CUjit_option o[NOPTS];
	void *v[NOPTS], *image;
	size_t image_size;
	CUlinkState st;
	const char *stage = "cuLinkAddData";
	CUresult res;

	options(o, v, size);
	res = cuLinkCreate(NOPTS, o, v, &st);
	if (res != CUDA_SUCCESS) {
		printf("%s: cuLinkCreate %d\n", name, (int)res);
		return;
	}
	res = cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1,
			    "in.ptx", 0, NULL, NULL);
	if (res == CUDA_SUCCESS) {
		stage = "cuLinkComplete";
		res = cuLinkComplete(st, &image, &image_size);
	}
	report(name, stage, res, v, size);
	cuLinkDestroy(st);
}

static void load_case(const char *name, const char *ptx, size_t size)
{
	CUjit_option o[NOPTS];
	void *v[NOPTS];
	CUmodule m;
	CUresult res;

	options(o, v, size);
	res = cuModuleLoadDataEx(&m, ptx, NOPTS, o, v);
	report(name, "cuModuleLoadDataEx", res, v, size);
	if (res == CUDA_SUCCESS)
		cuModuleUnload(m);
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuCtxCreate(&ctx, NULL, 0, dev)) {
		printf("no device\n");
		return 1;
	}
	link_case("link, valid PTX", good, 4096);
	link_case("link, invalid PTX", bad, 4096);
	link_case("link, invalid PTX, 16-byte logs", bad, 16);
	load_case("load, valid PTX", good, 4096);
	load_case("load, invalid PTX", bad, 4096);
	load_case("load, invalid PTX, 16-byte logs", bad, 16);
	load_case("load, unresolved call", unresolved, 4096);
	cuCtxDestroy(ctx);
	return 0;
}
