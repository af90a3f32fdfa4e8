// SPDX-License-Identifier: MIT
/*
 * ptx-run: runs one kernel of a PTX text, fatbin or CUDA executable on the
 * vcuda interpreter, with plain host buffers and no driver. For tests,
 * debugging and benchmarks.
 *
 *   ptx-run FILE KERNEL --grid 4 --block 128 --buf a=4096:iota32 \
 *           --param ptr:a --param u32:1024 --dump a:u32:16
 */
#include "ptx-run.h"
#include "ir.h"

#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct options {
	const char *file, *kernel;
	unsigned arch;
	uint32_t grid[3], block[3], shared;
	char **params, **dumps, **saves, **vars;
	size_t nparams, ndumps, nsaves, nvars;
	unsigned threads, repeat;
	bool check, time, print, list, fatbin, coop;
};

static void usage(void)
{
	fputs("usage: ptx-run [options] FILE [KERNEL]\n"
	      "  FILE is PTX text, a fatbin, or an ELF file with fatbins\n"
	      "  --grid X[,Y[,Z]]  --block X[,Y[,Z]]  --shared BYTES\n"
	      "  --buf NAME=SIZE[:INIT]   INIT: zero iota32 iotaf32 rand:SEED\n"
	      "        randf:SEED file:PATH u32:1,2 s32:.. f32:.. u64:.. f64:..\n"
	      "  --param TYPE:VALUE       TYPE: u8 u16 u32 s32 u64 s64 f32 f64\n"
	      "        ptr (ptr:NAME[+OFFSET])\n"
	      "  --dump NAME[:FMT[:COUNT]] FMT: x32 u32 s32 f32 u64 x64 f64 u8\n"
	      "  --var NAME[:FMT[:COUNT]]  dump a module variable after the run\n"
	      "  --save NAME=PATH   --check (range-checked global accesses)\n"
	      "  --threads N   --repeat N   --time   --arch N (default 75)\n"
	      "  --coop (a cooperative launch: grid-wide barriers)\n"
	      "  --list (kernels)  --print (the parsed IR)  --fatbin (entries)\n",
	      stderr);
}

static bool parse_dim3(const char *s, uint32_t d[3])
{
	char *end;
	d[0] = d[1] = d[2] = 1;
	for (int i = 0; i < 3; i++) {
		d[i] = (uint32_t)strtoul(s, &end, 0);
		if (end == s || !d[i])
			return false;
		if (!*end)
			return true;
		if (*end != ',' && *end != 'x')
			return false;
		s = end + 1;
	}
	return false;
}

static bool push(char ***list, size_t *n, char *item)
{
	char **l = realloc(*list, (*n + 1) * sizeof(*l));
	if (!l)
		return false;
	l[(*n)++] = item;
	*list = l;
	return true;
}

static bool parse_args(int argc, char **argv, struct options *o,
		       struct buffers *bufs)
{
	static const struct option longs[] = {
		{ "grid", 1, 0, 'g' },	  { "block", 1, 0, 'b' },
		{ "shared", 1, 0, 's' },  { "buf", 1, 0, 'B' },
		{ "param", 1, 0, 'p' },	  { "dump", 1, 0, 'd' },
		{ "save", 1, 0, 'S' },	  { "threads", 1, 0, 't' },
		{ "var", 1, 0, 'v' },
		{ "repeat", 1, 0, 'r' },  { "arch", 1, 0, 'a' },
		{ "check", 0, 0, 'c' },	  { "time", 0, 0, 'T' },
		{ "print", 0, 0, 'P' },	  { "list", 0, 0, 'l' },
		{ "fatbin", 0, 0, 'F' },  { "help", 0, 0, 'h' },
		{ "coop", 0, 0, 'C' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		bool ok = true;
		switch (c) {
		case 'g': ok = parse_dim3(optarg, o->grid); break;
		case 'b': ok = parse_dim3(optarg, o->block); break;
		case 's': o->shared = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'B': ok = buffer_parse(bufs, optarg); break;
		case 'p': ok = push(&o->params, &o->nparams, optarg); break;
		case 'd': ok = push(&o->dumps, &o->ndumps, optarg); break;
		case 'S': ok = push(&o->saves, &o->nsaves, optarg); break;
		case 'v': ok = push(&o->vars, &o->nvars, optarg); break;
		case 't': o->threads = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'r': o->repeat = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'a': o->arch = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'c': o->check = true; break;
		case 'T': o->time = true; break;
		case 'P': o->print = true; break;
		case 'l': o->list = true; break;
		case 'F': o->fatbin = true; break;
		case 'C': o->coop = true; break;
		default: return false;
		}
		if (!ok) {
			fprintf(stderr, "ptx-run: bad argument '%s'\n", optarg);
			return false;
		}
	}
	if (optind < argc)
		o->file = argv[optind++];
	if (optind < argc)
		o->kernel = argv[optind++];
	return o->file && (o->kernel || o->list || o->print || o->fatbin);
}

/* ---- running ---- */

struct run_state {
	const struct ptx_launch *launch;
	uint64_t total, batch;	/* CTAs per ptx_run_ctas call */
	atomic_uint_fast64_t next;
	atomic_bool failed;
	struct ptx_fault fault;
	pthread_mutex_t lock;
};

enum { CTA_BATCH = 4 };

static void *run_worker(void *arg)
{
	struct run_state *s = arg;
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault fault;
	while (w && !atomic_load(&s->failed)) {
		uint64_t first = atomic_fetch_add(&s->next, s->batch);
		if (first >= s->total)
			break;
		uint64_t n = s->total - first < s->batch ? s->total - first :
							   s->batch;
		if (!ptx_run_ctas(w, s->launch, first, n, &fault)) {
			pthread_mutex_lock(&s->lock);
			if (!atomic_exchange(&s->failed, true))
				s->fault = fault;
			pthread_mutex_unlock(&s->lock);
		}
	}
	ptx_worker_destroy(w);
	return NULL;
}

static bool launch(const struct ptx_launch *l, unsigned threads,
		   struct ptx_fault *fault)
{
	struct run_state s = { .launch = l, .batch = CTA_BATCH };
	s.total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	/* cooperative: one range per thread, all running at once */
	if (l->flags & PTX_LAUNCH_COOPERATIVE)
		s.batch = (s.total + (threads ? threads : 1) - 1) /
			  (threads ? threads : 1);
	pthread_mutex_init(&s.lock, NULL);
	if (threads <= 1) {
		run_worker(&s);
	} else {
		pthread_t *t = calloc(threads, sizeof(*t));
		for (unsigned i = 0; t && i < threads; i++)
			pthread_create(&t[i], NULL, run_worker, &s);
		for (unsigned i = 0; t && i < threads; i++)
			pthread_join(t[i], NULL);
		free(t);
	}
	pthread_mutex_destroy(&s.lock);
	*fault = s.fault;
	return !atomic_load(&s.failed);
}

static const char *fault_name(enum ptx_fault_kind k)
{
	static const char *const names[] = {
		"none", "unmapped address", "read-only address",
		"misaligned address", "trap", "assertion",
		"illegal instruction",
	};
	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* NAME[:FMT[:COUNT]] of a module variable: dumped like a buffer. */
static bool dump_variable(struct ptx_program *prog, struct buffers *bufs,
			  const char *spec)
{
	char name[256];
	size_t n = strcspn(spec, ":");
	uint64_t addr;
	size_t size;
	snprintf(name, sizeof(name), "%.*s", (int)n, spec);
	if (!ptx_program_variable(prog, name, &addr, &size)) {
		fprintf(stderr, "ptx-run: no variable '%s'\n", name);
		return false;
	}
	struct buffer view = { .name = name,
			       .data = (uint8_t *)(uintptr_t)addr,
			       .size = size };
	struct buffers one = { &view, 1 };
	(void)bufs;
	return buffer_dump(&one, spec);
}

static int run_kernel(struct ptx_program *prog, struct options *o,
		      struct buffers *bufs)
{
	const struct ptx_kernel *k = ptx_program_kernel(prog, o->kernel);
	if (!k) {
		fprintf(stderr, "ptx-run: no kernel '%s'\n", o->kernel);
		return 1;
	}
	struct ptx_kernel_info info;
	ptx_kernel_get_info(k, &info);
	uint8_t *params;
	if (!params_pack(bufs, &info, o->params, o->nparams, &params))
		return 1;
	struct ptx_launch l = { .kernel = k, .params = params,
				.dynamic_shared_size = o->shared };
	memcpy(l.grid, o->grid, sizeof(l.grid));
	memcpy(l.block, o->block, sizeof(l.block));
	if (o->check)
		l.ranges = buffers_ranges(bufs, &l.range_count);
	/* the grid workspace grid.sync() counts in (ptx.h) */
	struct ptx_grid_workspace ws = { .size = sizeof(ws) };
	if (o->coop && o->check) {
		fprintf(stderr, "ptx-run: --coop does not go with --check\n");
		free(params);
		free((void *)l.ranges);
		return 1;
	}
	if (o->coop) {
		uint64_t a = (uintptr_t)&ws;
		l.flags = PTX_LAUNCH_COOPERATIVE;
		l.sm_count = o->threads > 1 ? o->threads : 1;
		l.envreg[1] = (uint32_t)(a >> 32);
		l.envreg[2] = (uint32_t)a;
	}
	struct ptx_fault fault;
	bool ok = true;
	/* the kernel's code first, for these blocks (the JIT's vector
	 * width): --time measures it, not its compile */
	ptx_kernel_prepare_for(k, l.block);
	ptx_kernel_compile(k);
	double t0 = now();
	for (unsigned r = 0; ok && r < (o->repeat ? o->repeat : 1); r++)
		ok = launch(&l, o->threads, &fault);
	double t = now() - t0;
	if (!ok)
		fprintf(stderr,
			"ptx-run: fault (%s) at 0x%llx in block (%u,%u,%u) "
			"thread (%u,%u,%u): %s\n",
			fault_name(fault.kind), (unsigned long long)fault.addr,
			fault.cta[0], fault.cta[1], fault.cta[2],
			fault.thread[0], fault.thread[1], fault.thread[2],
			fault.message);
	if (o->time)
		fprintf(stderr, "ptx-run: %u launch(es) in %.6f s\n",
			o->repeat ? o->repeat : 1, t);
	for (size_t i = 0; ok && i < o->ndumps; i++)
		ok = buffer_dump(bufs, o->dumps[i]);
	for (size_t i = 0; ok && i < o->nvars; i++)
		ok = dump_variable(prog, bufs, o->vars[i]);
	for (size_t i = 0; ok && i < o->nsaves; i++)
		ok = buffer_save(bufs, o->saves[i]);
	free((void *)l.ranges);
	free(params);
	return ok ? 0 : 2;
}

static void list_kernels(struct loaded *src, struct ptx_program *prog)
{
	for (size_t i = 0; i < src->count; i++) {
		int st;
		char log[256];
		struct ir_module *m = ir_parse(src->sources[i].text,
					       src->sources[i].len,
					       src->sources[i].name, &st, log,
					       sizeof(log));
		for (uint32_t s = 0; m && s < m->nsyms; s++) {
			const struct ir_sym *sym = m->syms[s];
			if (sym->kind != SYM_FUNC || !sym->func->is_entry)
				continue;
			const struct ptx_kernel *k =
				ptx_program_kernel(prog, sym->name);
			struct ptx_kernel_info info = { 0 };
			if (k)
				ptx_kernel_get_info(k, &info);
			printf("%s params %u (%u bytes) shared %u local %u "
			       "regs %u\n", sym->name, info.param_count,
			       info.param_size, info.static_shared_size,
			       info.local_size, info.num_regs);
		}
		ir_module_free(m);
	}
}

static int print_ir(struct loaded *src)
{
	for (size_t i = 0; i < src->count; i++) {
		int st;
		char log[512];
		struct ir_module *m = ir_parse(src->sources[i].text,
					       src->sources[i].len,
					       src->sources[i].name, &st, log,
					       sizeof(log));
		if (!m) {
			fprintf(stderr, "%s\n", log);
			return 1;
		}
		ir_print_module(m, stdout);
		ir_module_free(m);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { .arch = 75, .threads = 1,
			     .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
	struct buffers bufs = { 0 };
	if (!parse_args(argc, argv, &o, &bufs)) {
		usage();
		return 64;
	}
	if (o.fatbin)
		return describe_fatbin(o.file) ? 0 : 1;
	struct loaded src;
	if (!load_ptx(o.file, o.arch, &src))
		return 1;
	if (o.print)
		return print_ir(&src);
	char log[2048];
	struct ptx_program *prog;
	int rc = 1;
	enum ptx_status st = ptx_program_build(src.sources, src.count, &prog,
					       log, sizeof(log));
	if (st != PTX_OK) {
		fprintf(stderr, "ptx-run: build failed (%d): %s\n", st, log);
	} else if (ptx_program_place_variables(prog, buffer_alloc_var, &bufs,
					       log, sizeof(log)) != PTX_OK) {
		fprintf(stderr, "ptx-run: %s\n", log);
	} else if (o.list) {
		list_kernels(&src, prog);
		rc = 0;
	} else {
		rc = run_kernel(prog, &o, &bufs);
	}
	ptx_program_destroy(prog);
	loaded_free(&src);
	buffers_free(&bufs);
	free(o.params);
	free(o.dumps);
	free(o.saves);
	free(o.vars);
	return rc;
}
