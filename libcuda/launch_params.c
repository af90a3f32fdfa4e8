// SPDX-License-Identifier: MIT
/*
 * A kernel's parameters, packed into the layout its PTX declares, from
 * either form cuLaunchKernel accepts: an array of pointers to each
 * parameter, or one buffer given through CU_LAUNCH_PARAM_BUFFER_POINTER.
 * Launches and graph kernel nodes both pack through here.
 */
#include <stdlib.h>
#include <string.h>

#include "launch_params.h"
#include "module.h"

/* Parameters given as CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE in @extra. */
static CUresult params_from_extra(void **extra, const void **buf, size_t *size)
{
	*buf = NULL;
	*size = 0;
	for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			*buf = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			*size = *(size_t *)extra[i + 1];
		else
			return CUDA_ERROR_INVALID_VALUE;
	}
	return *buf ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult pack_params(const struct ptx_kernel_info *info, void **params,
			    void **extra, unsigned char *out)
{
	const void *buf;
	size_t size;
	CUresult res;

	if (params && extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (params) {
		for (uint32_t i = 0; i < info->param_count; i++) {
			if (!params[i])
				return CUDA_ERROR_INVALID_VALUE;
			memcpy(out + info->params[i].offset, params[i],
			       info->params[i].size);
		}
		return CUDA_SUCCESS;
	}
	if (!extra)
		return info->param_count ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	res = params_from_extra(extra, &buf, &size);
	if (res != CUDA_SUCCESS)
		return res;
	if (size < info->param_size)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(out, buf, info->param_size);
	return CUDA_SUCCESS;
}

CUresult launch_pack_params(const struct CUfunc_st *f, void **params,
			    void **extra, unsigned char **packed)
{
	CUresult res;

	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	/* One byte at least, so that a kernel without parameters has one. */
	*packed = calloc(1, f->info.param_size + 1);
	if (!*packed)
		return CUDA_ERROR_OUT_OF_MEMORY;
	res = pack_params(&f->info, params, extra, *packed);
	if (res != CUDA_SUCCESS) {
		free(*packed);
		*packed = NULL;
	}
	return res;
}
