// SPDX-License-Identifier: MIT
/*
 * The printf FIFO of a context (ptx.h): records appended by kernels in
 * execution order, written out at the driver's flushes. A record is the
 * text one printf call formatted; it costs the FIFO what it would cost
 * on a GPU (printf_record_cost). As CUDA documents, the buffer is
 * circular: a record that does not fit overwrites the oldest ones, so
 * a flush prints the newest output that fits.
 */
#include "builtin.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct record {
	size_t end;		/* end offset of its text */
	size_t cost;		/* bytes of the device buffer */
};

struct ptx_printf_fifo {
	pthread_mutex_t lock;
	size_t cap;		/* bytes the device buffer holds */
	size_t used;		/* bytes the live records cost */
	size_t lost;		/* records overwritten since the last flush */
	char *text;		/* records' text, back to back */
	size_t len, text_cap;
	struct record *recs;	/* live ones from head to nrec */
	size_t head, nrec, rec_cap;
};

struct ptx_printf_fifo *ptx_printf_fifo_create(size_t size)
{
	struct ptx_printf_fifo *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	pthread_mutex_init(&f->lock, NULL);
	f->cap = size;
	return f;
}

void ptx_printf_fifo_destroy(struct ptx_printf_fifo *f)
{
	if (!f)
		return;
	pthread_mutex_destroy(&f->lock);
	free(f->text);
	free(f->recs);
	free(f);
}

static size_t rec_start(const struct ptx_printf_fifo *f, size_t i)
{
	return i ? f->recs[i - 1].end : 0;
}

/* Drops the dead records' text once they are half of what is held. */
static void compact(struct ptx_printf_fifo *f)
{
	if (f->head < 64 || f->head * 2 < f->nrec)
		return;
	size_t from = rec_start(f, f->head);
	memmove(f->text, f->text + from, f->len - from);
	f->len -= from;
	f->nrec -= f->head;
	memmove(f->recs, f->recs + f->head, f->nrec * sizeof(*f->recs));
	for (size_t i = 0; i < f->nrec; i++)
		f->recs[i].end -= from;
	f->head = 0;
}

static bool reserve(struct ptx_printf_fifo *f, size_t more)
{
	if (f->len + more > f->text_cap) {
		size_t cap = f->text_cap ? f->text_cap * 2 : 4096;
		while (cap < f->len + more)
			cap *= 2;
		char *t = realloc(f->text, cap);
		if (!t)
			return false;
		f->text = t;
		f->text_cap = cap;
	}
	if (f->nrec == f->rec_cap) {
		size_t cap = f->rec_cap ? f->rec_cap * 2 : 256;
		struct record *r = realloc(f->recs, cap * sizeof(*r));
		if (!r)
			return false;
		f->recs = r;
		f->rec_cap = cap;
	}
	return true;
}

void printf_fifo_append(struct ptx_printf_fifo *f, const char *text,
			size_t len, size_t cost)
{
	pthread_mutex_lock(&f->lock);
	if (cost > f->cap) {	/* larger than the whole buffer */
		f->lost++;
		pthread_mutex_unlock(&f->lock);
		return;
	}
	while (f->used + cost > f->cap) {	/* overwrite the oldest */
		f->used -= f->recs[f->head++].cost;
		f->lost++;
	}
	compact(f);
	if (reserve(f, len)) {
		memcpy(f->text + f->len, text, len);
		f->len += len;
		f->recs[f->nrec++] = (struct record){ f->len, cost };
		f->used += cost;
	} else {
		f->lost++;
	}
	pthread_mutex_unlock(&f->lock);
}

static void print_stdout(void *user, const char *text, size_t len)
{
	(void)user;
	fwrite(text, 1, len, stdout);
}

size_t ptx_printf_fifo_flush(struct ptx_printf_fifo *f, ptx_print_fn fn,
			     void *user)
{
	if (!f)
		return 0;
	if (!fn)
		fn = print_stdout;
	/* under the lock, so that flushes racing each other keep order */
	pthread_mutex_lock(&f->lock);
	for (size_t i = f->head; i < f->nrec; i++)
		fn(user, f->text + rec_start(f, i),
		   f->recs[i].end - rec_start(f, i));
	size_t lost = f->lost;
	f->len = f->head = f->nrec = f->used = f->lost = 0;
	pthread_mutex_unlock(&f->lock);
	if (fn == print_stdout)
		fflush(stdout);
	return lost;
}
