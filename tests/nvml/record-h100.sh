#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Records NVIDIA's NVML answers on a machine with an NVIDIA GPU and driver
# (the H100 of tests/nvml/h100-environment.txt), into $OUT: the probe's
# output with a CUDA program holding 256 MiB (nvml-probe-h100.tsv, kept in
# tests/nvml/) and idle, the symbols NVIDIA's libnvidia-ml.so.1 exports
# (nvidia-ml-symbols-h100.txt), nvidia-smi's view of the holder. Run from
# a folder holding this script, nvml-probe.c, nvml-holder.cu and the
# nvml.h vcuda builds against (build/py/.../nvidia/cu13/include/nvml.h).
cd "$(dirname "$0")" || exit 2
export PATH=/usr/local/cuda/bin:$PATH
{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,pci.bus_id,compute_cap --format=csv
	nvcc --version | tail -2; uname -srm; id
	ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ml* /usr/local/cuda/lib64/stubs/libnvidia-ml* 2>&1
} >"$OUT/ENVIRONMENT.txt" 2>&1
lib=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 2>/dev/null ||
	ldconfig -p | awk '/libnvidia-ml.so.1 /{ print $NF; exit }')
echo "lib=$lib" >>"$OUT/ENVIRONMENT.txt"
nm -D --defined-only "$lib" | awk '{ print $3 }' | grep '^nvml' | sort -u \
	>"$OUT/nvidia-ml-symbols.txt"
gcc -std=c11 -O1 -D_GNU_SOURCE -I. -o probe nvml-probe.c "$lib" \
	>>"$OUT/ENVIRONMENT.txt" 2>&1
nvcc -cudart shared -o holder nvml-holder.cu >>"$OUT/ENVIRONMENT.txt" 2>&1
./probe >"$OUT/nvml-probe-h100-idle.tsv" 2>&1
./holder 256 25 >holder.out 2>&1 &
for _ in $(seq 100); do grep -q ready holder.out && break; sleep 0.2; done
cat holder.out >>"$OUT/ENVIRONMENT.txt"
pid=$(awk '/ready/ { print $2 }' holder.out)
sleep 2
./probe "$pid" 256 >"$OUT/nvml-probe-h100.tsv" 2>&1
{
	nvidia-smi
	nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv
} >"$OUT/nvidia-smi-busy.txt" 2>&1
wait
echo done >>"$OUT/ENVIRONMENT.txt"
