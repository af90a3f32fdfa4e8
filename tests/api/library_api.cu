// SPDX-License-Identifier: MIT
//
// library_api: CUDA 12's context-independent loading and the doors to the
// driver's table, in both APIs: cuLibrary*/cuKernel* on PTX text and on
// the program's own fatbin, a CUkernel launched where a CUfunction goes,
// the loading mode, cudaLibrary*, cudaGetKernel, cudaGetFuncBySymbol and
// cudaGetDriverEntryPoint(ByVersion). Codes and booleans only; recorded on
// an H100 (library_api.expected).

#include <cuda.h>
#include <cuda_runtime.h>

// cudaGetDriverEntryPoint is deprecated in favour of ByVersion; both are tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "api_test.h"

static const char ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 counter = 7;\n"
    ".visible .entry add_one(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .u32 %r<4>;\n"
    "  .reg .u64 %rd<4>;\n"
    "  .reg .pred %q;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.ge.u32 %q, %r2, %r1;\n"
    "  @%q bra done;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n"
    "  add.u32 %r3, %r3, 1;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "done:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry nothing()\n"
    "{\n"
    "  ret;\n"
    "}\n";

__global__ void twice(int *v) { v[threadIdx.x] *= 2; }

static void driver_library() {
  CUlibrary lib = nullptr;
  CUkernel k = nullptr, k2 = nullptr, bad = nullptr;
  CUfunction f = nullptr;
  CUmodule mod = nullptr;
  CUdeviceptr buf = 0, counter = 0;
  size_t bytes = 0;
  unsigned int count = 0;
  CUkernel all[4] = {};
  const char *name = nullptr;
  int value = -1, n = 32, host[32];
  CUmoduleLoadingMode mode;

  SHOW("cuModuleGetLoadingMode", cuModuleGetLoadingMode(&mode));
  SAY("loading mode is lazy", mode == CU_MODULE_LAZY_LOADING);
  SHOW("cuLibraryLoadData(NULL code)",
       cuLibraryLoadData(&lib, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW("cuLibraryLoadData(ptx)",
       cuLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, "add_one"));
  SHOW("cuLibraryGetKernel(again)", cuLibraryGetKernel(&k2, lib, "add_one"));
  SAY("same kernel handle", k == k2);
  SHOW("cuLibraryGetKernel(missing)", cuLibraryGetKernel(&bad, lib, "missing"));
  SHOW("cuLibraryGetKernel(NULL name)", cuLibraryGetKernel(&bad, lib, nullptr));
  SHOW("cuLibraryGetKernelCount", cuLibraryGetKernelCount(&count, lib));
  SAY("kernel count", count);
  SHOW("cuLibraryEnumerateKernels", cuLibraryEnumerateKernels(all, 2, lib));
  SAY("add_one enumerated", all[0] == k || all[1] == k);
  SHOW("cuKernelGetName", cuKernelGetName(&name, k));
  SAY("name is add_one", name && std::strcmp(name, "add_one") == 0);
  SHOW("cuKernelGetFunction", cuKernelGetFunction(&f, k));
  SHOW("cuFuncGetName", cuFuncGetName(&name, f));
  SAY("function name is add_one", name && std::strcmp(name, "add_one") == 0);
  SHOW("cuKernelGetAttribute(MAX_THREADS)",
       cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 0));
  SAY("max threads > 0", value > 0);
  SHOW("cuKernelSetAttribute(MAX_DYNAMIC_SHARED 1024)",
       cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, 0));
  SHOW("cuKernelGetAttribute(MAX_DYNAMIC_SHARED)",
       cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0));
  SAY("max dynamic shared", value);
  size_t offset = 99, size = 99;
  SHOW("cuKernelGetParamInfo(1)", cuKernelGetParamInfo(k, 1, &offset, &size));
  SAY("param 1 offset", (int)offset);
  SAY("param 1 size", (int)size);
  SHOW("cuKernelGetParamInfo(2)", cuKernelGetParamInfo(k, 2, &offset, &size));
  SHOW("cuLibraryGetModule", cuLibraryGetModule(&mod, lib));
  SHOW("cuFuncGetModule", cuFuncGetModule(&mod, f));
  SHOW("cuLibraryGetGlobal", cuLibraryGetGlobal(&counter, &bytes, lib, "counter"));
  SAY("global size", (int)bytes);
  SHOW("cuMemcpyDtoH(counter)", cuMemcpyDtoH(&value, counter, 4));
  SAY("counter", value);
  SHOW("cuLibraryGetGlobal(missing)", cuLibraryGetGlobal(&counter, &bytes, lib, "nope"));
  for (int i = 0; i < n; i++) host[i] = i;
  SHOW("cuMemAlloc", cuMemAlloc(&buf, sizeof(host)));
  SHOW("cuMemcpyHtoD", cuMemcpyHtoD(buf, host, sizeof(host)));
  void *args[] = {&buf, &n};
  SHOW("cuLaunchKernel(CUkernel)",
       cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  SHOW("cuCtxSynchronize", cuCtxSynchronize());
  SHOW("cuMemcpyDtoH", cuMemcpyDtoH(host, buf, sizeof(host)));
  int right = 1;
  for (int i = 0; i < n; i++) right &= host[i] == i + 1;
  SAY("kernel ran", right);
  SHOW("cuFuncGetAttribute(CUkernel)",
       cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)k));
  SHOW("cuMemFree", cuMemFree(buf));
  SHOW("cuLibraryUnload", cuLibraryUnload(lib));
}

static void runtime_library() {
  cudaLibrary_t lib = nullptr;
  cudaKernel_t k = nullptr;
  cudaFunction_t f = nullptr;
  void *fn = nullptr, *counter = nullptr;
  size_t bytes = 0;
  unsigned int count = 0;
  cudaDriverEntryPointQueryResult status;
  int *v = nullptr, host[8] = {1, 2, 3, 4, 5, 6, 7, 8};

  SHOW("cudaLibraryLoadData",
       cudaLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW("cudaLibraryGetKernel", cudaLibraryGetKernel(&k, lib, "add_one"));
  SHOW("cudaLibraryGetKernelCount", cudaLibraryGetKernelCount(&count, lib));
  SAY("kernel count", count);
  SHOW("cudaLibraryGetGlobal", cudaLibraryGetGlobal(&counter, &bytes, lib, "counter"));
  SAY("global size", (int)bytes);
  SHOW("cudaMalloc", cudaMalloc(&v, sizeof(host)));
  SHOW("cudaMemcpy", cudaMemcpy(v, host, sizeof(host), cudaMemcpyHostToDevice));
  int n = 8;
  void *args[] = {&v, &n};
  SHOW("cudaLaunchKernel(library kernel)",
       cudaLaunchKernel((const void *)k, dim3(1), dim3(8), args, 0, nullptr));
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("cudaMemcpy back", cudaMemcpy(host, v, sizeof(host), cudaMemcpyDeviceToHost));
  SAY("library kernel ran", host[0] == 2 && host[7] == 9);
  SHOW("cudaLibraryUnload", cudaLibraryUnload(lib));

  SHOW("cudaGetKernel", cudaGetKernel(&k, (const void *)twice));
  SHOW("cudaGetKernel(not a kernel)", cudaGetKernel(&k, (const void *)runtime_library));
  SHOW("cudaGetFuncBySymbol", cudaGetFuncBySymbol(&f, (const void *)twice));
  SHOW("cudaGetFuncBySymbol(not a kernel)",
       cudaGetFuncBySymbol(&f, (const void *)runtime_library));
  twice<<<1, 8>>>(v);
  SHOW("twice<<<>>>", cudaGetLastError());
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("cudaMemcpy back", cudaMemcpy(host, v, sizeof(host), cudaMemcpyDeviceToHost));
  SAY("registered kernel ran", host[0] == 4 && host[7] == 18);
  SHOW("cudaFree", cudaFree(v));

  SHOW("cudaGetDriverEntryPoint(cuMemAlloc)",
       cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &status));
  SAY("status", status);
  SAY("found", fn != nullptr);
  SHOW("cudaGetDriverEntryPoint(cuNoSuchThing)",
       cudaGetDriverEntryPoint("cuNoSuchThing", &fn, cudaEnableDefault, &status));
  SAY("status", status);
  SHOW("cudaGetDriverEntryPointByVersion(cuMemAlloc, 3020)",
       cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 3020, cudaEnableDefault, &status));
  SAY("status", status);
  SHOW("cudaGetDriverEntryPointByVersion(cuMemAlloc, 1000)",
       cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 1000, cudaEnableDefault, &status));
  SAY("status", status);
  SHOW("cudaGetDriverEntryPointByVersion(cuLaunchKernel, ptds)",
       cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 13000,
                                        cudaEnablePerThreadDefaultStream, &status));
  SAY("status", status);
  SHOW("cudaGetDriverEntryPointByVersion(cuMemAlloc, 99000)",
       cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 99000, cudaEnableDefault, &status));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  CUcontext ctx = nullptr;
  SHOW("cudaFree(0)", cudaFree(0));
  SHOW("cuCtxGetCurrent", cuCtxGetCurrent(&ctx));
  driver_library();
  runtime_library();
  return 0;
}
