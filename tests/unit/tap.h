/* SPDX-License-Identifier: MIT */
/* Minimal TAP producer for the host unit tests. */
#ifndef TESTS_UNIT_TAP_H
#define TESTS_UNIT_TAP_H

#include <stdbool.h>

/* Announces @n results ("1..n"); call once, first. */
void tap_plan(unsigned n);
/* "ok N - name" or "not ok N - name"; returns @ok. */
bool tap_ok(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "# message" */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status: non-zero if a result failed or the count is off. */
int tap_done(void);

#endif
