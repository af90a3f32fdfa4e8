// SPDX-License-Identifier: MIT
/* VCUDA_MEMCHECK: whether launches get exact allocation bounds. */
#include "memcheck.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static bool enabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
	const char *v = getenv("VCUDA_MEMCHECK");

	enabled = v && *v && strcmp(v, "0") != 0;
}

bool memcheck_enabled(void)
{
	pthread_once(&once, read_env);
	return enabled;
}
