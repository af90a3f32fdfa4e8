// SPDX-License-Identifier: MIT
/*
 * The executor benchmark (make bench): six kernels of six.cu — vectorAdd
 * (16 M floats), tiled SGEMM (512 and 1024), a shared-memory reduction
 * (16 M floats), a 256-bin histogram with shared atomics (16 M bytes),
 * an exclusive scan (16 M ints) and n-body (4096 bodies) — each on the
 * JIT and on the interpreter, on one worker thread and on one per CPU,
 * against the same algorithms in C (six_c.c, -O3 -march=native
 * -fopenmp) on as many threads, in one run. Launches carry the buffers
 * as their memory ranges, as libcuda's do. Results are checked against
 * C's; and the same kernels in OpenCL on PoCL (six.cl, timed by
 * pocl-bench, a process of its own, before the rest). Also times a cold module load (every kernel compiled, its compile
 * time printed) against a warm one (the code read from the JIT's disk
 * cache). Prints one line per kernel and the geometric mean of JIT / C;
 * writes the numbers, tab-separated, to the file named by argv[1].
 * Numbers only: nothing here fails for being slow.
 *
 * BENCH_INTERP_ALL=1 also runs the interpreter on SGEMM 1024 (minutes).
 * BENCH_INTERP_ONLY=1 times only C and the interpreter on one thread
 * (best of 3), with no PoCL, JIT or module loads, in the process's CPU
 * time rather than wall time (less disturbed by other work on the
 * machine): for work on the interpreter; BENCH_KERNEL=name runs only
 * that kernel. BENCH_JIT_ONLY=1 does the same for C and the JIT (the
 * interpreter's column then holds the JIT's time): for work on the JIT.
 * BENCH_LAUNCH_TIMES=1 prints each launch's time on stderr (scan's three
 * kernels apart; the first launch of a kernel includes its compile).
 */
#include "jit.h"
#include "ptx.h"
#include "six_c.h"
#include "six_data.h"

#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/* An executor: a program built for one back end, and a thread count. */
struct exec {
	struct ptx_program *prog;
	int threads;
	struct ptx_mem_range ranges[NBUF + 1];
	unsigned nranges;
};

static bool cpu_time;	/* BENCH_INTERP_ONLY: one thread's CPU time */

static double now(void)
{
	struct timespec ts;
	clock_gettime(cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC,
		      &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}



/* ---- launches on T worker threads ---- */

struct pool_run {
	const struct ptx_launch *l;
	uint64_t total;
	atomic_uint_fast64_t next;
	atomic_bool failed;
};

static void *pool_thread(void *arg)
{
	struct pool_run *r = arg;
	struct ptx_worker *w = ptx_worker_create();
	struct ptx_fault f;
	for (;;) {
		uint64_t first = atomic_fetch_add(&r->next, 8);
		if (first >= r->total || atomic_load(&r->failed))
			break;
		uint64_t n = r->total - first < 8 ? r->total - first : 8;
		if (!ptx_run_ctas(w, r->l, first, n, &f)) {
			fprintf(stderr, "exec-bench: fault: %s\n", f.message);
			atomic_store(&r->failed, true);
		}
	}
	ptx_worker_destroy(w);
	return NULL;
}

static int range_cmp(const void *a, const void *b)
{
	const struct ptx_mem_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The buffers of @b as the launch's ranges, as libcuda gives them. */
static void set_ranges(struct exec *x, const struct bench *b)
{
	x->nranges = 0;
	for (int i = 0; i < NBUF && b->in[i].p; i++)
		x->ranges[x->nranges++] = (struct ptx_mem_range){
			(uintptr_t)b->in[i].p,
			(uintptr_t)b->in[i].p + b->in[i].size, true };
	x->ranges[x->nranges++] = (struct ptx_mem_range){
		(uintptr_t)b->out.p, (uintptr_t)b->out.p + b->out.size, true };
	qsort(x->ranges, x->nranges, sizeof(x->ranges[0]), range_cmp);
}

static bool launch(const struct exec *x, const char *kernel, uint32_t gx,
		   uint32_t gy, uint32_t bx, uint32_t by,
		   const void *const *args)
{
	const struct ptx_kernel *k = ptx_program_kernel(x->prog, kernel);
	struct ptx_kernel_info info;
	uint8_t params[64] = { 0 };
	if (!k)
		return false;
	ptx_kernel_get_info(k, &info);

	for (unsigned i = 0; i < info.param_count; i++)
		memcpy(params + info.params[i].offset, args[i],
		       info.params[i].size);
	struct ptx_launch l = { .kernel = k, .grid = { gx, gy, 1 },
				.block = { bx, by, 1 }, .params = params,
				.ranges = x->ranges,
				.range_count = x->nranges };
	struct pool_run r = { .l = &l, .total = (uint64_t)gx * gy };
	pthread_t t[256];
	int n = x->threads < 256 ? x->threads : 256;
	double t0 = now();
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, pool_thread, &r);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (getenv("BENCH_LAUNCH_TIMES"))
		fprintf(stderr, "launch %s %.4f\n", kernel, now() - t0);
	return !atomic_load(&r.failed);
}

/* ---- the six kernels: one run on @x (NULL: C) ---- */

static bool run_vector_add(struct bench *b, const struct exec *x)
{
	if (!x) {
		c_vector_add(b->in[0].p, b->in[1].p, b->c_out, b->n);
		return true;
	}
	const void *args[] = { &b->in[0].p, &b->in[1].p, &b->out.p, &b->n };
	return launch(x, "vector_add", (uint32_t)(b->n + 255) / 256, 1, 256, 1,
		      args);
}

static bool run_sgemm(struct bench *b, const struct exec *x)
{
	if (!x) {
		c_sgemm(b->in[0].p, b->in[1].p, b->c_out, b->n);
		return true;
	}
	const void *args[] = { &b->in[0].p, &b->in[1].p, &b->out.p, &b->n };
	uint32_t g = (uint32_t)b->n / 16;
	return launch(x, "sgemm", g, g, 16, 16, args);
}

static bool run_reduce(struct bench *b, const struct exec *x)
{
	if (!x) {
		*(double *)b->c_out = c_reduce(b->in[0].p, b->n);
		return true;
	}
	const void *args[] = { &b->in[0].p, &b->out.p, &b->n };
	return launch(x, "reduce", RBLOCKS, 1, 256, 1, args);
}

static bool run_histogram(struct bench *b, const struct exec *x)
{
	if (!x) {
		c_histogram(b->in[0].p, b->c_out, b->n);
		return true;
	}
	memset(b->out.p, 0, 1024);
	const void *args[] = { &b->in[0].p, &b->out.p, &b->n };
	return launch(x, "histogram256", 256, 1, 256, 1, args);
}

static bool run_scan(struct bench *b, const struct exec *x)
{
	if (!x) {
		c_scan(b->in[0].p, b->c_out, b->n);
		return true;
	}
	int blocks = b->n / 1024;
	const void *a1[] = { &b->in[0].p, &b->out.p, &b->in[1].p };
	const void *a2[] = { &b->in[1].p, &blocks };
	const void *a3[] = { &b->out.p, &b->in[1].p };
	return launch(x, "scan_blocks", (uint32_t)blocks, 1, 256, 1, a1) &&
	       launch(x, "scan_sums", 1, 1, 1024, 1, a2) &&
	       launch(x, "add_offsets", (uint32_t)b->n / 256, 1, 256, 1, a3);
}

static bool run_nbody(struct bench *b, const struct exec *x)
{
	size_t bytes = (size_t)b->n * 16;
	if (!x) {
		memset(b->c_out, 0, bytes);
		c_nbody(b->in[0].p, b->c_out, b->n, nbody_dt);
		return true;
	}
	memset(b->out.p, 0, bytes);
	const void *args[] = { &b->in[0].p, &b->out.p, &b->n, &nbody_dt };
	return launch(x, "nbody", (uint32_t)b->n / 256, 1, 256, 1, args);
}


/* ---- timing ---- */

typedef bool (*run_fn)(struct bench *b, const struct exec *x);

static run_fn runner(const struct bench *b)
{
	if (!strcmp(b->name, "vectorAdd"))
		return run_vector_add;
	if (!strncmp(b->name, "sgemm", 5))
		return run_sgemm;
	if (!strcmp(b->name, "reduce"))
		return run_reduce;
	if (!strcmp(b->name, "histogram"))
		return run_histogram;
	if (!strcmp(b->name, "scan"))
		return run_scan;
	return run_nbody;
}

/* Best of @reps runs, after one untimed (JIT compile, page faults);
 * -1 when a run fails or its result is wrong. */
static double best(struct bench *b, const struct exec *x, int reps)
{
	run_fn run = runner(b);
	double t = 1e30;
	if (!run(b, x) || (x && !bench_check(b)))
		return -1;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (!run(b, x))
			return -1;
		double dt = now() - t0;
		t = dt < t ? dt : t;
	}
	return t;
}

static struct ptx_program *build(const char *text, const char *executor)
{
	struct ptx_source src = { text, strlen(text), BENCH_SIX_PTX };
	struct ptx_program *p = NULL;
	char log[1024];
	if (executor)
		setenv("VCUDA_EXECUTOR", executor, 1);
	else
		unsetenv("VCUDA_EXECUTOR");
	if (ptx_program_build(&src, 1, &p, log, sizeof(log)))
		fprintf(stderr, "exec-bench: %s\n", log);
	unsetenv("VCUDA_EXECUTOR");
	return p;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *t = n > 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
		free(t);
		t = NULL;
	}
	fclose(f);
	return t;
}

/* Columns: C, JIT, interpreter, PoCL, on 1 and on all threads. */
enum { C1, CN, J1, JN, I1, IN, P1, PN, NCOL };
static const char *const col_name[NCOL] = { "c_1t", "c_all", "jit_1t",
					    "jit_all", "interp_1t",
					    "interp_all", "pocl_1t",
					    "pocl_all" };

/* PoCL's times, by kernel, from pocl-bench (pocl_bench.c). */
struct pocl_times {
	char name[32];
	double t[2];	/* 1 thread, all */
};

/* Runs pocl-bench to its end on one thread (@all false) or on every
 * CPU, before the other columns, so that the two never share the CPUs;
 * returns how many kernels it timed. */
static int run_pocl(struct pocl_times *pt, int max, bool all)
{
	char line[256], name[32];
	double t;
	int n = 0;
	FILE *p = popen(all ? BENCH_POCL " " BENCH_SIX_CL :
			      "POCL_MAX_PTHREAD_COUNT=1 " BENCH_POCL
			      " " BENCH_SIX_CL, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (n < max && sscanf(line, "%31s %lf", name, &t) == 2) {
			snprintf(pt[n].name, sizeof(pt[n].name), "%s", name);
			pt[n++].t[all] = t;
		}
	if (pclose(p))
		printf("pocl-bench failed: no PoCL columns\n");
	return n;
}

static double pocl_time(const struct pocl_times *pt, int n,
			const char *name, bool all)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(pt[i].name, name))
			return pt[i].t[all];
	return 0;
}

static bool env_on(const char *name)
{
	const char *e = getenv(name);
	return e && *e == '1';
}

static bool jit_only(void)
{
	return env_on("BENCH_JIT_ONLY");
}

/* One thread's CPU time, C against one executor (BENCH_*_ONLY). */
static bool interp_only(void)
{
	return env_on("BENCH_INTERP_ONLY") || jit_only();
}

static void measure(struct bench *b, struct exec *jit, struct exec *interp,
		    const struct pocl_times *pt, int npt, int cpus,
		    double t[NCOL])
{
	if (interp_only()) {
		memset(t, 0, NCOL * sizeof(t[0]));
		omp_set_num_threads(1);
		struct exec *x = jit_only() ? jit : interp;
		x->threads = 1;
		set_ranges(x, b);
		t[C1] = best(b, NULL, 3);
		t[I1] = b->interp || jit_only() ? best(b, x, 3) : 0;
		return;
	}
	set_ranges(jit, b);
	set_ranges(interp, b);
	for (int c = 0; c < NCOL; c++) {
		int threads = c % 2 ? cpus : 1;
		omp_set_num_threads(threads);
		jit->threads = interp->threads = threads;
		if (c <= CN)
			t[c] = best(b, NULL, 3);
		else if (c <= JN)
			t[c] = best(b, jit, 3);
		else if (c <= IN)
			t[c] = b->interp ? best(b, interp, 1) : 0;
		else
			t[c] = pocl_time(pt, npt, b->name, c == PN);
	}
}

static void print_row(FILE *out, const struct bench *b, const double t[NCOL])
{
	printf("%-10s", b->name);
	fprintf(out, "%s", b->name);
	for (int c = 0; c < NCOL; c++) {
		if (t[c] > 0)
			printf(" %10.4f", t[c]);
		else
			printf(" %10s", t[c] < 0 ? "FAILED" : "-");
		fprintf(out, "\t%.6f", t[c]);
	}
	printf("  %6.2f %6.2f\n", t[J1] / t[C1], t[JN] / t[CN]);
	fprintf(out, "\t%.3f\t%.3f\n", t[J1] / t[C1], t[JN] / t[CN]);
}

/* Kernels where the JIT beats PoCL, on one thread and on all. */
static void count_pocl(const double t[NCOL], int wins[2], int runs[2])
{
	for (int i = 0; i < 2; i++) {
		double p = t[P1 + i], j = t[J1 + i];
		if (p <= 0 || j <= 0)
			continue;
		runs[i]++;
		wins[i] += j < p;
	}
}

static const char *const kernel_names[] = { "vector_add", "sgemm", "reduce",
	"histogram256", "scan_blocks", "scan_sums", "add_offsets", "nbody" };
enum { NKERNELS = sizeof(kernel_names) / sizeof(kernel_names[0]) };

/* JIT compile time of each kernel (its first launch compiled it). */
static void print_compile_times(FILE *out, const struct ptx_program *p)
{
	const char *const *names = kernel_names;
	printf("jit compile ms:");
	for (size_t i = 0; i < NKERNELS; i++) {
		const struct ptx_kernel *k = ptx_program_kernel(p, names[i]);
		double ms = k && k->jit ? k->jit->compile_s * 1e3 : -1;
		printf(" %s %.1f%s", names[i], ms,
		       k && !k->jit ? " (interpreter)" : "");
		fprintf(out, "compile_ms\t%s\t%.2f\n", names[i], ms);
	}
	printf("\n");
}

/* Waits until every kernel of @p has its code. */
static void compile_all(const struct ptx_program *p)
{
	for (size_t i = 0; i < NKERNELS; i++)
		ptx_kernel_compile(ptx_program_kernel(p, kernel_names[i]));
}

/*
 * Builds the program and has every kernel's code, as a module load and
 * first launches do: one kernel after the other (@parallel false: under
 * VCUDA_EXECUTOR=jit, each first launch compiles its kernel), or every
 * compile started first, as launches do by default; seconds, or -1.
 * Keeps the program in @keep.
 */
static double load_module(const char *text, bool parallel,
			  struct ptx_program **keep)
{
	double t0 = now();
	struct ptx_program *p = build(text, parallel ? NULL : "jit");
	if (!p)
		return -1;
	for (size_t i = 0; i < NKERNELS; i++)
		ptx_kernel_prepare(ptx_program_kernel(p, kernel_names[i]));
	compile_all(p);
	*keep = p;
	return now() - t0;
}

static void remove_cache(const char *root)
{
	char dir[512], path[1024];
	snprintf(dir, sizeof(dir), "%s/vcuda-jit", root);
	DIR *d = opendir(dir);
	const struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
	rmdir(root);
}

/*
 * A cold module load (an empty disk cache: every kernel compiled) and a
 * warm one (the same PTX again: every kernel's code read from the
 * cache), in a cache of their own; prints the compile times of the cold.
 */
static void measure_loads(FILE *out, const char *text)
{
	char root[] = "/tmp/vcuda-bench-cache.XXXXXX";
	struct ptx_program *cold_p = NULL, *warm_p = NULL;
	if (!mkdtemp(root))
		return;
	setenv("CUDA_CACHE_PATH", root, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	double cold = load_module(text, false, &cold_p);
	if (cold_p) {
		print_compile_times(out, cold_p);
		ptx_program_destroy(cold_p);
	}
	double warm = load_module(text, false, &warm_p);
	if (warm_p)
		ptx_program_destroy(warm_p);
	remove_cache(root);
	/* cold again, every kernel compiling at once */
	double par = load_module(text, true, &cold_p);
	if (cold_p)
		ptx_program_destroy(cold_p);
	remove_cache(root);
	unsetenv("CUDA_CACHE_PATH");
	printf("module load ms: cold %.1f warm %.1f (warm/cold %.3f); "
	       "cold, compiles in parallel %.1f\n", cold * 1e3, warm * 1e3,
	       warm / cold, par * 1e3);
	fprintf(out, "module_load_ms\tcold\t%.2f\nmodule_load_ms\twarm\t%.2f\n"
		     "module_load\twarm/cold\t%.4f\n"
		     "module_load_ms\tcold_parallel\t%.2f\n",
		cold * 1e3, warm * 1e3, warm / cold, par * 1e3);
}

/*
 * The first launch of each kernel of a module that nothing compiled yet
 * (CUDA_CACHE_DISABLE=1), on every CPU: each waits for its kernel's
 * compile, or under VCUDA_JIT_ASYNC=1 ("async") the workers run CTAs on
 * the interpreter while the kernel compiles and switch to its code once
 * it is ready. Milliseconds per problem, checked against C's.
 */
static void measure_first_launches(FILE *out, const char *text,
				   struct bench *all, int n,
				   const char *executor, int cpus)
{
	struct exec x = { .threads = cpus };
	const char *label = executor ? executor :
			    getenv("VCUDA_JIT_ASYNC") ? "async" : "default";
	double total = 0;
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	double t0 = now();
	x.prog = build(text, executor);
	if (!x.prog)
		return;
	printf("first launch ms (%s):", label);
	for (int i = 0; i < n; i++) {
		if (!all[i].interp)	/* minutes where a CTA is interpreted */
			continue;
		set_ranges(&x, &all[i]);
		double t1 = now();
		bool ok = runner(&all[i])(&all[i], &x) && bench_check(&all[i]);
		double ms = ok ? (now() - t1) * 1e3 : -1;
		total += ms;
		printf(" %s %.1f", all[i].name, ms);
		fprintf(out, "first_launch_ms\t%s\t%s\t%.2f\n", label,
			all[i].name, ms);
	}
	/* when the last compile ended: they may outlast the launches */
	compile_all(x.prog);
	double done_ms = (now() - t0) * 1e3;
	printf(" (sum %.1f; every kernel compiled %.1f ms after the build "
	       "began)\n", total, done_ms);
	fprintf(out, "first_launch_ms\t%s\tsum\t%.2f\n", label, total);
	fprintf(out, "all_compiled_ms\t%s\t%.2f\n", label, done_ms);
	ptx_program_destroy(x.prog);
}

/* exec-bench --first-launch FILE: module loads, and the first launches
 * waiting for each compile (VCUDA_EXECUTOR=jit), not (VCUDA_JIT_ASYNC=1),
 * and on the interpreter alone. */
static int first_launches(const char *out_path, const char *text, int cpus)
{
	struct bench all[MAX_BENCHES];
	FILE *out = text ? fopen(out_path, "w") : NULL;
	if (!out)
		return 1;
	measure_loads(out, text);
	int n = bench_setup(all);
	for (int i = 0; i < n; i++)	/* C's results, to check against */
		runner(&all[i])(&all[i], NULL);
	measure_first_launches(out, text, all, n, "jit", cpus);
	setenv("VCUDA_JIT_ASYNC", "1", 1);
	measure_first_launches(out, text, all, n, NULL, cpus);
	unsetenv("VCUDA_JIT_ASYNC");
	measure_first_launches(out, text, all, n, "interp", cpus);
	fclose(out);
	return 0;
}

int main(int argc, char **argv)
{
	const char *out_path = argc > 1 ? argv[1] : "executors.tsv";
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	char *text = read_text(BENCH_SIX_PTX);
	if (argc > 2 && !strcmp(argv[1], "--first-launch"))
		return first_launches(argv[2], text, cpus);
	struct exec jit = { 0 }, interp = { 0 };
	struct pocl_times pt[MAX_BENCHES];
	if (!text || !(jit.prog = build(text, "jit")) ||
	    !(interp.prog = build(text, "interp")))
		return 1;
	FILE *out = fopen(out_path, "w");
	if (!out)
		return 1;
	int npt = 0;
	cpu_time = interp_only();
	if (!interp_only()) {
		measure_loads(out, text);
		npt = run_pocl(pt, MAX_BENCHES, false);
		if (run_pocl(pt, MAX_BENCHES, true) != npt)
			npt = 0;
	}
	const char *only = getenv("BENCH_KERNEL");
	/* the runs below compile again: no disk cache of the user's */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	struct bench all[MAX_BENCHES];
	int n = bench_setup(all), status = 0;
	double lj1 = 0, ljn = 0;
	fprintf(out, "kernel");
	printf("%-10s", "seconds");
	for (int c = 0; c < NCOL; c++) {
		fprintf(out, "\t%s", col_name[c]);
		printf(" %10s", col_name[c]);
	}
	fprintf(out, "\tjit/c_1t\tjit/c_all\n");
	printf("  jit/c: 1T  all (%d CPUs)\n", cpus);
	int wins[2] = { 0, 0 }, runs[2] = { 0, 0 }, ran = 0;
	double li1 = 0;
	for (int i = 0; i < n; i++) {
		double t[NCOL];
		if (only && strcmp(only, all[i].name))
			continue;
		measure(&all[i], &jit, &interp, pt, npt, cpus, t);
		print_row(out, &all[i], t);
		count_pocl(t, wins, runs);
		for (int c = 0; c < NCOL; c++)
			status |= t[c] < 0;
		lj1 += log(t[J1] / t[C1]);
		ljn += log(t[JN] / t[CN]);
		li1 += t[I1] > 0 ? log(t[I1] / t[C1]) : 0;
		ran += t[I1] > 0;
	}
	if (interp_only()) {
		printf("geomean %s/c: %.2f (1T)\n",
		       jit_only() ? "jit" : "interp", exp(li1 / ran));
		fprintf(out, "geomean_interp\t%.3f\n", exp(li1 / ran));
		fclose(out);
		return status;
	}
	printf("jit ahead of pocl: %d of %d kernels (1T), %d of %d (all)\n",
	       wins[0], runs[0], wins[1], runs[1]);
	fprintf(out, "jit_ahead_of_pocl\t%d/%d\t%d/%d\n", wins[0], runs[0],
		wins[1], runs[1]);
	printf("geomean jit/c-openmp: %.2f (1T) %.2f (all)\n", exp(lj1 / n),
	       exp(ljn / n));
	fprintf(out, "geomean\t%.3f\t%.3f\n", exp(lj1 / n), exp(ljn / n));
	fclose(out);
	return status;
}
