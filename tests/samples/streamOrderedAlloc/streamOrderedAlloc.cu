// SPDX-License-Identifier: MIT
//
// streamOrderedAlloc: cudaMallocAsync and cudaFreeAsync on several
// streams, round after round, with the default pool keeping its memory
// between rounds (a release threshold) so that later rounds reuse it;
// a pool of its own with cudaMallocFromPoolAsync; and the same work
// captured into a graph, whose allocation and free become graph memory
// nodes, launched several times.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int kStreams = 3;
constexpr int kRounds = 4;
constexpr int N = 4096;

__global__ void iota(int *p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

// out[i] = sum of the scratch buffer's element and its neighbour.
__global__ void pairs(const int *scratch, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scratch[i] + scratch[(i + 1) % n];
}

static int expect(int base, int i) { return 2 * base + 2 * i + 1 - (i == N - 1 ? N : 0); }

// One round of one stream: scratch memory lives from the allocation to
// the free, in stream order only.
static void round_on(cudaStream_t s, int *out, int base) {
  int *scratch;
  CHECK(cudaMallocAsync(&scratch, N * sizeof(int), s));
  iota<<<N / 256, 256, 0, s>>>(scratch, N, base);
  pairs<<<N / 256, 256, 0, s>>>(scratch, out, N);
  CHECK(cudaFreeAsync(scratch, s));
}

static int check(const char *what, const int *dev, int base) {
  std::vector<int> got(N);
  int wrong = 0;
  CHECK(cudaMemcpy(got.data(), dev, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    if (got[i] != expect(base, i) && wrong++ < 3)
      std::fprintf(stderr, "%s: [%d] = %d, expected %d\n", what, i, got[i], expect(base, i));
  return wrong;
}

static uint64_t pool_attr(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  uint64_t v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, attr, &v));
  return v;
}

static int streams_and_rounds(cudaMemPool_t pool) {
  cudaStream_t streams[kStreams];
  int *out[kStreams], wrong = 0;
  uint64_t keep = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  for (int k = 0; k < kStreams; k++) {
    CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
    CHECK(cudaMalloc(&out[k], N * sizeof(int)));
  }
  uint64_t reserved_after_first = 0;
  for (int r = 0; r < kRounds; r++) {
    for (int k = 0; k < kStreams; k++) round_on(streams[k], out[k], 1000 * r + k);
    for (int k = 0; k < kStreams; k++) {
      CHECK(cudaStreamSynchronize(streams[k]));
      wrong += check("round", out[k], 1000 * r + k);
    }
    if (r == 0) reserved_after_first = pool_attr(pool, cudaMemPoolAttrReservedMemCurrent);
  }
  // Later rounds reused what the first one reserved.
  uint64_t reserved = pool_attr(pool, cudaMemPoolAttrReservedMemCurrent);
  if (reserved != reserved_after_first || pool_attr(pool, cudaMemPoolAttrUsedMemCurrent)) {
    std::fprintf(stderr, "pool grew or kept memory in use\n");
    wrong++;
  }
  CHECK(cudaMemPoolTrimTo(pool, 0));
  if (pool_attr(pool, cudaMemPoolAttrReservedMemCurrent)) {
    std::fprintf(stderr, "trimming kept memory\n");
    wrong++;
  }
  uint64_t zero = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero));
  std::printf("  %d streams x %d rounds, %llu KiB reserved: %s\n", kStreams, kRounds,
              (unsigned long long)(reserved / 1024), wrong ? "wrong" : "ok");
  for (int k = 0; k < kStreams; k++) {
    CHECK(cudaStreamDestroy(streams[k]));
    CHECK(cudaFree(out[k]));
  }
  return wrong;
}

static int own_pool(cudaStream_t s) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  int *scratch, *out, wrong;
  CHECK(cudaMemPoolCreate(&pool, &props));
  CHECK(cudaMallocAsync(&out, N * sizeof(int), s));
  CHECK(cudaMallocFromPoolAsync(&scratch, N * sizeof(int), pool, s));
  iota<<<N / 256, 256, 0, s>>>(scratch, N, 7);
  pairs<<<N / 256, 256, 0, s>>>(scratch, out, N);
  CHECK(cudaFreeAsync(scratch, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = check("own pool", out, 7);
  CHECK(cudaFreeAsync(out, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemPoolDestroy(pool));
  std::printf("  cudaMallocFromPoolAsync from a pool of its own: %s\n", wrong ? "wrong" : "ok");
  return wrong;
}

static int captured(cudaStream_t s) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  int *out, wrong = 0;
  size_t nodes = 0;
  CHECK(cudaMalloc(&out, N * sizeof(int)));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  round_on(s, out, 42);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  std::vector<cudaGraphNode_t> list(nodes);
  CHECK(cudaGraphGetNodes(graph, list.data(), &nodes));
  int allocs = 0, frees = 0;
  for (auto n : list) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(n, &t));
    allocs += t == cudaGraphNodeTypeMemAlloc;
    frees += t == cudaGraphNodeTypeMemFree;
  }
  if (allocs != 1 || frees != 1) {
    std::fprintf(stderr, "capture made %d alloc and %d free nodes\n", allocs, frees);
    wrong++;
  }
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; i++) {
    CHECK(cudaMemsetAsync(out, 0, N * sizeof(int), s));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    wrong += check("graph", out, 42);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaFree(out));
  std::printf("  captured into a graph of %zu nodes, launched 3 times: %s\n", nodes,
              wrong ? "wrong" : "ok");
  return wrong;
}

int main() {
  int supported = 0;
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!supported) {
    std::printf("[streamOrderedAlloc] no memory pools: waived\n");
    return 2;
  }
  cudaMemPool_t pool;
  cudaStream_t s;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::printf("[streamOrderedAlloc] %d ints a buffer\n", N);
  int wrong = streams_and_rounds(pool);
  wrong += own_pool(s);
  wrong += captured(s);
  CHECK(cudaStreamDestroy(s));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
