#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Loads and unloads vcuda.ko in a loop, checking that its render nodes
# appear and disappear. Runs as root in the test VM without the module
# loaded:
#
#   tools/vcuda-vm --no-module -- tests/vm/module-reload.sh [CYCLES]
#
# Prints TAP; exits non-zero if any test failed.
cd "$(dirname "$0")/../.." || exit 1

cycles=${1:-20}
ko=kernel/vcuda.ko
ksel=build/tests/kselftest

# Tests: 3 per cycle, then 9 refused loads, 4 for an open file, 3 for
# unloading right after a process with pending work exits, 4 for
# unloading right after processes that shared memory between two devices
# and read the admin interface exit, 3 for the compute time-out that
# holds when job_timeout_ms is 0, 3 for unbinding the driver from a
# device with a file open.
plan=$((cycles * 3 + 9 + 4 + 3 + 4 + 3 + 3))
echo "1..$plan"
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}

check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# Render nodes whose device is bound to the vcuda driver.
vcuda_nodes() {
	local d count=0
	for d in /sys/class/drm/renderD*; do
		[ -e "$d/device/driver" ] || continue
		[ "$(basename "$(readlink "$d/device/driver")")" = vcuda ] || continue
		[ -c "/dev/dri/$(basename "$d")" ] || continue
		count=$((count + 1))
	done
	echo "$count"
}

loaded() {
	grep -q '^vcuda ' /proc/modules
}

# Waits up to 5 s for N vcuda render nodes (udev-less devtmpfs is quick).
wait_nodes() {
	local want=$1 i
	for i in $(seq 50); do
		[ "$(vcuda_nodes)" = "$want" ] && return 0
		sleep 0.1
	done
	echo "# expected $want vcuda render nodes, found $(vcuda_nodes)"
	return 1
}

load() {
	insmod "$ko" "$@" 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

unload() {
	rmmod vcuda 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

if [ ! -f "$ko" ]; then
	echo "# $ko is not built"
	exit 1
fi
modprobe -a drm_gpuvm gpu-sched drm_shmem_helper 2>&1 | sed 's/^/# /'
if loaded; then
	echo "# vcuda is already loaded; run with tools/vcuda-vm --no-module"
	exit 1
fi

for i in $(seq "$cycles"); do
	if [ $((i % 2)) -eq 1 ]; then devs=1; else devs=3; fi
	check "cycle $i: insmod num_devices=$devs" load num_devices=$devs
	check "cycle $i: $devs render nodes appear" wait_nodes $devs
	if unload && wait_nodes 0 && ! loaded; then
		ok "cycle $i: rmmod, render nodes gone"
	else
		not_ok "cycle $i: rmmod, render nodes gone"
	fi
done

# Parameters out of range are refused: every bound of
# docs/admin-interface.md's table, on both sides where it has two.
refused() {
	if ! load "$@" 2>/dev/null && ! loaded; then
		ok "$* refused"
	else
		not_ok "$* refused"
		unload
	fi
}
refused num_devices=0
refused num_devices=17
refused num_devices=2 cc=5
refused cc=200
refused num_devices=2 cc=80,200
# A SUBMIT of 64 jobs must always fit; a file needs a context.
refused max_queued_jobs=63
refused max_queued_jobs=1048577
refused max_contexts=0
refused max_queues=0
refused max_mappings=0

# cc per device; the last value holds for the devices after it.
check "insmod num_devices=3 cc=80,90" load num_devices=3 cc=80,90
caps=$(build/bin/vcuda-smi --query-gpu=compute_cap --format=csv,noheader \
	2>&1 | tr '\n' ' ')
if [ "$caps" = "8.0 9.0 9.0 " ]; then
	ok "devices report cc 8.0, 9.0, 9.0"
else
	not_ok "devices report cc 8.0, 9.0, 9.0: got '$caps'"
fi
# CUDA_VISIBLE_DEVICES=2,0: device 2 first, then device 0, 1 hidden.
visible_order() {
	local all seen
	all=$(build/bin/vcuda-smi --query-gpu=uuid --format=csv,noheader)
	seen=$(CUDA_VISIBLE_DEVICES=2,0 LD_LIBRARY_PATH=build/lib \
		build/tests/api/visible_devices_api --uuids)
	[ "$seen" = "$(echo "$all" | sed -n '3p;1p' | tac)" ] ||
		{ echo "# all: $all; seen: $seen"; return 1; }
}
check "CUDA_VISIBLE_DEVICES=2,0 shows device 2, then 0" visible_order
check "rmmod" unload

# An open render node keeps the module.
check "insmod with num_devices=2" load num_devices=2
node=/dev/dri/$(basename "$(ls -d /sys/bus/platform/drivers/vcuda/vcuda.1/drm/renderD* 2>/dev/null | head -n 1)")
if [ -c "$node" ] && exec 3<>"$node"; then
	if ! rmmod vcuda 2>/dev/null && loaded; then
		ok "rmmod refused while $node is open"
	else
		not_ok "rmmod refused while $node is open"
	fi
	exec 3>&-
else
	not_ok "rmmod refused while a render node is open: cannot open $node"
fi
check "rmmod once it is closed" unload
check "render nodes gone" wait_nodes 0

# Unloading right after a process leaves work behind (queue tear-down
# may still be running when it exits).
check "insmod" load num_devices=1
pending_work() {
	"$ksel/vcuda_submit_test" -t close_with_pending_work >/dev/null 2>&1
}
if [ -x "$ksel/vcuda_submit_test" ]; then
	check "process exits with pending jobs" pending_work
else
	ok "process exits with pending jobs # SKIP $ksel not built"
fi
check "rmmod right after" unload

# Peer objects hold the other device; the admin files must not hold
# anything once closed.
check "insmod num_devices=2" load num_devices=2
shared_work() {
	"$ksel/vcuda_pt_test" -f peer >/dev/null 2>&1 &&
		"$ksel/vcuda_engine_test" -t killed_with_jobs_in_flight \
			>/dev/null 2>&1
}
if [ -x "$ksel/vcuda_pt_test" ] && [ -x "$ksel/vcuda_engine_test" ]; then
	check "processes share between devices and die with work" shared_work
else
	ok "processes share between devices and die with work # SKIP $ksel not built"
fi
read_admin() {
	local d
	for d in /sys/bus/platform/devices/vcuda.*; do
		cat "$d"/busy_compute_ns "$d"/utilization_copy "$d"/faults \
			"$d"/compute_mode >/dev/null || return 1
	done
	cat /sys/kernel/debug/dri/*/contexts /sys/kernel/debug/dri/*/pagetable \
		>/dev/null 2>&1
	return 0
}
check "admin files readable" read_admin
check "rmmod right after" unload

# Without job_timeout_ms, a launch taken and never reported still ends,
# after compute_timeout_ms (10 minutes by default; 2 s here).
check "insmod job_timeout_ms=0 compute_timeout_ms=2000" \
	load job_timeout_ms=0 compute_timeout_ms=2000
compute_timeout() {
	"$ksel/vcuda_cancel_test" -t unreported_launch_times_out_by_default \
		2>&1 | grep -q '^ok 1 owner.unreported_launch_times_out_by_default$'
}
if [ -x "$ksel/vcuda_cancel_test" ]; then
	check "an unreported launch times out" compute_timeout
else
	ok "an unreported launch times out # SKIP $ksel not built"
fi
check "rmmod right after" unload

# Unbinding the driver from a device while a file is open on it (the
# test binds it again): here, since it makes a new device of vcuda.0,
# which the tests of guest-tests.sh do not expect.
check "insmod num_devices=1" load num_devices=1
# Recorded on a machine with one GPU, so run with one device here.
check "api visible_devices_api (CUDA_VISIBLE_DEVICES) matches the H200" \
	tests/api/compare.sh visible_devices_api
unplug() {
	"$ksel/vcuda_unplug_test" 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}
if [ -x "$ksel/vcuda_unplug_test" ]; then
	check "unbind with a file open, then bind again" unplug
else
	not_ok "unbind with a file open, then bind again: $ksel not built"
fi
check "rmmod right after" unload

[ "$failed" -eq 0 ]
