#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs on a machine with an NVIDIA GPU and its driver: replays the
# launches the unit tests recorded (make ptx-record, into build/record)
# and packs the GPU's results, NAME.bin and NAME.txt, with a description
# of the machine and the replay's log, into $OUT/expected.tar.gz (rebuilt
# after each manifest, so that a run cut short keeps what it did). Their
# place is tests/ptx/expected/ (see its README.md).
#
# Each manifest is replayed by its own process; a launch that does not
# finish in $REPLAY_TIMEOUT seconds ends it, and the manifest is replayed
# again without that launch (three times at most). No manifest starts
# after $BUDGET seconds.
#
#   OUT=/somewhere tests/ptx/gpu/record.sh [RECORD_DIR] [REPLAY]
set -u
rec=${1:-build/record}
replay=${2:-build/gpu/replay}
out=${OUT:-/tmp/gpu-out}
work=$(mktemp -d)	# results gather here, $OUT only gets the archive
budget=${BUDGET:-330}
export REPLAY_TIMEOUT=${REPLAY_TIMEOUT:-10}
start=$(date +%s)
mkdir -p "$out" "$work/expected"
log=$work/expected/replay.log
{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total \
		--format=csv
	nvcc --version 2>/dev/null | tail -2
	uname -srm
} >"$work/expected/ENVIRONMENT.txt" 2>&1
# A replay built elsewhere may not start here: build it again if so.
"$replay" >/dev/null 2>&1
if [ $? -ne 2 ]; then
	gcc -std=c11 -D_GNU_SOURCE -O2 -pthread -I/usr/local/cuda/include \
		tests/ptx/gpu/replay.c -o /tmp/replay -lcuda && replay=/tmp/replay
fi
for m in "$rec"/*.manifest; do
	name=$(basename "$m")
	skip=""
	for try in 1 2 3 4; do
		if [ $(( $(date +%s) - start )) -gt "$budget" ]; then
			echo "== $name: out of time" >>"$log"
			break 2
		fi
		echo "== $name (try $try, skip '$skip')" >>"$log"
		REPLAY_SKIP=$skip "$replay" "$rec" "$work/expected" "$name" \
			2>>"$log"
		status=$?
		echo "== exit $status after $(( $(date +%s) - start )) s" >>"$log"
		[ "$status" -ne 3 ] && break
		id=$(grep 'TIMEOUT launch' "$log" | tail -1 | awk '{print $4}')
		skip=${skip:+$skip,}$id
	done
	tar czf "$out/expected.tar.gz.new" -C "$work" expected &&
		mv "$out/expected.tar.gz.new" "$out/expected.tar.gz"
done
grep -E 'TIMEOUT|failed|out of time' "$log" | tail -20
ls "$work/expected" | wc -l
rm -rf "$work"
