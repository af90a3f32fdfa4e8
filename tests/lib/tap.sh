# SPDX-License-Identifier: MIT
#
# TAP helpers shared by tests/run-tests (host) and tests/vm/* (guest).
# Every test program either prints TAP itself (run_tap) or is judged by
# its exit status (run_check); either way each result is one top-level
# "ok ..." or "not ok ..." line, which tests/run-tests counts.

# run_tap NAME CMD...: run a program that prints TAP. A crash or a failing
# exit status without any "not ok" line still counts as one failure.
run_tap() {
	local name=$1 out status
	shift
	echo "# --- $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	status=${PIPESTATUS[0]}
	if [ "$status" -ne 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $name: exited with status $status"
	elif ! grep -Eq '^(not )?ok' "$out"; then
		echo "not ok - $name: printed no test results"
	fi
	rm -f "$out"
}

# run_check NAME CMD...: one test, passed when CMD exits 0, skipped when
# it exits $TAP_SKIP. Its output is shown as TAP comments.
TAP_SKIP=77
run_check() {
	local name=$1 status
	shift
	echo "# --- $name"
	"$@" 2>&1 | sed 's/^/#   /'
	status=${PIPESTATUS[0]}
	if [ "$status" -eq 0 ]; then
		echo "ok - $name"
	elif [ "$status" -eq "$TAP_SKIP" ]; then
		echo "ok - $name # SKIP waived"
	else
		echo "not ok - $name: exited with status $status"
	fi
}
