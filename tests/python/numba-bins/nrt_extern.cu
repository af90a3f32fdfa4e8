// SPDX-License-Identifier: MIT
//
// A device function that uses numba's runtime (NRT) from outside numba:
// test_nrt's test_nrt_detect_linkable_code links it in each binary form
// and expects numba to notice that it needs NRT. Numba's ABI: the return
// slot first, status returned. nrt.cuh comes with numba-cuda
// (numba.cuda.memory_management.nrt.get_include()).
#include <nrt.cuh>

extern "C" __device__ int device_allocate_deallocate(int *status)
{
	void *block = NRT_Allocate(1);

	NRT_Free(block);
	*status = 0;
	return 0;
}
