#!/bin/sh
# SPDX-License-Identifier: MIT
# gen-stubs.sh REAL-LIBCUDA > stubs.S: a jump stub for every function the
# real library exports, except the ones cudalog.c defines itself.
set -eu
nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" { print $3 }' | sed 's/@.*//' |
	grep -v -x -e cuGetProcAddress -e cuGetProcAddress_v2 -e cuGetExportTable | sort -u >names.txt
{
	echo '	.text'
	i=0
	while read -r n; do
		printf '\t.globl %s\n\t.type %s,@function\n%s:\n\tjmp *cudalog_stub_targets+%d(%%rip)\n' \
			"$n" "$n" "$n" $((i * 8))
		i=$((i + 1))
	done <names.txt
	echo '	.data'
	echo '	.globl cudalog_stub_targets'
	echo '	.hidden cudalog_stub_targets'
	echo 'cudalog_stub_targets:'
	printf '\t.zero %d\n' $((i * 8 + 8))
	echo '	.section .rodata'
	i=0
	while read -r n; do
		printf '.Ls%d: .asciz "%s"\n' $i "$n"
		i=$((i + 1))
	done <names.txt
	echo '	.section .data.rel.ro'
	echo '	.globl cudalog_stub_names'
	echo '	.hidden cudalog_stub_names'
	echo 'cudalog_stub_names:'
	i=0
	while read -r n; do
		printf '\t.quad .Ls%d\n' $i
		i=$((i + 1))
	done <names.txt
	echo '	.quad 0'
	echo '	.section .note.GNU-stack,"",@progbits'
}
