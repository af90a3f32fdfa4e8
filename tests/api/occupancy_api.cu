// SPDX-License-Identifier: MIT
//
// occupancy_api: the occupancy of kernels that want more registers than
// their launch bounds leave them (ptxas then limits itself, and the
// kernel stays launchable: its occupancy is never 0), and of a PTX kernel
// loaded with CU_JIT_MAX_REGISTERS. Register counts are the compiler's
// business: only their bounds are printed. Expected output recorded on an
// NVIDIA H100, driver 580.159.04, CUDA 13.0 (occupancy_api.expected).

#include <cstdint>
#include <cstdio>

#include <cuda.h>
#include <cuda_runtime.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))
#define SAY(what, value) std::printf("%s = %d\n", what, (int)(value))

constexpr int kAcc = 192;

// kAcc accumulators live across a loop: far more registers than 384
// threads may have (65536 / 384 = 170), so ptxas spills.
template <int N>
__device__ void accumulate(const float *in, float *out, int n) {
  float acc[N];
#pragma unroll
  for (int j = 0; j < N; j++) acc[j] = in[j];
  for (int k = 0; k < n; k++) {
    float x = in[k + threadIdx.x];
#pragma unroll
    for (int j = 0; j < N; j++) acc[j] = fmaf(acc[j], x, in[j * 3 + k]);
  }
#pragma unroll
  for (int j = 0; j < N; j++) out[j * blockDim.x + threadIdx.x] = acc[j];
}

__global__ void __launch_bounds__(384) heavy_384(const float *in, float *out, int n) {
  accumulate<kAcc>(in, out, n);
}

__global__ void __launch_bounds__(256, 2) heavy_256x2(const float *in, float *out, int n) {
  accumulate<kAcc>(in, out, n);
}

__global__ void __launch_bounds__(1024) heavy_1024(const float *in, float *out, int n) {
  accumulate<kAcc>(in, out, n);
}

template <typename K>
static void kernel_occupancy(const char *name, K kernel, int bound, int per_thread_limit) {
  cudaFuncAttributes a = {};
  std::printf("-- %s\n", name);
  SHOW("cudaFuncGetAttributes", cudaFuncGetAttributes(&a, kernel));
  SAY("maxThreadsPerBlock", a.maxThreadsPerBlock);
  SAY("numRegs within the bound", a.numRegs <= per_thread_limit);
  SAY("numRegs above 32", a.numRegs > 32);
  for (int size : {32, 64, 128, 256, 384, 512, 1024}) {
    if (size > bound) break;
    int blocks = -1;
    char what[96];
    std::snprintf(what, sizeof(what), "cudaOccupancyMaxActiveBlocksPerMultiprocessor(%d)", size);
    SHOW(what, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, size, 0));
    SAY("blocks", blocks);
  }
  int min_grid = -1, block = -1;
  SHOW("cudaOccupancyMaxPotentialBlockSize",
       cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, 0));
  SAY("block size within the bound", block > 0 && block <= bound);
}

// A launch at the bound works (a kernel with occupancy 0 could not run).
template <typename K>
static void launch_at_bound(const char *name, K kernel, int bound) {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, (size_t)kAcc * bound * sizeof(float));
  cudaMemset(in, 0, 4096 * sizeof(float));
  kernel<<<1, bound>>>(in, out, 4);
  std::printf("launch %s<<<1, %d>>> = %d\n", name, bound, (int)cudaGetLastError());
  SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
  cudaFree(in);
  cudaFree(out);
}

// 48 registers declared, each live until the end: the JIT must fit them
// into what CU_JIT_MAX_REGISTERS allows.
static const char kManyRegs[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry many_regs(.param .u64 p)\n{\n"
    "  .reg .b32 %r<48>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
#define LOAD(i) "  ld.global.volatile.u32 %r" #i ", [%rd2+" #i "*4];\n"
#define LOAD8(i) LOAD(i##0) LOAD(i##1) LOAD(i##2) LOAD(i##3) LOAD(i##4) \
    LOAD(i##5) LOAD(i##6) LOAD(i##7)
    LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7)
    LOAD8(1) LOAD8(2) LOAD8(3)
    LOAD(40) LOAD(41) LOAD(42) LOAD(43) LOAD(44) LOAD(45) LOAD(46) LOAD(47)
#define MUL(i) "  mul.lo.u32 %r" #i ", %r" #i ", %r" #i ";\n"
#define MUL8(i) MUL(i##0) MUL(i##1) MUL(i##2) MUL(i##3) MUL(i##4) MUL(i##5) \
    MUL(i##6) MUL(i##7)
    MUL(0) MUL(1) MUL(2) MUL(3) MUL(4) MUL(5) MUL(6) MUL(7)
    MUL8(1) MUL8(2) MUL8(3)
    MUL(40) MUL(41) MUL(42) MUL(43) MUL(44) MUL(45) MUL(46) MUL(47)
#define STORE(i) "  st.global.volatile.u32 [%rd2+" #i "*4], %r" #i ";\n"
#define STORE8(i) STORE(i##0) STORE(i##1) STORE(i##2) STORE(i##3) \
    STORE(i##4) STORE(i##5) STORE(i##6) STORE(i##7)
    STORE(0) STORE(1) STORE(2) STORE(3) STORE(4) STORE(5) STORE(6) STORE(7)
    STORE8(1) STORE8(2) STORE8(3)
    STORE(40) STORE(41) STORE(42) STORE(43) STORE(44) STORE(45) STORE(46)
    STORE(47)
    "  ret;\n}\n";

static void jit_max_registers() {
  CUmodule mod;
  CUfunction f;
  CUjit_option opt[] = {CU_JIT_MAX_REGISTERS};
  void *val[] = {(void *)(uintptr_t)32};
  std::printf("-- many_regs with CU_JIT_MAX_REGISTERS = 32\n");
  SHOW("cuModuleLoadDataEx", cuModuleLoadDataEx(&mod, kManyRegs, 1, opt, val));
  SHOW("cuModuleGetFunction", cuModuleGetFunction(&f, mod, "many_regs"));
  int regs = -1, blocks = -1;
  SHOW("cuFuncGetAttribute(NUM_REGS)", cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  SAY("regs within 32", regs > 0 && regs <= 32);
  for (int size : {128, 256, 1024}) {
    char what[80];
    std::snprintf(what, sizeof(what), "cuOccupancyMaxActiveBlocksPerMultiprocessor(%d)", size);
    SHOW(what, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, size, 0));
    SAY("blocks", blocks);
  }
  SHOW("cuModuleUnload", cuModuleUnload(mod));
}

int main() {
  SHOW("cudaFree(0)", cudaFree(0));
  kernel_occupancy("heavy_384", heavy_384, 384, 65536 / 384);
  kernel_occupancy("heavy_256x2", heavy_256x2, 256, 65536 / (256 * 2));
  kernel_occupancy("heavy_1024", heavy_1024, 1024, 64);
  launch_at_bound("heavy_384", heavy_384, 384);
  launch_at_bound("heavy_1024", heavy_1024, 1024);
  jit_max_registers();
  return 0;
}
