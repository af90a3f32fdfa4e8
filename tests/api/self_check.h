/* SPDX-License-Identifier: MIT */
/*
 * For the API tests that make their own checks (exit 0 or 1) rather than
 * print what NVIDIA's would: each failed expectation prints a FAIL line
 * and counts; main returns self_check_status().
 */
#ifndef VCUDA_SELF_CHECK_H
#define VCUDA_SELF_CHECK_H

#include <stdio.h>

#include <cuda.h>

static int self_check_failures;

/* @what returned @got where CUDA returns @want. */
static inline void expect_result(const char *what, CUresult got,
				 CUresult want)
{
	if (got == want)
		return;
	printf("FAIL: %s = %d, want %d\n", what, (int)got, (int)want);
	self_check_failures++;
}

/* Prints "ok: @what" or "FAIL: @what". */
static inline void expect_true(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	self_check_failures += !ok;
}

static inline int self_check_status(void)
{
	return self_check_failures ? 1 : 0;
}

#endif
