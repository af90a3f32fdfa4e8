// SPDX-License-Identifier: MIT
/*
 * The LLVM engine: one ORC LLJIT per process, made at the first compile,
 * targeting the host CPU with all its features. Each kernel is a module
 * of its own, optimised at -O3 (loop and SLP vectorisers on) and made
 * into a relocatable object file, which the disk cache (jit_cache.c)
 * keeps and the LLJIT links under a resource tracker. Code calls vcuda's
 * helpers by name, bound here, so that an object made by one process
 * runs in another. Kernels with equal keys (jit_key.c) share one loaded
 * copy, counted, which goes when the last program using it is
 * destroyed.
 *
 * Kernels compile in parallel, on any threads: each compile has an
 * LLVMContext and a target machine of its own (neither is safe to share
 * between threads), and only starting the engine, linking an object
 * into it and the table of loaded code take engine_lock. Two compiles
 * of equal keys at once both compile; the second to link finds the
 * first's code in the table and drops its own object, so one copy is
 * loaded.
 */
#include "jit.h"
#include "jit_cache.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <math.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Guards starting the engine, linking into it and the loaded table. */
static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef engine;
static LLVMTargetRef host_target_ref;
/* What each compile's target machine is made for; set once, at start. */
static char *host_triple, *host_cpu, *host_features;
static char host_target[512];		/* triple, CPU, features */
static char engine_error[160];
static uint64_t kernel_counter;		/* atomic */

static bool take_error(LLVMErrorRef err, char *buf, size_t len)
{
	if (!err)
		return true;
	char *msg = LLVMGetErrorMessage(err);
	snprintf(buf, len, "LLVM: %s", msg);
	LLVMDisposeErrorMessage(msg);
	return false;
}

/* Finds the host's target and what compiles target (engine_lock). */
static bool find_host_target(void)
{
	char *err = NULL;
	host_triple = LLVMGetDefaultTargetTriple();
	host_cpu = LLVMGetHostCPUName();
	host_features = LLVMGetHostCPUFeatures();
	bool ok = !LLVMGetTargetFromTriple(host_triple, &host_target_ref, &err);
	snprintf(host_target, sizeof(host_target), "%s %s %s", host_triple,
		 host_cpu, host_features);
	if (err) {
		snprintf(engine_error, sizeof(engine_error), "LLVM: %s", err);
		LLVMDisposeMessage(err);
	} else if (!ok) {
		snprintf(engine_error, sizeof(engine_error),
			 "LLVM has no target for %s", host_triple);
	}
	return ok;
}

/*
 * A target machine for one compile, which optimises and emits its
 * object: LLVM's are not to be used by two threads at once.
 * Position-independent: objects are linked wherever the loading process
 * puts them; the JIT's (large) code model reaches helpers anywhere.
 */
static LLVMTargetMachineRef make_target_machine(void)
{
	return LLVMCreateTargetMachine(host_target_ref, host_triple, host_cpu,
				       host_features,
				       LLVMCodeGenLevelAggressive,
				       LLVMRelocPIC, LLVMCodeModelJITDefault);
}

/* The helpers generated code calls (jit.h's JIT_SYM_*, the libm
 * functions of jit_emit_ops.c), at their addresses in this process. */
static const struct {
	const char *name;
	void (*addr)(void);
} bound[] = {
	{ JIT_SYM_GLOBAL, (void (*)(void))jit_global },
	{ JIT_SYM_SHARED_FAULT, (void (*)(void))jit_shared_fault },
	{ JIT_SYM_BARRIER_FAULT, (void (*)(void))jit_barrier_fault },
	{ JIT_SYM_POLL, (void (*)(void))jit_poll },
	{ JIT_SYM_TRAP, (void (*)(void))jit_trap },
	{ JIT_SYM_ATOMIC, (void (*)(void))rt_atomic },
	{ JIT_SYM_LANES, (void (*)(void))jit_lanes_access },
	{ "vcuda_sinf", (void (*)(void))sinf },
	{ "vcuda_cosf", (void (*)(void))cosf },
	{ "vcuda_log2f", (void (*)(void))log2f },
	{ "vcuda_exp2f", (void (*)(void))exp2f },
	{ "vcuda_tanhf", (void (*)(void))tanhf },
};

/*
 * Defines bound[] in the engine's dylib, and lets the rest (memset or
 * memcpy that LLVM may call) resolve against the process.
 */
static bool bind_symbols(void)
{
	enum { N = sizeof(bound) / sizeof(bound[0]) };
	LLVMJITCSymbolMapPair pairs[N];
	LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(engine);
	LLVMOrcDefinitionGeneratorRef gen;
	for (int i = 0; i < N; i++) {
		pairs[i].Name = LLVMOrcLLJITMangleAndIntern(engine,
							    bound[i].name);
		pairs[i].Sym = (LLVMJITEvaluatedSymbol){
			.Address = (uint64_t)(uintptr_t)bound[i].addr,
			.Flags = { LLVMJITSymbolGenericFlagsExported |
					   LLVMJITSymbolGenericFlagsCallable,
				   0 },
		};
	}
	LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, N);
	if (!take_error(LLVMOrcJITDylibDefine(dylib, mu), engine_error,
			sizeof(engine_error)))
		return false;
	if (!take_error(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
				&gen, LLVMOrcLLJITGetGlobalPrefix(engine),
				NULL, NULL),
			engine_error, sizeof(engine_error)))
		return false;
	LLVMOrcJITDylibAddGenerator(dylib, gen);
	return true;
}

/* Makes the engine once; false with engine_error (engine_lock). */
static bool engine_start_locked(void)
{
	if (engine)
		return true;
	if (engine_error[0])
		return false;
	if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
		snprintf(engine_error, sizeof(engine_error),
			 "LLVM has no native target");
		return false;
	}
	if (!find_host_target())
		return false;
	LLVMOrcJITTargetMachineBuilderRef jtmb;
	if (!take_error(LLVMOrcJITTargetMachineBuilderDetectHost(&jtmb),
			engine_error, sizeof(engine_error)))
		return false;
	LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
	if (!take_error(LLVMOrcCreateLLJIT(&engine, builder), engine_error,
			sizeof(engine_error)))
		return false;
	if (!bind_symbols()) {
		LLVMOrcDisposeLLJIT(engine);
		engine = NULL;
		return false;
	}
	return true;
}

static bool engine_start(char *why, size_t len)
{
	pthread_mutex_lock(&engine_lock);
	bool ok = engine_start_locked();
	if (!ok)
		snprintf(why, len, "%s", engine_error);
	pthread_mutex_unlock(&engine_lock);
	return ok;
}

/*
 * Past this many LLVM instructions a kernel costs more to compile than
 * the JIT can save: optimisation and register allocation grow faster
 * than the code (a 30,000-instruction kernel took 12 to 25 s of CPU, and
 * many minutes under an emulated CPU). Such a kernel runs on the
 * interpreter; kernels of ordinary size have a few hundred.
 */
#define JIT_MAX_INSTRUCTIONS 20000

/*
 * The SLP vectoriser's cost model is quadratic in a basic block's size
 * (BoUpSLP::getSpillCost walks the block for each tree it tries), and
 * the vector form's blocks grow large once optimisation merges them:
 * numba-cuda's test_vector_type kernels (straight-line code, 500 PTX
 * lines, 9,400 LLVM instructions in the vector form) spent 20 s of CPU
 * compiling, most of it there, where the scalar form took 0.8 s. Past
 * this many instructions a module's functions are kept from it.
 */
#define JIT_SLP_MAX_INSTRUCTIONS 4000

static bool debug_enabled(void)
{
	const char *v = getenv("VCUDA_DEBUG");
	return v && *v && strcmp(v, "0");
}

static unsigned long instruction_count(LLVMModuleRef mod)
{
	unsigned long n = 0;

	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
	     f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
		     b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
			     i = LLVMGetNextInstruction(i))
				n++;
	return n;
}

/*
 * Keeps the SLP vectoriser off @mod's functions. LLVM 14's default<O3>
 * runs it even when the pass builder's options say no; it skips
 * functions marked noimplicitfloat (as does the loop vectoriser; code
 * the JIT writes with vectors keeps them).
 */
static void keep_from_slp(LLVMModuleRef mod, const struct ptx_kernel *k,
			  unsigned long n)
{
	LLVMContextRef ctx = LLVMGetModuleContext(mod);
	unsigned kind = LLVMGetEnumAttributeKindForName("noimplicitfloat",
							15);
	LLVMAttributeRef attr = LLVMCreateEnumAttribute(ctx, kind, 0);

	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
	     f = LLVMGetNextFunction(f))
		if (LLVMGetFirstBasicBlock(f))
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
						attr);
	if (debug_enabled())
		fprintf(stderr, "vcuda: kernel %s compiles without the SLP "
			"vectoriser (%lu LLVM instructions, more than %d)\n",
			k->sym->name, n, JIT_SLP_MAX_INSTRUCTIONS);
}

static bool small_enough(unsigned long n, char *why, size_t len)
{
	if (n <= JIT_MAX_INSTRUCTIONS)
		return true;
	snprintf(why, len, "too large to compile quickly (%lu LLVM "
		 "instructions, more than %d)", n, JIT_MAX_INSTRUCTIONS);
	return false;
}

static bool optimise(LLVMModuleRef mod, LLVMTargetMachineRef tm, char *why,
		     size_t len)
{
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
	LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
	LLVMErrorRef err = LLVMRunPasses(mod, "default<O3>", tm, opts);
	LLVMDisposePassBuilderOptions(opts);
	return take_error(err, why, len);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Builds, checks and optimises the module of @k; NULL with @why. */
static LLVMModuleRef build_module(struct ptx_kernel *k, unsigned width,
				  LLVMContextRef ctx, LLVMTargetMachineRef tm,
				  const char *name, struct jit_kernel *jk,
				  char *why, size_t len)
{
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, ctx);
	char *triple = LLVMGetTargetMachineTriple(tm);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
	LLVMSetTarget(mod, triple);
	LLVMSetModuleDataLayout(mod, td);
	LLVMDisposeMessage(triple);
	LLVMDisposeTargetData(td);
	char *verr = NULL;
	bool ok = jit_emit_kernel(k, width, mod, name, jk, why, len);
	if (ok && LLVMVerifyModule(mod, LLVMReturnStatusAction, &verr)) {
		snprintf(why, len, "internal: bad LLVM IR: %.100s", verr);
		ok = false;
	}
	LLVMDisposeMessage(verr);
	unsigned long n = ok ? instruction_count(mod) : 0;
	if (ok && n > JIT_SLP_MAX_INSTRUCTIONS)
		keep_from_slp(mod, k, n);
	ok = ok && small_enough(n, why, len) && optimise(mod, tm, why, len);
	if (ok && getenv("VCUDA_JIT_DUMP_IR"))	/* debugging the JIT */
		LLVMDumpModule(mod);
	if (!ok) {
		LLVMDisposeModule(mod);
		return NULL;
	}
	return mod;
}

/* ---- loaded code, shared in the process ---- */

struct jit_code {
	uint8_t key[SHA256_BYTES];
	bool keyed;		/* else private to one kernel */
	unsigned width;		/* of its vector form (jit_vec_width) */
	LLVMOrcResourceTrackerRef tracker;
	jit_entry_fn entry;
	uint32_t nregs, nsites;
	struct jit_stats stats;	/* none (counted false) when from disk */
	uint32_t refs;
	struct jit_code *next;
};

static struct jit_code *loaded;	/* under engine_lock */

static struct jit_code *find_loaded(const uint8_t key[SHA256_BYTES])
{
	for (struct jit_code *c = loaded; c; c = c->next)
		if (c->keyed && !memcmp(c->key, key, SHA256_BYTES))
			return c;
	return NULL;
}

/* @key's loaded code, counted one more user; NULL when none. */
static struct jit_code *share_loaded(const uint8_t key[SHA256_BYTES])
{
	pthread_mutex_lock(&engine_lock);
	struct jit_code *c = find_loaded(key);
	if (c)
		c->refs++;
	pthread_mutex_unlock(&engine_lock);
	return c;
}

static void drop_code(struct jit_code *c)
{
	if (--c->refs)
		return;
	for (struct jit_code **p = &loaded; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	LLVMConsumeError(LLVMOrcResourceTrackerRemove(c->tracker));
	LLVMOrcReleaseResourceTracker(c->tracker);
	free(c);
}

/* Links the object in @buf (taken) and finds @name in it (engine_lock:
 * two objects of one name must not be linked at once). */
static bool link_object(struct jit_code *c, LLVMMemoryBufferRef buf,
			const char *name, char *why, size_t len)
{
	LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(engine);
	LLVMOrcResourceTrackerRef rt =
		LLVMOrcJITDylibCreateResourceTracker(dylib);
	LLVMOrcExecutorAddress addr = 0;
	if (!take_error(LLVMOrcLLJITAddObjectFileWithRT(engine, rt, buf),
			why, len)) {
		LLVMOrcReleaseResourceTracker(rt);
		return false;
	}
	if (!take_error(LLVMOrcLLJITLookup(engine, &addr, name), why, len) ||
	    !addr) {
		LLVMConsumeError(LLVMOrcResourceTrackerRemove(rt));
		LLVMOrcReleaseResourceTracker(rt);
		return false;
	}
	c->tracker = rt;
	c->entry = (jit_entry_fn)(uintptr_t)addr;
	return true;
}

/*
 * Loads @c's object (@obj, taken) unless a compile of the same key got
 * there first, whose code it then shares; @c is freed when not kept.
 * Returns the code, counted one more user, or NULL with @why.
 */
static struct jit_code *publish(struct jit_code *c, LLVMMemoryBufferRef obj,
				const char *name, char *why, size_t len)
{
	pthread_mutex_lock(&engine_lock);
	struct jit_code *same = c->keyed ? find_loaded(c->key) : NULL;
	if (same) {
		LLVMDisposeMemoryBuffer(obj);
		free(c);
		c = same;
	} else if (link_object(c, obj, name, why, len)) {
		c->next = loaded;
		loaded = c;
	} else {
		free(c);
		c = NULL;
	}
	if (c)
		c->refs++;
	pthread_mutex_unlock(&engine_lock);
	return c;
}

/* The module as a relocatable object file: what the disk cache keeps. */
static LLVMMemoryBufferRef emit_object(LLVMModuleRef mod,
				       LLVMTargetMachineRef tm, char *why,
				       size_t len)
{
	LLVMMemoryBufferRef buf = NULL;
	char *err = NULL;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &err,
						&buf)) {
		snprintf(why, len, "LLVM: %s", err ? err : "no object");
		LLVMDisposeMessage(err);
		return NULL;
	}
	return buf;
}

/* Compiles @k into an object defining @name, filling @c's nregs and
 * nsites; NULL with @why. */
static LLVMMemoryBufferRef compile_object(struct ptx_kernel *k,
					  struct jit_code *c, const char *name,
					  char *why, size_t len)
{
	struct jit_kernel emitted = { 0 };
	LLVMTargetMachineRef tm = make_target_machine();
	if (!tm) {
		snprintf(why, len, "LLVM: no target machine for %s",
			 host_target);
		return NULL;
	}
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
	LLVMModuleRef mod = build_module(k, c->width, ctx, tm, name, &emitted,
					 why, len);
	LLVMMemoryBufferRef obj = mod ? emit_object(mod, tm, why, len) : NULL;
	if (mod)
		LLVMDisposeModule(mod);
	LLVMOrcDisposeThreadSafeContext(tsc);
	LLVMDisposeTargetMachine(tm);
	c->nregs = emitted.nregs;
	c->nsites = emitted.nsites;
	c->stats = emitted.stats;
	return obj;
}

/* @c's object from the disk cache; NULL when there is none to use. */
static LLVMMemoryBufferRef read_object(const struct ptx_kernel *k,
				       struct jit_code *c, const char *name)
{
	size_t size;
	void *obj = jit_cache_load(c->key, &size, &c->nregs, &c->nsites);
	if (!obj)
		return NULL;
	/* a thread saves at most all its registers: a sanity check */
	if (c->nregs > k->sym->func->nregs) {
		free(obj);
		return NULL;
	}
	LLVMMemoryBufferRef buf =
		LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, name);
	free(obj);
	return buf;
}

static void code_name(const struct jit_code *c, char *buf, size_t len)
{
	if (!c->keyed) {
		snprintf(buf, len, "vcuda_kernel_%llu", (unsigned long long)
			 __atomic_add_fetch(&kernel_counter, 1,
					    __ATOMIC_RELAXED));
		return;
	}
	int n = snprintf(buf, len, "vcuda_k_");
	for (int i = 0; i < SHA256_BYTES && (size_t)n + 3 <= len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%02x", c->key[i]);
}

/*
 * @c's object, read from the disk cache (@from_disk) or compiled and
 * stored there when @c is keyed; NULL with @why. Takes no lock: this is
 * the part of a compile that runs in parallel.
 */
static LLVMMemoryBufferRef make_object(struct ptx_kernel *k,
				       struct jit_code *c, const char *name,
				       bool *from_disk, char *why, size_t len)
{
	LLVMMemoryBufferRef obj = c->keyed ? read_object(k, c, name) : NULL;
	*from_disk = obj != NULL;
	if (obj)
		return obj;
	obj = compile_object(k, c, name, why, len);
	if (obj && c->keyed)
		jit_cache_store(c->key, LLVMGetBufferStart(obj),
				LLVMGetBufferSize(obj), c->nregs, c->nsites);
	return obj;
}

/* Gives @jk @k's loaded code: shared, read from disk or compiled. */
static bool get_code(struct ptx_kernel *k, struct jit_kernel *jk, char *why,
		     size_t len)
{
	if (!engine_start(why, len))
		return false;
	struct jit_code *c = calloc(1, sizeof(*c)), *same;
	char name[80];
	if (!c) {
		snprintf(why, len, "out of memory");
		return false;
	}
	c->width = jit_vec_width(k);	/* once: the key and the code */
	c->keyed = jit_kernel_key(k, host_target, c->width, c->key);
	if (c->keyed && (same = share_loaded(c->key))) {
		free(c);
		c = same;
	} else {
		code_name(c, name, sizeof(name));
		LLVMMemoryBufferRef obj =
			make_object(k, c, name, &jk->from_disk, why, len);
		if (!obj) {
			free(c);
			return false;
		}
		c = publish(c, obj, name, why, len);
		if (!c)
			return false;
	}
	jk->code = c;
	jk->entry = c->entry;
	jk->nregs = c->nregs;
	jk->nsites = c->nsites;
	jk->stats = c->stats;
	return true;
}

/* The addresses of the program's variables, as the code reads them. */
static bool fill_globals(const struct ptx_program *p, struct jit_kernel *jk)
{
	jk->globals = calloc(p->nvars ? p->nvars : 1, sizeof(uint64_t));
	if (!jk->globals)
		return false;
	for (uint32_t i = 0; p->placed && i < p->nvars; i++)
		jk->globals[i] = p->vars[i]->location;
	return true;
}

bool jit_compile_kernel(struct ptx_kernel *k, char *why, size_t whylen)
{
	struct jit_kernel *jk = calloc(1, sizeof(*jk));
	if (!jk || !fill_globals(k->prog, jk)) {
		free(jk);
		snprintf(why, whylen, "out of memory");
		return false;
	}
	double t0 = now();
	bool ok = get_code(k, jk, why, whylen);
	jk->compile_s = now() - t0;
	if (!ok) {
		free(jk->globals);
		free(jk);
		return false;
	}
	jk->waits = jit_kernel_waits(k);
	static _Atomic uint64_t compiles;
	jk->serial = atomic_fetch_add(&compiles, 1) + 1;
	k->jit = jk;
	return true;
}

void jit_kernel_free(struct jit_kernel *jk)
{
	if (!jk)
		return;
	pthread_mutex_lock(&engine_lock);
	if (jk->code)
		drop_code(jk->code);
	pthread_mutex_unlock(&engine_lock);
	free(jk->globals);
	free(jk);
}
