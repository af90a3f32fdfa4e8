#!/bin/bash
# SPDX-License-Identifier: MIT
#
# compare-probe.sh EXPECTED ACTUAL: compares nvml-probe's output against
# our library (ACTUAL) with the H100's (EXPECTED): for every key of the
# recording, the same return code and, where both succeeded, the same
# shape of the value and the same case of its hex letters. A key of
# tests/nvml/h100-differences.tsv must instead return the code listed
# there: what a virtual GPU answers differently, each with its reason.
cd "$(dirname "$0")/../.." || exit 2
awk -F'\t' '
	FILENAME == ARGV[1] { diff[$1] = $2; next }
	FILENAME == ARGV[2] { want_rc[$1] = $2; want_shape[$1] = $3
			      want_raw[$1] = $4; order[n++] = $1; next }
	{ rc[$1] = $2; shape[$1] = $3; raw[$1] = $4 }
	function hexcase(s) {
		return s ~ /[A-F]/ ? "upper" : s ~ /[a-f]/ ? "lower" : "none"
	}
	END {
		for (i = 0; i < n; i++) {
			k = order[i]
			if (!(k in rc)) {
				printf "%s: missing\n", k; bad++; continue
			}
			if (k in diff) {
				if (rc[k] != diff[k]) {
					printf "%s: returned %s, the documented difference says %s\n",
					       k, rc[k], diff[k]; bad++
				}
				continue
			}
			if (rc[k] != want_rc[k]) {
				printf "%s: returned %s, the H100 %s\n", k, rc[k], want_rc[k]
				bad++
			} else if (shape[k] != want_shape[k]) {
				printf "%s: value %s has shape %s, the H100 %s (%s)\n",
				       k, raw[k], shape[k], want_shape[k], want_raw[k]
				bad++
			} else if (want_shape[k] ~ /x[0-9]/ &&
				   hexcase(raw[k]) != "none" &&
				   hexcase(want_raw[k]) != "none" &&
				   hexcase(raw[k]) != hexcase(want_raw[k])) {
				printf "%s: %s is %s case, the H100 %s\n", k, raw[k],
				       hexcase(raw[k]), want_raw[k]
				bad++
			}
		}
		printf "%d keys compared, %d differ\n", n, bad
		exit bad > 0
	}' tests/nvml/h100-differences.tsv "$1" "$2"
