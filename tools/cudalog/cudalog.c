// SPDX-License-Identifier: MIT
/*
 * cudalog: a libcuda.so.1 that stands in front of NVIDIA's driver library
 * and records how a program uses the driver's private doors:
 * cuGetProcAddress (every name, version and flag asked for, and what came
 * back) and cuGetExportTable (every table asked for, its raw contents, and
 * every call into one of its slots: arguments, the 32 bytes behind each
 * pointer argument before and after the call, and the result).
 * CUDALOG_CALLS=1 logs every call through a function cuGetProcAddress
 * handed out as well. CUDALOG_PATCH_INTEGRITY=1 logs the integrity check's slot too, which
 * makes the runtime's check fail: for recording the check alone.
 *
 * It is a measuring instrument for a machine with NVIDIA's driver, never
 * part of vcuda. Every other entry point is a jump stub into the real
 * library (stubs.S, generated from its dynamic symbol table at build time).
 *
 *   CUDALOG_REAL=/path/to/NVIDIA/libcuda.so.1 CUDALOG_OUT=log.txt \
 *   LD_LIBRARY_PATH=dir-of-this-libcuda.so.1 ./program
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

typedef int CUresult;
typedef struct { unsigned char bytes[16]; } CUuuid;

#define MAX_TABLES 64
#define MAX_SLOTS 4096
#define MAX_DEPTH 64

extern char cudalog_tramps[];
extern char cudalog_tramp_return[];
extern const char *const cudalog_stub_names[];
extern void *cudalog_stub_targets[];

struct slot {
	int table;		/* -1: a function cuGetProcAddress handed out */
	int index;
	void *real;
	char name[64];
};

struct table {
	CUuuid id;
	const void *real;
};

static FILE *log_file;
static void *real_lib;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct table tables[MAX_TABLES];
static int ntables;
static struct slot slots[MAX_SLOTS];
static int nslots;
static uintptr_t text_lo, text_hi;
static unsigned long call_seq;

/* The frame tramp_common builds: xmm0-7, padding, then the GPRs. */
struct enter_frame {
	unsigned char xmm[8][16];
	uint64_t pad, r11, rax, r9, r8, rcx, rdx, rsi, rdi, ret;
	uint64_t stack[4];	/* the caller's stack arguments, if any */
};

struct exit_frame {
	unsigned char xmm[2][16];
	uint64_t rdx, rax;
};

struct pending {
	uint64_t ret;
	int slot;
	unsigned long seq;
	uint64_t args[6];
};

static __thread struct pending shadow[MAX_DEPTH];
static __thread int depth;

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	va_list ap;

	if (!log_file)
		return;
	va_start(ap, fmt);
	vfprintf(log_file, fmt, ap);
	va_end(ap);
	fflush(log_file);
}

static void uuid_text(const CUuuid *id, char *buf)
{
	for (int i = 0; i < 16; i++)
		sprintf(buf + 2 * i, "%02x", id->bytes[i]);
}

/* Reads @len bytes at @addr without faulting on a bad address. */
static int peek(uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	if (addr < 4096)
		return -1;
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

static void dump_pointees(const char *when, const uint64_t *args)
{
	for (int i = 0; i < 6; i++) {
		unsigned char b[32];
		char hex[65];

		if (peek(args[i], b, sizeof(b)))
			continue;
		for (int j = 0; j < 32; j++)
			sprintf(hex + 2 * j, "%02x", b[j]);
		log_line("    %s *a%d=%s\n", when, i, hex);
	}
}

/* The real library's executable range, from /proc/self/maps. */
static void find_text(const char *path)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096];

	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps)) {
		uintptr_t lo, hi;
		char perms[8];

		if (!strstr(line, path) || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
			continue;
		if (perms[2] != 'x')
			continue;
		if (!text_lo || lo < text_lo)
			text_lo = lo;
		if (hi > text_hi)
			text_hi = hi;
	}
	fclose(maps);
}

static int is_code(uint64_t p)
{
	return p >= text_lo && p < text_hi;
}

__attribute__((constructor)) static void cudalog_init(void)
{
	const char *real = getenv("CUDALOG_REAL");
	const char *out = getenv("CUDALOG_OUT");

	log_file = out ? fopen(out, "a") : stderr;
	if (!real) {
		fprintf(stderr, "cudalog: set CUDALOG_REAL\n");
		exit(97);
	}
	real_lib = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!real_lib) {
		fprintf(stderr, "cudalog: %s\n", dlerror());
		exit(97);
	}
	for (int i = 0; cudalog_stub_names[i]; i++)
		cudalog_stub_targets[i] = dlsym(real_lib, cudalog_stub_names[i]);
	find_text(real);
	log_line("cudalog: pid %d pthread %lx real %s text %lx-%lx\n", getpid(),
		 (unsigned long)pthread_self(), real,
		 (unsigned long)text_lo, (unsigned long)text_hi);
}

static const char *symbol_of(const void *p, char *buf, size_t len)
{
	Dl_info info;

	if (!p) {
		snprintf(buf, len, "NULL");
	} else if (dladdr(p, &info) && info.dli_sname && info.dli_saddr == p) {
		snprintf(buf, len, "%s", info.dli_sname);
	} else if (dladdr(p, &info) && info.dli_fbase) {
		snprintf(buf, len, "%s+0x%lx", info.dli_fname ? strrchr(info.dli_fname, '/') + 1 : "?",
			 (unsigned long)((uintptr_t)p - (uintptr_t)info.dli_fbase));
	} else {
		snprintf(buf, len, "%p", p);
	}
	return buf;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags,
			     int *status);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags);
CUresult cuGetExportTable(const void **out, const CUuuid *id);

/* A program that asks the driver for its own doors must get ours, or it
 * would walk past the log from then on. */
static void redirect_to_self(const char *symbol, void **pfn, CUresult r, int version)
{
	if (r != 0 || !symbol || !pfn)
		return;
	if (!strcmp(symbol, "cuGetProcAddress"))
		*pfn = version >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
	else if (!strcmp(symbol, "cuGetExportTable"))
		*pfn = (void *)cuGetExportTable;
}

/* With CUDALOG_CALLS=1, every function handed out goes through a
 * logging trampoline too (the doors themselves excepted). */
static void trace_function(const char *symbol, void **pfn, CUresult r)
{
	if (r != 0 || !pfn || !*pfn || !is_code((uint64_t)*pfn))
		return;
	pthread_mutex_lock(&lock);
	if (nslots < MAX_SLOTS) {
		slots[nslots] = (struct slot){ -1, 0, *pfn, "" };
		snprintf(slots[nslots].name, sizeof(slots[nslots].name), "%s", symbol);
		*pfn = cudalog_tramps + 16 * nslots;
		nslots++;
	}
	pthread_mutex_unlock(&lock);
}

typedef CUresult (*get_proc_v2_fn)(const char *, void **, int, uint64_t, int *);
typedef CUresult (*get_proc_v1_fn)(const char *, void **, int, uint64_t);
typedef CUresult (*get_table_fn)(const void **, const CUuuid *);

__attribute__((visibility("default")))
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags,
			     int *status)
{
	static get_proc_v2_fn real;
	char where[256];
	int st = -1;
	CUresult r;

	if (!real)
		real = (get_proc_v2_fn)dlsym(real_lib, "cuGetProcAddress_v2");
	r = real(symbol, pfn, version, flags, status ? status : &st);
	redirect_to_self(symbol, pfn, r, version);
	if (getenv("CUDALOG_CALLS"))
		trace_function(symbol, pfn, r);
	log_line("procaddr_v2 %s %d %lu -> %d status %d %s\n", symbol ? symbol : "(null)",
		 version, (unsigned long)flags, r, status ? *status : st,
		 symbol_of(pfn && r == 0 ? *pfn : NULL, where, sizeof(where)));
	return r;
}

__attribute__((visibility("default")))
CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags)
{
	static get_proc_v1_fn real;
	char where[256];
	CUresult r;

	if (!real)
		real = (get_proc_v1_fn)dlsym(real_lib, "cuGetProcAddress");
	r = real(symbol, pfn, version, flags);
	redirect_to_self(symbol, pfn, r, version);
	log_line("procaddr_v1 %s %d %lu -> %d %s\n", symbol ? symbol : "(null)", version,
		 (unsigned long)flags, r, symbol_of(pfn && r == 0 ? *pfn : NULL, where, sizeof(where)));
	return r;
}

/*
 * The runtime checks the driver's integrity with a keyed hash over the
 * addresses of two tables and of the checking function itself, so tables
 * keep their addresses: slots are patched in place, and the slots of the
 * table that holds the check are left alone (their calls are plain to see
 * in the runtime's behaviour: arguments and result are what the check is).
 */
static const unsigned char integrity_table[16] = {
	0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
	0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2,
};

static int make_writable(void *p, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
	uintptr_t hi = ((uintptr_t)p + len + page - 1) & ~(uintptr_t)(page - 1);

	return mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
}

/* Logs a table's entries and routes each slot that points into the real
 * library's code through a logging trampoline. A table that starts with
 * its own size in bytes is walked to that size; others up to the first
 * entry that is neither code nor NULL, at most 64 entries. */
static void wrap_table(int t, const void *table, int patch)
{
	uint64_t *src = (uint64_t *)table;
	uint64_t first;
	int n, sized;

	if (peek((uint64_t)table, &first, sizeof(first)))
		return;
	sized = first > 0 && first < 0x1000 && first % 8 == 0;
	n = sized ? (int)(first / 8) : 64;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		char where[256];

		if (peek((uint64_t)&src[i], &v, sizeof(v))) {
			n = i;
			break;
		}
		log_line("  table %d entry %d = 0x%lx %s\n", t, i, (unsigned long)v,
			 is_code(v) ? symbol_of((void *)v, where, sizeof(where)) : "(data)");
		if (!sized && i > 0 && v && !is_code(v)) {
			n = i;
			break;
		}
		if (patch && is_code(v) && nslots < MAX_SLOTS &&
		    make_writable(&src[i], sizeof(v)) == 0) {
			slots[nslots] = (struct slot){ t, i, (void *)v, "" };
			src[i] = (uint64_t)(cudalog_tramps + 16 * nslots);
			nslots++;
		}
	}
	log_line("  table %d: %d entries%s%s\n", t, n, sized ? " (sized)" : "",
		 patch ? "" : " (not patched: integrity check)");
}

__attribute__((visibility("default")))
CUresult cuGetExportTable(const void **out, const CUuuid *id)
{
	static get_table_fn real;
	char text[33] = "(null)";
	const void *table = NULL;
	CUresult r;
	int t;

	if (!real)
		real = (get_table_fn)dlsym(real_lib, "cuGetExportTable");
	r = real(&table, id);
	if (id)
		uuid_text(id, text);
	pthread_mutex_lock(&lock);
	for (t = 0; t < ntables; t++)
		if (id && !memcmp(&tables[t].id, id, sizeof(*id)))
			break;
	log_line("export_table %s -> %d table %p (index %d)\n", text, r, table, t);
	if (r == 0 && t == ntables && ntables < MAX_TABLES) {
		tables[t].id = *id;
		tables[t].real = table;
		ntables++;
		wrap_table(t, table, memcmp(id, integrity_table, sizeof(*id)) != 0 ||
				     getenv("CUDALOG_PATCH_INTEGRITY"));
	}
	pthread_mutex_unlock(&lock);
	if (out)
		*out = table;
	return r;
}

void *cudalog_enter(struct enter_frame *f);
void *cudalog_enter(struct enter_frame *f)
{
	int k = (int)f->r11;
	struct pending *p;
	unsigned long seq;

	pthread_mutex_lock(&lock);
	seq = ++call_seq;
	pthread_mutex_unlock(&lock);
	uint64_t args[6] = { f->rdi, f->rsi, f->rdx, f->rcx, f->r8, f->r9 };

	if (slots[k].table < 0)
		log_line("call %lu fn %s\n", seq, slots[k].name);
	log_line("call %lu tid %ld pthread %lx table %d slot %d enter a0=%lx a1=%lx a2=%lx a3=%lx a4=%lx a5=%lx\n",
		 seq, (long)gettid(), (unsigned long)pthread_self(), slots[k].table, slots[k].index, (unsigned long)args[0],
		 (unsigned long)args[1], (unsigned long)args[2], (unsigned long)args[3],
		 (unsigned long)args[4], (unsigned long)args[5]);
	log_line("    stack s0=%lx s1=%lx s2=%lx s3=%lx\n", (unsigned long)f->stack[0],
		 (unsigned long)f->stack[1], (unsigned long)f->stack[2], (unsigned long)f->stack[3]);
	dump_pointees("in ", args);
	if (depth >= MAX_DEPTH) {
		log_line("cudalog: call depth exceeded\n");
		abort();
	}
	p = &shadow[depth++];
	p->ret = f->ret;
	p->slot = k;
	p->seq = seq;
	memcpy(p->args, args, sizeof(args));
	f->ret = (uint64_t)cudalog_tramp_return;
	return slots[k].real;
}

uint64_t cudalog_exit(struct exit_frame *f);
uint64_t cudalog_exit(struct exit_frame *f)
{
	struct pending *p = &shadow[--depth];

	log_line("call %lu exit ret=%lx\n", p->seq, (unsigned long)f->rax);
	dump_pointees("out", p->args);
	return p->ret;
}
