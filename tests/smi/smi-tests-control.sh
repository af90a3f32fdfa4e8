# SPDX-License-Identifier: MIT
# vcuda-smi tests, sourced by run-smi-tests.sh: what root may change
# (compute mode, reset, persistence) and what others may not.

bus0=$("$SMI" --query-gpu=pci.bus_id --format=csv,noheader -i 0)
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$SMI" "$@" 2>&1; }
mode0() { "$SMI" --query-gpu=compute_mode --format=csv,noheader -i 0; }

# ---- compute mode ----
if has_attr compute_mode; then
	run -c 3 -i 0
	check "-c 3: nvidia-smi's message" [ "$status" = 0 ] && \
		[ "$out" = "$(printf 'Set compute mode to EXCLUSIVE_PROCESS for GPU %s.\nAll done.' "$bus0")" ]
	check "-c 3: compute_mode is Exclusive_Process" [ "$(mode0)" = Exclusive_Process ]
	if start_load excl1 -d 0 -t 20; then
		"$LOAD" -d 0 -t 1 >"$tmp/excl2" 2>&1
		check "exclusive process: a second process cannot create a context" \
			[ $? = 3 ] && grep -q "^ctx-create: -16$" "$tmp/excl2"
		stop_load "$load_pid"
		"$LOAD" -d 0 -t 0 >"$tmp/excl3" 2>&1
		check "exclusive process: once the first exits, another may" [ $? = 0 ]
	else
		not_ok "exclusive process: first process started: $(cat "$tmp/excl1")"
	fi
	run -c PROHIBITED -i 0
	"$LOAD" -d 0 -t 0 >"$tmp/proh" 2>&1
	check "-c PROHIBITED: no process may create a context" \
		[ $? = 3 ] && grep -q "^ctx-create: -1$" "$tmp/proh"
	run -c 0
	check "-c 0: every device back to Default" [ "$status" = 0 ] && \
		[ "$(mode0)" = Default ]
	out=$(nobody -c 0 -i 0)
	check "-c as non-root: Insufficient Permissions, status 4" [ $? = 4 ] && \
		[ "$out" = "$(printf 'Unable to set the compute mode for GPU %s: Insufficient Permissions\nTerminating early due to previous errors.' "$bus0")" ]
else
	for t in "-c 3 sets Exclusive_Process" \
		"exclusive process refuses a second process" \
		"-c PROHIBITED refuses every process" "-c 0 restores Default" \
		"-c as non-root: Insufficient Permissions"; do
		skip "$t" "needs sysfs compute_mode (writable)"
	done
	run -c 3 -i 0
	check "-c without the sysfs file: Not Supported, status 3" [ "$status" = 3 ]
fi

# ---- reset ----
faults_before=$(attr 0 faults)
if start_load reset -d 0 -r -t 20; then
	run -r -i 0
	check "-r -i 0: nvidia-smi's message" [ "$status" = 0 ] && \
		[ "$out" = "$(printf 'GPU %s was successfully reset.\nAll done.' "$bus0")" ]
	wait "$load_pid"
	st=$?
	check "reset: the process's context faulted with RESET" grep -q "^reset-seen$" "$tmp/reset"
	check "reset: a new context works on the device" \
		[ "$st" = 0 ] && grep -q "^recovered$" "$tmp/reset"
	if has_attr faults; then
		check "reset: the faults counter (Xid Events) grew" \
			[ "$(attr 0 faults)" -gt "$faults_before" ]
	else
		skip "reset: the faults counter grew" "needs sysfs faults"
	fi
else
	not_ok "smi-load -r started: $(cat "$tmp/reset")"
fi
out=$(nobody -r -i 0)
check "-r as non-root: Insufficient Permissions, status 4" [ $? = 4 ] && \
	grep -q "Insufficient Permissions$" <<<"$out"

# ---- persistence mode: nothing to set on a virtual GPU ----
run -pm 1 -i 0
check "-pm 1: Not Supported, status 3" [ "$status" = 3 ] && \
	[ "$out" = "$(printf 'Unable to set persistence mode for GPU %s: Not Supported\nTerminating early due to previous errors.' "$bus0")" ]
out=$(nobody -pm 1 -i 0)
check "-pm as non-root: Insufficient Permissions, status 4" [ $? = 4 ]

# ---- reading needs no privilege ----
out=$(nobody --query-gpu=index,memory.total --format=csv,noheader)
check "non-root may query" [ $? = 0 ] && [ "$(echo "$out" | wc -l)" = "$ndev" ]
