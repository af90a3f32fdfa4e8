#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds vcuda.ko against several kernels without touching the main build.
#
#   module-check.sh TOP OUTDIR KDIR...
#
# For each KDIR, OUTDIR/<basename of KDIR>/ gets a tree of links to the
# sources (same layout as TOP: Kbuild, kernel/, uapi/), its own generated
# compatibility header and its own objects. Fails if a build fails or
# prints any warning (compiler warnings are also errors, -Werror).
set -eu

top=$1
out=$2
shift 2
[ $# -gt 0 ] || { echo "module-check: no kernel headers found" >&2; exit 1; }

status=0
for kdir in "$@"; do
	name=$(basename "$kdir")
	dir=$out/$name
	tree=$dir/tree
	rm -rf "$tree"
	mkdir -p "$tree/kernel" "$tree/uapi" "$dir/gen"
	ln -s "$top/Kbuild" "$tree/Kbuild"
	ln -s "$top/uapi/vcuda_drm.h" "$tree/uapi/vcuda_drm.h"
	for f in "$top"/kernel/*.c "$top"/kernel/*.h "$top/kernel/Kbuild"; do
		ln -s "$f" "$tree/kernel/$(basename "$f")"
	done

	log=$dir/build.log
	if "$top/kernel/compat/gen-compat.sh" "$kdir" "$dir/gen/vcuda_compat_gen.h" &&
	   make -C "$kdir" M="$tree" VCUDA_TOP="$tree" VCUDA_GEN="$dir/gen" \
		VCUDA_WERROR=y modules > "$log" 2>&1 &&
	   ! grep -qi 'warning' "$log"; then
		echo "module-check: $name: ok"
	else
		echo "module-check: $name: FAILED" >&2
		cat "$log" >&2 || true
		status=1
	fi
done
exit $status
