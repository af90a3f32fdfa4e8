// SPDX-License-Identifier: MIT
//
// ipcShare: two processes share device memory and an event. The program
// forks before using CUDA; the parent fills a buffer, records an
// interprocess event after the kernel and sends both handles over a
// socket. The child opens them, makes its stream wait for the parent's
// event, adds to every element, records the event itself and says so;
// the parent waits for that recording and checks the child's work. Then
// the child counts rounds of ping-pong through the event.

#include <cstdio>
#include <cstdlib>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <cuda_runtime.h>

#include "../common/check.h"

constexpr int N = 1 << 14;
constexpr int kRounds = 4;

struct handles {
  cudaIpcMemHandle_t mem;
  cudaIpcEventHandle_t event;
};

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

__global__ void add(int *p, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += value;
}

static void send_all(int sock, const void *buf, size_t len) {
  if (write(sock, buf, len) != (ssize_t)len) {
    std::perror("write");
    std::exit(EXIT_FAILURE);
  }
}

static void recv_all(int sock, void *buf, size_t len) {
  for (size_t got = 0; got < len;) {
    ssize_t n = read(sock, (char *)buf + got, len - got);
    if (n <= 0) {
      std::fprintf(stderr, "the other process went away\n");
      std::exit(EXIT_FAILURE);
    }
    got += (size_t)n;
  }
}

// The child: each round waits for the parent's recording, adds the round
// number, records, and tells the parent.
static int child(int sock) {
  handles h;
  int *p;
  cudaEvent_t ev;
  cudaStream_t s;
  recv_all(sock, &h, sizeof(h));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaIpcOpenMemHandle((void **)&p, h.mem, cudaIpcMemLazyEnablePeerAccess));
  CHECK(cudaIpcOpenEventHandle(&ev, h.event));
  for (int round = 1; round <= kRounds; round++) {
    char go;
    recv_all(sock, &go, 1);
    CHECK(cudaStreamWaitEvent(s, ev, 0));
    add<<<N / 256, 256, 0, s>>>(p, N, round);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev, s));
    send_all(sock, "d", 1);
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaIpcCloseMemHandle(p));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

// The parent: fills, then each round adds 100 after the child's
// recording and records for the child.
static int parent(int sock, pid_t pid) {
  int *p;
  handles h;
  cudaEvent_t ev;
  cudaStream_t s;
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&p, N * sizeof(int)));
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
  fill<<<N / 256, 256, 0, s>>>(p, N);
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaIpcGetMemHandle(&h.mem, p));
  CHECK(cudaIpcGetEventHandle(&h.event, ev));
  send_all(sock, &h, sizeof(h));
  for (int round = 1; round <= kRounds; round++) {
    char done;
    send_all(sock, "g", 1);
    recv_all(sock, &done, 1);
    // The child's recording is the event's last: wait for it on our stream.
    CHECK(cudaStreamWaitEvent(s, ev, 0));
    add<<<N / 256, 256, 0, s>>>(p, N, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev, s));
  }
  CHECK(cudaStreamSynchronize(s));
  int status = 0;
  waitpid(pid, &status, 0);
  std::vector<int> got(N);
  CHECK(cudaMemcpy(got.data(), p, N * sizeof(int), cudaMemcpyDeviceToHost));
  int added = 100 * kRounds + kRounds * (kRounds + 1) / 2, wrong = 0;
  for (int i = 0; i < N; i++)
    if (got[i] != i + added && wrong++ < 3)
      std::fprintf(stderr, "[%d] = %d, expected %d\n", i, got[i], i + added);
  if (!WIFEXITED(status) || WEXITSTATUS(status)) {
    std::fprintf(stderr, "the child failed (status 0x%x)\n", status);
    wrong++;
  }
  std::printf("[ipcShare] %d rounds between two processes over %d ints\n", kRounds, N);
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(p));
  std::printf("Result = %s\n", wrong ? "FAIL" : "PASS");
  return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main() {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    std::perror("socketpair");
    return EXIT_FAILURE;
  }
  std::fflush(stdout);
  // Before any CUDA call: CUDA's state does not survive a fork.
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return EXIT_FAILURE;
  }
  if (pid == 0) {
    close(sv[0]);
    alarm(240);
    std::exit(child(sv[1]));
  }
  close(sv[1]);
  return parent(sv[0], pid);
}
