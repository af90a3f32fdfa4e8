#!/bin/bash
# SPDX-License-Identifier: MIT
#
# numba-cuda's own test suite on vcuda, in the test VM with vcuda.ko
# loaded (make numba-test runs it; alone:
#   tools/vcuda-vm -- tests/python/run-numba-suite.sh [MODULE...]).
# MODULE defaults to numba.cuda.tests.cudadrv, the driver tests; the
# whole suite is numba.cuda.tests (hours under TCG). Prints unittest's
# report and a last line "numba-cuda: N run, N failed, N errors, N
# skipped"; exits non-zero when a test failed.
cd "$(dirname "$0")/../.." || exit 1
. tests/python/env.sh

[ $# -gt 0 ] || set -- numba.cuda.tests.cudadrv
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$PY" -m numba.runtests -v "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() {	# count NAME: NAME=N from "FAILED (failures=1, errors=2)"
	sed -n "s/.*[(, ]$1=\([0-9]*\).*/\1/p" "$log" | tail -1 | grep . || echo 0
}
ran=$(sed -n 's/^Ran \([0-9]*\) tests\?.*/\1/p' "$log" | tail -1)
echo "numba-cuda: ${ran:-0} run, $(count failures) failed," \
	"$(count errors) errors, $(count skipped) skipped"
exit "$status"
