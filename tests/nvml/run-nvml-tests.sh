#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libnvidia-ml.so.1's tests, as root in the test VM with vcuda.ko loaded
# (tests/vm/guest-tests.sh calls it; alone:
#   tools/vcuda-vm --param num_devices=2 -- tests/nvml/run-nvml-tests.sh).
# A CUDA program (build/tests/nvml/nvml-holder) holds 256 MiB of device 0
# while NVML is asked about it: by tests/nvml/nvml-probe, compared with
# NVIDIA's NVML on an H100 (tests/nvml/nvml-probe-h100.tsv), and by the
# clients people run, nvidia-ml-py and gpustat (pinned, in build/py) and
# Debian's nvtop (its screen read with tmux), whose numbers must be
# vcuda-smi's and sysfs's. Last, a device reset must
# reach an NVML event set as an Xid event. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1

B=build
PY=$B/py/bin/python
SMI=$B/bin/vcuda-smi
DEV=/sys/bus/platform/devices
export LD_LIBRARY_PATH=$PWD/$B/lib
tmp=$(mktemp -d)
n=0
failed=0
holder=

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
# same WHAT FILE1 FILE2: the two outputs are equal and not empty.
same() {
	if [ -s "$2" ] && diff -u "$2" "$3" | sed 's/^/#   /' &&
	   cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
	fi
}

cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# ---- a CUDA program holding device memory ----
$B/tests/nvml/nvml-holder 256 300 >"$tmp/holder" 2>&1 &
holder=$!
for _ in $(seq 600); do
	grep -q '^ready' "$tmp/holder" && break
	kill -0 "$holder" 2>/dev/null || break
	sleep 0.1
done
if ! grep -q "^ready $holder\$" "$tmp/holder"; then
	sed 's/^/#   /' "$tmp/holder"
	not_ok "nvml-holder allocated 256 MiB and is running"
	echo "1..$n"
	exit 1
fi
ok "nvml-holder allocated 256 MiB and is running"

# ---- NVIDIA's answers ----
$B/tests/nvml/nvml-probe "$holder" 256 >"$tmp/probe" 2>&1
sed 's/^/#   /' "$tmp/probe" | grep -v errorString
check "nvml-probe: return codes and value shapes match the H100's" \
	tests/nvml/compare-probe.sh tests/nvml/nvml-probe-h100.tsv "$tmp/probe"

# ---- nvidia-ml-py and gpustat agree with vcuda-smi and sysfs ----
$SMI --query-gpu=index,uuid,name,memory.total,memory.used \
	--format=csv,noheader,nounits >"$tmp/smi-gpus"
$SMI --query-compute-apps=pid,gpu_uuid,used_memory \
	--format=csv,noheader,nounits | sort >"$tmp/smi-apps"
$PY tests/nvml/clients.py pynvml-gpus >"$tmp/pynvml-gpus" 2>&1
$PY tests/nvml/clients.py pynvml-apps 2>&1 | sort >"$tmp/pynvml-apps"
same "nvidia-ml-py: devices and memory are vcuda-smi's" \
	"$tmp/smi-gpus" "$tmp/pynvml-gpus"
same "nvidia-ml-py: processes and their memory are vcuda-smi's" \
	"$tmp/smi-apps" "$tmp/pynvml-apps"
used=$(($(cat $DEV/vcuda.0/vram_used) >> 20))
check "nvidia-ml-py: device 0's memory used is sysfs's vram_used ($used MiB)" \
	grep -q "^0, .*, $used\$" "$tmp/pynvml-gpus"
check "nvidia-ml-py: nvml-holder uses at least 256 MiB" \
	awk -v pid="$holder" -F', ' '$1 == pid && $3 >= 256 { f = 1 }
		END { exit !f }' "$tmp/pynvml-apps"
$B/py/bin/gpustat --json >"$tmp/gpustat.json" 2>"$tmp/gpustat.err"
sed 's/^/#   /' "$tmp/gpustat.err"
$PY tests/nvml/clients.py gpustat-gpus <"$tmp/gpustat.json" >"$tmp/gpustat-gpus" 2>&1
$PY tests/nvml/clients.py gpustat-apps <"$tmp/gpustat.json" 2>&1 |
	sort >"$tmp/gpustat-apps"
same "gpustat: devices and memory are vcuda-smi's" \
	"$tmp/smi-gpus" "$tmp/gpustat-gpus"
same "gpustat: processes and their memory are vcuda-smi's" \
	"$tmp/smi-apps" "$tmp/gpustat-apps"
$B/py/bin/gpustat --no-color --show-cmd --show-pid >"$tmp/gpustat.txt" 2>&1
sed 's/^/#   /' "$tmp/gpustat.txt"
check "gpustat: its screen shows device 0 and nvml-holder's memory" \
	grep -Eq "^\[0\] .*\| *$used / *[0-9]+ MB \|.*nvml-holder/$holder\([0-9]+M\)" \
	"$tmp/gpustat.txt"

# ---- nvtop, where Debian's package is installed (tools/install-deps) ----
if ! command -v nvtop >/dev/null || ! command -v tmux >/dev/null; then
	skip "nvtop shows the device" "nvtop is not installed (make deps installs it from Debian's contrib)"
else
	tmux new-session -d -s nvtop -x 160 -y 40 "nvtop"
	for _ in $(seq 30); do	# until it has drawn its process list
		sleep 1
		tmux capture-pane -p -t nvtop >"$tmp/nvtop.txt"
		grep -q nvml-holder "$tmp/nvtop.txt" && break
	done
	sleep 1
	tmux capture-pane -p -t nvtop >"$tmp/nvtop.txt"
	tmux kill-session -t nvtop
	sed 's/^/#   /' "$tmp/nvtop.txt"
	check "nvtop shows device 0 by name" \
		grep -q "Device 0 \[$(cat $DEV/vcuda.0/name)\]" "$tmp/nvtop.txt"
	check "nvtop shows device 0's memory used ($used MiB)" \
		grep -Eq "MEM\[[| ]*$(awk -v m="$used" 'BEGIN { printf "%.3f", m / 1024 }')Gi/" \
		"$tmp/nvtop.txt"
	check "nvtop shows nvml-holder on device 0 with its memory" \
		grep -Eq "^ *$holder +root +0 +Compute .* ${used}MiB .*nvml-holder" \
		"$tmp/nvtop.txt"
fi

# ---- events: a reset is an Xid event ----
$PY tests/nvml/clients.py pynvml-event >"$tmp/event" 2>&1 &
waiter=$!
for _ in $(seq 100); do
	grep -q registered "$tmp/event" && break
	sleep 0.1
done
echo 1 >$DEV/vcuda.0/reset
wait "$waiter"
sed 's/^/#   /' "$tmp/event"
check "events: a device reset reaches nvmlEventSetWait as Xid 999 on device 0" \
	grep -q '^xid 0 999$' "$tmp/event"

echo "1..$n"
[ "$failed" -eq 0 ]
