#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The main job's guest side (make run): shows the virtual devices the
# module created, then runs the sample programs on them.
cd "$(dirname "$0")/../.." || exit 1

echo "== $(uname -r): $(grep -c '^vcuda ' /proc/modules) vcuda module loaded"
for node in /sys/class/drm/renderD*; do
	[ -e "$node/device/driver" ] || continue
	echo "   /dev/dri/$(basename "$node"): $(basename "$(readlink -f "$node/device/driver")")"
done
echo
tests/vm/run-samples.sh
