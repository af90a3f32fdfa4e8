/* SPDX-License-Identifier: MIT */
/*
 * Dynamic parallelism (CDP2) inside the PTX path: the run-time helpers
 * behind the device runtime's launch, stream, event and error functions
 * (cdp.c keeps the launch tree, cdp_api.c answers the queries), and the
 * interpreter's lowering of their calls (exec_cdp.c). Helpers return
 * cudaError_t values: the device runtime's answers, as NVIDIA's are.
 */
#ifndef VCUDA_PTX_CDP_H
#define VCUDA_PTX_CDP_H

#include "rt.h"

/* cudaError_t values the device runtime answers (driver_types.h). */
enum cdp_error {
	CDP_OK = 0,
	CDP_ERR_INVALID_VALUE = 1,
	CDP_ERR_MEMORY_ALLOCATION = 2,
	CDP_ERR_INVALID_CONFIGURATION = 9,
	CDP_ERR_PENDING_COUNT = 69,	/* cudaErrorLaunchPendingCountExceeded */
	CDP_ERR_INVALID_DEVICE_FUNCTION = 98,
	CDP_ERR_UNSUPPORTED_LIMIT = 215,
	CDP_ERR_INVALID_HANDLE = 400,
	CDP_ERR_NOT_SUPPORTED = 801,
};

/* The device runtime's named streams (cuda_runtime_api.h). */
#define CDP_STREAM_NULL 0x0u
#define CDP_STREAM_PER_THREAD 0x2u
#define CDP_STREAM_TAIL 0x3u
#define CDP_STREAM_FIRE_AND_FORGET 0x4u

/* ---- launches (cdp.c) ---- */

/* cudaGetParameterBufferV2: 0 on failure (the thread's error set). */
uint64_t rt_cdp_param_buffer_v2(struct rt_cta *c, uint32_t thread,
				uint64_t func, const uint32_t grid[3],
				const uint32_t block[3], uint32_t shared);
/* cudaGetParameterBuffer (the launch names the kernel later). */
uint64_t rt_cdp_param_buffer(struct rt_cta *c, uint32_t thread,
			     uint64_t align, uint64_t size);
/* cudaLaunchDeviceV2. */
uint32_t rt_cdp_launch_v2(struct rt_cta *c, uint32_t thread, uint64_t buf,
			  uint64_t stream);
/* cudaLaunchDevice. */
uint32_t rt_cdp_launch(struct rt_cta *c, uint32_t thread, uint64_t func,
		       uint64_t buf, const uint32_t grid[3],
		       const uint32_t block[3], uint32_t shared,
		       uint64_t stream);

/*
 * cudaMemcpyAsync (@copy) or cudaMemsetAsync (@src the byte value) from
 * the device, done in @stream's turn; false after a fault (an address
 * the launch cannot reach), else true with the cudaError_t in @err.
 */
bool rt_cdp_memory_op(struct rt_cta *c, uint32_t thread, bool copy,
		      uint64_t dst, uint64_t src, uint64_t bytes,
		      uint64_t stream, uint32_t *err);

/* cudaGetErrorString (@name false) / cudaGetErrorName: a string kernels
 * may read (rt_cdp_text says so). */
uint64_t rt_cdp_error_text(uint32_t err, bool name);
bool rt_cdp_text(uint64_t addr, unsigned size);

/* True when [addr, addr + size) is in a parameter buffer handed out and
 * not launched yet: kernels write their children's arguments there. */
bool rt_cdp_param_window(const struct ptx_launch *l, uint64_t addr,
			 unsigned size);

/* ---- per-thread errors, streams, events (cdp.c) ---- */

/* Records @err as @thread's last error (nothing for CDP_OK); returns it. */
uint32_t rt_cdp_set_error(struct rt_cta *c, uint32_t thread, uint32_t err);
/* cudaGetLastError (@clear) / cudaPeekAtLastError. */
uint32_t rt_cdp_last_error(struct rt_cta *c, uint32_t thread, bool clear);

/* A stream handle a launch or event may name: the named ones and those
 * the tree created and has not destroyed. */
bool cdp_stream_valid(struct ptx_cdp_grid *g, uint64_t stream);
/* Creates (true) a stream or event handle, or destroys one (false if it
 * is not live). */
uint64_t cdp_handle_create(struct ptx_cdp_grid *g, bool event);
bool cdp_handle_destroy(struct ptx_cdp_grid *g, uint64_t handle, bool event);
bool cdp_handle_valid(struct ptx_cdp_grid *g, uint64_t handle, bool event);
const struct ptx_cdp_config *cdp_config(const struct ptx_cdp_grid *g);

/* ---- the other device runtime functions (cdp_api.c) ---- */

/* One call of the device runtime function @id with @args (raw 64-bit
 * values, in PTX order); the cudaError_t it returns. */
enum cdp_func {
	CDP_F_GET_LAST_ERROR,
	CDP_F_PEEK_AT_LAST_ERROR,
	CDP_F_STREAM_CREATE,		/* (cudaStream_t *, flags) */
	CDP_F_STREAM_DESTROY,		/* (stream) */
	CDP_F_STREAM_WAIT_EVENT,	/* (stream, event, flags) */
	CDP_F_EVENT_CREATE,		/* (cudaEvent_t *, flags) */
	CDP_F_EVENT_RECORD,		/* (event, stream) */
	CDP_F_EVENT_RECORD_FLAGS,	/* (event, stream, flags) */
	CDP_F_EVENT_DESTROY,		/* (event) */
	CDP_F_GET_DEVICE,		/* (int *) */
	CDP_F_GET_DEVICE_COUNT,		/* (int *) */
	CDP_F_RUNTIME_VERSION,		/* (int *) */
	CDP_F_DEVICE_GET_LIMIT,		/* (size_t *, limit) */
	CDP_F_MALLOC,			/* (void **, size) */
	CDP_F_FREE,			/* (ptr) */
	CDP_F_MEMCPY_ASYNC,		/* (dst, src, count, kind, stream) */
	CDP_F_MEMSET_ASYNC,		/* (ptr, value, count, stream) */
	CDP_F_ERROR_STRING,		/* (err): a pointer */
	CDP_F_ERROR_NAME,		/* (err): a pointer */
};

/*
 * Runs @fn for @thread; false after a fault (a bad pointer argument),
 * else true with the cudaError_t in @ret.
 */
bool rt_cdp_call(struct rt_cta *c, uint32_t thread, enum cdp_func fn,
		 const uint64_t *args, uint32_t nargs, uint64_t *ret);

#endif
