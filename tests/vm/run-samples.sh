#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs every sample program against our libraries (LD_LIBRARY_PATH) in a
# VM with vcuda.ko loaded. A sample passes when it exits 0 and prints
# "Result = PASS", and when it really loaded our libraries; one
# that says it is waived (exit status 2) is skipped.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
lib=$PWD/build/lib

# A program built with -cudart shared links our libcudart, which links
# our libcuda; one built as nvcc builds by default carries NVIDIA's runtime
# and opens libcuda.so.1 itself: the loader's log says which one it got.
uses_our_libraries() {
	local bin=$1 trace
	if LD_LIBRARY_PATH=$lib ldd "$bin" | grep -q 'libcudart\.so'; then
		LD_LIBRARY_PATH=$lib ldd "$bin" | grep -q "$lib/libcudart.so.13" &&
			LD_LIBRARY_PATH=$lib ldd "$lib/libcudart.so.13" |
			grep -q "$lib/libcuda.so.1"
		return
	fi
	trace=$(mktemp -d)
	LD_LIBRARY_PATH=$lib LD_DEBUG=libs LD_DEBUG_OUTPUT=$trace/ld "$bin" >/dev/null 2>&1
	grep -qh "calling init: $lib/libcuda.so.1" "$trace"/ld.* 2>/dev/null
	local found=$?
	rm -rf "$trace"
	return $found
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

for bin in build/samples/*/* build/samples-shared/*/* build/samples-plain/*/*; do
	case $bin in
	*/samples/*) kind="" ;;
	*/samples-shared/*) kind=" (shared cudart)" ;;
	*) kind=" (nvcc with no flags)" ;;
	esac
	[ -x "$bin" ] && run_check "sample $(basename "$bin")$kind" run_sample "$bin"
done
