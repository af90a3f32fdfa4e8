// SPDX-License-Identifier: MIT
// The six kernels of the executor benchmark in OpenCL C, for PoCL: the
// same algorithms as six.cu (work-groups for blocks, local memory for
// shared), so that exec_bench.c compares executors, not algorithms.

#define TILE 16

__kernel void vector_add(__global const float *a, __global const float *b,
			 __global float *c, int n)
{
	int i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i];
}

__kernel void sgemm(__global const float *a, __global const float *b,
		    __global float *c, int n)
{
	__local float ta[TILE][TILE], tb[TILE][TILE];
	int tx = get_local_id(0), ty = get_local_id(1);
	int row = get_group_id(1) * TILE + ty;
	int col = get_group_id(0) * TILE + tx;
	float sum = 0.0f;
	for (int t = 0; t < n; t += TILE) {
		ta[ty][tx] = a[row * n + t + tx];
		tb[ty][tx] = b[(t + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TILE; k++)
			sum += ta[ty][k] * tb[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = sum;
}

__kernel void reduce(__global const float *in, __global float *partial,
		     int n)
{
	__local float s[256];
	int lid = get_local_id(0);
	float v = 0.0f;
	for (int i = get_global_id(0); i < n; i += get_global_size(0))
		v += in[i];
	s[lid] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			s[lid] += s[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partial[get_group_id(0)] = s[0];
}

__kernel void histogram256(__global const uchar *in, __global uint *bins,
			   int n)
{
	__local uint local_bins[256];
	int lid = get_local_id(0);
	local_bins[lid] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = get_global_id(0); i < n; i += get_global_size(0))
		atomic_inc(&local_bins[in[i]]);
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_add(&bins[lid], local_bins[lid]);
}

__kernel void scan_blocks(__global const int *in, __global int *out,
			  __global int *sums)
{
	__local int s[256];
	int lid = get_local_id(0);
	int base = get_group_id(0) * 1024 + lid * 4;
	int v0 = in[base], v1 = in[base + 1], v2 = in[base + 2],
	    v3 = in[base + 3];
	int total = v0 + v1 + v2 + v3;
	s[lid] = total;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int off = 1; off < 256; off *= 2) {
		int add = lid >= off ? s[lid - off] : 0;
		barrier(CLK_LOCAL_MEM_FENCE);
		s[lid] += add;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	int before = s[lid] - total;
	out[base] = before;
	out[base + 1] = before + v0;
	out[base + 2] = before + v0 + v1;
	out[base + 3] = before + v0 + v1 + v2;
	if (lid == 255)
		sums[get_group_id(0)] = s[255];
}

__kernel void scan_sums(__global int *sums, int count)
{
	__local int s[1024];
	int lid = get_local_id(0);
	int per = (count + 1023) / 1024, first = lid * per;
	int total = 0;
	for (int i = 0; i < per && first + i < count; i++)
		total += sums[first + i];
	s[lid] = total;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int off = 1; off < 1024; off *= 2) {
		int add = lid >= off ? s[lid - off] : 0;
		barrier(CLK_LOCAL_MEM_FENCE);
		s[lid] += add;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	int run = s[lid] - total;
	for (int i = 0; i < per && first + i < count; i++) {
		int v = sums[first + i];
		sums[first + i] = run;
		run += v;
	}
}

__kernel void add_offsets(__global int *out, __global const int *sums)
{
	int i = get_global_id(0);
	out[i] += sums[i / 1024];
}

__kernel void nbody(__global const float4 *pos, __global float4 *vel, int n,
		    float dt)
{
	__local float4 tile[256];
	int lid = get_local_id(0);
	int i = get_global_id(0);
	float4 p = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int t = 0; t < n; t += 256) {
		tile[lid] = pos[t + lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int j = 0; j < 256; j++) {
			float4 q = tile[j];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float d2 = dx * dx + dy * dy + dz * dz + 0.01f;
			float inv = rsqrt(d2);
			float s = q.w * inv * inv * inv;
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	float4 v = vel[i];
	v.x += ax * dt;
	v.y += ay * dt;
	v.z += az * dt;
	vel[i] = v;
}
