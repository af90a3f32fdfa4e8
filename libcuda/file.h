/* SPDX-License-Identifier: MIT */
#ifndef VCUDA_FILE_H
#define VCUDA_FILE_H

#include <stddef.h>
#include <stdio.h>

#include <cuda.h>

/* Reads all of @f, NUL-terminated so that PTX text can be parsed. */
CUresult read_file(FILE *f, char **out, size_t *size);

#endif
