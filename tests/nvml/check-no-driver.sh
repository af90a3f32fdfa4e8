#!/bin/bash
# SPDX-License-Identifier: MIT
#
# On a machine without vcuda.ko (the host that runs make test), NVML must
# say so: nvmlInit answers NVML_ERROR_DRIVER_NOT_LOADED (9), every query
# NVML_ERROR_UNINITIALIZED (1), and the error strings are NVIDIA's still.
# Skipped (77) where the module is loaded.
cd "$(dirname "$0")/../.." || exit 2
[ -d /sys/module/vcuda ] && { echo "vcuda.ko is loaded here"; exit 77; }
out=$(LD_LIBRARY_PATH=build/lib build/tests/nvml/nvml-probe) || exit 1
fail=0
expect() {
	local got
	got=$(awk -F'\t' -v k="$1" '$1 == k { print $2 }' <<<"$out")
	if [ "$got" != "$2" ]; then
		echo "$1: returned '$got', expected $2"
		fail=1
	fi
}
expect init.v2 9
expect init.withFlags0 9
expect dev.count.nonzero 1
expect sys.driverVersion 1
expect shutdown.last 1
expect errorString.9 0
grep -q $'^errorString.9\t0\tDriver Not Loaded\t' <<<"$out" ||
	{ echo "errorString.9 is not NVIDIA's"; fail=1; }
exit $fail
