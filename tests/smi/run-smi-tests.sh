#!/bin/bash
# SPDX-License-Identifier: MIT
#
# vcuda-smi's tests. Runs as root in the test VM with vcuda.ko loaded
# (tests/vm/guest-tests.sh calls it; alone:
#   tools/vcuda-vm --param num_devices=2 -- tests/smi/run-smi-tests.sh).
# build/tests/smi/smi-load does known work (allocations, launches, a reset)
# while the tool is asked about it; formats and errors are compared with
# nvidia-smi's own output, recorded on an H100 in tests/smi/nvidia-smi-h100.txt.
# Parts that need a sysfs file the module lacks are skipped, saying which.
# Prints TAP; exits non-zero if a test failed.
cd "$(dirname "$0")/../.." || exit 1

SMI=build/bin/vcuda-smi
LOAD=build/tests/smi/smi-load
REF=tests/smi/nvidia-smi-h100.txt
DEV=/sys/bus/platform/devices
tmp=$(mktemp -d)
n=0
failed=0
loads=()

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

cleanup() {
	local p
	for p in "${loads[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ndev=$(ls -d $DEV/vcuda.* 2>/dev/null | wc -l)
attr() { cat "$DEV/vcuda.$1/$2" 2>/dev/null; }
has_attr() { [ -e "$DEV/vcuda.0/$1" ]; }
mib() { echo $(($1 / 1048576)); }

# ref CMD: nvidia-smi's output for "nvidia-smi CMD" in the recording,
# with nvidia-smi's name replaced by ours.
ref() {
	awk -v cmd="=== \$ nvidia-smi${1:+ $1}" '
		$0 == cmd { on = 1; next }
		on && /^=== exit/ { exit }
		on { print }' "$REF" | sed 's/nvidia-smi -h/vcuda-smi -h/'
}
ref_status() {
	awk -v cmd="=== \$ nvidia-smi${1:+ $1}" '
		$0 == cmd { on = 1; next }
		on && /^=== exit/ { print $3; exit }' "$REF"
}

# run ARGS...: the tool's output in $out, its status in $status.
run() {
	out=$("$SMI" "$@" 2>&1)
	status=$?
}

# same_as_ref CMD: output and status exactly nvidia-smi's for CMD.
same_as_ref() {
	run $1
	[ "$out" = "$(ref "$1")" ] && [ "$status" = "$(ref_status "$1")" ] ||
		{ echo "# got (status $status):"; echo "$out" | sed 's/^/#   /'; false; }
}

# start_load NAME ARGS...: smi-load in the background, ready when this
# returns 0 (within 30 s: pinning a large allocation is slow under TCG);
# its pid in $load_pid, its output in $tmp/NAME.
start_load() {
	local name=$1 i
	shift
	"$LOAD" "$@" >"$tmp/$name" 2>&1 &
	load_pid=$!
	loads+=("$load_pid")
	for i in $(seq 600); do
		grep -q '^ready' "$tmp/$name" && return 0
		kill -0 "$load_pid" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

stop_load() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# within VALUE WANT TOLERANCE
within() {
	[[ $1 =~ ^[0-9]+$ ]] && [ $(($1 - $2)) -le $3 ] && [ $(($2 - $1)) -le $3 ] ||
		{ echo "# $1 is not $2 +- $3"; false; }
}

. tests/smi/smi-tests-format.sh
. tests/smi/smi-tests-state.sh
. tests/smi/smi-tests-control.sh

echo "1..$n"
[ "$failed" -eq 0 ]
