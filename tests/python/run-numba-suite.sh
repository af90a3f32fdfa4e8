#!/bin/bash
# SPDX-License-Identifier: MIT
#
# numba-cuda's own test suite on vcuda, in the test VM with vcuda.ko
# loaded (make numba-test runs it; alone:
#   tools/vcuda-vm -- tests/python/run-numba-suite.sh [NAME...]).
# NAME (default numba.cuda.tests.cudadrv, the driver tests) is a test
# package, expanded into its modules, or a test module; the whole suite
# is numba.cuda.tests (hours under TCG: run it in chunks, see
# docs/numba-suite.md). NUMBA_CHUNK=K/N runs the K-th of N slices of the
# module list; NUMBA_RESULTS=DIR keeps each finished module's counts in
# DIR/modules.tsv and the tests that did not pass in DIR/tests.tsv, and
# skips the modules already there. Prints a line per module and a last
# line "numba-cuda: N run, N passed, ..."; exits non-zero when a module
# did not pass.
cd "$(dirname "$0")/../.." || exit 1
. tests/python/env.sh

[ $# -gt 0 ] || set -- numba.cuda.tests.cudadrv

# Python under TCG spends its time in lookups and reads of the venv's
# files, which the checkout's 9p share does not cache. The host root's
# share caches them (it is read-only): where the guest may mount, see the
# venv through it (a non-recursive bind of / shows the host's files under
# the checkout's mount point).
cached_venv() {
	local root=/tmp/numba-hostroot venv=$PWD/build/numba
	[ "$(id -u)" = 0 ] && [ -d "$venv" ] || return 0
	mkdir -p "$root" && mount --bind / "$root" 2>/dev/null || return 0
	[ -x "$root$venv/bin/python" ] &&
		mount --bind "$root$venv" "$venv" 2>/dev/null
	return 0
}
cached_venv
# numba caches cache=True kernels beside their source, or where that is
# read-only (the venv's tests) in the user's cache directory: keep that
# in guest memory, not 9p. NUMBA_CACHE_DIR would move every cache there,
# and test_caching looks for its files beside its own sources.
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/numba-cache}
exec "$PY" tests/python/numba_suite.py ${NUMBA_CHUNK:+--chunk "$NUMBA_CHUNK"} \
	${NUMBA_RESULTS:+--results "$NUMBA_RESULTS"} "$@"
