#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs in the test VM (tests/bench/run-bench): the driver-path benchmarks
# against our libraries.
cd "$(dirname "$0")/../.." || exit 1
LD_LIBRARY_PATH=$PWD/build/lib exec build/bench/vm_bench
