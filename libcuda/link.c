// SPDX-License-Identifier: MIT
/*
 * The JIT linker (cuLink*): collects PTX, from PTX text or from fatbins,
 * checks that it links into one program, and hands back a link image
 * (link_image.h) that cuModuleLoadData* loads. Binary inputs (fatbins,
 * host objects and archives of nvcc -dc/-lib) give the PTX they carry,
 * or nothing where they carry SASS alone; a cubin (SASS) fails with
 * CUDA_ERROR_NO_BINARY_FOR_GPU and NVVM IR with CUDA_ERROR_NOT_SUPPORTED,
 * each with a line in the error log.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "context.h"
#include "file.h"
#include "link_set.h"

struct CUlinkState_st {
	struct CUctx_st *ctx;
	struct link_set set;
	char *error_log;		/* caller's buffers, may be NULL */
	size_t error_log_size;
	char *info_log;
	size_t info_log_size;
	/*
	 * The option values of the sizes, which are in/out: CUDA writes back
	 * how much of each buffer its log fills (the length, or the buffer's
	 * size when the log was cut), as NVIDIA's driver did on an H200.
	 */
	void **error_log_size_out, **info_log_size_out;
	size_t error_log_len, info_log_len;
	bool verbose;			/* CU_JIT_LOG_VERBOSE */
	float *wall_time;
	unsigned int max_registers;	/* CU_JIT_MAX_REGISTERS, or 0 */
	void *image;			/* cuLinkComplete's output */
};

/* Picks the log buffers and the wall-time output out of JIT options. */
static void read_options(struct CUlinkState_st *st, unsigned int n,
			 CUjit_option *options, void **values)
{
	for (unsigned int i = 0; i < n; i++) {
		switch (options[i]) {
		case CU_JIT_ERROR_LOG_BUFFER:
			st->error_log = values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			st->error_log_size = (size_t)(uintptr_t)values[i];
			st->error_log_size_out = &values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER:
			st->info_log = values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			st->info_log_size = (size_t)(uintptr_t)values[i];
			st->info_log_size_out = &values[i];
			break;
		case CU_JIT_LOG_VERBOSE:
			st->verbose = values[i] != NULL;
			break;
		case CU_JIT_MAX_REGISTERS:
			st->max_registers = (unsigned int)(uintptr_t)values[i];
			break;
		case CU_JIT_WALL_TIME:
			st->wall_time = (float *)&values[i];
			break;
		default:
			break;	/* optimisation and target hints */
		}
	}
}

static void write_back(void **out, size_t len, size_t size)
{
	if (out)
		*out = (void *)(uintptr_t)(len < size ? len : size);
}

/* Tells the caller how much of each log buffer holds a message. */
static void publish_log_sizes(struct CUlinkState_st *st)
{
	write_back(st->error_log_size_out, st->error_log_len,
		   st->error_log ? st->error_log_size : 0);
	write_back(st->info_log_size_out, st->info_log_len,
		   st->info_log ? st->info_log_size : 0);
}

static void log_error(struct CUlinkState_st *st, const char *what)
{
	if (st->error_log && st->error_log_size)
		snprintf(st->error_log, st->error_log_size, "%s", what);
	st->error_log_len = strlen(what);
	publish_log_sizes(st);
}

/* What a failed build or check of PTX returns, its message logged. */
static CUresult build_error(struct CUlinkState_st *st, enum ptx_status ps,
			    const char *log)
{
	log_error(st, log);
	switch (ps) {
	case PTX_ERR_UNSUPPORTED:
		return CUDA_ERROR_NOT_SUPPORTED;
	case PTX_ERR_DEVSIDE_SYNC:
		return CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC;
	case PTX_ERR_NO_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case PTX_ERR_LINK:
		/* As nvJitLink: unresolved or duplicate symbols. */
		return CUDA_ERROR_INVALID_SOURCE;
	default:
		return CUDA_ERROR_INVALID_PTX;
	}
}

static CUresult add_text(struct CUlinkState_st *st, const char *text,
			 size_t len, const char *name)
{
	char log[1024];
	enum ptx_status ps = link_set_add_ptx(&st->set, text, len, name, log,
					      sizeof(log));

	return ps == PTX_OK ? CUDA_SUCCESS : build_error(st, ps, log);
}

/* What a reader's status means to the caller of cuLinkAdd*. */
static CUresult reader_result(enum fatbin_status st)
{
	switch (st) {
	case FATBIN_OK:
		return CUDA_SUCCESS;
	case FATBIN_NO_PTX:	/* SASS only: machine code vcuda cannot run */
		return CUDA_ERROR_NO_BINARY_FOR_GPU;
	case FATBIN_NO_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	default:
		return CUDA_ERROR_INVALID_IMAGE;
	}
}

/*
 * Adds the PTX a binary input carries: a fatbin or cubin (the fatbin
 * reader), or a host object or archive (hostobj.h, which finds their
 * fatbins). The log names the input and says why when there is none.
 */
static CUresult add_binary(struct CUlinkState_st *st, CUjitInputType type,
			   const void *data, size_t size, const char *name)
{
	const struct drm_vcuda_device_info *info = &st->ctx->dev->info;
	unsigned arch = info->cc_major * 10 + info->cc_minor;
	struct fatbin_ptx_list list = { 0 };
	char reason[256] = "", line[1024];
	enum fatbin_status got;
	enum ptx_status ps;
	CUresult res;

	got = link_binary_collect(type == CU_JIT_INPUT_OBJECT ||
				  type == CU_JIT_INPUT_LIBRARY ?
				  LINK_BINARY_HOSTOBJ : LINK_BINARY_FATBIN,
				  data, size, arch, &list, reason,
				  sizeof(reason));
	/*
	 * As NVIDIA's driver (tests/api/link_forms_api.expected): a fatbin,
	 * object or library with nothing for the device is taken and adds
	 * nothing, so that what it would have defined is unresolved at
	 * cuLinkComplete; a cubin for another GPU is refused here.
	 */
	if (got == FATBIN_NO_PTX && type != CU_JIT_INPUT_CUBIN)
		return CUDA_SUCCESS;
	res = reader_result(got);
	if (res != CUDA_SUCCESS) {
		snprintf(line, sizeof(line), "%s: %s%s", name ? name :
			 "<input>", reason, got == FATBIN_NO_PTX ?
			 " (vcuda links PTX only)" : "");
		log_error(st, line);
		return res;
	}
	ps = link_set_add_list(&st->set, &list, name, line, sizeof(line));
	if (ps != PTX_OK)
		res = build_error(st, ps, line);
	fatbin_ptx_list_free(&list);
	return res;
}

static CUresult add_input(struct CUlinkState_st *st, CUjitInputType type,
			  const void *data, size_t size, const char *name)
{
	switch (type) {
	case CU_JIT_INPUT_PTX:
		return add_text(st, data, size ? size : strlen(data), name);
	case CU_JIT_INPUT_FATBINARY:
	case CU_JIT_INPUT_CUBIN:
	case CU_JIT_INPUT_OBJECT:
	case CU_JIT_INPUT_LIBRARY:
		return add_binary(st, type, data, size, name);
	case CU_JIT_INPUT_NVVM:
		log_error(st, "vcuda links PTX only: NVVM IR (LTO-IR) is not "
			      "supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUDA_EXPORT CUresult cuLinkCreate(unsigned int n, CUjit_option *options,
				  void **values, CUlinkState *out)
{
	struct CUlinkState_st *st;
	struct CUctx_st *ctx;
	CUresult res = ctx_enter(&ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!out || (n && (!options || !values)))
		return CUDA_ERROR_INVALID_VALUE;
	st = calloc(1, sizeof(*st));
	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	st->ctx = ctx;
	read_options(st, n, options, values);
	/* nothing logged yet: empty buffers, sizes 0 */
	if (st->error_log && st->error_log_size)
		st->error_log[0] = '\0';
	if (st->info_log && st->info_log_size)
		st->info_log[0] = '\0';
	publish_log_sizes(st);
	*out = st;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuLinkAddData(CUlinkState st, CUjitInputType type,
				   void *data, size_t size, const char *name,
				   unsigned int n, CUjit_option *options,
				   void **values)
{
	(void)options;	/* per-input JIT options are hints */
	(void)values;
	(void)n;
	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	return add_input(st, type, data, size, name);
}

CUDA_EXPORT CUresult cuLinkAddFile(CUlinkState st, CUjitInputType type,
				   const char *path, unsigned int n,
				   CUjit_option *options, void **values)
{
	CUresult res;
	char *data;
	size_t size;
	FILE *f;

	(void)options;
	(void)values;
	(void)n;
	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!path)
		return CUDA_ERROR_INVALID_VALUE;
	f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? CUDA_ERROR_FILE_NOT_FOUND
				       : CUDA_ERROR_INVALID_VALUE;
	res = read_file(f, &data, &size);
	fclose(f);
	if (res == CUDA_SUCCESS)
		res = add_input(st, type, data, size, path);
	free(data);
	return res;
}

CUDA_EXPORT CUresult cuLinkComplete(CUlinkState st, void **image_out,
				    size_t *size_out)
{
	enum ptx_status ps;
	char log[1024] = "";

	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!image_out || !size_out || !st->set.count)
		return CUDA_ERROR_INVALID_VALUE;
	/* Link now, so that link errors come from cuLinkComplete. */
	ps = link_set_check(&st->set, log, sizeof(log));
	if (ps != PTX_OK)
		return build_error(st, ps, log);
	free(st->image);
	st->image = link_set_image(&st->set, st->max_registers, size_out);
	if (!st->image)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (st->wall_time)
		*st->wall_time = 0.0f;
	/* As NVIDIA's: an info log only when asked to be verbose. */
	if (st->verbose && st->info_log && st->info_log_size) {
		int len = snprintf(st->info_log, st->info_log_size,
				   "vcuda: linked %zu PTX input(s)", st->set.count);

		st->info_log_len = len > 0 ? (size_t)len : 0;
	}
	publish_log_sizes(st);
	*image_out = st->image;
	return CUDA_SUCCESS;
}

CUDA_EXPORT CUresult cuLinkDestroy(CUlinkState st)
{
	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	link_set_clear(&st->set);
	free(st->image);
	free(st);
	return CUDA_SUCCESS;
}
