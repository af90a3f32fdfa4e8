// SPDX-License-Identifier: MIT
/*
 * The device function link_forms_api links from each binary form that
 * nvcc makes of this file (cubin, fatbin, -dc object, -lib archive; with
 * PTX beside the SASS, and with SASS alone).
 */
extern "C" __device__ unsigned int add_forms(unsigned int a, unsigned int b)
{
	return a + b;
}
