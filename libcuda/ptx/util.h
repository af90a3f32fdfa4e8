/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the PTX path: an arena for everything a program
 * keeps until it is destroyed, growable arrays, a string-keyed hash map and
 * bounded message formatting.
 */
#ifndef VCUDA_PTX_UTIL_H
#define VCUDA_PTX_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* Bump allocator: allocations live until arena_release; all are zeroed. */
struct arena_chunk;
struct arena {
	struct arena_chunk *head;
	bool failed;		/* an allocation failed since init */
};

void *arena_alloc(struct arena *a, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t len);
void *arena_memdup(struct arena *a, const void *p, size_t size);
void arena_release(struct arena *a);

/*
 * Growable array of fixed-size elements (malloc-backed). Used while
 * parsing, when the final count is not known yet.
 */
struct vec {
	void *data;
	size_t len;
	size_t cap;
};

/* Appends one zeroed element of @elem bytes; returns it, or NULL. */
void *vec_push(struct vec *v, size_t elem);
void vec_free(struct vec *v);
/* Moves the contents into @a (NULL when empty) and frees the vector. */
void *vec_to_arena(struct vec *v, size_t elem, struct arena *a);

#define VEC_AT(v, type, i) (((type *)(v).data)[i])

/* Open-addressing hash map from (non-owned) strings to pointers. */
struct strmap_slot;
struct strmap {
	struct strmap_slot *slots;
	size_t cap;		/* power of two, or 0 */
	size_t count;
};

uint32_t str_hash(const char *s, size_t len);
void *strmap_get(const struct strmap *m, const char *key, size_t len);
/* Inserts or replaces; @key must outlive the map. False on no memory. */
bool strmap_put(struct strmap *m, const char *key, size_t len, void *value);
void strmap_free(struct strmap *m);

/* Bounded, always NUL-terminated message buffer. */
struct msgbuf {
	char *buf;
	size_t cap;
	size_t len;
};

void msg_printf(struct msgbuf *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void msg_vprintf(struct msgbuf *m, const char *fmt, va_list ap);

#endif
