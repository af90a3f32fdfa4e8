// SPDX-License-Identifier: MIT
//
// Dynamic parallelism (CDP2) as NVIDIA's device runtime answers it: the
// pending-launch limit and its error, device-side error queries, device
// streams and events, nesting, tail-launch order. Each line is a fact
// recorded on an H200 (tests/api/README.md) by the same kernels; the
// order of launches that may run concurrently is left out.
#include <cstdio>

#include <cuda_runtime.h>

__device__ int order_ctr;

__global__ void mark(int *ran, int i, long long spin)
{
	long long t0 = clock64();
	while (clock64() - t0 < spin) {
	}
	ran[i] = 1 + atomicAdd(&order_ctr, 1);
}

__global__ void nop() {}

// Thread 0 launches n grids of mark(ran, i) into a stream: 0 the NULL
// stream, 3 the tail stream, 4 fire-and-forget, 5 a stream of its own.
__global__ void many(int n, int sel, int *codes, int *errs, int *ran,
		     long long spin0, long long spin)
{
	if (threadIdx.x)
		return;
	cudaStream_t s = sel == 3 ? cudaStreamTailLaunch :
			 sel == 4 ? cudaStreamFireAndForget : 0;
	if (sel == 5)
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	for (int i = 0; i < n; i++) {
		void *buf = cudaGetParameterBufferV2((void *)mark, dim3(1),
						     dim3(1), 0);
		if (!buf) {
			codes[i] = 1000;
			errs[i] = cudaGetLastError();
			continue;
		}
		*(int **)buf = ran;
		*(int *)((char *)buf + 8) = i;
		*(long long *)((char *)buf + 16) = i ? spin : spin0;
		codes[i] = cudaLaunchDeviceV2(buf, s);
		errs[i] = cudaPeekAtLastError();
	}
	codes[n] = cudaGetLastError();
	codes[n + 1] = cudaGetLastError();
}

static void summary(const char *name, const char *what, const int *a, int n)
{
	int first = -1, bad = 0;
	for (int i = 0; i < n; i++) {
		if (a[i] && first < 0)
			first = i;
		bad += a[i] != 0;
	}
	printf("%s %s first_nonzero=%d value=%d count_nonzero=%d\n", name, what,
	       first, first >= 0 ? a[first] : 0, bad);
}

static void run_many(const char *name, int n, int sel, int limit,
		     long long spin0, long long spin)
{
	int *codes, *errs, *ran;
	cudaMallocManaged(&codes, 4 * (n + 2));
	cudaMallocManaged(&errs, 4 * n);
	cudaMallocManaged(&ran, 4 * n);
	for (int i = 0; i < n; i++) {
		codes[i] = errs[i] = -7;
		ran[i] = 0;
	}
	int set = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit);
	size_t got = 0;
	cudaDeviceGetLimit(&got, cudaLimitDevRuntimePendingLaunchCount);
	int z = 0;
	cudaMemcpyToSymbol(order_ctr, &z, sizeof(z));
	many<<<1, 32>>>(n, sel, codes, errs, ran, spin0, spin);
	int e1 = cudaDeviceSynchronize();
	int e2 = cudaGetLastError();
	printf("%s setlimit(%d)=%d get=%zu sync=%d last=%d after_loop_get=%d,%d\n",
	       name, limit, set, got, e1, e2, codes[n], codes[n + 1]);
	summary(name, "codes", codes, n);
	summary(name, "errs", errs, n);
	int nran = 0;
	for (int i = 0; i < n; i++)
		nran += ran[i] != 0;
	printf("%s ran %d of %d\n", name, nran, n);
	cudaFree(codes);
	cudaFree(errs);
	cudaFree(ran);
}

// Bad configurations fail at the launch, not at the parameter buffer;
// errors are per thread.
__global__ void error_queries(int *out)
{
	if (threadIdx.x == 0) {
		out[0] = cudaGetLastError();
		void *b = cudaGetParameterBufferV2((void *)nop, dim3(1), dim3(2048), 0);
		out[1] = b != 0;
		out[2] = cudaPeekAtLastError();
		out[3] = cudaPeekAtLastError();
		out[4] = cudaGetLastError();
		out[5] = cudaGetLastError();
		out[6] = b ? cudaLaunchDeviceV2(b, 0) : -1;
		out[7] = cudaGetLastError();
		b = cudaGetParameterBufferV2((void *)nop, dim3(1), dim3(1), 1 << 20);
		out[8] = b != 0;
		out[9] = b ? cudaLaunchDeviceV2(b, 0) : -1;
		out[10] = cudaGetLastError();
		b = cudaGetParameterBufferV2((void *)nop, dim3(0), dim3(1), 0);
		out[11] = b != 0;
		out[12] = b ? cudaLaunchDeviceV2(b, 0) : -1;
		out[13] = cudaGetLastError();
		b = cudaGetParameterBufferV2((void *)nop, dim3(1), dim3(1), 0);
		out[14] = b ? cudaLaunchDeviceV2(b, (cudaStream_t)0x1234) : -1;
		out[15] = cudaGetLastError();
		nop<<<1, 2048>>>();
	}
	__syncthreads();
	if (threadIdx.x == 1)
		out[16] = cudaGetLastError();
	if (threadIdx.x == 0)
		out[17] = cudaGetLastError();
}

__global__ void streams_events(int *out)
{
	if (threadIdx.x)
		return;
	cudaStream_t s0, s1;
	cudaEvent_t e0, e1;
	out[0] = cudaStreamCreateWithFlags(&s0, cudaStreamDefault);
	out[1] = cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
	out[2] = cudaEventCreateWithFlags(&e0, cudaEventDefault);
	out[3] = cudaEventCreateWithFlags(&e1, cudaEventDisableTiming);
	nop<<<1, 1, 0, s1>>>();
	out[4] = cudaGetLastError();
	out[5] = cudaEventRecord(e1, s1);
	out[6] = cudaStreamWaitEvent(0, e1, 0);
	out[7] = cudaEventRecord(e1, 0);
	out[8] = cudaEventRecord(e1, cudaStreamTailLaunch);
	out[9] = cudaStreamWaitEvent(cudaStreamTailLaunch, e1, 0);
	out[10] = cudaEventRecord(e1, cudaStreamFireAndForget);
	out[11] = cudaStreamWaitEvent(cudaStreamFireAndForget, e1, 0);
	out[12] = cudaStreamDestroy(s1);
	out[13] = cudaEventDestroy(e1);
	out[14] = cudaStreamCreateWithFlags(&s0, 7);
	int v = 0;
	out[15] = cudaRuntimeGetVersion(&v);
	out[16] = v;
	size_t lim = 0;
	out[17] = cudaDeviceGetLimit(&lim, cudaLimitDevRuntimePendingLaunchCount);
	out[18] = (int)lim;
	out[19] = cudaDeviceGetLimit(&lim, cudaLimitDevRuntimeSyncDepth);
	out[20] = (int)lim;
	int d = -1;
	out[21] = cudaGetDevice(&d);
	out[22] = d;
	out[23] = cudaGetLastError();
}

__global__ void deep(int depth, int *maxd)
{
	atomicMax(maxd, depth);
	if (depth < 60)
		deep<<<1, 1>>>(depth + 1, maxd);
}

// P enqueues tail launches T1 and T2, T1 enqueues T1a; P also launches a
// child into its NULL stream and one fire-and-forget.
__global__ void tail_grid(int *ran, int who)
{
	ran[who] = 1 + atomicAdd(&order_ctr, 1);
	if (who == 1)
		tail_grid<<<1, 1, 0, cudaStreamTailLaunch>>>(ran, 3);
}

__global__ void tail_parent(int *ran)
{
	if (threadIdx.x == 0 && blockIdx.x == 0) {
		tail_grid<<<1, 1, 0, cudaStreamTailLaunch>>>(ran, 1);
		tail_grid<<<1, 1, 0, cudaStreamTailLaunch>>>(ran, 2);
		mark<<<1, 1>>>(ran, 4, 0);
		mark<<<1, 1, 0, cudaStreamFireAndForget>>>(ran, 5, 0);
	}
	__syncthreads();
	atomicMax(&ran[0], 1 + atomicAdd(&order_ctr, 1));
}

static void print_out(const char *name, const int *out, int n)
{
	printf("%s", name);
	for (int i = 0; i < n; i++)
		printf(" %d", out[i]);
	printf("\n");
}

int main()
{
	for (int l : { 0, 1, 5, 100 }) {
		int r = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, l);
		size_t v = 0;
		cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount);
		printf("limit pending set %d: %d get %zu\n", l, r, v);
	}
	run_many("tail32x200", 200, 3, 32, 0, 0);
	run_many("nullslow32x200", 200, 0, 32, 20000000, 0);
	run_many("streamslow32x200", 200, 5, 32, 20000000, 0);
	cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048);

	int *out;
	cudaMallocManaged(&out, 4 * 64);
	for (int i = 0; i < 64; i++)
		out[i] = -7;
	error_queries<<<1, 32>>>(out);
	int s = cudaDeviceSynchronize();
	printf("error queries sync=%d last=%d\n", s, cudaGetLastError());
	print_out("error queries", out, 18);

	for (int i = 0; i < 64; i++)
		out[i] = -7;
	streams_events<<<1, 32>>>(out);
	s = cudaDeviceSynchronize();
	printf("streams and events sync=%d last=%d\n", s, cudaGetLastError());
	print_out("streams and events", out, 24);

	int *md;
	cudaMallocManaged(&md, 4);
	*md = -1;
	deep<<<1, 1>>>(0, md);
	s = cudaDeviceSynchronize();
	printf("nesting sync=%d last=%d deepest=%d\n", s, cudaGetLastError(), *md);

	for (int i = 0; i < 64; i++)
		out[i] = 0;
	int z = 0;
	cudaMemcpyToSymbol(order_ctr, &z, sizeof(z));
	tail_parent<<<4, 32>>>(out);
	s = cudaDeviceSynchronize();
	printf("tail order sync=%d last=%d\n", s, cudaGetLastError());
	printf("tail launches after the parent and its children: %d\n",
	       out[1] > out[0] && out[1] > out[4] && out[1] > out[5]);
	printf("a tail grid's tail launch before the next one: %d\n",
	       out[1] < out[3] && out[3] < out[2]);
	return 0;
}
