# SPDX-License-Identifier: MIT
# vcuda-smi tests, sourced by run-smi-tests.sh: memory, processes and
# utilization while smi-load does known work.

used_mib() { "$SMI" --query-gpu=memory.used --format=csv,noheader,nounits -i "$1"; }

# ---- memory and processes: 256 MiB held by one process ----
before=$(used_mib 0)
before1=$([ "$ndev" -ge 2 ] && used_mib 1)
if start_load mem -d 0 -m 256 -t 300; then
	pid=$load_pid
	check "memory.used grows by the 256 MiB allocated" \
		within "$(used_mib 0)" $((before + 256)) 0
	check "memory.used is sysfs vram_used" \
		[ "$(used_mib 0)" = "$(mib "$(attr 0 vram_used)")" ]
	if [ "$ndev" -ge 2 ]; then
		check "another device's memory.used is unchanged" \
			[ "$(used_mib 1)" = "$before1" ]
	fi
	run --query-compute-apps=gpu_uuid,pid,process_name,used_memory --format=csv,noheader
	row=$(echo "$out" | grep ", $pid, ")
	check "--query-compute-apps lists the process on its GPU" \
		grep -q "^GPU-$(attr 0 uuid), $pid, .*smi-load, " <<<"$row"
	if grep -q '^drm-total-vram:' /proc/$pid/fdinfo/* 2>/dev/null; then
		check "--query-compute-apps: used_memory is the 256 MiB" \
			grep -q ", 256 MiB$" <<<"$row"
		run
		check "default view: the process with its 256MiB" \
			grep -Eq "^\|    0   N/A  N/A +$pid +C   .*smi-load +256MiB \|$" <<<"$out"
	else
		skip "--query-compute-apps: used_memory is the 256 MiB" \
			"needs fdinfo drm-total-vram"
		run
		check "default view: the process is listed" \
			grep -Eq "^\|    0   N/A  N/A +$pid +C   .*smi-load +N/A \|$" <<<"$out"
	fi
	run -q -d PIDS -i 0
	check "-q -d PIDS: the process" grep -Eq "^        Process ID +: $pid$" <<<"$out"
	run --query-compute-apps=pid --format=csv,noheader -i 1
	if [ "$ndev" -ge 2 ]; then
		not_listed() { ! grep -qx "$pid" <<<"$out"; }
		check "-i 1: the process is not on device 1" not_listed
	fi
	stop_load "$pid"
	check "memory.used returns to its value once the process exits" \
		[ "$(used_mib 0)" = "$before" ]
else
	not_ok "smi-load -m 256 started: $(cat "$tmp/mem")"
fi

# ---- utilization: the compute engine busy 50% of the time ----
util_tests() {
	local busy=50 tol=15 sm row
	run dmon -i 0 -c 2 -d 1
	sm=$(echo "$out" | grep -v '^#' | tail -1 | awk '{ print $5 }')
	if has_attr busy_compute_ns; then
		check "dmon: sm of a device busy ${busy}% is ${busy}+-${tol}" \
			within "$sm" $busy $tol
	else
		skip "dmon: sm of a device busy ${busy}%" "needs sysfs busy_compute_ns"
	fi
	if has_attr utilization_compute; then
		check "utilization.gpu of a device busy ${busy}% is ${busy}+-${tol}" \
			within "$("$SMI" --query-gpu=utilization.gpu --format=csv,noheader,nounits -i 0)" $busy $tol
	else
		skip "utilization.gpu of a device busy ${busy}%" "needs sysfs utilization_compute"
	fi
	if grep -q '^drm-engine-compute:' /proc/$load_pid/fdinfo/* 2>/dev/null; then
		run pmon -i 0 -c 1
		echo "$out" | sed 's/^/#   /'
		row=$(echo "$out" | grep -E "^ +0 +$load_pid ")
		check "pmon: the process at sm ${busy}+-${tol}" \
			within "$(echo "$row" | awk '{ print $4 }')" $busy $tol
	else
		skip "pmon: the process's sm" "needs fdinfo drm-engine-compute"
	fi
	if [ "$ndev" -ge 2 ] && has_attr busy_compute_ns; then
		run dmon -i 1 -c 1
		check "dmon: an idle device's sm is 0" \
			[ "$(echo "$out" | grep -v '^#' | awk '{ print $5 }')" = 0 ]
	else
		skip "dmon: an idle device's sm is 0" "needs 2 devices and busy_compute_ns"
	fi
}
if start_load busy -d 0 -b 50 -t 120; then
	sleep 1.5
	util_tests
	stop_load "$load_pid"
else
	not_ok "smi-load -b 50 started: $(cat "$tmp/busy")"
fi
