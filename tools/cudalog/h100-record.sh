#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs on a machine with NVIDIA's driver (the device tool's H100): builds
# cudalog over the real libcuda.so.1, builds vcuda's samples and API tests
# as nvcc builds by default (static cudart), runs each under cudalog, and
# records the driver's cuGetProcAddress answers. Writes to $OUT:
#   cudalog.tar.gz       one log per program (tools/cudalog/cudalog.c's format)
#   procaddr-h100.txt    tests/procaddr/record_procaddr.c's output
#   ENVIRONMENT.txt      the machine, the driver, the toolkit, exit statuses
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${OUT:-/tmp/cudalog-out}
work=$(mktemp -d)
mkdir -p "$out" "$work/lib" "$work/bin" "$work/logs"
real=$(ldconfig -p | awk '/libcuda\.so\.1 / { print $NF; exit }')
real=$(readlink -f "$real")
{
	date -u +%FT%TZ
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
	nvcc --version | tail -2
	uname -srm
	echo "real libcuda: $real"
} >"$out/ENVIRONMENT.txt" 2>&1

(cd "$work/lib" && "$OLDPWD/tools/cudalog/gen-stubs.sh" "$real" >stubs.S &&
	gcc -O2 -Wall -Wextra -fvisibility=hidden -shared -fPIC -Wl,-soname,libcuda.so.1 \
		-o libcuda.so.1 "$OLDPWD/tools/cudalog/cudalog.c" "$OLDPWD/tools/cudalog/tramp.S" \
		stubs.S -ldl -lpthread) >>"$out/ENVIRONMENT.txt" 2>&1

# Programs as `nvcc -o x x.cu` builds them, -lcuda where they call the driver.
build() {
	local name=$1 src=$2
	nvcc -O2 -o "$work/bin/$name" "$src" -L/usr/local/cuda/lib64/stubs -lcuda -ldl \
		>"$work/logs/$name.build" 2>&1
}
for d in tests/samples/*/; do
	n=$(basename "$d")
	[ -f "$d/$n.cu" ] && build "sample-$n" "$d/$n.cu" &
done
for f in tests/api/*.cu; do
	build "api-$(basename "$f" .cu)" "$f" &
done
gcc -O2 -o "$work/record_procaddr" tests/procaddr/record_procaddr.c -ldl &
gcc -O2 -I/usr/local/cuda/include -o "$work/devinfo" tools/cudalog/devinfo.c \
	-L/usr/local/cuda/lib64/stubs -lcuda &
wait
LD_LIBRARY_PATH= "$work/devinfo" >>"$out/ENVIRONMENT.txt" 2>&1

versions=$(grep -oE 'PFN_cu[A-Za-z0-9_]+_v[0-9]+' /usr/local/cuda/include/cudaTypedefs.h |
	grep -oE '[0-9]+$' | sort -n -u)
vlist="0 1 1000"
for v in $versions; do vlist="$vlist $((v - 1)) $v"; done
vlist=$(echo "$vlist 12070 12100 13010 13020 14000 99999" | tr ' ' '\n' | sort -n -u | tr '\n' ' ')
tests/procaddr/names.sh /usr/local/cuda/include "$real" |
	"$work/record_procaddr" "$real" $vlist >"$out/procaddr-h100.txt" 2>&1 &

for exe in "$work"/bin/*; do
	n=$(basename "$exe")
	(cd "$work" && CUDALOG_CALLS=1 CUDALOG_REAL=$real CUDALOG_OUT="$work/logs/$n.log" \
		LD_LIBRARY_PATH="$work/lib" timeout 120 "$exe" >"$work/logs/$n.stdout" 2>&1)
	echo "$n exited with status $?" >>"$out/ENVIRONMENT.txt"
done
(cd "$work" && CUDALOG_PATCH_INTEGRITY=1 CUDALOG_REAL=$real \
	CUDALOG_OUT="$work/logs/integrity.log" LD_LIBRARY_PATH="$work/lib" \
	"$work/bin/sample-vectorAdd" >"$work/logs/integrity.stdout" 2>&1)
wait
tar -C "$work" -czf "$out/cudalog.tar.gz" logs
