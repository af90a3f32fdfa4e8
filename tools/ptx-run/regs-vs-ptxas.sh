#!/bin/bash
# SPDX-License-Identifier: MIT
#
# regs-vs-ptxas.sh PTX...: for each kernel of each PTX file, the
# registers ptxas allocates (ptxas -arch=sm_90 -v, from the toolkit) and
# vcuda's estimate (CU_FUNC_ATTRIBUTE_NUM_REGS, as ptx-run --list prints
# it), tab separated: file, kernel, ptxas, vcuda. Build ptx-run first
# (make $PWD/build/bin/ptx-run). A file ptx-run cannot build gives "?".
top=$(cd "$(dirname "$0")/../.." && pwd)
ptx_run=${PTX_RUN:-$top/build/bin/ptx-run}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}

for f in "$@"; do
	declare -A ours=()
	while read -r name _ _ _ _ _ _ _ _ _ regs; do
		ours[$name]=$regs
	done < <("$ptx_run" --arch 90 --list "$f" 2>/dev/null)
	"$ptxas" -arch=sm_90 -v -c -o /dev/null "$f" 2>&1 |
		awk '/Compiling entry function/ {
			gsub(/\047/, ""); kernel = $(NF - 2) }
		     /Used [0-9]+ registers/ && kernel != "" {
			for (i = 1; i <= NF; i++)
				if ($i == "Used") print kernel "\t" $(i + 1)
			kernel = "" }' |
		while IFS=$'\t' read -r kernel regs; do
			printf '%s\t%s\t%s\t%s\n' "$(basename "$f")" "$kernel" \
				"$regs" "${ours[$kernel]:-?}"
		done
	unset ours
done
