// SPDX-License-Identifier: MIT
/* Minimal TAP producer. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>

static unsigned planned, run, failed;

void tap_plan(unsigned n)
{
	planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;
	run++;
	failed += !ok;
	printf("%s %u - ", ok ? "ok" : "not ok", run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int tap_done(void)
{
	if (run != planned)
		tap_diag("planned %u tests, ran %u", planned, run);
	return failed || run != planned;
}
