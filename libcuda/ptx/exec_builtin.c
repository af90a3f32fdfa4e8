// SPDX-License-Identifier: MIT
/*
 * Builtin device functions: vprintf (formatted per thread, in lane
 * order, into the launch's printf FIFO or straight to the print
 * handler), __assertfail (an assertion fault with CUDA's message),
 * malloc and free (the launch's device heap).
 */
#include "builtin.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void default_print(void *user, const char *text, size_t len)
{
	(void)user;
	fwrite(text, 1, len, stdout);
	fflush(stdout);
}

static ptx_print_fn print_fn = default_print;
static void *print_user;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

void ptx_set_print_handler(ptx_print_fn fn, void *user)
{
	pthread_mutex_lock(&print_lock);
	print_fn = fn ? fn : default_print;
	print_user = fn ? user : NULL;
	pthread_mutex_unlock(&print_lock);
}


struct builtin_call {
	uint32_t nargs;
	struct xcall_arg args[5];
	bool has_ret;
	struct xcall_arg ret;
};

static uint64_t arg_value(struct warp *w, const struct xcall_arg *a,
			  uint32_t lane)
{
	if (a->reg)
		return xr(w, a->reg)[lane];
	uint64_t v = 0;
	memcpy(&v, w->lane_local[lane] + w->local_base + a->mem,
	       a->size < 8 ? a->size : 8);
	return v;
}

static void set_ret(struct warp *w, const struct builtin_call *bc,
		    uint32_t lane, uint64_t v)
{
	if (!bc->has_ret)
		return;
	if (bc->ret.reg)
		xr(w, bc->ret.reg)[lane] = v;
	else
		memcpy(w->lane_local[lane] + w->local_base + bc->ret.mem, &v,
		       bc->ret.size < 8 ? bc->ret.size : 8);
}

/* ---- vprintf ---- */

/*
 * Reads of device memory for printf: the format, the argument buffer and
 * %s strings are pointers a kernel passes, so each byte is checked like
 * any access (a bad pointer faults the launch instead of the process).
 */
struct fmt_src {
	struct warp *w;
	const struct xinsn *ip;
	uint32_t lane;
	uint64_t args;		/* argument buffer, 0 for none */
	size_t off;		/* next argument */
	bool fault;
};

/* Copies the NUL-terminated string at @addr (at most @cap - 1 bytes). */
static bool read_string(struct fmt_src *src, uint64_t addr, char *buf,
			size_t cap)
{
	size_t n = 0;
	for (; n + 1 < cap; n++) {
		const uint8_t *p = mem_host(src->w, src->ip, XS_GLOBAL,
					    src->lane, addr + n, 1, false);
		if (!p) {
			src->fault = true;
			return false;
		}
		if (!(buf[n] = (char)*p))
			return true;
	}
	buf[n] = 0;
	return true;
}

static uint64_t next_arg(struct fmt_src *src, unsigned size)
{
	uint64_t v = 0;
	if (!src->args || src->fault)
		return 0;
	src->off = (src->off + size - 1) / size * size;
	const uint8_t *p = mem_host(src->w, src->ip, XS_GLOBAL, src->lane,
				    src->args + src->off, size, false);
	if (!p) {
		src->fault = true;
		return 0;
	}
	memcpy(&v, p, size);
	src->off += size;
	return v;
}

struct fmt_out {
	char buf[4096];
	size_t len;
};

static void out_append(struct fmt_out *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) - 1 - o->len)
		n = sizeof(o->buf) - 1 - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static int format_string(struct fmt_src *src, char *tmp, size_t len,
			 const char *spec)
{
	uint64_t addr = next_arg(src, 8);
	char str[1024];
	if (!addr)
		return snprintf(tmp, len, spec, "(null)");
	if (!read_string(src, addr, str, sizeof(str)))
		return 0;
	return snprintf(tmp, len, spec, str);
}

/* One conversion: @spec is "%...c", NUL-terminated. */
static void format_one(struct fmt_out *o, const char *spec, size_t slen,
		       struct fmt_src *src)
{
	char conv = spec[slen - 1], tmp[1280];
	bool wide = strchr(spec, 'l') || strchr(spec, 'z') ||
		    strchr(spec, 'j') || strchr(spec, 't');
	int n = 0;
	switch (conv) {
	case 'd': case 'i':
		if (wide)
			n = snprintf(tmp, sizeof(tmp), spec,
				     (long long)next_arg(src, 8));
		else
			n = snprintf(tmp, sizeof(tmp), spec,
				     (int)next_arg(src, 4));
		break;
	case 'u': case 'o': case 'x': case 'X': case 'c':
		if (wide)
			n = snprintf(tmp, sizeof(tmp), spec,
				     (unsigned long long)next_arg(src, 8));
		else
			n = snprintf(tmp, sizeof(tmp), spec,
				     (unsigned)next_arg(src, 4));
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
	case 'a': case 'A':
		n = snprintf(tmp, sizeof(tmp), spec, f64_of(next_arg(src, 8)));
		break;
	case 's':
		n = format_string(src, tmp, sizeof(tmp), spec);
		break;
	case 'p':
		n = snprintf(tmp, sizeof(tmp), spec,
			     (void *)(uintptr_t)next_arg(src, 8));
		break;
	default:
		n = snprintf(tmp, sizeof(tmp), "%s", spec);
	}
	if (n > 0)
		out_append(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n :
							     sizeof(tmp) - 1);
}

/* Formats like CUDA's device printf: arguments packed, each aligned to
 * its size, floats already promoted to double. */
static void format_printf(struct fmt_out *o, const char *fmt,
			  struct fmt_src *src)
{
	while (*fmt && !src->fault) {
		const char *pct = strchr(fmt, '%');
		if (!pct) {
			out_append(o, fmt, strlen(fmt));
			return;
		}
		out_append(o, fmt, (size_t)(pct - fmt));
		if (pct[1] == '%') {
			out_append(o, "%", 1);
			fmt = pct + 2;
			continue;
		}
		size_t n = 1 + strspn(pct + 1, "-+ #0123456789.hlLzjt");
		if (!pct[n]) {
			out_append(o, pct, n);
			return;
		}
		char spec[64];
		n = n + 1 < sizeof(spec) ? n + 1 : sizeof(spec) - 1;
		memcpy(spec, pct, n);
		spec[n] = 0;
		format_one(o, spec, n, src);
		fmt = pct + n;
	}
}

/*
 * What one printf costs the device FIFO: a record header and the format
 * pointer, then the packed arguments, 8-byte aligned.
 */
static size_t printf_record_cost(size_t arg_bytes)
{
	return 16 + ((arg_bytes + 7) & ~(size_t)7);
}

static const struct xinsn *x_vprintf(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	FOR_LANES(m, l) {
		struct fmt_src src = { .w = w, .ip = ip, .lane = l };
		char fmt[4096];
		uint64_t f = arg_value(w, &bc->args[0], l);
		src.args = bc->nargs > 1 ? arg_value(w, &bc->args[1], l) : 0;
		if (!read_string(&src, f, fmt, sizeof(fmt)))
			return NULL;
		struct fmt_out o;
		o.len = 0;
		format_printf(&o, fmt, &src);
		if (src.fault)
			return NULL;
		struct ptx_printf_fifo *fifo = w->cta->launch->printf_fifo;
		if (fifo) {
			printf_fifo_append(fifo, o.buf, o.len,
					   printf_record_cost(src.off));
		} else {
			pthread_mutex_lock(&print_lock);
			print_fn(print_user, o.buf, o.len);
			pthread_mutex_unlock(&print_lock);
		}
		set_ret(w, bc, l, o.len);
	}
	return ip + 1;
}

static const struct xinsn *x_assertfail(struct warp *w,
					const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	if (!m)
		return ip + 1;
	const struct builtin_call *bc = ip->aux;
	uint32_t l = (uint32_t)__builtin_ctz(m);
	char s[4][128] = { "?", "?", "", "?" };
	struct fmt_src src = { .w = w, .ip = ip, .lane = l };
	for (int i = 0; i < 4; i++) {
		if (i == 2 || (uint32_t)i >= bc->nargs)
			continue;
		uint64_t p = arg_value(w, &bc->args[i], l);
		if (p && !read_string(&src, p, s[i], sizeof(s[i])))
			return NULL;
	}
	unsigned line = bc->nargs > 2 ? (unsigned)arg_value(w, &bc->args[2], l) :
					0;
	uint32_t t = w->index * WARP_SIZE + l;
	const uint32_t *b = w->cta->launch->block, *c = w->cta->ctaid;
	return xfault(w, NULL, PTX_FAULT_ASSERT, l, 0,
		      "%.50s:%u: %.50s: block: [%u,%u,%u], thread: [%u,%u,%u] "
		      "Assertion `%.60s` failed.", s[1], line, s[3], c[0], c[1],
		      c[2], t % b[0], t / b[0] % b[1], t / (b[0] * b[1]), s[0]);
}

/* ---- malloc, free ---- */

static const struct xinsn *x_malloc(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	struct ptx_heap *heap = w->cta->launch->heap;
	FOR_LANES(m, l)
		set_ret(w, bc, l, heap_alloc(heap, arg_value(w, &bc->args[0],
							     l)));
	return ip + 1;
}

static const struct xinsn *x_free(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct builtin_call *bc = ip->aux;
	struct ptx_heap *heap = w->cta->launch->heap;
	FOR_LANES(m, l) {
		uint64_t p = arg_value(w, &bc->args[0], l);
		if (!heap_free(heap, p))
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l,
				      p, "free of 0x%llx, not a block from "
					 "malloc", (unsigned long long)p);
	}
	return ip + 1;
}

/* ---- lowering ---- */

static bool builtin_arg(struct lower_ctx *c, const struct ir_operand *o,
			struct xcall_arg *a)
{
	const struct ir_sym *s = o->kind == OPND_SYM ? o->sym->def : NULL;
	if (s && s->kind == SYM_VAR && s->space == SPACE_PARAM) {
		a->mem = (uint32_t)s->location;
		a->size = (uint32_t)s->size;
		return true;
	}
	a->size = 8;
	return ref_src(c, o, PTX_T_B64, &a->reg);
}

static bool is_device_runtime(const char *name)
{
	static const char *const names[] = {
		"__cudaCDP", "cudaGraph", "cudaGetParameterBuffer",
		"cudaLaunchDevice", "cudaDeviceSynchronize", "cudaGetLastError",
		"cudaPeekAtLastError", "cudaStream", "cudaEvent", "cudaMalloc",
		"cudaFree", "cudaDeviceGet", "cudaFuncGetAttributes",
		"cudaOccupancy", "__nv_",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strncmp(name, names[i], strlen(names[i])))
			return true;
	return false;
}

bool lower_builtin_call(struct lower_ctx *c, const struct ir_insn *in,
			const struct ir_sym *fn, const struct ir_operand *rets,
			const struct ir_operand *args)
{
	(void)in;
	xhandler h = !strcmp(fn->name, "vprintf")      ? x_vprintf :
		     !strcmp(fn->name, "__assertfail") ? x_assertfail :
		     !strcmp(fn->name, "malloc")       ? x_malloc :
		     !strcmp(fn->name, "free")         ? x_free :
							 NULL;
	if (!h && is_device_runtime(fn->name))
		return lower_unsupported(c, "device runtime function");
	if (!h) {
		msg_printf(c->log, "%s:%u:%u: unresolved function '%s'",
			   c->m->name, c->in->line, c->in->col, fn->name);
		c->status = PTX_ERR_LINK;
		return false;
	}
	struct builtin_call *bc = arena_alloc(&c->prog->arena, sizeof(*bc));
	struct xinsn *x = bc ? emit(c, h) : NULL;
	if (!x)
		return lower_nomem(c);
	x->aux = bc;
	bc->nargs = args ? args->reg2 : 0;
	if (bc->nargs > ARRAY_SIZE(bc->args))
		return lower_unsupported(c, "too many arguments");
	if ((h == x_malloc || h == x_free) && bc->nargs != 1)
		return lower_unsupported(c, "arguments");
	for (uint32_t i = 0; i < bc->nargs; i++)
		if (!builtin_arg(c, &ir_vec_elems(c->f, args)[i], &bc->args[i]))
			return false;
	if (rets && rets->reg2) {
		bc->has_ret = true;
		return builtin_arg(c, &ir_vec_elems(c->f, rets)[0], &bc->ret);
	}
	return true;
}
