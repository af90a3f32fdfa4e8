#!/bin/bash
# SPDX-License-Identifier: MIT
# compare.sh REPLAYED RESULTS: every file the replay wrote must equal the
# one the tests wrote (PTX_WRITE_RESULTS); prints the differences.
set -u
out=$1 ref=$2 bad=0 n=0
for f in "$out"/*.bin; do
	name=$(basename "$f")
	n=$((n + 1))
	if ! cmp -s "$f" "$ref/$name"; then
		echo "differs: $name"
		bad=$((bad + 1))
	fi
done
echo "$n replayed results, $bad differ"
[ "$bad" -eq 0 ] && [ "$n" -gt 0 ]
