// SPDX-License-Identifier: MIT
/*
 * The device runtime's functions besides launches: error queries,
 * streams and events (handles only: the launch tree's order already
 * satisfies every stream and event dependency, cdp.c), device queries,
 * limits and cudaMalloc/cudaFree. Answers are an H100's (H200, driver
 * 580, tests/api/cdp_api.expected): a stream takes flags 0 or
 * cudaStreamNonBlocking, an event needs cudaEventDisableTiming, the tail
 * and fire-and-forget streams take no event records or waits, and
 * cudaRuntimeGetVersion says 6000.
 */
#include "builtin.h"
#include "cdp.h"

#include <pthread.h>
#include <string.h>

#define STREAM_NON_BLOCKING 0x1u
#define EVENT_DISABLE_TIMING 0x2u
#define EVENT_VALID_FLAGS 0x7u		/* blocking sync, no timing, IPC */
#define DEVICE_RUNTIME_VERSION 6000	/* what NVIDIA's device runtime says */

/* cudaLimit values (driver_types.h). */
enum { LIMIT_STACK, LIMIT_PRINTF_FIFO, LIMIT_HEAP, LIMIT_SYNC_DEPTH,
       LIMIT_PENDING_LAUNCHES };

/* Stores @size bytes of @v at the kernel's pointer @addr. */
static bool store(struct rt_cta *c, uint32_t thread, uint64_t addr,
		  uint64_t v, unsigned size)
{
	uint8_t *p = rt_global(c, thread, addr, size, true);
	if (!p)
		return false;
	memcpy(p, &v, size);
	return true;
}

static uint32_t stream_create(struct ptx_cdp_grid *g, uint64_t flags,
			      uint64_t *handle)
{
	if (flags & ~(uint64_t)STREAM_NON_BLOCKING)
		return CDP_ERR_INVALID_VALUE;
	*handle = cdp_handle_create(g, false);
	return *handle ? CDP_OK : CDP_ERR_MEMORY_ALLOCATION;
}

static uint32_t event_create(struct ptx_cdp_grid *g, uint64_t flags,
			     uint64_t *handle)
{
	if (!(flags & EVENT_DISABLE_TIMING) || (flags & ~(uint64_t)EVENT_VALID_FLAGS))
		return CDP_ERR_INVALID_VALUE;
	*handle = cdp_handle_create(g, true);
	return *handle ? CDP_OK : CDP_ERR_MEMORY_ALLOCATION;
}

/* Streams an event can be recorded in or waited from. */
static uint32_t event_stream(struct ptx_cdp_grid *g, uint64_t event,
			     uint64_t stream)
{
	if (stream == CDP_STREAM_TAIL || stream == CDP_STREAM_FIRE_AND_FORGET ||
	    !cdp_stream_valid(g, stream))
		return CDP_ERR_INVALID_VALUE;
	return cdp_handle_valid(g, event, true) ? CDP_OK :
						  CDP_ERR_INVALID_HANDLE;
}

static uint32_t get_limit(const struct ptx_cdp_config *cf, uint64_t limit,
			  uint64_t *value)
{
	switch (limit) {
	case LIMIT_STACK:
		*value = cf->stack_size;
		return CDP_OK;
	case LIMIT_PRINTF_FIFO:
		*value = cf->printf_fifo_size;
		return CDP_OK;
	case LIMIT_HEAP:
		*value = cf->heap_size;
		return CDP_OK;
	case LIMIT_PENDING_LAUNCHES:
		*value = cf->pending_limit;
		return CDP_OK;
	case LIMIT_SYNC_DEPTH:
		/* gone with CDP1; the H100 writes all ones */
		*value = UINT64_MAX;
		return CDP_ERR_UNSUPPORTED_LIMIT;
	default:
		return CDP_ERR_INVALID_VALUE;
	}
}

/* The functions that write one value through their first argument. */
static bool call_with_out(struct rt_cta *c, uint32_t thread, enum cdp_func fn,
			  const uint64_t *a, uint32_t *ret)
{
	struct ptx_cdp_grid *g = c->launch->cdp;
	const struct ptx_cdp_config *cf = cdp_config(g);
	uint64_t v = 0;
	unsigned size = 8;
	switch (fn) {
	case CDP_F_STREAM_CREATE:
		*ret = stream_create(g, a[1], &v);
		break;
	case CDP_F_EVENT_CREATE:
		*ret = event_create(g, a[1], &v);
		break;
	case CDP_F_GET_DEVICE:
		v = (uint64_t)cf->device;
		size = 4;
		break;
	case CDP_F_GET_DEVICE_COUNT:
		v = (uint64_t)cf->device_count;
		size = 4;
		break;
	case CDP_F_RUNTIME_VERSION:
		v = DEVICE_RUNTIME_VERSION;
		size = 4;
		break;
	case CDP_F_DEVICE_GET_LIMIT:
		*ret = get_limit(cf, a[1], &v);
		if (*ret == CDP_ERR_INVALID_VALUE)
			return true;
		break;
	case CDP_F_MALLOC:
		v = rt_malloc(c, a[1]);
		*ret = v || !a[1] ? CDP_OK : CDP_ERR_MEMORY_ALLOCATION;
		break;
	default:
		return true;
	}
	if (*ret == CDP_OK || fn == CDP_F_DEVICE_GET_LIMIT)
		return store(c, thread, a[0], v, size);
	return true;
}

static uint32_t call_plain(struct rt_cta *c, uint32_t thread,
			   enum cdp_func fn, const uint64_t *a, bool *faulted)
{
	struct ptx_cdp_grid *g = c->launch->cdp;
	switch (fn) {
	case CDP_F_GET_LAST_ERROR:
		return rt_cdp_last_error(c, thread, true);
	case CDP_F_PEEK_AT_LAST_ERROR:
		return rt_cdp_last_error(c, thread, false);
	case CDP_F_STREAM_DESTROY:
		return a[0] != CDP_STREAM_NULL &&
		       cdp_handle_destroy(g, a[0], false) ?
			       CDP_OK : CDP_ERR_INVALID_VALUE;
	case CDP_F_EVENT_DESTROY:
		return cdp_handle_destroy(g, a[0], true) ? CDP_OK :
							   CDP_ERR_INVALID_HANDLE;
	case CDP_F_STREAM_WAIT_EVENT:
		return event_stream(g, a[1], a[0]);
	case CDP_F_EVENT_RECORD:
	case CDP_F_EVENT_RECORD_FLAGS:
		return event_stream(g, a[0], a[1]);
	case CDP_F_FREE:
		*faulted = !rt_free(c, thread, a[0]);
		return CDP_OK;
	default:
		return CDP_ERR_NOT_SUPPORTED;
	}
}

/* The error texts kernels may read, all in one array (rt_cdp_text). */
static const struct {
	uint32_t err;
	const char *name, *text;
} error_texts[] = {
	{ CDP_OK, "cudaSuccess", "no error" },
	{ CDP_ERR_INVALID_VALUE, "cudaErrorInvalidValue", "invalid argument" },
	{ CDP_ERR_MEMORY_ALLOCATION, "cudaErrorMemoryAllocation",
	  "out of memory" },
	{ CDP_ERR_INVALID_CONFIGURATION, "cudaErrorInvalidConfiguration",
	  "invalid configuration argument" },
	{ CDP_ERR_PENDING_COUNT, "cudaErrorLaunchPendingCountExceeded",
	  "launch failed because launch would exceed "
	  "cudaLimitDevRuntimePendingLaunchCount" },
	{ CDP_ERR_INVALID_DEVICE_FUNCTION, "cudaErrorInvalidDeviceFunction",
	  "invalid device function" },
	{ CDP_ERR_UNSUPPORTED_LIMIT, "cudaErrorUnsupportedLimit",
	  "unsupported limit" },
	{ CDP_ERR_INVALID_HANDLE, "cudaErrorInvalidResourceHandle",
	  "invalid resource handle" },
	{ CDP_ERR_NOT_SUPPORTED, "cudaErrorNotSupported",
	  "operation not supported" },
	/* last: what any other code gets */
	{ UINT32_MAX, "cudaErrorUnknown", "unrecognized error code" },
};
#define TEXT_BYTES 1024
static char text_pool[TEXT_BYTES];	/* "name\0text\0" per entry */
static uint32_t text_at[ARRAY_SIZE(error_texts)][2];
static pthread_once_t text_once = PTHREAD_ONCE_INIT;

static void fill_texts(void)
{
	size_t used = 0;
	for (size_t i = 0; i < ARRAY_SIZE(error_texts); i++) {
		const char *s[2] = { error_texts[i].text, error_texts[i].name };
		for (int k = 0; k < 2; k++) {
			size_t n = strlen(s[k]) + 1;
			if (used + n > sizeof(text_pool))
				return;
			memcpy(text_pool + used, s[k], n);
			text_at[i][k] = (uint32_t)used;
			used += n;
		}
	}
}

uint64_t rt_cdp_error_text(uint32_t err, bool name)
{
	pthread_once(&text_once, fill_texts);
	size_t i = 0;
	while (i + 1 < ARRAY_SIZE(error_texts) && error_texts[i].err != err)
		i++;
	return (uint64_t)(uintptr_t)(text_pool + text_at[i][name]);
}

bool rt_cdp_text(uint64_t addr, unsigned size)
{
	uint64_t base = (uint64_t)(uintptr_t)text_pool;
	return addr >= base && addr - base + size <= sizeof(text_pool);
}

bool rt_cdp_call(struct rt_cta *c, uint32_t thread, enum cdp_func fn,
		 const uint64_t *args, uint32_t nargs, uint64_t *ret)
{
	uint64_t a[5] = { 0 };
	uint32_t err = CDP_OK;
	bool faulted = false;
	memcpy(a, args, (nargs < 5 ? nargs : 5) * sizeof(*a));
	*ret = CDP_OK;
	if (fn == CDP_F_ERROR_STRING || fn == CDP_F_ERROR_NAME) {
		*ret = rt_cdp_error_text((uint32_t)a[0], fn == CDP_F_ERROR_NAME);
		return true;
	}
	if (fn == CDP_F_MEMCPY_ASYNC || fn == CDP_F_MEMSET_ASYNC) {
		bool copy = fn == CDP_F_MEMCPY_ASYNC;
		if (!c->launch->cdp) {
			*ret = CDP_ERR_NOT_SUPPORTED;
			return true;
		}
		bool ok = rt_cdp_memory_op(c, thread, copy, a[0], a[1], a[2],
					   copy ? a[4] : a[3], &err);
		*ret = err;
		return ok;
	}
	if (!c->launch->cdp) {
		*ret = fn == CDP_F_GET_LAST_ERROR || fn == CDP_F_PEEK_AT_LAST_ERROR ?
			       CDP_OK : CDP_ERR_NOT_SUPPORTED;
		return true;
	}
	switch (fn) {
	case CDP_F_STREAM_CREATE:
	case CDP_F_EVENT_CREATE:
	case CDP_F_GET_DEVICE:
	case CDP_F_GET_DEVICE_COUNT:
	case CDP_F_RUNTIME_VERSION:
	case CDP_F_DEVICE_GET_LIMIT:
	case CDP_F_MALLOC:
		if (!call_with_out(c, thread, fn, a, &err))
			return false;
		break;
	default:
		err = call_plain(c, thread, fn, a, &faulted);
		if (faulted)
			return false;
	}
	*ret = err;
	/* The error queries and cudaDeviceGetLimit (an H200's 215 for the
	 * sync depth leaves it) do not set the last error; the rest does. */
	if (fn != CDP_F_GET_LAST_ERROR && fn != CDP_F_PEEK_AT_LAST_ERROR &&
	    fn != CDP_F_DEVICE_GET_LIMIT)
		rt_cdp_set_error(c, thread, err);
	return true;
}
