#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Every entry point that returns "not supported" must be listed in
# docs/compatibility.md, so that the document stays true to the code:
# libcuda's and libcudart's unsupported.def, and the NVML stubs the build
# generates (build/nvml/unsupported.txt).
cd "$(dirname "$0")/../.." || exit 2
missing=0
for name in $(sed -n 's/^UNSUPPORTED(\(.*\))$/\1/p' libcuda/unsupported.def libcudart/unsupported.def); do
	if ! grep -q "\`$name\`" docs/compatibility.md; then
		echo "docs/compatibility.md does not list $name"
		missing=1
	fi
done
# libnvidia-ml.so.1's stubs are generated from nvml.h: the build lists them.
nvml=build/nvml/unsupported.txt
if [ ! -s "$nvml" ]; then
	echo "$nvml is missing: build libnvidia-ml.so.1 first (make nvml)"
	exit 1
fi
for name in $(cat "$nvml"); do
	if ! grep -q "\`$name\`" docs/compatibility.md; then
		echo "docs/compatibility.md does not list $name"
		missing=1
	fi
done
# ... and lists no implemented NVML entry point among the unsupported ones.
unsupported_part=$(sed -n '/^## NVML/,$p' docs/compatibility.md |
	sed -n '/checks that each is listed here/,$p')
for name in $(cat build/nvml/defined.txt); do
	if grep -q "\`$name\`" <<<"$unsupported_part"; then
		echo "docs/compatibility.md lists $name as unsupported; it is implemented"
		missing=1
	fi
done
exit $missing
