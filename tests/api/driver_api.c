// SPDX-License-Identifier: MIT
/*
 * driver_api: what the driver API returns, call by call, for good and bad
 * input. Prints one line per call, "what = code"; the expected lines were
 * recorded on an NVIDIA H100 with NVIDIA's driver (driver_api.expected),
 * and the test passes when vcuda prints the same. Nothing printed may
 * depend on the device's size or name.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#define SHOW(what, call) printf("%s = %d\n", what, (int)(call))

static const char vector_add_ptx[] =
	".version 7.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .entry vector_add(.param .u64 a, .param .u64 b,\n"
	"                           .param .u64 c, .param .u32 n)\n"
	"{\n"
	"  .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<6>; .reg .b64 %rd<11>;\n"
	"  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b];\n"
	"  ld.param.u64 %rd3, [c]; ld.param.u32 %r2, [n];\n"
	"  mov.u32 %r3, %ntid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %tid.x;\n"
	"  mad.lo.s32 %r1, %r3, %r4, %r5;\n"
	"  setp.ge.s32 %p1, %r1, %r2;\n"
	"  @%p1 bra DONE;\n"
	"  cvta.to.global.u64 %rd4, %rd1; cvta.to.global.u64 %rd7, %rd2;\n"
	"  cvta.to.global.u64 %rd9, %rd3;\n"
	"  mul.wide.s32 %rd5, %r1, 4;\n"
	"  add.s64 %rd6, %rd4, %rd5; add.s64 %rd8, %rd7, %rd5;\n"
	"  add.s64 %rd10, %rd9, %rd5;\n"
	"  ld.global.f32 %f1, [%rd6]; ld.global.f32 %f2, [%rd8];\n"
	"  add.f32 %f3, %f1, %f2;\n"
	"  st.global.f32 [%rd10], %f3;\n"
	"DONE:\n"
	"  ret;\n"
	"}\n"
	".visible .entry store_to(.param .u64 p)\n"
	"{\n"
	"  .reg .b64 %rd<2>; .reg .b32 %r<2>;\n"
	"  ld.param.u64 %rd1, [p];\n"
	"  mov.u32 %r1, 42;\n"
	"  st.global.u32 [%rd1], %r1;\n"
	"  ret;\n"
	"}\n";

static const char bad_ptx[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry broken(\n{\n  this is not ptx;\n}\n";

static void before_init(void)
{
	int count;
	CUcontext ctx;
	CUdevice dev;

	SHOW("cuDeviceGetCount before cuInit", cuDeviceGetCount(&count));
	SHOW("cuDeviceGet before cuInit", cuDeviceGet(&dev, 0));
	SHOW("cuCtxGetCurrent before cuInit", cuCtxGetCurrent(&ctx));
	SHOW("cuInit(1)", cuInit(1));
	SHOW("cuInit(0)", cuInit(0));
	SHOW("cuInit(0) again", cuInit(0));
}

static void devices(void)
{
	CUdevice dev;
	char name[64];
	int value = -1;
	size_t bytes;

	SHOW("cuDeviceGet(NULL, 0)", cuDeviceGet(NULL, 0));
	SHOW("cuDeviceGet(-1)", cuDeviceGet(&dev, -1));
	SHOW("cuDeviceGet(1000)", cuDeviceGet(&dev, 1000));
	SHOW("cuDeviceGet(0)", cuDeviceGet(&dev, 0));
	SHOW("cuDeviceGetName(NULL)", cuDeviceGetName(NULL, 64, 0));
	SHOW("cuDeviceGetName(device 1000)", cuDeviceGetName(name, 64, 1000));
	SHOW("cuDeviceGetAttribute(warp size)",
	     cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	printf("warp size = %d\n", value);
	SHOW("cuDeviceGetAttribute(0)",
	     cuDeviceGetAttribute(&value, (CUdevice_attribute)0, 0));
	SHOW("cuDeviceGetAttribute(100000)",
	     cuDeviceGetAttribute(&value, (CUdevice_attribute)100000, 0));
	SHOW("cuDeviceGetAttribute(NULL)",
	     cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	SHOW("cuDeviceTotalMem(NULL)", cuDeviceTotalMem(NULL, 0));
	SHOW("cuDeviceTotalMem", cuDeviceTotalMem(&bytes, 0));
}

static void without_context(void)
{
	CUcontext ctx = (CUcontext)1;
	CUdeviceptr p;
	size_t free_b, total_b;

	SHOW("cuCtxGetCurrent without context", cuCtxGetCurrent(&ctx));
	printf("current context is NULL = %d\n", ctx == NULL);
	SHOW("cuMemAlloc without context", cuMemAlloc(&p, 16));
	SHOW("cuMemGetInfo without context", cuMemGetInfo(&free_b, &total_b));
	SHOW("cuCtxSynchronize without context", cuCtxSynchronize());
	SHOW("cuCtxPopCurrent on empty stack", cuCtxPopCurrent(&ctx));
}

static void memory(void)
{
	CUdeviceptr p, q;
	uint32_t host[64] = { 0 }, back[64];
	size_t free_b, total_b;

	SHOW("cuMemAlloc(size 0)", cuMemAlloc(&p, 0));
	SHOW("cuMemAlloc(NULL)", cuMemAlloc(NULL, 16));
	SHOW("cuMemAlloc(1 PiB)", cuMemAlloc(&p, (size_t)1 << 50));
	SHOW("cuMemAlloc(256)", cuMemAlloc(&p, 256));
	SHOW("cuMemAlloc(1 MiB)", cuMemAlloc(&q, 1 << 20));
	printf("allocation aligned to 256 = %d\n", (p % 256) == 0);
	SHOW("cuMemGetInfo", cuMemGetInfo(&free_b, &total_b));
	printf("free <= total = %d\n", free_b <= total_b);
	for (int i = 0; i < 64; i++)
		host[i] = 0x01010101u * i;
	SHOW("cuMemcpyHtoD", cuMemcpyHtoD(p, host, sizeof(host)));
	SHOW("cuMemcpyDtoD", cuMemcpyDtoD(q, p, sizeof(host)));
	SHOW("cuMemcpyDtoH", cuMemcpyDtoH(back, q, sizeof(back)));
	printf("copies round-trip = %d\n", memcmp(host, back, sizeof(host)) == 0);
	SHOW("cuMemsetD32", cuMemsetD32(q, 0xdeadbeef, 64));
	SHOW("cuMemcpyDtoH after memset", cuMemcpyDtoH(back, q, sizeof(back)));
	printf("memset value = %d\n", back[0] == 0xdeadbeef && back[63] == 0xdeadbeef);
	SHOW("cuMemsetD32(misaligned)", cuMemsetD32(q + 1, 0, 4));
	SHOW("cuMemFree(0)", cuMemFree(0));
	SHOW("cuMemFree(interior pointer)", cuMemFree(q + 64));
	SHOW("cuMemFree(q)", cuMemFree(q));
	SHOW("cuMemFree(q) twice", cuMemFree(q));
	SHOW("cuMemFree(p)", cuMemFree(p));
}

static void modules(CUmodule *mod, CUfunction *add, CUfunction *store)
{
	CUmodule bad;
	CUfunction f;
	static const char garbage[] = "\x7f" "ELF garbage that is not an image";

	SHOW("cuModuleLoadData(NULL)", cuModuleLoadData(&bad, NULL));
	SHOW("cuModuleLoadData(bad PTX)", cuModuleLoadData(&bad, bad_ptx));
	SHOW("cuModuleLoadData(garbage ELF)", cuModuleLoadData(&bad, garbage));
	SHOW("cuModuleLoadData(PTX)", cuModuleLoadData(mod, vector_add_ptx));
	SHOW("cuModuleGetFunction(missing)",
	     cuModuleGetFunction(&f, *mod, "no_such_kernel"));
	SHOW("cuModuleGetFunction(NULL name)", cuModuleGetFunction(&f, *mod, NULL));
	SHOW("cuModuleGetFunction(vector_add)",
	     cuModuleGetFunction(add, *mod, "vector_add"));
	SHOW("cuModuleGetFunction(store_to)",
	     cuModuleGetFunction(store, *mod, "store_to"));
}

static void launches(CUfunction add)
{
	enum { N = 1000 };
	static float a[N], b[N], c[N];
	CUdeviceptr da, db, dc;
	unsigned int n = N;
	void *args[] = { &da, &db, &dc, &n };
	int wrong = 0;

	for (int i = 0; i < N; i++) {
		a[i] = i * 0.5f;
		b[i] = 1.0f / (i + 1);
	}
	cuMemAlloc(&da, sizeof(a));
	cuMemAlloc(&db, sizeof(b));
	cuMemAlloc(&dc, sizeof(c));
	cuMemcpyHtoD(da, a, sizeof(a));
	cuMemcpyHtoD(db, b, sizeof(b));
	SHOW("cuLaunchKernel(NULL function)",
	     cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	SHOW("cuLaunchKernel(block 1025)",
	     cuLaunchKernel(add, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL));
	SHOW("cuLaunchKernel(grid x 0)",
	     cuLaunchKernel(add, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	SHOW("cuLaunchKernel(block z 65)",
	     cuLaunchKernel(add, 1, 1, 1, 1, 1, 65, 0, NULL, args, NULL));
	SHOW("cuLaunchKernel(shared 1 MiB)",
	     cuLaunchKernel(add, 1, 1, 1, 32, 1, 1, 1 << 20, NULL, args, NULL));
	SHOW("cuLaunchKernel(vector_add)",
	     cuLaunchKernel(add, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
			    args, NULL));
	SHOW("cuCtxSynchronize", cuCtxSynchronize());
	SHOW("cuMemcpyDtoH result", cuMemcpyDtoH(c, dc, sizeof(c)));
	for (int i = 0; i < N; i++)
		wrong += c[i] != a[i] + b[i];
	printf("vector_add wrong elements = %d\n", wrong);
	SHOW("cuStreamQuery(idle)", cuStreamQuery(NULL));
	cuMemFree(da);
	cuMemFree(db);
	cuMemFree(dc);
}

/* Last: a fault poisons the context for good. */
static void fault(CUfunction store)
{
	CUdeviceptr bad = 0x10, p;
	void *args[] = { &bad };

	SHOW("cuLaunchKernel(store to 0x10)",
	     cuLaunchKernel(store, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	SHOW("cuCtxSynchronize after fault", cuCtxSynchronize());
	SHOW("cuMemAlloc after fault", cuMemAlloc(&p, 16));
	SHOW("cuCtxSynchronize again", cuCtxSynchronize());
}

int main(void)
{
	CUcontext ctx;
	CUmodule mod;
	CUfunction add = NULL, store = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	before_init();
	devices();
	without_context();
	SHOW("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, 0));
	SHOW("cuCtxSetCurrent", cuCtxSetCurrent(ctx));
	memory();
	modules(&mod, &add, &store);
	if (add && store) {
		launches(add);
		fault(store);
	}
	return 0;
}
