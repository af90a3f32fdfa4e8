// SPDX-License-Identifier: MIT
//
// graphBranches: graphs whose branches may run side by side. A fan-out of
// independent branches (kernels, copies, a host node, a child graph)
// joined by one kernel; launched repeatedly on different streams, with
// later stream work depending on the whole graph, updated in place, and
// destroyed while its work is still queued. Every launch is checked.

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int kBranches = 6;
constexpr int kSeg = 4096;  // ints per branch

__global__ void fill_segment(int *seg, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) seg[i] = value + i;
}

__global__ void add_one(int *seg, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) seg[i] += 1;
}

// One thread per branch sums its segment; the join of all branches.
__global__ void sum_segments(const int *segs, long long *sums, int n) {
  int b = threadIdx.x;
  long long s = 0;
  for (int i = 0; i < n; i++) s += segs[b * n + i];
  sums[b] = s;
}

static void CUDART_CB count_call(void *arg) { ++*static_cast<int *>(arg); }

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps,
                                  size_t ndeps, void *fn, void **args) {
  cudaKernelNodeParams p = {};
  p.func = fn;
  p.gridDim = dim3((kSeg + 255) / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  cudaGraphNode_t n;
  CHECK(cudaGraphAddKernelNode(&n, g, deps, ndeps, &p));
  return n;
}

// Branch b: fill its segment with 1000 * (b + base); odd branches then
// add one in a child graph, even ones copy through a scratch buffer.
struct Setup {
  int *segs, *scratch;
  long long *sums;
  int base;
  int host_calls = 0;
  int n = kSeg;
  int values[kBranches];
  int *seg_ptrs[kBranches];
  int *scratch_ptrs[kBranches];
};

static cudaGraph_t build(Setup &s) {
  cudaGraph_t g, child;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t root, joins[kBranches + 1];
  CHECK(cudaGraphAddEmptyNode(&root, g, nullptr, 0));
  for (int b = 0; b < kBranches; b++) {
    s.values[b] = 1000 * (b + s.base);
    s.seg_ptrs[b] = s.segs + b * kSeg;
    s.scratch_ptrs[b] = s.scratch + b * kSeg;
    void *fill_args[] = {&s.seg_ptrs[b], &s.n, &s.values[b]};
    cudaGraphNode_t fill = add_kernel(g, &root, 1, (void *)fill_segment,
                                      fill_args);
    if (b % 2) {
      CHECK(cudaGraphCreate(&child, 0));
      void *add_args[] = {&s.seg_ptrs[b], &s.n};
      add_kernel(child, nullptr, 0, (void *)add_one, add_args);
      CHECK(cudaGraphAddChildGraphNode(&joins[b], g, &fill, 1, child));
      CHECK(cudaGraphDestroy(child));
    } else {
      cudaGraphNode_t there;
      size_t bytes = kSeg * sizeof(int);
      CHECK(cudaGraphAddMemcpyNode1D(&there, g, &fill, 1, s.scratch_ptrs[b],
                                     s.seg_ptrs[b], bytes,
                                     cudaMemcpyDeviceToDevice));
      CHECK(cudaGraphAddMemcpyNode1D(&joins[b], g, &there, 1, s.seg_ptrs[b],
                                     s.scratch_ptrs[b], bytes,
                                     cudaMemcpyDeviceToDevice));
    }
  }
  cudaHostNodeParams hp = {count_call, &s.host_calls};
  CHECK(cudaGraphAddHostNode(&joins[kBranches], g, &root, 1, &hp));
  cudaKernelNodeParams sp = {};
  void *sum_args[] = {&s.segs, &s.sums, &s.n};
  sp.func = (void *)sum_segments;
  sp.gridDim = dim3(1);
  sp.blockDim = dim3(kBranches);
  sp.kernelParams = sum_args;
  cudaGraphNode_t sum;
  CHECK(cudaGraphAddKernelNode(&sum, g, joins, kBranches + 1, &sp));
  return g;
}

static long long expected_sum(int b, int base) {
  long long v = 1000LL * (b + base), n = kSeg;
  return v * n + n * (n - 1) / 2 + (b % 2 ? n : 0);
}

static bool check(const long long *sums, int base, const char *what) {
  for (int b = 0; b < kBranches; b++) {
    if (sums[b] != expected_sum(b, base)) {
      std::printf("  %s: branch %d sum %lld, expected %lld\n", what, b,
                  sums[b], expected_sum(b, base));
      return false;
    }
  }
  return true;
}

int main() {
  Setup s;
  s.base = 1;
  CHECK(cudaMalloc(&s.segs, kBranches * kSeg * sizeof(int)));
  CHECK(cudaMalloc(&s.scratch, kBranches * kSeg * sizeof(int)));
  CHECK(cudaMalloc(&s.sums, kBranches * sizeof(long long)));
  long long *host_sums;
  CHECK(cudaMallocHost(&host_sums, kBranches * sizeof(long long)));
  std::printf("[graphBranches] %d branches of %d ints, joined\n", kBranches,
              kSeg);

  cudaGraph_t g = build(s);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaStream_t streams[2];
  CHECK(cudaStreamCreate(&streams[0]));
  CHECK(cudaStreamCreateWithFlags(&streams[1], cudaStreamNonBlocking));
  bool ok = true;

  // The copy after each launch must see the whole graph's results.
  const int launches = 8;
  for (int i = 0; i < launches && ok; i++) {
    cudaStream_t st = streams[i % 2];
    CHECK(cudaMemsetAsync(s.sums, 0xff, kBranches * sizeof(long long), st));
    CHECK(cudaGraphLaunch(exec, st));
    CHECK(cudaMemcpyAsync(host_sums, s.sums, kBranches * sizeof(long long),
                          cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    ok = check(host_sums, s.base, "launch");
  }
  ok = ok && s.host_calls == launches;
  std::printf("  %d launches on two streams: %s\n", launches,
              ok ? "ok" : "FAILED");

  // The same launch on the legacy default stream.
  bool legacy = ok;
  if (legacy) {
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaMemcpy(host_sums, s.sums, kBranches * sizeof(long long),
                     cudaMemcpyDeviceToHost));
    legacy = check(host_sums, s.base, "legacy stream");
  }
  std::printf("  on the legacy default stream: %s\n", legacy ? "ok" : "FAILED");

  // New values through cudaGraphExecUpdate, same topology.
  s.base = 7;
  cudaGraph_t g2 = build(s);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, g2, &info));
  CHECK(cudaGraphLaunch(exec, streams[1]));
  // Destroyed with its work still queued: that work still completes.
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaStreamSynchronize(streams[1]));
  CHECK(cudaMemcpy(host_sums, s.sums, kBranches * sizeof(long long),
                   cudaMemcpyDeviceToHost));
  bool updated = check(host_sums, s.base, "after update");
  std::printf("  updated, then destroyed while queued: %s\n",
              updated ? "ok" : "FAILED");

  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g2));
  for (cudaStream_t st : streams) CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(s.segs));
  CHECK(cudaFree(s.scratch));
  CHECK(cudaFree(s.sums));
  CHECK(cudaFreeHost(host_sums));
  bool pass = ok && legacy && updated;
  std::printf("Result = %s\n", pass ? "PASS" : "FAIL");
  return pass ? EXIT_SUCCESS : EXIT_FAILURE;
}
