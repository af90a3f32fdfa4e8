// SPDX-License-Identifier: MIT
//
// Device functions that numba-cuda's tests link from prebuilt binaries
// (NUMBA_CUDA_TEST_BIN_DIR). The wheel of numba-cuda does not ship the
// sources its tests were written against, so this file provides what
// they call, by the names and signatures the tests declare:
//   add_from_numba  cuda.declare_device(..., "uint32(uint32, uint32)"),
//                   numba's ABI: result through the first pointer,
//                   status (0 = no exception) returned;
//   add_cabi        a plain C-ABI call from lowering code;
// and two fp16 helpers, so that the library is more than one function
// and calls into cuda_fp16.h as a real device library would.
#include <cuda_fp16.h>

extern "C" __device__ int add_from_numba(unsigned int *result,
					 unsigned int a, unsigned int b)
{
	*result = a + b;
	return 0;
}

extern "C" __device__ unsigned int add_cabi(unsigned int a, unsigned int b)
{
	return a + b;
}

__device__ __half half_sum(__half a, __half b)
{
	return __hadd(a, b);
}

__device__ bool half_equal(__half a, __half b)
{
	return __heq(a, b);
}
