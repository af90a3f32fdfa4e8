// SPDX-License-Identifier: MIT
/*
 * cuGetExportTable: the driver's private tables that NVIDIA's runtime
 * (static cudart 13.0, the default nvcc and CMake build) asks for before it
 * does anything else.
 *
 * Which tables, which slots and what they do was observed on an H100 with
 * tools/cudalog (every slot call with its arguments, the memory behind
 * them and the result; tests/export/ has the recordings):
 *
 *   f8cff951  slot 1: log a message (domain, level, printf format, va_list)
 *   6bd5fb6c  slot 2: a device's primary context, before any retain
 *   a094798c  slots 2, 6: memory for the runtime's tool-callback switches
 *   c693336e  slots 0, 1, 2: per-context storage (put, remove, get), whose
 *             destructors run when the context goes
 *   263e8860  slot 2: whether a context wraps another (ours never do);
 *             slot 3: the runtime's requirements check (nothing to refuse)
 *   d4082055  slot 1: the integrity check (integrity.c)
 *   42d85a81  asked for, never called
 *
 * Every other slot of these tables answers CUDA_ERROR_NOT_SUPPORTED and
 * names itself once on stderr; a slot the driver leaves empty is empty.
 * A table outside this list is CUDA_ERROR_NOT_SUPPORTED.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "context.h"
#include "context_hooks.h"
#include "integrity.h"

/* In init.c: logs @name once and returns CUDA_ERROR_NOT_SUPPORTED. */
int driver_not_supported(const char *name);

#define SIZE_ENTRY(n) ((void *)(uintptr_t)((n) * sizeof(void *)))

static CUresult unobserved_slot(void)
{
	return (CUresult)driver_not_supported("a private export-table function");
}

/* --- f8cff951: messages --- */

static CUresult log_message(const char *domain, int level, const char *format,
			    va_list *args)
{
	char text[512];
	va_list copy;

	if (!format)
		return CUDA_ERROR_INVALID_VALUE;
	va_copy(copy, *args);
	vsnprintf(text, sizeof(text), format, copy);
	va_end(copy);
	debug_log("%s (%d): %s", domain ? domain : "CUDA", level, text);
	return CUDA_SUCCESS;
}

static const void *const messages_table[3] = {
	SIZE_ENTRY(3), (void *)log_message, (void *)unobserved_slot,
};

/* --- 6bd5fb6c: the runtime's interface --- */

static CUresult primary_context(CUcontext *pctx, CUdevice dev)
{
	CUresult res = driver_check_init();

	if (res != CUDA_SUCCESS)
		return res;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	/* The handle exists before its first retain, as NVIDIA's does. */
	return ctx_primary_unretained(dev, pctx);
}

static const void *const runtime_table[13] = {
	SIZE_ENTRY(13), (void *)unobserved_slot, (void *)primary_context,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)unobserved_slot, NULL, (void *)unobserved_slot,
	(void *)unobserved_slot,
};

/* --- a094798c: tool callbacks --- */

/*
 * The runtime keeps switches here that a profiler attached to the driver
 * would turn on; none ever attaches to vcuda, so they stay zero.
 */
static uint64_t callback_switches[1024];
static uint8_t callback_domains[64];

static void *callback_area(void **area, size_t *size)
{
	*area = callback_switches;
	*size = 1024;
	return callback_switches;
}

static void *callback_domain_area(void **area, size_t *size)
{
	*area = callback_domains;
	*size = 14;
	return callback_domains;
}

static const void *const callbacks_table[7] = {
	SIZE_ENTRY(7), (void *)unobserved_slot, (void *)callback_area,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)callback_domain_area,
};

/* --- 42d85a81: tools' thread-local state --- */

static const void *const tools_tls_table[3] = {
	SIZE_ENTRY(3), (void *)unobserved_slot, (void *)unobserved_slot,
};

/* --- c693336e: per-context storage --- */

typedef void (*storage_dtor)(CUcontext ctx, void *key, void *value);

struct storage_entry {
	struct CUctx_st *ctx;
	void *key;
	void *value;
	storage_dtor dtor;
	struct storage_entry *next;
};

static pthread_mutex_t storage_lock = PTHREAD_MUTEX_INITIALIZER;
static struct storage_entry *storage;

static CUresult storage_context(CUcontext ctx, struct CUctx_st **out)
{
	if (ctx) {
		*out = ctx;
		return CUDA_SUCCESS;
	}
	return ctx_enter(out);
}

static CUresult storage_put(CUcontext ctx, void *key, void *value, storage_dtor dtor)
{
	struct storage_entry *e;
	CUresult res = storage_context(ctx, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&storage_lock);
	for (e = storage; e; e = e->next)
		if (e->ctx == ctx && e->key == key)
			break;
	if (!e && (e = calloc(1, sizeof(*e)))) {
		e->ctx = ctx;
		e->key = key;
		e->next = storage;
		storage = e;
	}
	if (e) {
		e->value = value;
		e->dtor = dtor;
	}
	pthread_mutex_unlock(&storage_lock);
	return e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult storage_remove(CUcontext ctx, void *key)
{
	CUresult res = storage_context(ctx, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	pthread_mutex_lock(&storage_lock);
	for (struct storage_entry **link = &storage; *link; link = &(*link)->next) {
		if ((*link)->ctx == ctx && (*link)->key == key) {
			struct storage_entry *gone = *link;

			*link = gone->next;
			free(gone);
			break;
		}
	}
	pthread_mutex_unlock(&storage_lock);
	return CUDA_SUCCESS;
}

static CUresult storage_get(void **value, CUcontext ctx, void *key)
{
	struct storage_entry *e;
	CUresult res = storage_context(ctx, &ctx);

	if (res != CUDA_SUCCESS)
		return res;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&storage_lock);
	for (e = storage; e; e = e->next)
		if (e->ctx == ctx && e->key == key)
			break;
	if (e)
		*value = e->value;
	pthread_mutex_unlock(&storage_lock);
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static void context_storage_release(struct CUctx_st *ctx)
{
	for (;;) {
		struct storage_entry *e = NULL;

		pthread_mutex_lock(&storage_lock);
		for (struct storage_entry **link = &storage; *link; link = &(*link)->next) {
			if ((*link)->ctx == ctx) {
				e = *link;
				*link = e->next;
				break;
			}
		}
		pthread_mutex_unlock(&storage_lock);
		if (!e)
			return;
		/* Outside the lock: a destructor may call the driver. */
		if (e->dtor)
			e->dtor(ctx, e->key, e->value);
		free(e);
	}
}

/* The runtime's per-context state goes, destructors run, with the context. */
static const struct ctx_hooks storage_hooks = {
	.name = "context storage",
	.order = CTX_HOOKS_STORAGE,
	.teardown = context_storage_release,
};
CTX_HOOKS_REGISTER(storage_hooks)

/* No size word: the runtime knows this table's length. */
static const void *const storage_table[4] = {
	(void *)storage_put, (void *)storage_remove, (void *)storage_get, NULL,
};

/* --- 263e8860: context checks --- */

static CUresult context_wrapping(CUcontext ctx, int *wrapped, CUcontext *inner)
{
	(void)ctx;
	(void)inner;
	if (!wrapped)
		return CUDA_ERROR_INVALID_VALUE;
	*wrapped = 0;	/* vcuda's contexts never wrap another */
	return CUDA_SUCCESS;
}

static CUresult runtime_requirements(void)
{
	/* The runtime states what it needs; vcuda refuses none of it. */
	return CUDA_SUCCESS;
}

static const void *const checks_table[15] = {
	SIZE_ENTRY(15), (void *)unobserved_slot, (void *)context_wrapping,
	(void *)runtime_requirements, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
	(void *)unobserved_slot, (void *)unobserved_slot, (void *)unobserved_slot,
};

/* --- d4082055: the integrity check --- */

static CUresult integrity_check(unsigned int runtime_version, uint64_t timestamp,
				uint8_t answer[16]);

static const void *const integrity_table[3] = {
	SIZE_ENTRY(3), (void *)integrity_check, (void *)unobserved_slot,
};

static CUresult integrity_check(unsigned int runtime_version, uint64_t timestamp,
				uint8_t answer[16])
{
	struct integrity_device devices[MAX_DEVICES];
	struct integrity_input in = {
		.driver_version = CUDA_VERSION,
		.runtime_version = runtime_version,
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)(uintptr_t)pthread_self(),
		.runtime_table = (uintptr_t)runtime_table,
		.check_table = (uintptr_t)integrity_table,
		.check_fn = (uintptr_t)integrity_check,
		.timestamp = timestamp,
		.devices = devices,
	};
	int count = 0;

	if (!answer)
		return CUDA_ERROR_INVALID_VALUE;
	if (cuDeviceGetCount(&count) != CUDA_SUCCESS)
		count = 0;
	for (int d = 0; d < count && d < MAX_DEVICES; d++) {
		struct integrity_device *dev = &devices[d];
		int domain = 0, bus = 0, slot = 0;

		cuDeviceGetUuid((CUuuid *)dev->uuid, d);
		cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
		cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
		cuDeviceGetAttribute(&slot, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
		dev->pci_domain = (uint32_t)domain;
		dev->pci_bus = (uint32_t)bus;
		dev->pci_device = (uint32_t)slot;
		in.ndevices++;
	}
	integrity_answer(&in, answer);
	return CUDA_SUCCESS;
}

/* --- the door --- */

static const struct {
	uint8_t id[16];
	const void *table;
} export_tables[] = {
	{ { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
	    0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 }, messages_table },
	{ { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
	    0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 }, runtime_table },
	{ { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
	    0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 }, callbacks_table },
	{ { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
	    0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc }, tools_tls_table },
	{ { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
	    0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 }, storage_table },
	{ { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
	    0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e }, checks_table },
	{ { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
	    0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 }, integrity_table },
};

CUDA_EXPORT CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
	if (!table || !id)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(export_tables) / sizeof(export_tables[0]); i++) {
		if (!memcmp(export_tables[i].id, id->bytes, 16)) {
			*table = export_tables[i].table;
			return CUDA_SUCCESS;
		}
	}
	debug_log("no export table %02x%02x%02x%02x...", (uint8_t)id->bytes[0],
		  (uint8_t)id->bytes[1], (uint8_t)id->bytes[2], (uint8_t)id->bytes[3]);
	return CUDA_ERROR_NOT_SUPPORTED;
}
