// SPDX-License-Identifier: MIT
/* Arena, growable arrays, string map and message buffers. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t cap;
	max_align_t data[];
};

enum { ARENA_CHUNK = 64 * 1024 };

void *arena_alloc(struct arena *a, size_t size)
{
	size = ALIGN_UP(size ? size : 1, 16);
	struct arena_chunk *c = a->head;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > ARENA_CHUNK / 2 ? size : ARENA_CHUNK;
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->used = 0;
		c->cap = cap;
		/* Big allocations get their own chunk behind the current one,
		 * so the current chunk's free space is not wasted. */
		if (cap != ARENA_CHUNK && a->head) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

void *arena_memdup(struct arena *a, const void *p, size_t size)
{
	void *q = arena_alloc(a, size);
	if (q && size)
		memcpy(q, p, size);
	return q;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *q = arena_alloc(a, len + 1);
	if (q)
		memcpy(q, s, len);
	return q;
}

void arena_release(struct arena *a)
{
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->failed = false;
}

void *vec_push(struct vec *v, size_t elem)
{
	if (v->len == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void *d = realloc(v->data, cap * elem);
		if (!d)
			return NULL;
		v->data = d;
		v->cap = cap;
	}
	void *p = (char *)v->data + v->len * elem;
	memset(p, 0, elem);
	v->len++;
	return p;
}

void vec_free(struct vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}

void *vec_to_arena(struct vec *v, size_t elem, struct arena *a)
{
	void *p = NULL;
	if (v->len)
		p = arena_memdup(a, v->data, v->len * elem);
	vec_free(v);
	return p;
}

struct strmap_slot {
	const char *key;
	size_t len;
	uint32_t hash;
	void *value;
};

uint32_t str_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static struct strmap_slot *strmap_find(const struct strmap *m, const char *key,
				       size_t len, uint32_t hash)
{
	size_t mask = m->cap - 1;
	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slots[i];
		if (!s->key)
			return s;
		if (s->hash == hash && s->len == len &&
		    memcmp(s->key, key, len) == 0)
			return s;
	}
}

void *strmap_get(const struct strmap *m, const char *key, size_t len)
{
	if (!m->cap)
		return NULL;
	struct strmap_slot *s = strmap_find(m, key, len, str_hash(key, len));
	return s->key ? s->value : NULL;
}

static bool strmap_grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct strmap_slot *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return false;
	struct strmap old = *m;
	m->slots = slots;
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_slot *s = &old.slots[i];
		if (s->key)
			*strmap_find(m, s->key, s->len, s->hash) = *s;
	}
	free(old.slots);
	return true;
}

bool strmap_put(struct strmap *m, const char *key, size_t len, void *value)
{
	if ((m->count + 1) * 4 > m->cap * 3 && !strmap_grow(m))
		return false;
	uint32_t hash = str_hash(key, len);
	struct strmap_slot *s = strmap_find(m, key, len, hash);
	if (!s->key) {
		s->key = key;
		s->len = len;
		s->hash = hash;
		m->count++;
	}
	s->value = value;
	return true;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}

void msg_vprintf(struct msgbuf *m, const char *fmt, va_list ap)
{
	if (!m->buf || !m->cap || m->len + 1 >= m->cap)
		return;
	int n = vsnprintf(m->buf + m->len, m->cap - m->len, fmt, ap);
	if (n < 0)
		return;
	m->len += (size_t)n;
	if (m->len >= m->cap)
		m->len = m->cap - 1;
}

void msg_printf(struct msgbuf *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	msg_vprintf(m, fmt, ap);
	va_end(ap);
}
