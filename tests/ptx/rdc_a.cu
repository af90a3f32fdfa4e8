// SPDX-License-Identifier: MIT
// Separate compilation, unit A: defines a device function and a
// variable that unit B uses; calls B's function.
extern __device__ int rdc_b_offset(int x);

__device__ int rdc_shared_value = 40;

__device__ int rdc_a_scale(int x)
{
	return x * 3;
}

extern "C" __global__ void rdc_kernel(int *out)
{
	int t = threadIdx.x;
	out[t] = rdc_b_offset(rdc_a_scale(t)) + rdc_shared_value;
}

#ifdef WITH_MAIN
int main()
{
	int *d = 0;
	cudaMalloc(&d, 64);
	rdc_kernel<<<1, 4>>>(d);
	return (int)cudaDeviceSynchronize();
}
#endif
