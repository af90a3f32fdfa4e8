// SPDX-License-Identifier: MIT
// Driver-path benchmarks, run in the test VM on vcuda.ko: launch
// latency and throughput, synchronization, copies and fills through the
// copy engine, graph launches. Prints "name<TAB>value<TAB>unit" lines.
// Times are host wall-clock (CLOCK_MONOTONIC); medians where a single
// operation is timed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <algorithm>
#include <vector>

#define CHECK(call)                                                        \
	do {                                                               \
		cudaError_t err_ = (call);                                 \
		if (err_ != cudaSuccess) {                                 \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,       \
				__LINE__, #call, cudaGetErrorString(err_)); \
			exit(1);                                           \
		}                                                          \
	} while (0)

__global__ void empty_kernel() {}

// One block busy for a while: what graph branches overlap.
__global__ void busy_kernel(int *out, int iters)
{
	int x = threadIdx.x;
	for (int i = 0; i < iters; i++)
		x = x * 1664525 + 1013904223;
	out[threadIdx.x] = x;
}

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

static double now_us()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void report(const char *name, double value, const char *unit)
{
	printf("%s\t%.3f\t%s\n", name, value, unit);
}

template <typename F> static double median_us(int reps, F op)
{
	std::vector<double> t(reps);
	for (int i = 0; i < reps; i++) {
		double t0 = now_us();
		op();
		t[i] = now_us() - t0;
	}
	std::sort(t.begin(), t.end());
	return t[reps / 2];
}

static void bench_launches()
{
	CHECK(cudaFree(0));
	empty_kernel<<<1, 32>>>();
	CHECK(cudaDeviceSynchronize());
	report("launch_sync_latency", median_us(200, [] {
		       empty_kernel<<<1, 32>>>();
		       CHECK(cudaDeviceSynchronize());
	       }), "us");
	const int n = 1000;
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		empty_kernel<<<1, 32>>>();
	CHECK(cudaDeviceSynchronize());
	report("launch_pipelined", (now_us() - t0) / n, "us/launch");
	report("device_sync_idle", median_us(200, [] {
		       CHECK(cudaDeviceSynchronize());
	       }), "us");
}

static void bench_events()
{
	cudaEvent_t ev;
	CHECK(cudaEventCreate(&ev));
	report("event_record_sync", median_us(200, [&] {
		       CHECK(cudaEventRecord(ev));
		       CHECK(cudaEventSynchronize(ev));
	       }), "us");
	CHECK(cudaEventDestroy(ev));
}

static void report_bandwidth(const char *name, size_t bytes, double us)
{
	report(name, bytes / us * 1e6 / (1 << 20), "MiB/s");
}

static void bench_copies()
{
	const size_t bytes = 4u << 20;
	void *dev, *dev2, *pinned, *pageable = malloc(bytes);
	CHECK(cudaMalloc(&dev, bytes));
	CHECK(cudaMalloc(&dev2, bytes));
	CHECK(cudaMallocHost(&pinned, bytes));
	memset(pageable, 1, bytes);
	memset(pinned, 1, bytes);
	const int reps = 9;
	report_bandwidth("memcpy_h2d_pageable", bytes, median_us(reps, [&] {
		CHECK(cudaMemcpy(dev, pageable, bytes, cudaMemcpyHostToDevice));
	}));
	report_bandwidth("memcpy_d2h_pageable", bytes, median_us(reps, [&] {
		CHECK(cudaMemcpy(pageable, dev, bytes, cudaMemcpyDeviceToHost));
	}));
	report_bandwidth("memcpy_h2d_pinned_async", bytes, median_us(reps, [&] {
		CHECK(cudaMemcpyAsync(dev, pinned, bytes,
				      cudaMemcpyHostToDevice));
		CHECK(cudaDeviceSynchronize());
	}));
	report_bandwidth("memcpy_d2d_async", bytes, median_us(reps, [&] {
		CHECK(cudaMemcpyAsync(dev2, dev, bytes,
				      cudaMemcpyDeviceToDevice));
		CHECK(cudaDeviceSynchronize());
	}));
	report_bandwidth("memset_async", bytes, median_us(reps, [&] {
		CHECK(cudaMemsetAsync(dev, 0x5a, bytes));
		CHECK(cudaDeviceSynchronize());
	}));
	CHECK(cudaFreeHost(pinned));
	CHECK(cudaFree(dev2));
	CHECK(cudaFree(dev));
	free(pageable);
}

static void bench_graph()
{
	const int nodes = 10;
	cudaStream_t s;
	cudaGraph_t graph;
	cudaGraphExec_t exec;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	for (int i = 0; i < nodes; i++)
		empty_kernel<<<1, 32, 0, s>>>();
	CHECK(cudaStreamEndCapture(s, &graph));
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	report("graph_launch_10_kernels", median_us(50, [&] {
		       CHECK(cudaGraphLaunch(exec, s));
		       CHECK(cudaStreamSynchronize(s));
	       }), "us");
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(graph));
	CHECK(cudaStreamDestroy(s));
}

// @branches busy kernels, as independent branches or as one chain.
static double busy_graph_us(int *out, bool branches)
{
	const int n = 4;
	cudaStream_t s;
	cudaGraph_t graph;
	cudaGraphExec_t exec;
	cudaGraphNode_t prev = nullptr, node;
	int iters = 20000;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaGraphCreate(&graph, 0));
	for (int i = 0; i < n; i++) {
		int *slot = out + 32 * i;
		void *args[] = { &slot, &iters };
		cudaKernelNodeParams p = {};
		p.func = (void *)busy_kernel;
		p.gridDim = dim3(1);
		p.blockDim = dim3(32);
		p.kernelParams = args;
		CHECK(cudaGraphAddKernelNode(&node, graph, branches ? nullptr : &prev,
					     branches || !prev ? 0 : 1, &p));
		prev = node;
	}
	CHECK(cudaGraphInstantiate(&exec, graph, 0));
	double us = median_us(9, [&] {
		CHECK(cudaGraphLaunch(exec, s));
		CHECK(cudaStreamSynchronize(s));
	});
	CHECK(cudaGraphExecDestroy(exec));
	CHECK(cudaGraphDestroy(graph));
	CHECK(cudaStreamDestroy(s));
	return us;
}

static void bench_graph_branches()
{
	int *out;
	CHECK(cudaMalloc(&out, 4 * 32 * sizeof(int)));
	report("graph_4_busy_kernels_chain", busy_graph_us(out, false), "us");
	report("graph_4_busy_kernels_branches", busy_graph_us(out, true), "us");
	CHECK(cudaFree(out));
}

static void bench_vector_add()
{
	const int n = 1 << 16;
	float *a, *b, *c;
	CHECK(cudaMalloc(&a, n * sizeof(float)));
	CHECK(cudaMalloc(&b, n * sizeof(float)));
	CHECK(cudaMalloc(&c, n * sizeof(float)));
	CHECK(cudaMemset(a, 0, n * sizeof(float)));
	CHECK(cudaMemset(b, 0, n * sizeof(float)));
	double us = median_us(9, [&] {
		vector_add<<<n / 256, 256>>>(a, b, c, n);
		CHECK(cudaDeviceSynchronize());
	});
	report("vector_add_64k", n / us, "Melem/s");
	CHECK(cudaFree(a));
	CHECK(cudaFree(b));
	CHECK(cudaFree(c));
}

int main()
{
	bench_launches();
	bench_events();
	bench_copies();
	bench_graph();
	bench_graph_branches();
	bench_vector_add();
	return 0;
}
