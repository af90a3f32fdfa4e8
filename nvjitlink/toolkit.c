// SPDX-License-Identifier: MIT
/*
 * NVIDIA's libraries of the CUDA toolkit that the link borrows (nvJitLink
 * for LTO-IR, lto.c; libNVVM for the keeper, keep.c), found where numba
 * and cuda.pathfinder look for the toolkit: $CUDA_HOME, $CUDA_PATH, then
 * /usr/local/cuda.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "jitlink.h"

static void *open_under(const char *root, const char *const *tails,
			size_t count, int flags, bool (*accept)(void *dl),
			char *path, size_t path_size)
{
	void *dl;

	if (!root || !*root)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		snprintf(path, path_size, "%s/%s", root, tails[i]);
		dl = dlopen(path, flags);
		if (dl && accept(dl))
			return dl;
		if (dl)
			dlclose(dl);
	}
	return NULL;
}

void *toolkit_open(const char *const *tails, size_t count, int flags,
		   bool (*accept)(void *dl), char *path, size_t path_size)
{
	const char *roots[] = { getenv("CUDA_HOME"), getenv("CUDA_PATH"),
				"/usr/local/cuda" };
	void *dl = NULL;

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]) && !dl; i++)
		dl = open_under(roots[i], tails, count, flags, accept, path,
				path_size);
	return dl;
}
