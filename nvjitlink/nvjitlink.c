// SPDX-License-Identifier: MIT
/*
 * vcuda's libnvJitLink.so.13: NVIDIA's nvJitLink API, linking for the
 * virtual GPU. Its "cubin" is a link image (libcuda/link_image.h), the
 * PTX that cuModuleLoadData* builds, as the driver's cuLinkComplete gives;
 * LTO-IR inputs become PTX through NVIDIA's own nvJitLink (lto.c). With
 * -ptx, the linked PTX is NVIDIA's, as NVIDIA's library gives it.
 *
 * Results follow NVIDIA's library where the two can agree
 * (tests/api/nvjitlink_api.expected, recorded with NVIDIA's); a cubin
 * input, SASS, is refused with NVJITLINK_ERROR_ARCH_MISMATCH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "file.h"
#include "jitlink.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT nvJitLinkResult __nvJitLinkCreate_13_0(nvJitLinkHandle *handle,
					      uint32_t n, const char *const *options)
{
	struct nvJitLink *link;
	nvJitLinkResult res;

	if (!handle)
		return NVJITLINK_ERROR_NULL_INPUT;
	link = calloc(1, sizeof(*link));
	if (!link)
		return NVJITLINK_ERROR_INTERNAL;
	res = jitlink_options_read(&link->options, n, options,
				   &link->error_log);
	/* As NVIDIA's: a handle even when the options are refused, whose
	 * error log says why. */
	*handle = link;
	return res;
}

EXPORT nvJitLinkResult __nvJitLinkDestroy_13_0(nvJitLinkHandle *handle)
{
	struct nvJitLink *link;

	if (!handle || !*handle)
		return NVJITLINK_ERROR_NULL_INPUT;
	link = *handle;
	jitlink_options_free(&link->options);
	link_set_clear(&link->set);
	for (size_t i = 0; i < link->ltoir_count; i++) {
		free(link->ltoir[i].data);
		free(link->ltoir[i].name);
	}
	free(link->ltoir);
	free(link->error_log);
	free(link->info_log);
	free(link->image);
	free(link->ptx);
	free(link);
	*handle = NULL;
	return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkAddData_13_0(nvJitLinkHandle link,
					       nvJitLinkInputType type,
					       const void *data, size_t size,
					       const char *name)
{
	if (!link || !data)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (link->complete)
		return NVJITLINK_ERROR_INVALID_INPUT;
	return jitlink_add(link, type, data, size, name ? name : "<input>");
}

EXPORT nvJitLinkResult __nvJitLinkAddFile_13_0(nvJitLinkHandle link,
					       nvJitLinkInputType type,
					       const char *path)
{
	nvJitLinkResult res;
	CUresult read;
	size_t size;
	char *data;
	FILE *f;

	if (!link || !path)
		return NVJITLINK_ERROR_NULL_INPUT;
	f = fopen(path, "rb");
	if (!f) {
		jitlink_log(&link->error_log, "ERROR: cannot open %s", path);
		return NVJITLINK_ERROR_INVALID_INPUT;
	}
	read = read_file(f, &data, &size);
	fclose(f);
	if (read == CUDA_ERROR_OUT_OF_MEMORY)
		return NVJITLINK_ERROR_INTERNAL;
	if (read) {
		jitlink_log(&link->error_log, "ERROR: cannot read %s", path);
		return NVJITLINK_ERROR_INVALID_INPUT;
	}
	res = __nvJitLinkAddData_13_0(link, type, data, size, path);
	free(data);
	return res;
}

/* The LTO-IR's PTX, added to the set; with -ptx also kept as the output. */
static nvJitLinkResult complete_ltoir(struct nvJitLink *link)
{
	char log[1024] = "";
	enum ptx_status ps;
	nvJitLinkResult res;
	char *ptx = NULL;

	res = jitlink_lto_to_ptx(link, &ptx);
	if (res)
		return res;
	ps = link_set_add_ptx(&link->set, ptx, strlen(ptx), "<lto>", log,
			      sizeof(log));
	if (ps != PTX_OK) {
		jitlink_log(&link->error_log, "ERROR: PTX of the LTO-IR: %s",
			    log);
		free(ptx);
		return NVJITLINK_ERROR_PTX_COMPILE;
	}
	if (link->options.ptx)
		link->ptx = ptx;
	else
		free(ptx);
	return NVJITLINK_SUCCESS;
}

static nvJitLinkResult complete(struct nvJitLink *link)
{
	char log[1024] = "";
	nvJitLinkResult res;

	if (link->options.ptx && link->non_lto_input) {
		jitlink_log(&link->error_log,
			    "ERROR: -ptx requires that all inputs have LTOIR");
		return NVJITLINK_ERROR_INCORRECT_INPUT_TYPE;
	}
	if (link->options.lto && !link->ltoir_count && !link->set.count) {
		jitlink_log(&link->error_log, "ERROR: nothing to link");
		return NVJITLINK_ERROR_NVVM_COMPILE;
	}
	if (link->ltoir_count) {
		res = complete_ltoir(link);
		if (res)
			return res;
	}
	/*
	 * -ptx asks for the LTO-IR's PTX alone, which may declare what other
	 * code defines (NVIDIA's leaves .extern functions in it): no image,
	 * and nothing to resolve.
	 */
	if (link->options.ptx)
		goto done;
	if (link->set.count && link_set_check(&link->set, log, sizeof(log))) {
		jitlink_log(&link->error_log, "ERROR: %s", log);
		return NVJITLINK_ERROR_PTX_COMPILE;
	}
	link->image = link_set_image(&link->set, link->options.max_registers,
				     &link->image_size);
	if (!link->image)
		return NVJITLINK_ERROR_INTERNAL;
done:
	if (link->options.verbose)
		jitlink_log(&link->info_log, "vcuda: linked %zu PTX input(s) "
			    "for sm_%u", link->set.count, link->options.arch);
	return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkComplete_13_0(nvJitLinkHandle link)
{
	nvJitLinkResult res;

	if (!link)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (link->complete)
		return NVJITLINK_SUCCESS;
	res = complete(link);
	link->complete = res == NVJITLINK_SUCCESS;
	return res;
}

/* An output of Complete, @len bytes at @data; @missing when there is none. */
static nvJitLinkResult output_size(const void *data, size_t len,
				   nvJitLinkResult missing, size_t *size)
{
	if (!size)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!data)
		return missing;
	*size = len;
	return NVJITLINK_SUCCESS;
}

static nvJitLinkResult output_copy(const void *data, size_t len,
				   nvJitLinkResult missing, void *out)
{
	if (!out)
		return NVJITLINK_ERROR_NULL_INPUT;
	if (!data)
		return missing;
	memcpy(out, data, len);
	return NVJITLINK_SUCCESS;
}

/* As NVIDIA's: no cubin (before Complete, or with -ptx) is INTERNAL. */
EXPORT nvJitLinkResult
__nvJitLinkGetLinkedCubinSize_13_0(nvJitLinkHandle link, size_t *size)
{
	return link ? output_size(link->image, link->image_size,
				  NVJITLINK_ERROR_INTERNAL, size) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedCubin_13_0(nvJitLinkHandle link,
						      void *cubin)
{
	return link ? output_copy(link->image, link->image_size,
				  NVJITLINK_ERROR_INTERNAL, cubin) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

/* As NVIDIA's: no PTX (without -ptx) is INVALID_INPUT. */
EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtxSize_13_0(nvJitLinkHandle link,
							size_t *size)
{
	return link ? output_size(link->ptx, link->ptx ? strlen(link->ptx) + 1 :
				  0, NVJITLINK_ERROR_INVALID_INPUT, size) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetLinkedPtx_13_0(nvJitLinkHandle link,
						    char *ptx)
{
	return link ? output_copy(link->ptx, link->ptx ? strlen(link->ptx) + 1 :
				  0, NVJITLINK_ERROR_INVALID_INPUT, ptx) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

static nvJitLinkResult log_size(const char *log, size_t *size)
{
	if (!size)
		return NVJITLINK_ERROR_NULL_INPUT;
	*size = log ? strlen(log) + 1 : 0;
	return NVJITLINK_SUCCESS;
}

static nvJitLinkResult log_copy(const char *log, char *out)
{
	if (!out)
		return NVJITLINK_ERROR_NULL_INPUT;
	strcpy(out, log ? log : "");
	return NVJITLINK_SUCCESS;
}

EXPORT nvJitLinkResult __nvJitLinkGetErrorLogSize_13_0(nvJitLinkHandle link,
						       size_t *size)
{
	return link ? log_size(link->error_log, size) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetErrorLog_13_0(nvJitLinkHandle link,
						   char *log)
{
	return link ? log_copy(link->error_log, log) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetInfoLogSize_13_0(nvJitLinkHandle link,
						      size_t *size)
{
	return link ? log_size(link->info_log, size) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

EXPORT nvJitLinkResult __nvJitLinkGetInfoLog_13_0(nvJitLinkHandle link,
						  char *log)
{
	return link ? log_copy(link->info_log, log) :
		      NVJITLINK_ERROR_NULL_INPUT;
}

/* The API level of the toolkit headers this library is built with. */
EXPORT nvJitLinkResult nvJitLinkVersion(unsigned int *major,
					unsigned int *minor)
{
	if (!major || !minor)
		return NVJITLINK_ERROR_INVALID_INPUT;
	*major = CUDA_VERSION / 1000;
	*minor = CUDA_VERSION % 1000 / 10;
	return NVJITLINK_SUCCESS;
}
