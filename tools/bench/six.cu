// SPDX-License-Identifier: MIT
// The six kernels of the executor benchmark (tools/bench/exec_bench.c),
// written as an ordinary CUDA programmer would; six_c.c holds the same
// algorithms in C. vectorAdd, tiled SGEMM, a shared-memory reduction, a
// 256-bin histogram with shared atomics, an exclusive scan (three
// kernels: per-block scans, a scan of the block sums, the offsets) and
// an n-body step.

#define TILE 16

extern "C" __global__ void vector_add(const float *a, const float *b,
				      float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" __global__ void sgemm(const float *a, const float *b, float *c,
				 int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	for (int t = 0; t < n; t += TILE) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = sum;
}

// Each block sums a grid-stride slice, then halves in shared memory.
extern "C" __global__ void reduce(const float *in, float *partial, int n)
{
	__shared__ float s[256];
	float v = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		v += in[i];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
		if (threadIdx.x < stride)
			s[threadIdx.x] += s[threadIdx.x + stride];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s[0];
}

extern "C" __global__ void histogram256(const unsigned char *in,
					unsigned *bins, int n)
{
	__shared__ unsigned local[256];
	local[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		atomicAdd(&local[in[i]], 1u);
	__syncthreads();
	atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Exclusive scan of 1024 ints per block (256 threads, 4 each); the
// block's total goes to sums[].
extern "C" __global__ void scan_blocks(const int *in, int *out, int *sums)
{
	__shared__ int s[256];
	int base = blockIdx.x * 1024 + threadIdx.x * 4;
	int v0 = in[base], v1 = in[base + 1], v2 = in[base + 2],
	    v3 = in[base + 3];
	int total = v0 + v1 + v2 + v3;
	s[threadIdx.x] = total;
	__syncthreads();
	for (int off = 1; off < 256; off *= 2) {	// Hillis-Steele
		int add = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
		__syncthreads();
		s[threadIdx.x] += add;
		__syncthreads();
	}
	int before = s[threadIdx.x] - total;
	out[base] = before;
	out[base + 1] = before + v0;
	out[base + 2] = before + v0 + v1;
	out[base + 3] = before + v0 + v1 + v2;
	if (threadIdx.x == 255)
		sums[blockIdx.x] = s[255];
}

// One block: exclusive scan of @count block sums in place, 1024 threads.
extern "C" __global__ void scan_sums(int *sums, int count)
{
	__shared__ int s[1024];
	int per = (count + 1023) / 1024, first = threadIdx.x * per;
	int total = 0;
	for (int i = 0; i < per && first + i < count; i++)
		total += sums[first + i];
	s[threadIdx.x] = total;
	__syncthreads();
	for (int off = 1; off < 1024; off *= 2) {
		int add = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
		__syncthreads();
		s[threadIdx.x] += add;
		__syncthreads();
	}
	int run = s[threadIdx.x] - total;
	for (int i = 0; i < per && first + i < count; i++) {
		int v = sums[first + i];
		sums[first + i] = run;
		run += v;
	}
}

extern "C" __global__ void add_offsets(int *out, const int *sums)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] += sums[i / 1024];
}

// One step of an n-body simulation: accelerations from every body, in
// tiles of 256 through shared memory. pos: x, y, z, mass.
extern "C" __global__ void nbody(const float4 *pos, float4 *vel, int n,
				 float dt)
{
	__shared__ float4 tile[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 p = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int t = 0; t < n; t += 256) {
		tile[threadIdx.x] = pos[t + threadIdx.x];
		__syncthreads();
		for (int j = 0; j < 256; j++) {
			float4 q = tile[j];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
			float inv = rsqrtf(d2);
			float s = q.w * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		__syncthreads();
	}
	float4 v = vel[i];
	v.x += ax * dt;
	v.y += ay * dt;
	v.z += az * dt;
	vel[i] = v;
}
