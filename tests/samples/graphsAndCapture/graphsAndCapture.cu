// SPDX-License-Identifier: MIT
//
// graphsAndCapture: a graph built node by node (memset, kernels on two
// branches, copy back, host node), launched twice and updated in place;
// then the same kind of work captured from two streams that fork and
// join through events, replayed as a graph.

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int N = 512;
static int wrong, host_calls;

__global__ void add_value(int *v, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += value;
}

__global__ void scale(int *v, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= factor;
}

static void CUDART_CB count_call(void *) { host_calls++; }

static void check(const int *got, int want, const char *what) {
  for (int i = 0; i < N; i++)
    if (got[i] != want && wrong++ < 5)
      std::fprintf(stderr, "%s: [%d] = %d, expected %d\n", what, i, got[i], want);
}

static void built_graph(int *d, int *d2, int *h, cudaStream_t s) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t set, add, mul, add2, copy, host;
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = N;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));

  int n = N, three = 3, four = 4, ten = 10;
  void *add_args[] = {&d, &n, &three};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)add_value;
  kp.gridDim = dim3(N / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = add_args;
  CHECK(cudaGraphAddKernelNode(&add, g, &set, 1, &kp));
  void *mul_args[] = {&d, &n, &four};
  kp.func = (void *)scale;
  kp.kernelParams = mul_args;
  CHECK(cudaGraphAddKernelNode(&mul, g, &add, 1, &kp));
  // A second branch on another buffer, independent of the first.
  void *add2_args[] = {&d2, &n, &ten};
  kp.func = (void *)add_value;
  kp.kernelParams = add2_args;
  CHECK(cudaGraphAddKernelNode(&add2, g, nullptr, 0, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &mul, 1, h, d, N * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {count_call, nullptr};
  cudaGraphNode_t deps[] = {copy, add2};
  CHECK(cudaGraphAddHostNode(&host, g, deps, 2, &hp));

  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  if (count != 6) {
    std::fprintf(stderr, "graph has %zu nodes, expected 6\n", count);
    wrong++;
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaMemset(d2, 0, N * sizeof(int)));
  for (int launch = 0; launch < 2; launch++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  check(h, (0 + 3) * 4, "built graph");
  int back[N];
  CHECK(cudaMemcpy(back, d2, sizeof(back), cudaMemcpyDeviceToHost));
  check(back, 20, "second branch, two launches");

  // Change the kernel's parameter in the executable graph only.
  int five = 5;
  void *new_args[] = {&d, &n, &five};
  kp.func = (void *)add_value;
  kp.kernelParams = new_args;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, add, &kp));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  check(h, (0 + 5) * 4, "updated graph");
  if (host_calls != 3) {
    std::fprintf(stderr, "host node ran %d times, expected 3\n", host_calls);
    wrong++;
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
}

static void captured_graph(int *d, int *d2, int *h, cudaStream_t s1, cudaStream_t s2) {
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(d, 0, N * sizeof(int), s1));
  add_value<<<N / 128, 128, 0, s1>>>(d, N, 7);
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));  // s2 joins the capture
  CHECK(cudaMemcpyAsync(d2, d, N * sizeof(int), cudaMemcpyDeviceToDevice, s2));
  scale<<<N / 128, 128, 0, s2>>>(d2, N, 2);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaStreamWaitEvent(s1, join, 0));  // and comes back
  add_value<<<N / 128, 128, 0, s1>>>(d2, N, 1);
  CHECK(cudaMemcpyAsync(h, d2, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s2, &status));
  if (status != cudaStreamCaptureStatusActive) {
    std::fprintf(stderr, "the joined stream is not capturing\n");
    wrong++;
  }
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s1, &g));
  CHECK(cudaStreamIsCapturing(s2, &status));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  if (count != 6 || status != cudaStreamCaptureStatusNone) {
    std::fprintf(stderr, "captured %zu nodes (expected 6), status %d\n", count,
                 (int)status);
    wrong++;
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));
  check(h, 7 * 2 + 1, "captured graph");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
}

int main() {
  int *d, *d2, *h;
  cudaStream_t s1, s2;
  CHECK(cudaMalloc(&d, N * sizeof(int)));
  CHECK(cudaMalloc(&d2, N * sizeof(int)));
  CHECK(cudaMallocHost(&h, N * sizeof(int)));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  built_graph(d, d2, h, s1);
  captured_graph(d, d2, h, s1, s2);
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  CHECK(cudaFreeHost(h));
  std::printf("[graphsAndCapture] built graph x3, captured fork/join graph\n");
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
