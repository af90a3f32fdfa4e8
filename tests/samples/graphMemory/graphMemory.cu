// SPDX-License-Identifier: MIT
//
// graphMemory: graph allocations made by capturing cudaMallocAsync, used
// by captured copies, sets and kernels before any launch backs them, on
// a forked stream that is destroyed while the capture goes on; then the
// allocation outliving the graph, freed outside it once and by a free
// node of another graph the next time.

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int kN = 1 << 14;

__global__ void square(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void add(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += value;
}

// Captures: in -> (fork) square into out on a second stream, which is
// destroyed before the capture ends -> add 1 -> out copied to the host;
// in is freed in the graph, out is left allocated.
static cudaGraph_t capture(cudaStream_t s, const int *host_in, int *host_out,
                           int **out_ptr) {
  cudaStream_t side;
  cudaEvent_t fork, join;
  int *in, *out;
  size_t bytes = kN * sizeof(int);
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&in, bytes, s));
  CHECK(cudaMallocAsync(&out, bytes, s));
  CHECK(cudaMemsetAsync(out, 0xff, bytes, s));
  CHECK(cudaMemcpyAsync(in, host_in, bytes, cudaMemcpyHostToDevice, s));
  CHECK(cudaEventRecord(fork, s));
  CHECK(cudaStreamWaitEvent(side, fork, 0));
  square<<<kN / 256, 256, 0, side>>>(in, out, kN);
  CHECK(cudaEventRecord(join, side));
  CHECK(cudaStreamWaitEvent(s, join, 0));
  CHECK(cudaStreamDestroy(side));
  CHECK(cudaFreeAsync(in, s));
  add<<<kN / 256, 256, 0, s>>>(out, kN, 1);
  CHECK(cudaMemcpyAsync(host_out, out, bytes, cudaMemcpyDeviceToHost, s));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  *out_ptr = out;
  return g;
}

static bool check(const int *host_out, const char *what) {
  for (int i = 0; i < kN; i++) {
    int want = (i % 1000) * (i % 1000) + 1;
    if (host_out[i] != want) {
      std::printf("  %s: out[%d] = %d, expected %d\n", what, i, host_out[i],
                  want);
      return false;
    }
  }
  return true;
}

int main() {
  int *host_in, *host_out, *out;
  CHECK(cudaMallocHost(&host_in, kN * sizeof(int)));
  CHECK(cudaMallocHost(&host_out, kN * sizeof(int)));
  for (int i = 0; i < kN; i++) host_in[i] = i % 1000;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::printf("[graphMemory] %d ints through graph allocations\n", kN);

  cudaGraph_t g = capture(s, host_in, host_out, &out);
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));

  // First launch: out outlives the graph; freed outside it.
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  bool first = check(host_out, "first launch");
  CHECK(cudaFreeAsync(out, s));
  CHECK(cudaStreamSynchronize(s));

  // Second launch: freed by a free node of another graph.
  cudaGraph_t freeing;
  cudaGraphNode_t free_node;
  CHECK(cudaGraphCreate(&freeing, 0));
  CHECK(cudaGraphAddMemFreeNode(&free_node, freeing, nullptr, 0, out));
  cudaGraphExec_t free_exec;
  CHECK(cudaGraphInstantiate(&free_exec, freeing, 0));
  for (int i = 0; i < kN; i++) host_out[i] = 0;
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaGraphLaunch(free_exec, s));
  CHECK(cudaStreamSynchronize(s));
  bool second = check(host_out, "second launch");
  std::printf("  %zu nodes captured; first launch %s, second %s\n", nodes,
              first ? "ok" : "FAILED", second ? "ok" : "FAILED");

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(free_exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(freeing));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(host_in));
  CHECK(cudaFreeHost(host_out));
  bool pass = first && second;
  std::printf("Result = %s\n", pass ? "PASS" : "FAIL");
  return pass ? EXIT_SUCCESS : EXIT_FAILURE;
}
