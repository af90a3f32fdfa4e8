// SPDX-License-Identifier: MIT
/*
 * The texture and surface object table: handles are (generation << 32) |
 * (slot + 1), so a stale or invented handle is recognised instead of
 * dereferenced. Slots live in chunks that are never freed or moved, so
 * lookups need no lock; creation and destruction take one.
 */
#include "tex.h"
#include "f16.h"

#include <pthread.h>
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>

enum { CHUNK_SLOTS = 1024, MAX_CHUNKS = 1024 };

struct slot {
	_Atomic uint32_t state;	/* generation << 2 | enum texobj_kind */
	struct texobj obj;
	uint32_t next_free;	/* free list, slot index + 1 */
};

static struct slot *_Atomic chunks[MAX_CHUNKS];
static uint32_t nslots, free_head;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static struct slot *slot_at(uint32_t index)
{
	if (index >= (uint32_t)CHUNK_SLOTS * MAX_CHUNKS)
		return NULL;
	struct slot *c = atomic_load_explicit(&chunks[index / CHUNK_SLOTS],
					      memory_order_acquire);
	return c ? &c[index % CHUNK_SLOTS] : NULL;
}

/* A free slot index, under the lock; UINT32_MAX when out of memory. */
static uint32_t take_slot(void)
{
	if (free_head) {
		uint32_t i = free_head - 1;
		free_head = slot_at(i)->next_free;
		return i;
	}
	if (nslots % CHUNK_SLOTS == 0) {
		if (nslots / CHUNK_SLOTS >= MAX_CHUNKS)
			return UINT32_MAX;
		struct slot *c = calloc(CHUNK_SLOTS, sizeof(*c));
		if (!c)
			return UINT32_MAX;
		atomic_store_explicit(&chunks[nslots / CHUNK_SLOTS], c,
				      memory_order_release);
	}
	return nslots++;
}

static uint32_t format_bytes(uint32_t format)
{
	switch (format) {
	case PTX_FMT_U8: case PTX_FMT_S8:
		return 1;
	case PTX_FMT_U16: case PTX_FMT_S16: case PTX_FMT_F16:
		return 2;
	case PTX_FMT_U32: case PTX_FMT_S32: case PTX_FMT_F32:
		return 4;
	default:
		return 0;
	}
}

static uint32_t shape_slices(const struct ptx_texture_desc *d)
{
	switch (d->shape) {
	case PTX_TEX_3D:
		return d->depth;
	case PTX_TEX_1D_LAYERED:
	case PTX_TEX_2D_LAYERED:
		return d->layers;
	case PTX_TEX_CUBE:
		return 6;
	case PTX_TEX_CUBE_LAYERED:
		return 6 * d->layers;
	default:
		return 1;
	}
}

/* Checks a descriptor and derives the rest; false if it is unusable. */
static bool prepare(struct texobj *t, const struct ptx_texture_desc *d)
{
	t->d = *d;
	struct ptx_texture_desc *x = &t->d;
	if (!x->height)
		x->height = 1;
	if (!x->depth)
		x->depth = 1;
	if (!x->layers)
		x->layers = 1;
	if (!x->num_levels)
		x->num_levels = 1;
	t->chan_bytes = format_bytes(x->format);
	t->texel_bytes = t->chan_bytes * x->channels;
	t->slices = shape_slices(x);
	if (!t->chan_bytes || (x->channels != 1 && x->channels != 2 &&
			       x->channels != 4) ||
	    x->shape > PTX_TEX_CUBE_LAYERED || !x->width ||
	    x->num_levels > PTX_TEX_MAX_LEVELS || !x->levels[0].data)
		return false;
	if ((x->shape == PTX_TEX_CUBE || x->shape == PTX_TEX_CUBE_LAYERED) &&
	    x->width != x->height)
		return false;
	for (uint32_t i = 0; i < x->num_levels; i++)
		if (!x->levels[i].data)
			return false;
	return true;
}

static uint64_t create(const struct ptx_texture_desc *d, enum texobj_kind k)
{
	struct texobj obj;
	if (!d || !prepare(&obj, d))
		return 0;
	pthread_mutex_lock(&table_lock);
	uint32_t i = take_slot();
	uint64_t handle = 0;
	if (i != UINT32_MAX) {
		struct slot *s = slot_at(i);
		uint32_t gen = (atomic_load(&s->state) >> 2) + 1;
		s->obj = obj;
		atomic_store_explicit(&s->state, gen << 2 | k,
				      memory_order_release);
		handle = (uint64_t)gen << 32 | (i + 1);
	}
	pthread_mutex_unlock(&table_lock);
	return handle;
}

uint64_t ptx_texture_create(const struct ptx_texture_desc *desc)
{
	return create(desc, TEXOBJ_TEXTURE);
}

uint64_t ptx_surface_create(const struct ptx_texture_desc *desc)
{
	return create(desc, TEXOBJ_SURFACE);
}

/* The slot of a live handle of any kind. */
static struct slot *live_slot(uint64_t handle, uint32_t *state)
{
	uint32_t low = (uint32_t)handle;
	struct slot *s = low ? slot_at(low - 1) : NULL;
	if (!s)
		return NULL;
	*state = atomic_load_explicit(&s->state, memory_order_acquire);
	if ((*state >> 2) != (uint32_t)(handle >> 32) ||
	    (*state & 3) == TEXOBJ_FREE)
		return NULL;
	return s;
}

bool ptx_texobj_destroy(uint64_t handle)
{
	uint32_t state;
	pthread_mutex_lock(&table_lock);
	struct slot *s = live_slot(handle, &state);
	if (s) {
		/* the generation stays: the handle is dead from now on */
		atomic_store_explicit(&s->state, state & ~3u,
				      memory_order_release);
		s->next_free = free_head;
		free_head = (uint32_t)handle;
	}
	pthread_mutex_unlock(&table_lock);
	return s != NULL;
}

bool ptx_texobj_get(uint64_t handle, struct ptx_texture_desc *desc)
{
	uint32_t state;
	struct slot *s = live_slot(handle, &state);
	if (s && desc)
		*desc = s->obj.d;
	return s != NULL;
}

const struct texobj *texobj_lookup(uint64_t handle, enum texobj_kind kind)
{
	uint32_t state;
	struct slot *s = live_slot(handle, &state);
	return s && (state & 3) == kind ? &s->obj : NULL;
}

/* ---- texel formats ---- */

uint32_t texel_channel_raw(const struct texobj *t, const uint8_t *texel,
			   unsigned c)
{
	const uint8_t *p = texel + c * t->chan_bytes;
	switch (t->d.format) {
	case PTX_FMT_U8:
		return *p;
	case PTX_FMT_S8:
		return (uint32_t)(int32_t)(int8_t)*p;
	case PTX_FMT_U16: {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	case PTX_FMT_S16: {
		int16_t v;
		memcpy(&v, p, 2);
		return (uint32_t)(int32_t)v;
	}
	case PTX_FMT_F16: {
		uint16_t v;
		memcpy(&v, p, 2);
		return (uint32_t)bits_f32(f16_to_f32(v));
	}
	default: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	}
}

bool texobj_reads_float(const struct texobj *t)
{
	return t->d.format == PTX_FMT_F16 || t->d.format == PTX_FMT_F32 ||
	       (t->d.read_normalized_float && t->chan_bytes < 4);
}

float texel_channel_float(const struct texobj *t, const uint8_t *texel,
			  unsigned c)
{
	uint32_t raw = texel_channel_raw(t, texel, c);
	bool norm = t->d.read_normalized_float;
	switch (t->d.format) {
	case PTX_FMT_U8:
		if (norm && t->d.srgb && c < 3)	/* alpha stays linear */
			return srgb_to_linear8((uint8_t)raw);
		return norm ? (float)raw / 255.0f : (float)raw;
	case PTX_FMT_S8: {
		float v = (float)(int32_t)raw;
		return norm ? (v / 127.0f < -1.0f ? -1.0f : v / 127.0f) : v;
	}
	case PTX_FMT_U16:
		return norm ? (float)raw / 65535.0f : (float)raw;
	case PTX_FMT_S16: {
		float v = (float)(int32_t)raw;
		return norm ? (v / 32767.0f < -1.0f ? -1.0f : v / 32767.0f) :
			      v;
	}
	case PTX_FMT_U32:
		return (float)raw;
	case PTX_FMT_S32:
		return (float)(int32_t)raw;
	default:	/* f16 (already widened) and f32 */
		return f32_of(raw);
	}
}
