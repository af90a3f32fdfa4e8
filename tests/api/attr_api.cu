// SPDX-License-Identifier: MIT
//
// Stream, launch and kernel-node attributes, persisting-L2 limits and
// compressible memory: what each call returns, what Get reports after Set
// and by default, and the errors for bad values and bad attributes.
// Printed values are the same on any GPU: codes, booleans and what was set.
#include <cuda.h>
#include <cuda_runtime.h>

#include "api_test.h"

__global__ void bump(int *p) { atomicAdd(p, 1); }

static CUdeviceptr buf;
static size_t max_window;
static int least_priority, greatest_priority;

static void show_window(const char *what, const CUaccessPolicyWindow &w) {
  char bytes[32];
  if (w.num_bytes && w.num_bytes == max_window)
    std::snprintf(bytes, sizeof(bytes), "max");
  else
    std::snprintf(bytes, sizeof(bytes), "%zu", w.num_bytes);
  std::printf("%s: base_is_buf=%d bytes=%s hit=%.3f hitProp=%d missProp=%d\n",
              what, w.base_ptr == (void *)buf, bytes, w.hitRatio,
              (int)w.hitProp, (int)w.missProp);
}

static void show_value(const char *what, CUlaunchAttributeID id,
                       const CUlaunchAttributeValue &v) {
  switch (id) {
  case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    show_window(what, v.accessPolicyWindow);
    break;
  case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    std::printf("%s: default=%d remote=%d\n", what,
                v.memSyncDomainMap.default_, v.memSyncDomainMap.remote);
    break;
  case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    // The range differs between GPUs: its ends by name.
    if (v.priority == greatest_priority)
      std::printf("%s: greatest\n", what);
    else if (v.priority == least_priority)
      std::printf("%s: least\n", what);
    else
      std::printf("%s: %d\n", what, v.priority);
    break;
  default:
    std::printf("%s: %d\n", what, (int)v.syncPolicy);
  }
}

static const CUlaunchAttributeID all_ids[] = {
    CU_LAUNCH_ATTRIBUTE_IGNORE,
    CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW,
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
    CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT,
    CU_LAUNCH_ATTRIBUTE_PRIORITY,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION,
    CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT,
    CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
    (CUlaunchAttributeID)15,
    CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING,
    (CUlaunchAttributeID)17,
    (CUlaunchAttributeID)99,
};

static CUaccessPolicyWindow window(size_t bytes, float hit, CUaccessProperty hp,
                                   CUaccessProperty mp) {
  CUaccessPolicyWindow w = {};
  w.base_ptr = (void *)buf;
  w.num_bytes = bytes;
  w.hitRatio = hit;
  w.hitProp = hp;
  w.missProp = mp;
  return w;
}

// Every attribute id on a stream: default, then set to a value and read.
static void stream_attrs(CUstream s, const char *name) {
  char what[160];
  for (CUlaunchAttributeID id : all_ids) {
    CUlaunchAttributeValue v;
    std::memset(&v, 0x5a, sizeof(v));
    std::snprintf(what, sizeof(what), "%s get %d", name, (int)id);
    CUresult r = cuStreamGetAttribute(s, (CUstreamAttrID)id, &v);
    SHOW(what, r);
    if (r == CUDA_SUCCESS)
      show_value(what, id, v);
  }
  struct {
    const char *what;
    CUlaunchAttributeID id;
    CUlaunchAttributeValue v;
  } sets[32];
  int n = 0;
  auto add = [&](const char *w, CUlaunchAttributeID id) -> CUlaunchAttributeValue & {
    sets[n].what = w;
    sets[n].id = id;
    std::memset(&sets[n].v, 0, sizeof(sets[n].v));
    return sets[n++].v;
  };
  add("window persisting", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 0.6f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  add("window hit 1.5", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 1.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  add("window hit -0.5", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, -0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  add("window miss persisting", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 0.5f, CU_ACCESS_PROPERTY_STREAMING, CU_ACCESS_PROPERTY_PERSISTING);
  add("window prop 7", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 0.5f, (CUaccessProperty)7, CU_ACCESS_PROPERTY_NORMAL);
  add("window too big", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(max_window + 1, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_NORMAL);
  add("window max", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(max_window, 1.0f, CU_ACCESS_PROPERTY_NORMAL, CU_ACCESS_PROPERTY_NORMAL);
  add("window empty", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(0, 0.0f, CU_ACCESS_PROPERTY_NORMAL, CU_ACCESS_PROPERTY_NORMAL);
  add("sync spin", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY).syncPolicy = CU_SYNC_POLICY_SPIN;
  add("sync blocking", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY).syncPolicy =
      CU_SYNC_POLICY_BLOCKING_SYNC;
  add("sync 0", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY).syncPolicy = (CUsynchronizationPolicy)0;
  add("sync 9", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY).syncPolicy = (CUsynchronizationPolicy)9;
  add("priority greatest", CU_LAUNCH_ATTRIBUTE_PRIORITY).priority = greatest_priority;
  add("priority greatest-4", CU_LAUNCH_ATTRIBUTE_PRIORITY).priority = greatest_priority - 4;
  add("priority least+3", CU_LAUNCH_ATTRIBUTE_PRIORITY).priority = least_priority + 3;
  add("domain remote", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN).memSyncDomain =
      CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  add("domain 5", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN).memSyncDomain = (CUlaunchMemSyncDomain)5;
  {
    CUlaunchAttributeValue &v = add("domain map 1 0", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
    v.memSyncDomainMap.default_ = 1;
    v.memSyncDomainMap.remote = 0;
  }
  {
    CUlaunchAttributeValue &v = add("domain map 9 9", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
    v.memSyncDomainMap.default_ = 9;
    v.memSyncDomainMap.remote = 9;
  }
  add("cooperative", CU_LAUNCH_ATTRIBUTE_COOPERATIVE).cooperative = 1;
  add("nvlink", CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING).nvlinkUtilCentricScheduling = 1;
  add("nvlink 2", CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING).nvlinkUtilCentricScheduling = 2;
  add("carveout", CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT).sharedMemCarveout = 50;
  add("ignore", CU_LAUNCH_ATTRIBUTE_IGNORE).priority = 0;
  add("id 99", (CUlaunchAttributeID)99).priority = 0;
  for (int i = 0; i < n; i++) {
    CUlaunchAttributeValue got;
    std::memset(&got, 0, sizeof(got));
    std::snprintf(what, sizeof(what), "%s set %s", name, sets[i].what);
    SHOW(what, cuStreamSetAttribute(s, (CUstreamAttrID)sets[i].id, &sets[i].v));
    std::snprintf(what, sizeof(what), "%s then get %s", name, sets[i].what);
    CUresult r = cuStreamGetAttribute(s, (CUstreamAttrID)sets[i].id, &got);
    SHOW(what, r);
    if (r == CUDA_SUCCESS)
      show_value(what, sets[i].id, got);
  }
  // A NULL value crashes NVIDIA's driver (recorded as "crash"): not a
  // case CUDA defines, dropped (vcuda answers CUDA_ERROR_INVALID_VALUE).
}

static void copy_attrs(void) {
  CUstream a, b;
  CUlaunchAttributeValue v = {}, got = {};
  cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
  cuStreamCreate(&b, 0);
  v.accessPolicyWindow =
      window(8192, 0.25f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  SHOW("copy: set window on a", cuStreamSetAttribute(a, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  v.syncPolicy = CU_SYNC_POLICY_YIELD;
  SHOW("copy: set sync on a", cuStreamSetAttribute(a, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  v.priority = -1;
  SHOW("copy: set priority on a", cuStreamSetAttribute(a, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
  SHOW("copy: a to b", cuStreamCopyAttributes(b, a));
  SHOW("copy: b window", cuStreamGetAttribute(b, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  show_window("copy: b window", got.accessPolicyWindow);
  SHOW("copy: b sync", cuStreamGetAttribute(b, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &got));
  SAY("copy: b sync", got.syncPolicy);
  SHOW("copy: b priority", cuStreamGetAttribute(b, CU_STREAM_ATTRIBUTE_PRIORITY, &got));
  SAY("copy: b priority", got.priority);
  int prio = 7;
  unsigned int flags = 7;
  SHOW("copy: b cuStreamGetPriority", cuStreamGetPriority(b, &prio));
  SAY("copy: b cuStreamGetPriority", prio);
  SHOW("copy: b flags", cuStreamGetFlags(b, &flags));
  SAY("copy: b flags", flags);
  SHOW("copy: legacy to b", cuStreamCopyAttributes(b, CU_STREAM_LEGACY));
  SHOW("copy: b to legacy", cuStreamCopyAttributes(CU_STREAM_LEGACY, b));
  SHOW("copy: a to per-thread", cuStreamCopyAttributes(CU_STREAM_PER_THREAD, a));
  SHOW("copy: per-thread window", cuStreamGetAttribute(CU_STREAM_PER_THREAD,
                                                       CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  show_window("copy: per-thread window", got.accessPolicyWindow);
  // Work still runs with a window on the stream.
  int one = 0;
  cuMemsetD32(buf, 0, 1);
  void *args[] = {&buf};
  CUfunction f;
  cudaGetFuncBySymbol(&f, (const void *)bump);
  SHOW("copy: launch on a", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, a, args, NULL));
  SHOW("copy: launch on b", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, b, args, NULL));
  SHOW("copy: sync", cuCtxSynchronize());
  cuMemcpyDtoH(&one, buf, 4);
  SAY("copy: bumps", one);
  cuStreamDestroy(a);
  cuStreamDestroy(b);
}

static void runtime_forms(void) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaLaunchAttributeValue v = {}, got = {};
  v.accessPolicyWindow.base_ptr = (void *)buf;
  v.accessPolicyWindow.num_bytes = 2048;
  v.accessPolicyWindow.hitRatio = 0.75f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  SHOW("rt: set window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  SHOW("rt: get window", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
  show_window("rt: window", *(CUaccessPolicyWindow *)&got.accessPolicyWindow);
  v.accessPolicyWindow.hitRatio = 2.0f;
  SHOW("rt: set window hit 2", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  v.syncPolicy = cudaSyncPolicyBlockingSync;
  SHOW("rt: set sync", cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
  SHOW("rt: get sync", cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
  SAY("rt: sync", got.syncPolicy);
  SHOW("rt: get bad id", cudaStreamGetAttribute(s, (cudaStreamAttrID)99, &got));
  SHOW("rt: last error", cudaGetLastError());
  cudaStream_t t;
  cudaStreamCreate(&t);
  SHOW("rt: copy", cudaStreamCopyAttributes(t, s));
  SHOW("rt: get copied sync", cudaStreamGetAttribute(t, cudaStreamAttributeSynchronizationPolicy, &got));
  SAY("rt: copied sync", got.syncPolicy);
  SHOW("rt: get default stream priority", cudaStreamGetAttribute(0, cudaStreamAttributePriority, &got));
  SAY("rt: default stream priority", got.priority);
  SHOW("rt: per-thread get sync",
       cudaStreamGetAttribute(cudaStreamPerThread, cudaStreamAttributeSynchronizationPolicy, &got));
  SAY("rt: per-thread sync", got.syncPolicy);
  cudaStreamDestroy(s);
  cudaStreamDestroy(t);
}

// cuLaunchKernelEx with one attribute at a time.
static void launch_attrs(CUfunction f) {
  CUstream s;
  CUevent ev;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
  struct {
    const char *what;
    CUlaunchAttributeID id;
    CUlaunchAttributeValue v;
  } cases[40];
  int n = 0;
  auto add = [&](const char *w, CUlaunchAttributeID id) -> CUlaunchAttributeValue & {
    cases[n].what = w;
    cases[n].id = id;
    std::memset(&cases[n].v, 0, sizeof(cases[n].v));
    return cases[n++].v;
  };
  add("ignore", CU_LAUNCH_ATTRIBUTE_IGNORE);
  add("window", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 0.6f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  add("window hit 1.5", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 1.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  add("window too big", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(max_window + 1, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_NORMAL);
  add("window miss persisting", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW).accessPolicyWindow =
      window(4096, 0.5f, CU_ACCESS_PROPERTY_STREAMING, CU_ACCESS_PROPERTY_PERSISTING);
  add("cooperative", CU_LAUNCH_ATTRIBUTE_COOPERATIVE).cooperative = 1;
  add("sync policy", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY).syncPolicy = CU_SYNC_POLICY_SPIN;
  add("cluster 1", CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION).clusterDim.x = 1;
  cases[n - 1].v.clusterDim.y = cases[n - 1].v.clusterDim.z = 1;
  add("cluster sched spread", CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
      .clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  add("cluster sched 9", CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
      .clusterSchedulingPolicyPreference = (CUclusterSchedulingPolicy)9;
  add("serialization", CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      .programmaticStreamSerializationAllowed = 1;
  {
    CUlaunchAttributeValue &v = add("programmatic event", CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT);
    v.programmaticEvent.event = ev;
    v.programmaticEvent.flags = 0;
    v.programmaticEvent.triggerAtBlockStart = 0;
  }
  add("programmatic event NULL", CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT);
  add("priority -1", CU_LAUNCH_ATTRIBUTE_PRIORITY).priority = -1;
  add("priority 42", CU_LAUNCH_ATTRIBUTE_PRIORITY).priority = 42;
  {
    CUlaunchAttributeValue &v = add("domain map", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
    v.memSyncDomainMap.default_ = 0;
    v.memSyncDomainMap.remote = 1;
  }
  {
    CUlaunchAttributeValue &v = add("domain map 9", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
    v.memSyncDomainMap.default_ = 9;
  }
  add("domain remote", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN).memSyncDomain =
      CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  add("domain 5", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN).memSyncDomain = (CUlaunchMemSyncDomain)5;
  {
    CUlaunchAttributeValue &v = add("preferred cluster", CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION);
    v.preferredClusterDim.x = 1;
    v.preferredClusterDim.y = 1;
    v.preferredClusterDim.z = 1;
  }
  {
    CUlaunchAttributeValue &v = add("completion event", CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT);
    v.launchCompletionEvent.event = ev;
    v.launchCompletionEvent.flags = 0;
  }
  add("completion event NULL", CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT);
  add("updatable", CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE).deviceUpdatableKernelNode.deviceUpdatable = 1;
  add("carveout 50", CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT).sharedMemCarveout = 50;
  add("carveout 101", CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT).sharedMemCarveout = 101;
  add("id 15", (CUlaunchAttributeID)15);
  add("nvlink 1", CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING).nvlinkUtilCentricScheduling = 1;
  add("nvlink 2", CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING).nvlinkUtilCentricScheduling = 2;
  add("id 99", (CUlaunchAttributeID)99);
  for (int i = 0; i < n; i++) {
    CUlaunchAttribute a;
    std::memset(&a, 0, sizeof(a));
    a.id = cases[i].id;
    a.value = cases[i].v;
    CUlaunchConfig cfg = {};
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 32;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.hStream = s;
    cfg.attrs = &a;
    cfg.numAttrs = 1;
    void *args[] = {&buf};
    char what[120];
    std::snprintf(what, sizeof(what), "launchEx %s", cases[i].what);
    cuMemsetD32(buf, 0, 1);
    SHOW(what, cuLaunchKernelEx(&cfg, f, args, NULL));
    std::snprintf(what, sizeof(what), "launchEx %s sync", cases[i].what);
    SHOW(what, cuStreamSynchronize(s));
    int v = -1;
    cuMemcpyDtoH(&v, buf, 4);
    std::snprintf(what, sizeof(what), "launchEx %s bumps", cases[i].what);
    SAY(what, v);
  }
  // The runtime form with a window.
  cudaLaunchAttribute ra[1];
  std::memset(ra, 0, sizeof(ra));
  ra[0].id = cudaLaunchAttributeAccessPolicyWindow;
  ra[0].val.accessPolicyWindow.base_ptr = (void *)buf;
  ra[0].val.accessPolicyWindow.num_bytes = 4;
  ra[0].val.accessPolicyWindow.hitRatio = 1.0f;
  ra[0].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  ra[0].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaLaunchConfig_t rc = {};
  rc.gridDim = dim3(1);
  rc.blockDim = dim3(32);
  rc.stream = (cudaStream_t)s;
  rc.attrs = ra;
  rc.numAttrs = 1;
  cuMemsetD32(buf, 0, 1);
  SHOW("cudaLaunchKernelEx window", cudaLaunchKernelEx(&rc, bump, (int *)buf));
  SHOW("cudaLaunchKernelEx sync", cudaStreamSynchronize((cudaStream_t)s));
  int v = -1;
  cuMemcpyDtoH(&v, buf, 4);
  SAY("cudaLaunchKernelEx bumps", v);
  cuEventDestroy(ev);
  cuStreamDestroy(s);
}

// Kernel-node attributes in a graph, and on a node that is not a kernel.
static void node_attrs(CUfunction f) {
  CUgraph g;
  CUgraphNode k, k2, m;
  cuGraphCreate(&g, 0);
  void *args[] = {&buf};
  CUDA_KERNEL_NODE_PARAMS p = {};
  p.func = f;
  p.gridDimX = p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = 32;
  p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = args;
  SHOW("node: add kernel", cuGraphAddKernelNode(&k, g, NULL, 0, &p));
  SHOW("node: add kernel 2", cuGraphAddKernelNode(&k2, g, &k, 1, &p));
  CUDA_MEMSET_NODE_PARAMS ms = {};
  ms.dst = buf + 64;
  ms.elementSize = 4;
  ms.width = 1;
  ms.height = 1;
  ms.value = 0;
  CUcontext ctx;
  cuCtxGetCurrent(&ctx);
  SHOW("node: add memset", cuGraphAddMemsetNode(&m, g, NULL, 0, &ms, ctx));
  char what[120];
  for (CUlaunchAttributeID id : all_ids) {
    CUlaunchAttributeValue v;
    std::memset(&v, 0, sizeof(v));
    std::snprintf(what, sizeof(what), "node: get %d", (int)id);
    CUresult r = cuGraphKernelNodeGetAttribute(k, (CUkernelNodeAttrID)id, &v);
    SHOW(what, r);
    if (r == CUDA_SUCCESS)
      show_value(what, id, v);
  }
  CUlaunchAttributeValue v = {}, got = {};
  v.accessPolicyWindow =
      window(4096, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  SHOW("node: set window", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  SHOW("node: get window", cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  show_window("node: window", got.accessPolicyWindow);
  v.accessPolicyWindow.hitRatio = 3.0f;
  SHOW("node: set window hit 3", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
  memset(&v, 0, sizeof(v));
  v.cooperative = 1;
  SHOW("node: set cooperative", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE, &v));
  SHOW("node: get cooperative", cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE, &got));
  SAY("node: cooperative", got.cooperative);
  memset(&v, 0, sizeof(v));
  v.priority = -1;
  SHOW("node: set priority", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  SHOW("node: get priority", cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got));
  SAY("node: priority", got.priority);
  memset(&v, 0, sizeof(v));
  v.syncPolicy = CU_SYNC_POLICY_SPIN;
  SHOW("node: set sync policy", cuGraphKernelNodeSetAttribute(k, (CUkernelNodeAttrID)CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  memset(&v, 0, sizeof(v));
  v.clusterDim.x = v.clusterDim.y = v.clusterDim.z = 1;
  SHOW("node: set cluster 1", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_DIMENSION, &v));
  SHOW("node: get cluster", cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_CLUSTER_DIMENSION, &got));
  std::printf("node: cluster = %u %u %u\n", got.clusterDim.x, got.clusterDim.y, got.clusterDim.z);
  memset(&v, 0, sizeof(v));
  v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  SHOW("node: set domain", cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
  SHOW("node: get domain", cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_MEM_SYNC_DOMAIN, &got));
  SAY("node: domain", got.memSyncDomain);
  SHOW("node: set id 99", cuGraphKernelNodeSetAttribute(k, (CUkernelNodeAttrID)99, &v));
  SHOW("node: copy to k2", cuGraphKernelNodeCopyAttributes(k2, k));
  SHOW("node: k2 window", cuGraphKernelNodeGetAttribute(k2, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  show_window("node: k2 window", got.accessPolicyWindow);
  SHOW("node: k2 priority", cuGraphKernelNodeGetAttribute(k2, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got));
  SAY("node: k2 priority", got.priority);
  SHOW("node: k2 cooperative", cuGraphKernelNodeGetAttribute(k2, CU_KERNEL_NODE_ATTRIBUTE_COOPERATIVE, &got));
  SAY("node: k2 cooperative", got.cooperative);
  SHOW("node: get on memset", cuGraphKernelNodeGetAttribute(m, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got));
  SHOW("node: set on memset", cuGraphKernelNodeSetAttribute(m, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &v));
  SHOW("node: copy from memset", cuGraphKernelNodeCopyAttributes(k2, m));
  SHOW("node: copy to memset", cuGraphKernelNodeCopyAttributes(m, k));
  SHOW_NULL("node: get NULL node", cuGraphKernelNodeGetAttribute(NULL, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got));
  // The graph still runs, its attributes in place.
  CUgraphExec e;
  cuMemsetD32(buf, 0, 1);
  SHOW("node: instantiate", cuGraphInstantiate(&e, g, 0));
  SHOW("node: launch", cuGraphLaunch(e, 0));
  SHOW("node: sync", cuCtxSynchronize());
  int n = -1;
  cuMemcpyDtoH(&n, buf, 4);
  SAY("node: bumps", n);
  cuGraphExecDestroy(e);
  // Captured launches carry the stream's attributes to their nodes.
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  memset(&v, 0, sizeof(v));
  v.priority = -1;
  cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v);
  v.accessPolicyWindow =
      window(1024, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING);
  cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v);
  CUgraph cg;
  cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, NULL);
  SHOW("capture: end", cuStreamEndCapture(s, &cg));
  size_t count = 1;
  CUgraphNode cn;
  cuGraphGetNodes(cg, &cn, &count);
  SHOW("capture: node window", cuGraphKernelNodeGetAttribute(cn, CU_KERNEL_NODE_ATTRIBUTE_ACCESS_POLICY_WINDOW, &got));
  show_window("capture: node window", got.accessPolicyWindow);
  SHOW("capture: node priority", cuGraphKernelNodeGetAttribute(cn, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got));
  SAY("capture: node priority", got.priority);
  cuGraphDestroy(cg);
  cuStreamDestroy(s);
  cuGraphDestroy(g);
}

static void l2_limits(void) {
  CUdevice dev;
  cuCtxGetDevice(&dev);
  int max_persist = 0, max_win = 0, l2 = 0;
  SHOW("attr max persisting L2", cuDeviceGetAttribute(&max_persist, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, dev));
  SHOW("attr max window", cuDeviceGetAttribute(&max_win, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, dev));
  cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
  SAY("max persisting <= L2", max_persist <= l2);
  SAY("max window > 0", max_win > 0);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  SAY("prop persistingL2CacheMaxSize matches", prop.persistingL2CacheMaxSize == max_persist);
  SAY("prop accessPolicyMaxWindowSize matches", prop.accessPolicyMaxWindowSize == max_win);
  size_t lim = 123;
  SHOW("limit persisting default", cuCtxGetLimit(&lim, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
  SAY("limit persisting default <= max", lim <= (size_t)max_persist);
  size_t want = max_persist / 2;
  SHOW("limit persisting set half", cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, want));
  SHOW("limit persisting get", cuCtxGetLimit(&lim, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
  SAY("limit persisting half: got <= max", lim <= (size_t)max_persist);
  SAY("limit persisting half: got >= half/2", lim >= want / 2);
  SHOW("limit persisting set max", cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, max_persist));
  cuCtxGetLimit(&lim, CU_LIMIT_PERSISTING_L2_CACHE_SIZE);
  SAY("limit persisting max: got == max", lim == (size_t)max_persist);
  SHOW("limit persisting set max+1M", cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)max_persist + (1 << 20)));
  cuCtxGetLimit(&lim, CU_LIMIT_PERSISTING_L2_CACHE_SIZE);
  SAY("limit persisting max+1M: got == max", lim == (size_t)max_persist);
  SHOW("rt limit persisting set 0", cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  SHOW("rt limit persisting get", cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
  SAY("rt limit persisting", lim);
  SHOW("reset persisting", cuCtxResetPersistingL2Cache());
  SHOW("rt reset persisting", cudaCtxResetPersistingL2Cache());
  max_window = (size_t)max_win;
}

static void compression(void) {
  CUdevice dev;
  cuCtxGetDevice(&dev);
  int supported = -1, vmm = 0;
  SHOW("attr generic compression", cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev));
  SAY("attr generic compression is 0 or 1", supported == 0 || supported == 1);
  cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
  SAY("vmm", vmm);
  for (int type = 0; type < 3; type++) {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.allocFlags.compressionType = (unsigned char)type;
    size_t gran = 0;
    char what[120];
    std::snprintf(what, sizeof(what), "comp %d granularity", type);
    SHOW(what, cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    std::snprintf(what, sizeof(what), "comp %d create", type);
    CUresult r = cuMemCreate(&h, gran ? gran : (2 << 20), &prop, 0);
    SHOW(what, r);
    if (r != CUDA_SUCCESS)
      continue;
    CUmemAllocationProp got = {};
    std::snprintf(what, sizeof(what), "comp %d properties", type);
    SHOW(what, cuMemGetAllocationPropertiesFromHandle(&got, h));
    std::snprintf(what, sizeof(what), "comp %d reported as asked if supported", type);
    SAY(what, got.allocFlags.compressionType == (supported ? type : 0));
    CUdeviceptr va;
    cuMemAddressReserve(&va, gran, 0, 0, 0);
    cuMemMap(va, gran, 0, h, 0);
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    cuMemSetAccess(va, gran, &acc, 1);
    int v = 0x1234;
    cuMemcpyHtoD(va, &v, 4);
    v = 0;
    cuMemcpyDtoH(&v, va, 4);
    std::snprintf(what, sizeof(what), "comp %d round trip", type);
    SAY(what, v == 0x1234);
    int rdma = -1;
    std::snprintf(what, sizeof(what), "comp %d pointer rdma capable", type);
    SHOW(what, cuPointerGetAttribute(&rdma, CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, va));
    size_t msize = 0;
    std::snprintf(what, sizeof(what), "comp %d mapping size", type);
    SHOW(what, cuPointerGetAttribute(&msize, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, va + 16));
    SAY(what, msize == gran);
    CUdeviceptr mbase = 0;
    std::snprintf(what, sizeof(what), "comp %d mapping base", type);
    SHOW(what, cuPointerGetAttribute(&mbase, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, va + 16));
    SAY(what, mbase == va);
    cuMemUnmap(va, gran);
    cuMemAddressFree(va, gran);
    cuMemRelease(h);
  }
  int rdma = -1;
  SHOW("cuMemAlloc rdma capable", cuPointerGetAttribute(&rdma, CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, buf));
  SAY("cuMemAlloc rdma capable is 0 or 1", rdma == 0 || rdma == 1);
  size_t msize = 0;
  SHOW("cuMemAlloc mapping size", cuPointerGetAttribute(&msize, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, buf + 8));
  SAY("cuMemAlloc mapping size >= 4096", msize >= 4096);
  CUdeviceptr mbase = 0;
  SHOW("cuMemAlloc mapping base", cuPointerGetAttribute(&mbase, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, buf + 8));
  SAY("cuMemAlloc mapping base <= buf", mbase && mbase <= buf);
}

int main() {
  cudaFree(0);
  cuMemAlloc(&buf, 4096);
  cuCtxGetStreamPriorityRange(&least_priority, &greatest_priority);
  CUfunction f;
  SHOW("cudaGetFuncBySymbol", cudaGetFuncBySymbol(&f, (const void *)bump));
  l2_limits();
  compression();
  CUstream s;
  cuStreamCreate(&s, 0);
  stream_attrs(s, "stream");
  stream_attrs(CU_STREAM_LEGACY, "legacy");
  stream_attrs(CU_STREAM_PER_THREAD, "per-thread");
  copy_attrs();
  runtime_forms();
  launch_attrs(f);
  node_attrs(f);
  SHOW("final sync", cuCtxSynchronize());
  cuStreamDestroy(s);
  cuMemFree(buf);
  return 0;
}
