#!/bin/bash
# SPDX-License-Identifier: MIT
#
# build/lib/libnvidia-ml.so.1 exports every entry point NVIDIA's NVML
# exports (the list recorded from driver 580's library on an H100,
# tests/nvml/nvidia-ml-symbols-h100.txt) and every one nvml.h declares
# (implemented, or generated as a NOT_SUPPORTED stub), so that a client
# resolving any NVML symbol finds it.
cd "$(dirname "$0")/../.." || exit 2
lib=build/lib/libnvidia-ml.so.1
[ -f "$lib" ] && [ -f build/nvml/nvml.i ] || { echo "$lib is not built"; exit 1; }
export LC_ALL=C
ours=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sort -u)
declared=$(tr -s ' \n' ' ' <build/nvml/nvml.i |
	grep -oE 'nvmlReturn_t +nvml[A-Za-z0-9_]+ *\(' |
	sed 's/nvmlReturn_t *//; s/ *(//')
missing=$(comm -23 <(sort -u tests/nvml/nvidia-ml-symbols-h100.txt \
	<(echo "$declared") <(echo nvmlErrorString)) <(echo "$ours"))
if [ -n "$missing" ]; then
	echo "$lib lacks:" $missing
	exit 1
fi
echo "$(echo "$ours" | grep -c '^nvml') entry points exported"
