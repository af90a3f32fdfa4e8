// SPDX-License-Identifier: MIT
/*
 * The CUDA device runtime's functions for every back end: vprintf
 * (formatted per call, into the launch's printf FIFO or straight to the
 * print handler), malloc and free (the launch's device heap). Every byte
 * they read through a kernel's pointers is checked like any access.
 */
#include "bits.h"
#include "builtin.h"
#include "rt.h"

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


/* ---- vprintf ---- */

/*
 * Reads of device memory for printf: the format, the argument buffer and
 * %s strings are pointers a kernel passes, so each byte is checked like
 * any access (a bad pointer faults the launch instead of the process).
 */
struct fmt_src {
	struct rt_cta *c;
	uint32_t thread;
	uint64_t args;		/* argument buffer, 0 for none */
	size_t off;		/* next argument */
	bool fault;
};

bool rt_read_string(struct rt_cta *c, uint32_t thread, uint64_t addr,
		    char *buf, size_t cap)
{
	size_t n = 0;
	for (; n + 1 < cap; n++) {
		const uint8_t *p = rt_global(c, thread, addr + n, 1, false);
		if (!p)
			return false;
		if (!(buf[n] = (char)*p))
			return true;
	}
	buf[n] = 0;
	return true;
}

static bool read_string(struct fmt_src *src, uint64_t addr, char *buf,
			size_t cap)
{
	if (rt_read_string(src->c, src->thread, addr, buf, cap))
		return true;
	src->fault = true;
	return false;
}

static uint64_t next_arg(struct fmt_src *src, unsigned size)
{
	uint64_t v = 0;
	if (!src->args || src->fault)
		return 0;
	src->off = (src->off + size - 1) / size * size;
	const uint8_t *p = rt_global(src->c, src->thread,
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

int64_t rt_printf(struct rt_cta *c, uint32_t thread, uint64_t fmt_addr,
		  uint64_t args)
{
	struct fmt_src src = { .c = c, .thread = thread, .args = args };
	char fmt[4096];
	if (!read_string(&src, fmt_addr, fmt, sizeof(fmt)))
		return -1;
	struct fmt_out o;
	o.len = 0;
	format_printf(&o, fmt, &src);
	if (src.fault)
		return -1;
	struct ptx_printf_fifo *fifo = c->launch->printf_fifo;
	if (fifo) {
		printf_fifo_append(fifo, o.buf, o.len,
				   printf_record_cost(src.off));
	} else {
		pthread_mutex_lock(&print_lock);
		print_fn(print_user, o.buf, o.len);
		pthread_mutex_unlock(&print_lock);
	}
	return (int64_t)o.len;
}

/* ---- malloc, free ---- */

uint64_t rt_malloc(struct rt_cta *c, uint64_t size)
{
	return heap_alloc(c->launch->heap, size);
}

bool rt_free(struct rt_cta *c, uint32_t thread, uint64_t addr)
{
	if (heap_free(c->launch->heap, addr))
		return true;
	return rt_fault(c, PTX_FAULT_ILLEGAL_INSTRUCTION, thread, addr,
			"free of 0x%llx, not a block from malloc",
			(unsigned long long)addr);
}
