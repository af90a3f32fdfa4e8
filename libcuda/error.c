// SPDX-License-Identifier: MIT
/*
 * cuGetErrorName and cuGetErrorString.
 */
#include <stddef.h>

#include "api.h"

static const struct {
	CUresult code;
	const char *name;
	const char *message;
} errors[] = {
#define ERROR(code, name, message) { code, #name, message },
#include "errors.def"
#undef ERROR
};

static int find(CUresult code)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].code == code)
			return (int)i;
	return -1;
}

CUDA_EXPORT CUresult cuGetErrorName(CUresult code, const char **name)
{
	int i = find(code);

	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	if (i < 0) {
		*name = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*name = errors[i].name;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuGetErrorString(CUresult code, const char **message)
{
	int i = find(code);

	if (!message)
		return CUDA_ERROR_INVALID_VALUE;
	if (i < 0) {
		*message = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*message = errors[i].message;
	return CUDA_SUCCESS;
}
