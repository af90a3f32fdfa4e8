// SPDX-License-Identifier: MIT
/*
 * cuGetProcAddress: how NVIDIA's static runtime, cuda-python and
 * cudaGetDriverEntryPoint find every driver function, by base name and the
 * CUDA version the caller was built for.
 *
 * The answers follow NVIDIA's driver as recorded on an H100
 * (tests/procaddr/h100.txt): the newest generation introduced at or before
 * the asked version; with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM the
 * newest per-thread-stream form if the function has any; an unknown name
 * or a version older than every generation is a success that returns no
 * function and says why in the status; a version newer than this driver's
 * (in its major and minor numbers: 13009 is 13.0) is CUDA_ERROR_INVALID_VALUE.
 * Neither needs cuInit.
 */
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "procaddr_table.h"

/* A version above the driver's own, ignoring the last digit as CUDA does. */
#define TOO_NEW(version) ((version) / 10 > CUDA_VERSION / 10)

#define KNOWN_FLAGS (CU_GET_PROC_ADDRESS_LEGACY_STREAM | \
		     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)

/* The first entry named @name, or NULL. */
static const struct procaddr_entry *first_named(const char *name)
{
	unsigned int lo = 0, hi = procaddr_table_len;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (strcmp(procaddr_table[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < procaddr_table_len && !strcmp(procaddr_table[lo].name, name))
		return &procaddr_table[lo];
	return NULL;
}

static int has_per_thread_form(const struct procaddr_entry *e, const char *name)
{
	for (; e < procaddr_table + procaddr_table_len && !strcmp(e->name, name); e++)
		if (e->per_thread)
			return 1;
	return 0;
}

static CUdriverProcAddressQueryResult lookup(const char *name, int version,
					     cuuint64_t flags, void **fn)
{
	const struct procaddr_entry *e = first_named(name);
	int per_thread;

	*fn = NULL;
	if (!e)
		return CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) &&
		     has_per_thread_form(e, name);
	/* Versions compare unsigned, as the driver's do: -1 is "newest". */
	for (; e < procaddr_table + procaddr_table_len && !strcmp(e->name, name); e++)
		if (e->per_thread == per_thread && (unsigned int)e->version <= (unsigned int)version)
			*fn = e->fn;
	return *fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
}

CUDA_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
					 cuuint64_t flags,
					 CUdriverProcAddressQueryResult *status)
{
	CUdriverProcAddressQueryResult found;

	if (!symbol || !pfn || (flags & ~(cuuint64_t)KNOWN_FLAGS) || TOO_NEW(version))
		return CUDA_ERROR_INVALID_VALUE;
	found = lookup(symbol, version, flags, pfn);
	if (status)
		*status = found;
	return CUDA_SUCCESS;
}

/* CUDA 11.3's form: no status, and a miss is CUDA_ERROR_NOT_FOUND. */
CUDA_EXPORT CUresult get_proc_address_v1(const char *symbol, void **pfn, int version,
					 cuuint64_t flags) __asm__("cuGetProcAddress");
CUresult get_proc_address_v1(const char *symbol, void **pfn, int version, cuuint64_t flags)
{
	if (!symbol || !pfn || (flags & ~(cuuint64_t)KNOWN_FLAGS) || TOO_NEW(version))
		return CUDA_ERROR_INVALID_VALUE;
	return lookup(symbol, version, flags, pfn) == CU_GET_PROC_ADDRESS_SUCCESS
	       ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
