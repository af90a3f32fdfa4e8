# SPDX-License-Identifier: MIT
# vcuda-smi tests, sourced by run-smi-tests.sh: formats, options and
# errors against nvidia-smi's recorded output, on an idle system.

# ---- the default view ----
run
check "default view exits 0" [ "$status" = 0 ]
view=$out
view_layout() {
	# Rules and column headings are nvidia-smi's, line for line (one
	# device, as recorded; line 3 has our name and versions, 9-11 the
	# device).
	local i one
	one=$("$SMI" -i 0)
	for i in 2 4 5 6 7 8 12 13 14 15 16 17 18 19 20; do
		[ "$(echo "$one" | sed -n "${i}p")" = "$(ref "" | sed -n "${i}p")" ] ||
			{ echo "# line $i differs: $(echo "$one" | sed -n "${i}p")"; return 1; }
	done
}
check "default view: rules and headings are nvidia-smi's" view_layout
view_widths() {
	# Every line but the time stamp and the blank one is 91 columns wide.
	! echo "$view" | sed 1d | awk 'length($0) && length($0) != 91 { bad = 1; print "# " length($0) ": " $0 } END { exit !bad }'
}
check "default view: every line is 91 columns" view_widths
view_devices() {
	local i
	for i in $(seq 0 $((ndev - 1))); do
		echo "$view" | grep -Eq "^\|  +$i  .*\|   [0-9A-F:.]+ Off \|" || return 1
		echo "$view" | grep -q "| *$(mib "$(attr "$i" vram_used)")MiB / *$(mib "$(attr "$i" vram_total)")MiB |" || return 1
	done
	[ "$(echo "$view" | grep -c 'Off |')" = "$ndev" ]
}
check "default view: one block per device with its memory" view_devices
drv=$("$SMI" --query-gpu=driver_version --format=csv,noheader | head -1)
check "default view: header shows the driver version ($drv) and CUDA 13.0" \
	grep -q "Driver Version: $drv *CUDA Version: 13.0 " <<<"$view"
check "default view: no processes on an idle system" \
	grep -q "No running processes found" <<<"$view"

# ---- -L ----
run -L
list_ok() {
	local i
	[ "$status" = 0 ] && [ "$(echo "$out" | wc -l)" = "$ndev" ] || return 1
	for i in $(seq 0 $((ndev - 1))); do
		echo "$out" | grep -qx "GPU $i: .* (UUID: GPU-$(attr "$i" uuid))" || return 1
	done
}
check "-L lists every device with its sysfs UUID" list_ok

# ---- --query-gpu ----
Q="--query-gpu=index,name,uuid,memory.total,memory.used,utilization.gpu,compute_mode --format=csv"
run $Q
csv=$out
check "--query-gpu header is nvidia-smi's" \
	[ "$(echo "$csv" | head -1)" = "$(ref "$Q" | head -1)" ]
csv_parses() {
	# Rows of ", "-separated values, as nvidia-smi writes them.
	local i r
	[ "$(echo "$csv" | wc -l)" = $((ndev + 1)) ] || return 1
	for i in $(seq 0 $((ndev - 1))); do
		IFS=$'\t' read -r -a r <<<"$(echo "$csv" | sed -n "$((i + 2))p" | sed 's/, /\t/g')"
		[ "${#r[@]}" = 7 ] && [ "${r[0]}" = "$i" ] || return 1
		[ "${r[2]}" = "GPU-$(attr "$i" uuid)" ] || return 1
		[ "${r[3]}" = "$(mib "$(attr "$i" vram_total)") MiB" ] || return 1
		[[ ${r[4]} =~ ^[0-9]+\ MiB$ ]] || return 1
		[[ ${r[5]} =~ ^([0-9]+\ %|\[N/A\])$ ]] || return 1
		[[ ${r[6]} =~ ^(Default|Exclusive_Process|Prohibited)$ ]] || return 1
	done
}
check "--query-gpu csv parses, one row per device, values match sysfs" csv_parses
run --query-gpu=index,name,memory.total --format=csv,noheader,nounits
check "--format=csv,noheader,nounits: no header, bare numbers" \
	grep -Eqx "0, [^,]+, $(mib "$(attr 0 vram_total)")" <<<"$(echo "$out" | head -1)"
run --query-gpu=index,temperature.gpu,power.draw,fan.speed --format=csv,noheader
check "--query-gpu: properties a virtual GPU has not are [N/A]" \
	grep -qx "0, \[N/A\], \[N/A\], \[N/A\]" <<<"$(echo "$out" | head -1)"
run --query-gpu=gpu_name,gpu_uuid,gpu_bus_id --format=csv
check "--query-gpu: aliases print the canonical names" \
	[ "$(echo "$out" | head -1)" = "name, uuid, pci.bus_id" ]
check "--query-compute-apps on an idle system is nvidia-smi's" \
	same_as_ref "--query-compute-apps=pid,process_name,used_memory --format=csv"

# ---- errors ----
check "-i 5: nvidia-smi's error and status" same_as_ref "-i 5"
check "-i GPU-nonexistent: nvidia-smi's error and status" \
	same_as_ref "-i GPU-nonexistent"
check "--bogus: nvidia-smi's error and status" same_as_ref "--bogus"
check "--query-gpu=nonsense: nvidia-smi's error and status" \
	same_as_ref "--query-gpu=nonsense --format=csv"
check "-c 1 (Exclusive_Thread): nvidia-smi's warning" same_as_ref "-c 1"
run --query-gpu=index
check "--query-gpu without --format fails with status 2" [ "$status" = 2 ]
run -c 7
check "-c 7 is an invalid argument (status 2)" [ "$status" = 2 ]

# ---- -i ----
run --query-gpu=index --format=csv,noheader -i "GPU-$(attr 0 uuid)"
check "-i UUID selects that device" [ "$out" = 0 ]
if [ "$ndev" -ge 2 ]; then
	run --query-gpu=index --format=csv,noheader -i 1,0
	check "-i 1,0 selects both devices, in index order" [ "$out" = "$(printf '0\n1')" ]
	bus=$("$SMI" --query-gpu=pci.bus_id --format=csv,noheader -i 1)
	run -L -i "$bus"
	check "-i BUS-ID selects that device" grep -q "^GPU 1: " <<<"$out"
else
	skip "-i 1,0 selects both devices" "needs 2 devices"
	skip "-i BUS-ID selects that device" "needs 2 devices"
fi

# ---- -q ----
run -q
check "-q: exits 0 with one GPU block per device" \
	[ "$status" = 0 ] && [ "$(echo "$out" | grep -c '^GPU 0000')" = "$ndev" ]
q_layout() {
	# Colons at column 55, as nvidia-smi's.
	! echo "$out" | grep ' : ' | awk 'index($0, " : ") != 55 { bad = 1; print "# " $0 } END { exit !bad }'
}
check "-q: names padded to nvidia-smi's column" q_layout
D="-q -d MEMORY,UTILIZATION,COMPUTE,PIDS"
run $D
q_sections() {
	# The sections of ours, in nvidia-smi's order.
	local want got
	want=$(ref "$D" | grep -E '^    [A-Z]' | grep -E 'FB Memory|BAR1|Compute Mode|^    Utilization|Processes' | sed 's/ *:.*//')
	got=$(echo "$out" | awk '/^GPU /{ c++ } c == 1' | grep -E '^    [A-Z]' | grep -v Samples | sed 's/ *:.*//')
	[ "$want" = "$got" ] || { echo "# got: $got"; false; }
}
check "-q -d MEMORY,UTILIZATION,COMPUTE,PIDS: nvidia-smi's sections" q_sections
check "-q -d: FB memory total matches sysfs" \
	grep -Eq "^        Total +: $(mib "$(attr 0 vram_total)") MiB$" <<<"$out"
run -q -x
echo "$out" >"$tmp/q.xml"
if command -v xmllint >/dev/null; then
	check "-q -x is well-formed XML" xmllint --noout "$tmp/q.xml"
	check "-q -x: nvidia_smi_log with every GPU" \
		[ "$(xmllint --xpath 'count(/nvidia_smi_log/gpu)' "$tmp/q.xml")" = "$ndev" ]
	check "-q -x: fb_memory_usage total matches sysfs" \
		[ "$(xmllint --xpath 'string(/nvidia_smi_log/gpu[1]/fb_memory_usage/total)' "$tmp/q.xml")" = "$(mib "$(attr 0 vram_total)") MiB" ]
else
	for t in "-q -x is well-formed XML" "-q -x: nvidia_smi_log with every GPU" \
		"-q -x: fb_memory_usage total matches sysfs"; do
		skip "$t" "needs xmllint (libxml2-utils)"
	done
fi

# ---- dmon, pmon ----
run dmon -c 2
check "dmon -c 2: nvidia-smi's headings, 2 rows per device" \
	[ "$(echo "$out" | head -2)" = "$(ref "dmon -c 2" | head -2)" ] && \
	[ "$(echo "$out" | grep -vc '^#')" = $((2 * ndev)) ]
run pmon -c 1
check "pmon -c 1, idle: nvidia-smi's headings and idle row" \
	[ "$(echo "$out" | head -3)" = "$(ref "pmon -c 1")" ]

# ---- -h, -l, -f ----
run -h
check "-h: usage, status 0" [ "$status" = 0 ] && grep -q -- "--query-gpu" <<<"$out"
out=$(timeout --preserve-status -s INT 5 "$SMI" --query-gpu=index --format=csv,noheader -i 0 -lms 400)
status=$?
check "-lms 400 repeats the query until interrupted (status 0)" \
	[ "$status" = 0 ] && [ "$(echo "$out" | wc -l)" -ge 3 ]
run -L -f "$tmp/list.txt"
check "-f writes the report to the file" \
	[ -z "$out" ] && grep -q "^GPU 0: " "$tmp/list.txt"
