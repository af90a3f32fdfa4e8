#!/bin/sh
# SPDX-License-Identifier: MIT
# names.sh CUDA-INCLUDE-DIR [LIBCUDA]: the names cuGetProcAddress is asked
# about in the recording: the base name of every PFN_ type in
# cudaTypedefs.h, the versioned names themselves, every function the given
# driver library exports, and names no driver has.
set -eu
inc=$1
{
	grep -oE 'PFN_cu[A-Za-z0-9_]+' "$inc/cudaTypedefs.h" | sed 's/^PFN_//' |
		sed -E 's/_v[0-9]+(_ptds|_ptsz)?$//'
	grep -oE '^CUresult CUDAAPI cu[A-Za-z0-9_]+' "$inc/cuda.h" | awk '{ print $3 }'
	grep -oE '^#define cu[A-Za-z0-9_]+ +(__CUDA_API_PT[DS][SZ]\()?cu[A-Za-z0-9_]+' "$inc/cuda.h" |
		awk '{ print $2 }'
	grep -oE '^#define cu[A-Za-z0-9_]+ +(__CUDA_API_PT[DS][SZ]\()?cu[A-Za-z0-9_]+' "$inc/cuda.h" |
		sed -E 's/.*[ (](cu[A-Za-z0-9_]+)$/\1/'
	if [ $# -gt 1 ]; then
		nm -D --defined-only "$2" | awk '$2 == "T" { print $3 }' | grep '^cu'
	fi
	printf '%s\n' cuNoSuchFunction cudaMalloc cuinit cuInit_v2 cuMemAlloc_v9
} | sort -u
