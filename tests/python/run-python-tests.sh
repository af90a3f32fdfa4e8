#!/bin/bash
# SPDX-License-Identifier: MIT
#
# NVIDIA's CUDA Python packages on vcuda, in the test VM with vcuda.ko
# loaded (tests/vm/guest-tests.sh calls it; alone:
#   tools/vcuda-vm -- tests/python/run-python-tests.sh).
# cuda.bindings.driver and a numba-cuda kernel, from the pinned venv that
# make deps builds in build/numba. Prints TAP.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
. tests/python/env.sh

if [ ! -x "$PY" ]; then
	echo "not ok - $PY is missing (make deps installs it)"
	exit 1
fi
run_tap "cuda.bindings.driver" "$PY" tests/python/driver_bindings.py
run_tap "numba-cuda vector add" "$PY" tests/python/numba_vector_add.py
run_tap "numba-cuda links binary forms" "$PY" tests/python/numba_link_forms.py
