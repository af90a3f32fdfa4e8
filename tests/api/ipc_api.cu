// SPDX-License-Identifier: MIT
//
// ipc_api: interprocess memory and event handles. The process forks
// before either side touches CUDA; the parent allocates, exports memory
// and an event (with every bad input) and sends the handles over a
// socket; the child opens them (with every bad input) and uses the event.
// The two take turns, so their lines come in a fixed order. Expected
// output recorded on two NVIDIA H200s (ipc_api.expected).
//
// What the recording taught: cudaIpcOpenMemHandle needs exactly
// cudaIpcMemLazyEnablePeerAccess (flags 0 is an invalid value, so the
// child's first pointer stays NULL and the lines that use it say so), and
// a handle of a pointer inside an allocation opens the allocation's
// start. The recording stops after the child's event checks: the test
// stops there too. Lines for calls that crashed NVIDIA's runtime (NULL
// arguments it does not check) were taken out. The rest of the IPC path
// (kernels on opened memory, events both ways) is the ipcShare sample.

#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

constexpr int kN = 1 << 14;  // ints: 64 KiB

__global__ void fill(int *p, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * mul;
}

__global__ void plus_one(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1;
}

static int holds(const int *dev, int n, int mul, int add) {
  static int host[kN];
  if (cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDefault) != cudaSuccess) return 0;
  for (int i = 0; i < n; i++)
    if (host[i] != i * mul + add) return 0;
  return 1;
}

struct handles {
  cudaIpcMemHandle_t mem;
  cudaIpcMemHandle_t offset;  // 4 KiB into the allocation
  cudaIpcEventHandle_t event;
  int offset_ok;
};

static void bad_exports(int *d) {
  cudaIpcMemHandle_t h;
  cudaIpcEventHandle_t eh;
  cudaEvent_t timed, ipc_timed;
  void *pinned = nullptr, *managed = nullptr, *pooled = nullptr;
  static int stack_like[64];
  SHOW_NULL("cudaIpcGetMemHandle(NULL pointer)", cudaIpcGetMemHandle(&h, nullptr));
  SHOW("cudaIpcGetMemHandle(pageable)", cudaIpcGetMemHandle(&h, stack_like));
  SHOW("cudaMallocHost", cudaMallocHost(&pinned, 4096));
  SHOW("cudaIpcGetMemHandle(pinned host)", cudaIpcGetMemHandle(&h, pinned));
  SHOW("cudaMallocManaged", cudaMallocManaged(&managed, 4096));
  SHOW("cudaIpcGetMemHandle(managed)", cudaIpcGetMemHandle(&h, managed));
  SHOW("cudaMallocAsync", cudaMallocAsync(&pooled, 4096, 0));
  SHOW("cudaStreamSynchronize", cudaStreamSynchronize(0));
  SHOW("cudaIpcGetMemHandle(pool memory)", cudaIpcGetMemHandle(&h, pooled));
  SHOW("cudaFreeAsync", cudaFreeAsync(pooled, 0));
  SHOW("cudaFreeHost", cudaFreeHost(pinned));
  SHOW("cudaFree(managed)", cudaFree(managed));
  SHOW("cudaGetLastError", cudaGetLastError());
  SHOW("cudaEventCreate(timed)", cudaEventCreate(&timed));
  SHOW("cudaIpcGetEventHandle(timed event)", cudaIpcGetEventHandle(&eh, timed));
  SHOW("cudaEventCreateWithFlags(Interprocess alone)",
       cudaEventCreateWithFlags(&ipc_timed, cudaEventInterprocess));
  SHOW_NULL("cudaIpcGetEventHandle(NULL event)", cudaIpcGetEventHandle(&eh, nullptr));
  SHOW("cudaEventDestroy(timed)", cudaEventDestroy(timed));
  SHOW("cudaGetLastError", cudaGetLastError());
}

static void parent(int sock) {
  int *d = nullptr;
  handles h, again;
  cudaEvent_t ev;
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("cudaMalloc", cudaMalloc(&d, kN * sizeof(int)));
  fill<<<kN / 256, 256>>>(d, kN, 2);
  SHOW("fill", cudaDeviceSynchronize());
  bad_exports(d);
  SHOW("cudaIpcGetMemHandle", cudaIpcGetMemHandle(&h.mem, d));
  SHOW("cudaIpcGetMemHandle again", cudaIpcGetMemHandle(&again.mem, d));
  SAY("same handle twice", !std::memcmp(&h.mem, &again.mem, sizeof(h.mem)));
  h.offset_ok = cudaIpcGetMemHandle(&h.offset, d + 1024);
  SAY("cudaIpcGetMemHandle(inside the allocation)", h.offset_ok);
  cudaGetLastError();
  SHOW("cudaEventCreateWithFlags(Interprocess | DisableTiming)",
       cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
  SHOW("cudaIpcGetEventHandle", cudaIpcGetEventHandle(&h.event, ev));
  cudaGetLastError();
  // What this process may not do with its own handles.
  void *self = nullptr;
  cudaEvent_t self_ev;
  SHOW("cudaIpcOpenMemHandle(own handle)",
       cudaIpcOpenMemHandle(&self, h.mem, cudaIpcMemLazyEnablePeerAccess));
  SHOW("cudaIpcCloseMemHandle(not opened)", cudaIpcCloseMemHandle(d));
  SHOW("cudaIpcOpenEventHandle(own handle)", cudaIpcOpenEventHandle(&self_ev, h.event));
  SHOW("cudaGetLastError", cudaGetLastError());
  fill<<<kN / 256, 256>>>(d, kN, 3);
  SHOW("cudaEventRecord(ev)", cudaEventRecord(ev, 0));
  SHOW("cudaEventSynchronize(ev)", cudaEventSynchronize(ev));
  put_bytes(sock, &h, sizeof(h));
  wait_peer(sock);  // the child is done
  cudaEventDestroy(ev);
  cudaFree(d);
}

static void child_same_device(const handles &h) {
  int *p = nullptr, *p2 = nullptr, *inner = nullptr;
  cudaIpcMemHandle_t zero = {};
  cudaEvent_t ev;
  float ms;
  SHOW("child: cudaSetDevice(0)", cudaSetDevice(0));
  SHOW("child: cudaIpcOpenMemHandle(zeroed handle)",
       cudaIpcOpenMemHandle((void **)&p, zero, cudaIpcMemLazyEnablePeerAccess));
  SHOW("child: cudaIpcOpenMemHandle(flags 2)", cudaIpcOpenMemHandle((void **)&p, h.mem, 2));
  SHOW_NULL("child: cudaIpcOpenMemHandle(NULL pointer)",
       cudaIpcOpenMemHandle(nullptr, h.mem, cudaIpcMemLazyEnablePeerAccess));
  SHOW("child: cudaGetLastError", cudaGetLastError());
  SHOW("child: cudaIpcOpenMemHandle(flags 0)", cudaIpcOpenMemHandle((void **)&p, h.mem, 0));
  SHOW("child: cudaIpcOpenMemHandle again",
       cudaIpcOpenMemHandle((void **)&p2, h.mem, cudaIpcMemLazyEnablePeerAccess));
  SAY("child: same pointer both times", p == p2);
  SAY("child: reads the parent's data", holds(p, kN, 3, 0));
  if (h.offset_ok == cudaSuccess) {
    SHOW("child: cudaIpcOpenMemHandle(inner handle)",
         cudaIpcOpenMemHandle((void **)&inner, h.offset, cudaIpcMemLazyEnablePeerAccess));
    int first = -1;
    cudaMemcpy(&first, inner, sizeof(first), cudaMemcpyDefault);
    SAY("child: inner handle's first int / 3", first / 3);
    SHOW("child: cudaIpcCloseMemHandle(inner)", cudaIpcCloseMemHandle(inner));
  }
  cudaPointerAttributes a;
  SHOW("child: cudaPointerGetAttributes", cudaPointerGetAttributes(&a, p + 5));
  SAY("child: type", a.type);
  SAY("child: device", a.device);
  SAY("child: devicePointer is the pointer", a.devicePointer == p + 5);
  CUdeviceptr base = 0;
  size_t size = 0;
  SHOW("child: cuMemGetAddressRange", cuMemGetAddressRange(&base, &size, (CUdeviceptr)(p + 5)));
  SAY("child: base is the opened pointer", base == (CUdeviceptr)p);
  SAY("child: size covers the allocation", size >= kN * sizeof(int));
  SHOW_NULL("child: cudaIpcOpenEventHandle(NULL)", cudaIpcOpenEventHandle(nullptr, h.event));
  SHOW("child: cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&ev, h.event));
  SHOW("child: cudaStreamWaitEvent", cudaStreamWaitEvent(0, ev, 0));
  SHOW("child: cudaEventQuery", cudaEventQuery(ev));
  SHOW("child: cudaEventSynchronize", cudaEventSynchronize(ev));
  SHOW("child: cudaEventElapsedTime", cudaEventElapsedTime(&ms, ev, ev));
  SHOW("child: cudaGetLastError", cudaGetLastError());
  // The recording ends here (see the top of the file): clean up quietly.
  cudaEventDestroy(ev);
  if (p2) cudaIpcCloseMemHandle(p2);
}

static int child(int sock) {
  handles h;
  get_bytes(sock, &h, sizeof(h));
  child_same_device(h);
  signal_peer(sock);
  return 0;
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  test_fork f = fork_test();
  if (f.pid == 0) {
    int status = child(f.sock);
    std::fflush(stdout);
    _exit(status);
  }
  alarm(300);
  parent(f.sock);
  int status = reap_child(f);
  if (status) SAY("child exit status", status);
  return 0;
}
