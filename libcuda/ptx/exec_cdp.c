// SPDX-License-Identifier: MIT
/*
 * Calls of the device runtime (dynamic parallelism) in the interpreter:
 * the __cudaCDP2* functions nvcc -rdc emits and libcudadevrt.a would
 * define, and their CDP1 names. Each active lane calls the run-time
 * helper of cdp.c / cdp_api.c in lane order. A module calling
 * cudaDeviceSynchronize (CDP1 only) fails to load with
 * CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, as on an H100 with CUDA 13.
 */
#include "builtin.h"
#include "cdp.h"

#include <string.h>

enum cdp_call_kind {
	CALL_PARAM_BUFFER_V2,	/* (func, dim3 grid, dim3 block, smem) */
	CALL_PARAM_BUFFER,	/* (align, size) */
	CALL_LAUNCH_V2,		/* (buf, stream) */
	CALL_LAUNCH,		/* (func, buf, grid, block, smem, stream) */
	CALL_OTHER,		/* enum cdp_func, 64-bit arguments */
};

struct cdp_builtin {
	const char *name;	/* without __cudaCDP2 or cuda */
	enum cdp_call_kind kind;
	enum cdp_func fn;
};

static const struct cdp_builtin builtins[] = {
	{ "GetParameterBufferV2", CALL_PARAM_BUFFER_V2, 0 },
	{ "GetParameterBuffer", CALL_PARAM_BUFFER, 0 },
	{ "LaunchDeviceV2", CALL_LAUNCH_V2, 0 },
	{ "LaunchDeviceV2_ptsz", CALL_LAUNCH_V2, 0 },
	{ "LaunchDevice", CALL_LAUNCH, 0 },
	{ "LaunchDevice_ptsz", CALL_LAUNCH, 0 },
	{ "GetLastError", CALL_OTHER, CDP_F_GET_LAST_ERROR },
	{ "PeekAtLastError", CALL_OTHER, CDP_F_PEEK_AT_LAST_ERROR },
	{ "StreamCreateWithFlags", CALL_OTHER, CDP_F_STREAM_CREATE },
	{ "StreamDestroy", CALL_OTHER, CDP_F_STREAM_DESTROY },
	{ "StreamWaitEvent", CALL_OTHER, CDP_F_STREAM_WAIT_EVENT },
	{ "StreamWaitEvent_ptsz", CALL_OTHER, CDP_F_STREAM_WAIT_EVENT },
	{ "EventCreateWithFlags", CALL_OTHER, CDP_F_EVENT_CREATE },
	{ "EventRecord", CALL_OTHER, CDP_F_EVENT_RECORD },
	{ "EventRecord_ptsz", CALL_OTHER, CDP_F_EVENT_RECORD },
	{ "EventRecordWithFlags", CALL_OTHER, CDP_F_EVENT_RECORD_FLAGS },
	{ "EventRecordWithFlags_ptsz", CALL_OTHER, CDP_F_EVENT_RECORD_FLAGS },
	{ "EventDestroy", CALL_OTHER, CDP_F_EVENT_DESTROY },
	{ "GetDevice", CALL_OTHER, CDP_F_GET_DEVICE },
	{ "GetDeviceCount", CALL_OTHER, CDP_F_GET_DEVICE_COUNT },
	{ "RuntimeGetVersion", CALL_OTHER, CDP_F_RUNTIME_VERSION },
	{ "DeviceGetLimit", CALL_OTHER, CDP_F_DEVICE_GET_LIMIT },
	{ "Malloc", CALL_OTHER, CDP_F_MALLOC },
	{ "Free", CALL_OTHER, CDP_F_FREE },
	{ "MemcpyAsync", CALL_OTHER, CDP_F_MEMCPY_ASYNC },
	{ "MemcpyAsync_ptsz", CALL_OTHER, CDP_F_MEMCPY_ASYNC },
	{ "MemsetAsync", CALL_OTHER, CDP_F_MEMSET_ASYNC },
	{ "MemsetAsync_ptsz", CALL_OTHER, CDP_F_MEMSET_ASYNC },
	{ "GetErrorString", CALL_OTHER, CDP_F_ERROR_STRING },
	{ "GetErrorName", CALL_OTHER, CDP_F_ERROR_NAME },
};

#define MAX_ARGS 6

struct cdp_call {
	const struct cdp_builtin *b;
	uint32_t nargs;
	struct xcall_arg args[MAX_ARGS];
	bool has_ret;
	struct xcall_arg ret;
};

/* The device runtime function @name names, or NULL. */
static const struct cdp_builtin *find_builtin(const char *name)
{
	if (!strncmp(name, "__cudaCDP2", 10))
		name += 10;
	else if (!strncmp(name, "cuda", 4))
		name += 4;
	else
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(name, builtins[i].name))
			return &builtins[i];
	return NULL;
}

/* Up to @n bytes of argument @a of @lane (a register holds 8). */
static void arg_bytes(struct warp *w, const struct xcall_arg *a,
		      uint32_t lane, void *out, size_t n)
{
	memset(out, 0, n);
	if (a->reg) {
		memcpy(out, &xr(w, a->reg)[lane], n < 8 ? n : 8);
		return;
	}
	memcpy(out, w->lane_local[lane] + w->local_base + a->mem,
	       n < a->size ? n : a->size);
}

static uint64_t arg64(struct warp *w, const struct cdp_call *cc, uint32_t i,
		      uint32_t lane)
{
	uint64_t v = 0;
	if (i < cc->nargs)
		arg_bytes(w, &cc->args[i], lane, &v, sizeof(v));
	return v;
}

static void dim3_arg(struct warp *w, const struct cdp_call *cc, uint32_t i,
		     uint32_t lane, uint32_t d[3])
{
	if (i < cc->nargs)
		arg_bytes(w, &cc->args[i], lane, d, 3 * sizeof(uint32_t));
	else
		d[0] = d[1] = d[2] = 0;
}

static void set_ret(struct warp *w, const struct cdp_call *cc, uint32_t lane,
		    uint64_t v)
{
	if (!cc->has_ret)
		return;
	if (cc->ret.reg)
		xr(w, cc->ret.reg)[lane] = v;
	else
		memcpy(w->lane_local[lane] + w->local_base + cc->ret.mem, &v,
		       cc->ret.size < 8 ? cc->ret.size : 8);
}

/* One lane's call; false after a fault. */
static bool call_lane(struct warp *w, const struct cdp_call *cc, uint32_t l)
{
	struct rt_cta *c = &w->cta->rt;
	uint32_t t = warp_thread(w, l), grid[3], block[3];
	uint64_t ret;
	switch (cc->b->kind) {
	case CALL_PARAM_BUFFER_V2:
		dim3_arg(w, cc, 1, l, grid);
		dim3_arg(w, cc, 2, l, block);
		set_ret(w, cc, l, rt_cdp_param_buffer_v2(c, t, arg64(w, cc, 0, l),
					grid, block, (uint32_t)arg64(w, cc, 3, l)));
		return true;
	case CALL_PARAM_BUFFER:
		set_ret(w, cc, l, rt_cdp_param_buffer(c, t, arg64(w, cc, 0, l),
						      arg64(w, cc, 1, l)));
		return true;
	case CALL_LAUNCH_V2:
		set_ret(w, cc, l, rt_cdp_launch_v2(c, t, arg64(w, cc, 0, l),
						   arg64(w, cc, 1, l)));
		return true;
	case CALL_LAUNCH:
		dim3_arg(w, cc, 2, l, grid);
		dim3_arg(w, cc, 3, l, block);
		set_ret(w, cc, l, rt_cdp_launch(c, t, arg64(w, cc, 0, l),
				arg64(w, cc, 1, l), grid, block,
				(uint32_t)arg64(w, cc, 4, l), arg64(w, cc, 5, l)));
		return true;
	case CALL_OTHER:
	default: {
		uint64_t a[5];
		for (uint32_t i = 0; i < 5; i++)
			a[i] = arg64(w, cc, i, l);
		if (!rt_cdp_call(c, t, cc->b->fn, a, 5, &ret))
			return false;
		set_ret(w, cc, l, ret);
		return true;
	}
	}
}

static const struct xinsn *x_cdp_call(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct cdp_call *cc = ip->aux;
	FOR_LANES(m, l)
		if (!call_lane(w, cc, l))
			return xfault_located(w, ip);
	return ip + 1;
}

bool lower_cdp_call(struct lower_ctx *c, const struct ir_sym *fn,
		    const struct ir_operand *rets, const struct ir_operand *args,
		    bool *handled)
{
	const struct cdp_builtin *b = find_builtin(fn->name);
	*handled = b || !strcmp(fn->name, "cudaDeviceSynchronize");
	if (!b && *handled) {
		msg_printf(c->log, "%s:%u:%u: cudaDeviceSynchronize from device "
			   "code (CDP1) is not supported by CUDA 13",
			   c->m->name, c->in->line, c->in->col);
		c->status = PTX_ERR_DEVSIDE_SYNC;
		return false;
	}
	if (!b)
		return false;
	c->prog->uses_cdp = true;
	struct cdp_call *cc = arena_alloc(&c->prog->arena, sizeof(*cc));
	struct xinsn *x = cc ? emit(c, x_cdp_call) : NULL;
	if (!x)
		return lower_nomem(c);
	x->aux = cc;
	cc->b = b;
	cc->nargs = args ? args->reg2 : 0;
	if (cc->nargs > MAX_ARGS)
		return lower_unsupported(c, "too many arguments");
	for (uint32_t i = 0; i < cc->nargs; i++)
		if (!lower_builtin_arg(c, &ir_vec_elems(c->f, args)[i],
				       &cc->args[i]))
			return false;
	if (rets && rets->reg2) {
		cc->has_ret = true;
		return lower_builtin_arg(c, &ir_vec_elems(c->f, rets)[0],
					 &cc->ret);
	}
	return true;
}
