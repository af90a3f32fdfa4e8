// SPDX-License-Identifier: MIT
/*
 * error_strings: every error name and message of both APIs, for codes
 * 0..1000. Expected output recorded on an NVIDIA H100
 * (error_strings.expected).
 */
#include <stdio.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

int main(void)
{
	for (int code = 0; code <= 1000; code++) {
		const char *name = NULL, *message = NULL;
		CUresult r1 = cuGetErrorName((CUresult)code, &name);
		CUresult r2 = cuGetErrorString((CUresult)code, &message);

		if (r1 == CUDA_SUCCESS || r2 == CUDA_SUCCESS)
			printf("cu %d %s | %s\n", code, name ? name : "(null)",
			       message ? message : "(null)");
	}
	for (int code = 0; code <= 1000; code++) {
		const char *name = cudaGetErrorName((cudaError_t)code);
		const char *message = cudaGetErrorString((cudaError_t)code);

		printf("rt %d %s | %s\n", code, name, message);
	}
	return 0;
}
