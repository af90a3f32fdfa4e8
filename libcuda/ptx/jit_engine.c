// SPDX-License-Identifier: MIT
/*
 * The LLVM engine: one ORC LLJIT per process, made at the first compile,
 * targeting the host CPU with all its features. Each kernel is a module
 * of its own, optimised at -O3 (loop and SLP vectorisers on) and added
 * under a resource tracker, so that destroying the program frees its
 * code. Compiles are serialised: LLVM's contexts are per module, but the
 * engine's state is shared.
 */
#include "jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef engine;
static LLVMTargetMachineRef host_tm;	/* for the optimisation passes */
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
	if (ok)
		host_tm = LLVMCreateTargetMachine(target, triple, cpu, features,
						  LLVMCodeGenLevelAggressive,
						  LLVMRelocDefault,
						  LLVMCodeModelJITDefault);
	if (err) {
		snprintf(engine_error, sizeof(engine_error), "LLVM: %s", err);
		LLVMDisposeMessage(err);
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	return host_tm != NULL;
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
	return take_error(LLVMOrcCreateLLJIT(&engine, builder), engine_error,
			  sizeof(engine_error));
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
	ok = ok && optimise(mod, why, len);
	if (ok && getenv("VCUDA_JIT_DUMP_IR"))	/* debugging the JIT */
		LLVMDumpModule(mod);
	if (!ok) {
		LLVMDisposeModule(mod);
		return NULL;
	}
	return mod;
}

static bool add_and_find(struct jit_kernel *jk, LLVMModuleRef mod,
			 LLVMOrcThreadSafeContextRef tsc, const char *name,
			 char *why, size_t len)
{
	LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(engine);
	LLVMOrcResourceTrackerRef rt =
		LLVMOrcJITDylibCreateResourceTracker(dylib);
	LLVMOrcThreadSafeModuleRef tsm =
		LLVMOrcCreateNewThreadSafeModule(mod, tsc);
	LLVMOrcExecutorAddress addr = 0;
	if (!take_error(LLVMOrcLLJITAddLLVMIRModuleWithRT(engine, rt, tsm),
			why, len)) {
		LLVMOrcDisposeThreadSafeModule(tsm);
		LLVMOrcReleaseResourceTracker(rt);
		return false;
	}
	if (!take_error(LLVMOrcLLJITLookup(engine, &addr, name), why, len)) {
		LLVMOrcResourceTrackerRemove(rt);
		LLVMOrcReleaseResourceTracker(rt);
		return false;
	}
	jk->tracker = rt;
	jk->entry = (jit_entry_fn)(uintptr_t)addr;
	return true;
}

static bool compile_locked(struct ptx_kernel *k, struct jit_kernel *jk,
			   char *why, size_t len)
{
	if (!engine_start()) {
		snprintf(why, len, "%s", engine_error);
		return false;
	}
	char name[48];
	snprintf(name, sizeof(name), "vcuda_kernel_%llu",
		 (unsigned long long)++kernel_counter);
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
	LLVMModuleRef mod = build_module(k, ctx, name, jk, why, len);
	bool ok = mod && add_and_find(jk, mod, tsc, name, why, len);
	LLVMOrcDisposeThreadSafeContext(tsc);
	return ok;
}

bool jit_compile_kernel(struct ptx_kernel *k, char *why, size_t whylen)
{
	struct jit_kernel *jk = calloc(1, sizeof(*jk));
	if (!jk) {
		snprintf(why, whylen, "out of memory");
		return false;
	}
	double t0 = now();
	pthread_mutex_lock(&engine_lock);
	bool ok = compile_locked(k, jk, why, whylen);
	pthread_mutex_unlock(&engine_lock);
	jk->compile_s = now() - t0;
	if (!ok) {
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
	if (jk->tracker) {
		LLVMOrcResourceTrackerRef rt = jk->tracker;
		LLVMConsumeError(LLVMOrcResourceTrackerRemove(rt));
		LLVMOrcReleaseResourceTracker(rt);
	}
	pthread_mutex_unlock(&engine_lock);
	free(jk);
}
