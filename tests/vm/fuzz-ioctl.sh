#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The ioctl fuzzer (tests/fuzz/fuzz_ioctl.c) for SECONDS (default 30) in
# the test VM with the module loaded, starting from the seed corpus
# tests/fuzz/ioctl-corpus/ (read only: new inputs go to a directory in the
# guest's /tmp). make test runs it for 30 s, make stress for 600 s:
#
#   tools/vcuda-vm --debug --param vram_mb=64 --param job_timeout_ms=200 \
#       -- tests/vm/fuzz-ioctl.sh [SECONDS [nobody|root]]
#
# By default the fuzzer runs as an attacker would: uid nobody, without
# capabilities, in a memory cgroup of 64 MiB (which the fuzzer's own
# memory counts against too), with RLIMIT_MEMLOCK at 8 MiB. "root" runs it
# as root instead (device resets succeed; host buffers are not bounded by
# RLIMIT_MEMLOCK, so inputs may pin most of the VM's memory).
#
# Passes when the fuzzer ran the whole time without a crash, a hang or
# being OOM-killed, and every device's vram_used and host_pinned came back
# to their values before once its files were closed. A kernel warning, KASAN, lockdep or
# other report fails the VM run itself (tools/vcuda-vm). Prints TAP, and
# the run's executions, exec/s, corpus size and coverage: kernel PCs of
# vcuda.ko with a KCOV kernel, else a named proxy (tests/fuzz/ioctl_cov.h).
cd "$(dirname "$0")/../.." || exit 1
seconds=${1:-30}
user=${2:-nobody}
fuzzer=build/tests/fuzz/libfuzzer/fuzz_ioctl
seeds=tests/fuzz/ioctl-corpus
crashes=build/fuzz
name="ioctl fuzzer, $seconds s as $user"
cgroup=/sys/fs/cgroup/vcuda-fuzz-$$

counters() {
	local d
	for d in /sys/bus/platform/devices/vcuda.*; do
		echo "$(basename "$d") $(cat "$d/vram_used") $(cat "$d/host_pinned")"
	done
}

if [ ! -x "$fuzzer" ]; then
	echo "not ok - $name: $fuzzer is not built (make)"
	exit 1
fi
# As nobody: the render nodes open to all (the VM is thrown away), a
# 64 MiB memory cgroup to enter, and directories nobody can write.
as_nobody() {
	[ -f /sys/fs/cgroup/cgroup.controllers ] ||
		mount -t cgroup2 none /sys/fs/cgroup || return 1
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir "$cgroup" && echo 64M >"$cgroup/memory.max" || return 1
	chmod 0666 /dev/dri/renderD*
	chmod 0777 "$work" "$crashes"
}

run_fuzzer() {
	if [ "$user" = root ]; then
		"$@"
		return
	fi
	(echo $BASHPID >"$cgroup/cgroup.procs" &&
		exec prlimit --memlock=8388608 setpriv --reuid=nobody \
			--regid=nogroup --clear-groups --inh-caps=-all \
			--bounding-set=-all -- "$@")
}

mkdir -p "$crashes"
work=$(mktemp -d /tmp/fuzz-ioctl.XXXXXX)
log=$work.log
if [ "$user" != root ] && ! as_nobody; then
	echo "not ok - $name: cannot make a memory cgroup"
	exit 1
fi
before=$(counters)

# -timeout: one input running 120 s is a hang (every wait in it is
# bounded by milliseconds, jobs by job_timeout_ms; the kernel's hung-task
# detector fires at 120 s too); the input is saved to $crashes.
run_fuzzer "$fuzzer" -max_total_time="$seconds" -timeout=120 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$crashes/" \
	"$work" "$seeds" >"$log" 2>&1
status=$?
grep -E '^(INFO|==|SUMMARY|fuzz_ioctl:|stat::)|ERROR|crash-|timeout-' \
	"$log" | sed 's/^/# /'

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
cover=$(grep -o '[0-9]* distinct .*' "$log" | tail -n 1)
echo "# $execs executions, $rate exec/s, corpus $(ls "$work" | wc -l) inputs" \
	"($(ls "$seeds" | wc -l) seeds), $cover"
if [ "$user" != root ]; then
	echo "# cgroup: memory.peak $(cat "$cgroup/memory.peak" 2>/dev/null)," \
		"$(tr '\n' ' ' <"$cgroup/memory.events")"
	rmdir "$cgroup"
fi
if [ "$status" -ne 0 ]; then
	tail -n 40 "$log" | sed 's/^/# /'
	echo "not ok - $name: the fuzzer exited with status $status"
	exit 1
fi
echo "ok - $name: no crash, no hang"

# Teardown of queues is asynchronous: give it a moment.
for _ in $(seq 50); do
	[ "$(counters)" = "$before" ] && break
	sleep 0.2
done
if [ "$(counters)" = "$before" ]; then
	echo "ok - $name: vram_used and host_pinned back to their values"
else
	echo "# before: $before"
	echo "# after:  $(counters)"
	echo "not ok - $name: memory still held after every file was closed"
fi
rm -rf "$work" "$log"
