// SPDX-License-Identifier: MIT
//
// ctx_api: the runtime in a context the driver API created. CUDA's
// "Interactions with the CUDA Driver API": a context created and made
// current through the driver is the one later runtime calls use (their
// allocations belong to it, cudaGetDevice names its device), and
// cudaSetDevice makes the device's primary context current again. The
// expected output follows from those documented rules (every call
// succeeds, every check holds); it has not been recorded on a GPU.

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  int count = 0, device = -1;
  CUdevice dev;
  CUcontext ctx = nullptr, now = nullptr, owner = nullptr, primary = nullptr;
  CUctxCreateParams params = {};
  void *p = nullptr;
  SHOW("cuInit", cuInit(0));
  SHOW("cuDeviceGetCount", cuDeviceGetCount(&count));
  SHOW("cuDeviceGet(last)", cuDeviceGet(&dev, count - 1));
  SHOW("cuCtxCreate", cuCtxCreate(&ctx, &params, 0, dev));
  SHOW("cudaMalloc", cudaMalloc(&p, 4096));
  SHOW("cuPointerGetAttribute(CONTEXT)",
       cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                             (CUdeviceptr)p));
  SAY("allocation is in the created context", owner == ctx);
  SHOW("cudaGetDevice", cudaGetDevice(&device));
  SAY("device is the context's", device == (int)dev);
  SHOW("cuCtxGetCurrent", cuCtxGetCurrent(&now));
  SAY("the created context is still current", now == ctx);
  SHOW("cudaFree", cudaFree(p));
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cuCtxGetCurrent", cuCtxGetCurrent(&now));
  SHOW("cuDevicePrimaryCtxRetain(0)", cuDevicePrimaryCtxRetain(&primary, 0));
  SAY("device 0's primary context is current", now == primary);
  SHOW("cuDevicePrimaryCtxRelease(0)", cuDevicePrimaryCtxRelease(0));
  SHOW("cuCtxDestroy", cuCtxDestroy(ctx));
  return 0;
}
