#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs every sample program against our libraries (LD_LIBRARY_PATH) in a
# VM with vcuda.ko loaded. A sample passes when it exits 0 and prints
# "Result = PASS", and when it really loaded our libcudart and libcuda; one
# that says it is waived (exit status 2) is skipped.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
lib=$PWD/build/lib

uses_our_libraries() {
	LD_LIBRARY_PATH=$lib ldd "$1" | grep -q "$lib/libcudart.so.13" &&
		LD_LIBRARY_PATH=$lib ldd "$lib/libcudart.so.13" |
		grep -q "$lib/libcuda.so.1"
}

run_sample() {
	local bin=$1 out
	uses_our_libraries "$bin" || { echo "# $bin does not load $lib"; return 1; }
	out=$(LD_LIBRARY_PATH=$lib "$bin" 2>&1)
	local status=$?
	echo "$out"
	# cuda-samples' convention: exit status 2 when the machine lacks
	# what the sample needs (a second GPU, ...).
	if [ $status -eq 2 ] && grep -qi 'waived' <<<"$out"; then
		return "$TAP_SKIP"
	fi
	[ $status -eq 0 ] && grep -q '^Result = PASS' <<<"$out"
}

for bin in build/samples/*/*; do
	[ -x "$bin" ] && run_check "sample $(basename "$bin")" run_sample "$bin"
done
