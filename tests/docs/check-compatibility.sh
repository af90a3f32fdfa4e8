#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Every entry point that returns "not supported" must be listed in
# docs/compatibility.md, so that the document stays true to the code.
cd "$(dirname "$0")/../.." || exit 2
missing=0
for name in $(sed -n 's/^UNSUPPORTED(\(.*\))$/\1/p' libcuda/unsupported.def libcudart/unsupported.def); do
	if ! grep -q "\`$name\`" docs/compatibility.md; then
		echo "docs/compatibility.md does not list $name"
		missing=1
	fi
done
exit $missing
