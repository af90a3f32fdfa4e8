// SPDX-License-Identifier: MIT
/*
 * Runtime error codes: names, messages and the mapping from driver
 * results. The runtime's codes equal the driver's wherever both exist.
 */
#include <stddef.h>

#include "../libcuda/warn_once.h"
#include "rt.h"

static const struct {
	int code;
	const char *name;
	const char *message;
} rt_errors[] = {
#define RT_ERROR(code, name, message) { code, #name, message },
#include "errors.def"
#undef RT_ERROR
};

static const struct {
	int code;
	const char *message;
} driver_messages[] = {
#define ERROR(code, name, message) { code, message },
#include "../libcuda/errors.def"
#undef ERROR
};

static int find(cudaError_t err)
{
	for (size_t i = 0; i < sizeof(rt_errors) / sizeof(rt_errors[0]); i++)
		if (rt_errors[i].code == (int)err)
			return (int)i;
	return -1;
}

static const char *driver_message(int code)
{
	for (size_t i = 0; i < sizeof(driver_messages) / sizeof(driver_messages[0]); i++)
		if (driver_messages[i].code == code)
			return driver_messages[i].message;
	return NULL;
}

/* What the runtime says of a code it does not know, name and message. */
#define UNRECOGNIZED "unrecognized error code"

cudaError_t rt_error(CUresult res)
{
	return (cudaError_t)res;
}

CUDART_EXPORT const char *cudaGetErrorName(cudaError_t err)
{
	int i = find(err);

	return i < 0 ? UNRECOGNIZED : rt_errors[i].name;
}

CUDART_EXPORT const char *cudaGetErrorString(cudaError_t err)
{
	int i = find(err);

	if (i < 0)
		return UNRECOGNIZED;
	return rt_errors[i].message ? rt_errors[i].message
				    : driver_message(rt_errors[i].code);
}

/* For unsupported.c: every unsupported entry point ends here. */
int rt_not_supported(const char *name);

int rt_not_supported(const char *name)
{
	warn_unsupported_once(name);
	return rt_return(cudaErrorNotSupported);
}
