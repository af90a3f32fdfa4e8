// SPDX-License-Identifier: MIT
/* Faults: the first one of a CTA is recorded, with the thread it hit. */
#include "rt.h"

#include <string.h>

bool rt_vfault(struct rt_cta *c, enum ptx_fault_kind kind, uint32_t thread,
	       uint64_t addr, const char *fmt, va_list ap)
{
	if (c->faulted)
		return false;
	c->faulted = true;
	struct ptx_fault *f = c->fault;
	const uint32_t *b = c->launch->block;
	f->kind = kind;
	f->addr = addr;
	memcpy(f->cta, c->ctaid, sizeof(f->cta));
	f->thread[0] = thread % b[0];
	f->thread[1] = thread / b[0] % b[1];
	f->thread[2] = thread / (b[0] * b[1]);
	struct msgbuf m = { f->message, sizeof(f->message), 0 };
	msg_vprintf(&m, fmt, ap);
	return false;
}

bool rt_fault(struct rt_cta *c, enum ptx_fault_kind kind, uint32_t thread,
	      uint64_t addr, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rt_vfault(c, kind, thread, addr, fmt, ap);
	va_end(ap);
	return false;
}
