// SPDX-License-Identifier: MIT
/*
 * Reading images from files (cuModuleLoad, cuLinkAddFile).
 */
#include <stdlib.h>

#include "file.h"

/* Reads a whole file, NUL-terminated so that PTX text can be parsed. */
CUresult read_file(FILE *f, char **out, size_t *size)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);

	while (buf) {
		len += fread(buf + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		cap *= 2;
		char *grown = realloc(buf, cap);

		if (!grown)
			free(buf);
		buf = grown;
	}
	if (!buf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ferror(f)) {
		free(buf);
		return CUDA_ERROR_FILE_NOT_FOUND;
	}
	buf[len] = '\0';
	*out = buf;
	*size = len;
	return CUDA_SUCCESS;
}

