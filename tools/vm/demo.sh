#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The main job's guest side (make run): shows the virtual devices the
# module created, then runs the sample programs on them.
cd "$(dirname "$0")/../.." || exit 1

echo "== $(uname -r): $(grep -c '^vcuda ' /proc/modules) vcuda module loaded"
build/bin/vcuda-smi
build/bin/vcuda-smi -L
echo
tests/vm/run-samples.sh
