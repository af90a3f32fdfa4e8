// SPDX-License-Identifier: MIT
/*
 * ptx-run memory: named host buffers with initialisers, storage for
 * module variables, kernel parameter packing, dumps.
 */
#include "ptx-run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN16(x) (((x) + 15) / 16 * 16)
#define ALIGN256(x) (((x) + 255) / 256 * 256)

static struct buffer *buffer_add(struct buffers *b, const char *name,
				 size_t size)
{
	struct buffer *items = realloc(b->items, (b->count + 1) *
							 sizeof(*items));
	if (!items)
		return NULL;
	b->items = items;
	struct buffer *buf = &items[b->count];
	size_t alloc = ALIGN16(size ? size : 1);
	buf->data = aligned_alloc(256, alloc < 256 ? 256 : ALIGN256(alloc));
	buf->name = strdup(name);
	if (!buf->data || !buf->name) {
		free(buf->data);
		free(buf->name);
		return NULL;
	}
	memset(buf->data, 0, alloc < 256 ? 256 : ALIGN256(alloc));
	buf->size = size;
	buf->is_var = false;
	b->count++;
	return buf;
}

struct buffer *buffer_find(struct buffers *b, const char *name)
{
	for (size_t i = 0; i < b->count; i++)
		if (!strcmp(b->items[i].name, name))
			return &b->items[i];
	return NULL;
}

static size_t parse_size(const char *s, char **end)
{
	size_t v = strtoull(s, end, 0);
	if (**end == 'k' || **end == 'K')
		v <<= 10, (*end)++;
	else if (**end == 'm' || **end == 'M')
		v <<= 20, (*end)++;
	return v;
}

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* Comma-separated values of one type, repeated to fill the buffer. */
static bool fill_list(struct buffer *buf, const char *type, const char *list)
{
	unsigned size = !strcmp(type, "u8") ? 1 :
			(!strcmp(type, "u64") || !strcmp(type, "s64") ||
			 !strcmp(type, "f64")) ? 8 : 4;
	size_t n = 0;
	const char *p = list;
	while (*p && n * size < buf->size) {
		char *end;
		uint64_t v;
		if (type[0] == 'f') {
			double d = strtod(p, &end);
			if (size == 4) {
				float f = (float)d;
				uint32_t b;
				memcpy(&b, &f, 4);
				v = b;
			} else {
				memcpy(&v, &d, 8);
			}
		} else {
			v = type[0] == 's' ? (uint64_t)strtoll(p, &end, 0) :
					     strtoull(p, &end, 0);
		}
		if (end == p)
			return false;
		memcpy(buf->data + n++ * size, &v, size);
		p = *end == ',' ? end + 1 : end;
	}
	return true;
}

static bool fill_file(struct buffer *buf, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return false;
	}
	size_t n = fread(buf->data, 1, buf->size, f);
	(void)n;
	fclose(f);
	return true;
}

static bool fill(struct buffer *buf, const char *init)
{
	size_t words = buf->size / 4;
	uint32_t *w = (uint32_t *)buf->data;
	if (!strcmp(init, "zero"))
		return true;
	if (!strcmp(init, "iota32")) {
		for (size_t i = 0; i < words; i++)
			w[i] = (uint32_t)i;
	} else if (!strcmp(init, "iotaf32")) {
		for (size_t i = 0; i < words; i++) {
			float f = (float)i;
			memcpy(&w[i], &f, 4);
		}
	} else if (!strncmp(init, "rand", 4)) {
		bool flt = !strncmp(init, "randf", 5);
		const char *colon = strchr(init, ':');
		uint32_t s = colon ? (uint32_t)strtoul(colon + 1, NULL, 0) : 1;
		s = s ? s : 1;
		for (size_t i = 0; i < words; i++) {
			uint32_t r = xorshift(&s);
			if (flt) {
				float f = (float)(r >> 8) / 16777216.0f;
				memcpy(&w[i], &f, 4);
			} else {
				w[i] = r;
			}
		}
	} else if (!strncmp(init, "file:", 5)) {
		return fill_file(buf, init + 5);
	} else {
		const char *colon = strchr(init, ':');
		char type[8] = { 0 };
		if (!colon || colon - init > 6)
			return false;
		memcpy(type, init, (size_t)(colon - init));
		return fill_list(buf, type, colon + 1);
	}
	return true;
}

bool buffer_parse(struct buffers *b, const char *spec)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec)
		return false;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	char *end;
	size_t size = parse_size(eq + 1, &end);
	struct buffer *buf = buffer_add(b, name, size);
	if (!buf)
		return false;
	return *end == 0 || (*end == ':' && fill(buf, end + 1));
}

void *buffer_alloc_var(void *user, size_t size, size_t align,
		       enum ptx_var_space space)
{
	struct buffers *b = user;
	char name[32];
	(void)align;	/* buffers are 256-byte aligned */
	snprintf(name, sizeof(name), "$%s%zu",
		 space == PTX_VAR_CONST ? "const" : "global", b->count);
	struct buffer *buf = buffer_add(b, name, size);
	if (!buf)
		return NULL;
	buf->is_var = true;
	return buf->data;
}

static bool param_value(struct buffers *b, const char *spec, uint8_t *dst,
			uint32_t size)
{
	const char *colon = strchr(spec, ':');
	if (!colon)
		return false;
	const char *v = colon + 1;
	uint64_t bits = 0;
	if (!strncmp(spec, "ptr:", 4)) {
		char name[128];
		const char *plus = strchr(v, '+');
		size_t n = plus ? (size_t)(plus - v) : strlen(v);
		snprintf(name, sizeof(name), "%.*s", (int)n, v);
		struct buffer *buf = buffer_find(b, name);
		if (!buf) {
			fprintf(stderr, "no buffer '%s'\n", name);
			return false;
		}
		bits = (uintptr_t)buf->data +
		       (plus ? strtoull(plus + 1, NULL, 0) : 0);
	} else if (!strncmp(spec, "f32:", 4)) {
		float f = strtof(v, NULL);
		uint32_t x;
		memcpy(&x, &f, 4);
		bits = x;
	} else if (!strncmp(spec, "f64:", 4)) {
		double d = strtod(v, NULL);
		memcpy(&bits, &d, 8);
	} else if (spec[0] == 's') {
		bits = (uint64_t)strtoll(v, NULL, 0);
	} else {
		bits = strtoull(v, NULL, 0);
	}
	memcpy(dst, &bits, size < 8 ? size : 8);
	return true;
}

bool params_pack(struct buffers *b, const struct ptx_kernel_info *info,
		 char **specs, size_t n, uint8_t **out)
{
	if (n != info->param_count) {
		fprintf(stderr, "%s takes %u parameters, %zu given\n",
			info->name, info->param_count, n);
		return false;
	}
	uint8_t *buf = calloc(1, info->param_size + 8);
	if (!buf)
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct ptx_param_info *p = &info->params[i];
		if (!param_value(b, specs[i], buf + p->offset, p->size)) {
			fprintf(stderr, "bad parameter '%s'\n", specs[i]);
			free(buf);
			return false;
		}
	}
	*out = buf;
	return true;
}

static void print_elem(const uint8_t *p, const char *fmt)
{
	uint64_t v = 0;
	if (!strcmp(fmt, "f32")) {
		float f;
		memcpy(&f, p, 4);
		printf("%.9g", (double)f);
	} else if (!strcmp(fmt, "f64")) {
		double d;
		memcpy(&d, p, 8);
		printf("%.17g", d);
	} else if (!strcmp(fmt, "s32")) {
		int32_t i;
		memcpy(&i, p, 4);
		printf("%" PRId32, i);
	} else if (!strcmp(fmt, "u64") || !strcmp(fmt, "x64")) {
		memcpy(&v, p, 8);
		printf(fmt[0] == 'u' ? "%" PRIu64 : "0x%016" PRIx64, v);
	} else if (!strcmp(fmt, "u8")) {
		printf("%u", *p);
	} else {
		memcpy(&v, p, 4);
		printf(fmt[0] == 'x' ? "0x%08" PRIx64 : "%" PRIu64, v);
	}
}

static unsigned fmt_size(const char *fmt)
{
	return fmt[1] == '6' ? 8 : fmt[1] == '8' ? 1 : 4;
}

bool buffer_dump(struct buffers *b, const char *spec)
{
	char name[128], fmt[8] = "x32";
	const char *c1 = strchr(spec, ':');
	size_t n = c1 ? (size_t)(c1 - spec) : strlen(spec);
	snprintf(name, sizeof(name), "%.*s", (int)n, spec);
	size_t count = SIZE_MAX;
	if (c1) {
		const char *c2 = strchr(c1 + 1, ':');
		size_t fl = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
		snprintf(fmt, sizeof(fmt), "%.*s", (int)fl, c1 + 1);
		if (c2)
			count = strtoull(c2 + 1, NULL, 0);
	}
	struct buffer *buf = buffer_find(b, name);
	if (!buf) {
		fprintf(stderr, "no buffer '%s'\n", name);
		return false;
	}
	unsigned es = fmt_size(fmt);
	size_t total = buf->size / es;
	if (count > total)
		count = total;
	printf("%s:", name);
	for (size_t i = 0; i < count; i++) {
		printf(i % 8 ? " " : "\n  [%zu] ", i);
		print_elem(buf->data + i * es, fmt);
	}
	printf("\n");
	return true;
}

bool buffer_save(struct buffers *b, const char *spec)
{
	const char *eq = strchr(spec, '=');
	char name[128];
	if (!eq)
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	struct buffer *buf = buffer_find(b, name);
	FILE *f = buf ? fopen(eq + 1, "wb") : NULL;
	if (!f) {
		fprintf(stderr, "cannot save '%s'\n", spec);
		return false;
	}
	fwrite(buf->data, 1, buf->size, f);
	fclose(f);
	return true;
}

static int range_cmp(const void *a, const void *b)
{
	const struct ptx_mem_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

struct ptx_mem_range *buffers_ranges(struct buffers *b, size_t *n)
{
	struct ptx_mem_range *r = calloc(b->count + 1, sizeof(*r));
	if (!r)
		return NULL;
	for (size_t i = 0; i < b->count; i++)
		r[i] = (struct ptx_mem_range){
			(uintptr_t)b->items[i].data,
			(uintptr_t)b->items[i].data + b->items[i].size, true };
	qsort(r, b->count, sizeof(*r), range_cmp);
	*n = b->count;
	return r;
}

void buffers_free(struct buffers *b)
{
	for (size_t i = 0; i < b->count; i++) {
		free(b->items[i].data);
		free(b->items[i].name);
	}
	free(b->items);
	b->items = NULL;
	b->count = 0;
}
