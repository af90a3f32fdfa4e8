/* SPDX-License-Identifier: MIT */
/*
 * Names an unsupported entry point on stderr, once per name. CUDA itself
 * would print nothing, but a program that stops on a NOT_SUPPORTED error
 * is far easier to diagnose with the name of the call. Shared by
 * libcuda and libcudart (each gets its own copy of the state).
 */
#ifndef VCUDA_WARN_ONCE_H
#define VCUDA_WARN_ONCE_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static inline void warn_unsupported_once(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static const char *told[128];
	static int ntold;
	int seen = 0;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < ntold && !seen; i++)
		seen = strcmp(told[i], name) == 0;
	if (!seen && ntold < 128)
		told[ntold++] = name;
	pthread_mutex_unlock(&lock);
	if (!seen)
		fprintf(stderr, "vcuda: %s is not supported yet\n", name);
}

#endif
