#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The soak tests of the vcuda module at full length: random memory ioctls
# and mixed submissions, each from 4 processes for SECONDS (default 300),
# one after the other. Runs as root in the test VM with the module loaded
# (two devices, so that sharing between devices is exercised too):
#
#   tools/vcuda-vm --param num_devices=2 --param job_timeout_ms=5000 \
#       -- tests/vm/stress.sh [SECONDS]
#
# "make stress" does that. The CI suite runs the same programs for a few
# seconds each (tests/vm/guest-tests.sh runs every kselftest binary).
# Prints TAP, and the devices' counters before and after.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
seconds=${1:-300}
ksel=build/tests/kselftest

counters() {
	local d
	for d in /sys/bus/platform/devices/vcuda.*; do
		echo "# $(basename "$d"): vram_used $(cat "$d/vram_used")" \
			"host_pinned $(cat "$d/host_pinned")" \
			"busy_compute_ns $(cat "$d/busy_compute_ns")" \
			"busy_copy_ns $(cat "$d/busy_copy_ns")" \
			"faults $(cat "$d/faults")"
	done
}

counters
for t in memsoak submitsoak; do
	start=$(date +%s)
	run_tap "stress $t, $seconds s" "$ksel/vcuda_${t}_test" "$seconds" 4
	echo "# stress $t took $(($(date +%s) - start)) s"
	counters
done
