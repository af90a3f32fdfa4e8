#!/bin/bash
# SPDX-License-Identifier: MIT
#
# compare.sh NAME [DIR]: runs DIR/NAME (build/tests/api/NAME: NVIDIA's
# static runtime; build/tests/api-shared/NAME: ours) against our libraries
# and compares its output with tests/api/NAME.expected (recorded on an H100).
cd "$(dirname "$0")/../.." || exit 2
name=$1
dir=${2:-build/tests/api}
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
LD_LIBRARY_PATH=$PWD/build/lib "$dir/$name" >"$actual" 2>&1
status=$?
if ! diff -u "tests/api/$name.expected" "$actual"; then
	echo "$name: output differs from the H100's (- expected, + vcuda)"
	exit 1
fi
[ $status -eq 0 ] || { echo "$name exited with status $status"; exit 1; }
