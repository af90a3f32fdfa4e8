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
 * destroyed. Compiles are serialised: LLVM's contexts are per module,
 * but the engine's state is shared.
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef engine;
static LLVMTargetMachineRef host_tm;	/* optimises and emits objects */
static char host_target[512];		/* triple, CPU, features */
static char engine_error[160];
static uint64_t kernel_counter;

static bool take_error(LLVMErrorRef err, char *buf, size_t len)
{
	if (!err)
		return true;
	char *msg = LLVMGetErrorMessage(err);
	snprintf(buf, len, "LLVM: %s", msg);
	LLVMDisposeErrorMessage(msg);
	return false;
}

static bool make_target_machine(void)
{
	char *triple = LLVMGetDefaultTargetTriple();
	char *cpu = LLVMGetHostCPUName();
	char *features = LLVMGetHostCPUFeatures();
	char *err = NULL;
	LLVMTargetRef target;
	bool ok = !LLVMGetTargetFromTriple(triple, &target, &err);
	/* position-independent: objects are linked wherever the loading
	 * process puts them; the JIT's (large) code model reaches helpers
	 * anywhere */
	if (ok)
		host_tm = LLVMCreateTargetMachine(target, triple, cpu, features,
						  LLVMCodeGenLevelAggressive,
						  LLVMRelocPIC,
						  LLVMCodeModelJITDefault);
	snprintf(host_target, sizeof(host_target), "%s %s %s", triple, cpu,
		 features);
	if (err) {
		snprintf(engine_error, sizeof(engine_error), "LLVM: %s", err);
		LLVMDisposeMessage(err);
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	return host_tm != NULL;
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
	{ JIT_SYM_KILLED, (void (*)(void))jit_killed },
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

static bool engine_start(void)
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
	if (!make_target_machine())
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

/*
 * Past this many LLVM instructions a kernel costs more to compile than
 * the JIT can save: optimisation and register allocation grow faster
 * than the code (a 30,000-instruction kernel took 12 to 25 s of CPU, and
 * many minutes under an emulated CPU). Such a kernel runs on the
 * interpreter; kernels of ordinary size have a few hundred.
 */
#define JIT_MAX_INSTRUCTIONS 20000

static bool small_enough(LLVMModuleRef mod, char *why, size_t len)
{
	unsigned long n = 0;

	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
	     f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
		     b = LLVMGetNextBasicBlock(b))
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
			     i = LLVMGetNextInstruction(i))
				n++;
	if (n <= JIT_MAX_INSTRUCTIONS)
		return true;
	snprintf(why, len, "too large to compile quickly (%lu LLVM "
		 "instructions, more than %d)", n, JIT_MAX_INSTRUCTIONS);
	return false;
}

static bool optimise(LLVMModuleRef mod, char *why, size_t len)
{
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
	LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
	LLVMErrorRef err = LLVMRunPasses(mod, "default<O3>", host_tm, opts);
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
static LLVMModuleRef build_module(struct ptx_kernel *k, LLVMContextRef ctx,
				  const char *name, struct jit_kernel *jk,
				  char *why, size_t len)
{
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, ctx);
	char *triple = LLVMGetTargetMachineTriple(host_tm);
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(host_tm);
	LLVMSetTarget(mod, triple);
	LLVMSetModuleDataLayout(mod, td);
	LLVMDisposeMessage(triple);
	LLVMDisposeTargetData(td);
	char *verr = NULL;
	bool ok = jit_emit_kernel(k, mod, name, jk, why, len);
	if (ok && LLVMVerifyModule(mod, LLVMReturnStatusAction, &verr)) {
		snprintf(why, len, "internal: bad LLVM IR: %.100s", verr);
		ok = false;
	}
	LLVMDisposeMessage(verr);
	ok = ok && small_enough(mod, why, len) && optimise(mod, why, len);
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
	LLVMOrcResourceTrackerRef tracker;
	jit_entry_fn entry;
	uint32_t nregs, nsites;
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

/* Links the object in @buf (taken) and finds @name in it. */
static bool add_object(struct jit_code *c, LLVMMemoryBufferRef buf,
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
		LLVMOrcResourceTrackerRemove(rt);
		LLVMOrcReleaseResourceTracker(rt);
		return false;
	}
	c->tracker = rt;
	c->entry = (jit_entry_fn)(uintptr_t)addr;
	return true;
}

/* The module as a relocatable object file: what the disk cache keeps. */
static LLVMMemoryBufferRef emit_object(LLVMModuleRef mod, char *why,
				       size_t len)
{
	LLVMMemoryBufferRef buf = NULL;
	char *err = NULL;
	if (LLVMTargetMachineEmitToMemoryBuffer(host_tm, mod, LLVMObjectFile,
						&err, &buf)) {
		snprintf(why, len, "LLVM: %s", err ? err : "no object");
		LLVMDisposeMessage(err);
		return NULL;
	}
	return buf;
}

/* Compiles @k into @c (named @name), storing the object on disk when
 * @c is keyed. */
static bool compile_code(struct ptx_kernel *k, struct jit_code *c,
			 const char *name, char *why, size_t len)
{
	struct jit_kernel emitted = { 0 };
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
	LLVMModuleRef mod = build_module(k, ctx, name, &emitted, why, len);
	LLVMMemoryBufferRef obj = mod ? emit_object(mod, why, len) : NULL;
	if (mod)
		LLVMDisposeModule(mod);
	LLVMOrcDisposeThreadSafeContext(tsc);
	if (!obj)
		return false;
	c->nregs = emitted.nregs;
	c->nsites = emitted.nsites;
	if (c->keyed)
		jit_cache_store(c->key, LLVMGetBufferStart(obj),
				LLVMGetBufferSize(obj), c->nregs, c->nsites);
	return add_object(c, obj, name, why, len);
}

/* @c's code from the disk cache; false when there is none to use. */
static bool load_code(const struct ptx_kernel *k, struct jit_code *c,
		      const char *name)
{
	char why[160];
	size_t size;
	void *obj = jit_cache_load(c->key, &size, &c->nregs, &c->nsites);
	if (!obj)
		return false;
	LLVMMemoryBufferRef buf =
		LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, name);
	free(obj);
	/* a thread saves at most all its registers: a sanity check */
	if (c->nregs > k->sym->func->nregs) {
		LLVMDisposeMemoryBuffer(buf);
		return false;
	}
	return add_object(c, buf, name, why, sizeof(why));
}

static void code_name(const struct jit_code *c, char *buf, size_t len)
{
	if (!c->keyed) {
		snprintf(buf, len, "vcuda_kernel_%llu",
			 (unsigned long long)++kernel_counter);
		return;
	}
	int n = snprintf(buf, len, "vcuda_k_");
	for (int i = 0; i < SHA256_BYTES && (size_t)n + 3 <= len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%02x", c->key[i]);
}

static bool compile_locked(struct ptx_kernel *k, struct jit_kernel *jk,
			   char *why, size_t len)
{
	if (!engine_start()) {
		snprintf(why, len, "%s", engine_error);
		return false;
	}
	struct jit_code *c = calloc(1, sizeof(*c)), *same;
	char name[80];
	if (!c) {
		snprintf(why, len, "out of memory");
		return false;
	}
	c->keyed = jit_kernel_key(k, host_target, c->key);
	if (c->keyed && (same = find_loaded(c->key))) {
		free(c);
		c = same;
	} else {
		code_name(c, name, sizeof(name));
		jk->from_disk = c->keyed && load_code(k, c, name);
		if (!jk->from_disk && !compile_code(k, c, name, why, len)) {
			free(c);
			return false;
		}
		c->next = loaded;
		loaded = c;
	}
	c->refs++;
	jk->code = c;
	jk->entry = c->entry;
	jk->nregs = c->nregs;
	jk->nsites = c->nsites;
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
	pthread_mutex_lock(&engine_lock);
	bool ok = compile_locked(k, jk, why, whylen);
	pthread_mutex_unlock(&engine_lock);
	jk->compile_s = now() - t0;
	if (!ok) {
		free(jk->globals);
		free(jk);
		return false;
	}
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
