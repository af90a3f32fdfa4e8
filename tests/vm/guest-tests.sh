#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs in the test VM with vcuda.ko loaded: the uAPI tests and the
# samples. Prints TAP; see tests/lib/tap.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
B=build

for t in $B/tests/kselftest/*; do
	[ -x "$t" ] && run_tap "kselftest $(basename "$t")" "$t"
done
for name in driver_api runtime_api stream_api limits_api link_api memory_api \
	peer_api ipc_api vmm_api mempool_api ctx_api legacy_api library_api \
	warp_api texture_api alloc_api occupancy_api algorithms_api; do
	run_check "api $name matches the H100" tests/api/compare.sh $name
done
# The same CUDA tests built against our libcudart.
for name in runtime_api stream_api limits_api memory_api peer_api ipc_api \
	vmm_api mempool_api ctx_api legacy_api library_api \
	warp_api texture_api alloc_api occupancy_api algorithms_api; do
	run_check "api $name (shared cudart) matches the H100" \
		tests/api/compare.sh $name build/tests/api-shared
done
run_check "cross-device stream waits" env LD_LIBRARY_PATH=$B/lib \
	$B/tests/api-shared/cross_device_wait
run_tap "vcuda-smi" tests/smi/run-smi-tests.sh
run_tap "libnvidia-ml.so.1 and its clients" tests/nvml/run-nvml-tests.sh
tests/python/run-python-tests.sh
tests/vm/run-samples.sh
