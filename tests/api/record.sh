#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs on a machine with NVIDIA GPUs and NVIDIA's driver: builds the named
# API tests against NVIDIA's own libraries (the driver's libcuda, the
# toolkit's libcudart) and writes what each prints, stdout and stderr as
# compare.sh reads them, to $OUT/NAME.expected, with the machine in
# $OUT/ENVIRONMENT.txt. Their place is tests/api/. With SAMPLES, the
# named samples (tests/samples/NAME) are built and run there too, into
# $OUT/samples.log, to show that they pass on NVIDIA's stack as well.
#
#   OUT=/somewhere [SAMPLES="p2pCopy ..."] tests/api/record.sh peer_api ...
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${OUT:-/tmp/api-out}
work=$(mktemp -d)
mkdir -p "$out"
{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
	nvidia-smi topo -m
	nvcc --version | tail -2
	uname -srm
} >"$out/ENVIRONMENT.txt" 2>&1
for name in "$@"; do
	nvcc -rdc=true -cudart shared -gencode arch=compute_75,code=[compute_75,sm_75] \
		-O2 -L/usr/local/cuda/lib64/stubs -lcuda -o "$work/$name" \
		"tests/api/$name.cu" >"$work/$name.build" 2>&1 &
done
for name in ${SAMPLES:-}; do
	nvcc -rdc=true -cudart shared -gencode arch=compute_75,code=[compute_75,sm_75] \
		-O2 -L/usr/local/cuda/lib64/stubs -lcuda -o "$work/sample-$name" \
		"tests/samples/$name/$name.cu" >"$work/sample-$name.build" 2>&1 &
done
wait
for name in ${SAMPLES:-}; do
	echo "== $name"
	cat "$work/sample-$name.build"
	LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout 120 "$work/sample-$name" 2>&1
	echo "== $name exited with status $?"
done >"$out/samples.log" 2>&1
for name in "$@"; do
	if [ ! -x "$work/$name" ]; then
		cat "$work/$name.build" >"$out/$name.expected"
		continue
	fi
	LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout 150 "$work/$name" \
		>"$out/$name.expected" 2>&1
	echo "$name exited with status $?" >>"$out/ENVIRONMENT.txt"
done
