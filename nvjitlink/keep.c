// SPDX-License-Identifier: MIT
/*
 * NVIDIA's LTO step (lto.c) sees only the LTO-IR: a function defined there
 * that only PTX inputs call looks unused to it and is dropped, and the
 * PTX's call is then unresolved (numba's NRT_Allocate, compiled to LTO-IR,
 * called from a PTX library). NVIDIA's own link sees the PTX's references;
 * ours tells the LTO step about them: a small module of NVVM IR lists the
 * functions the PTX inputs declare .extern in @llvm.used, which keeps them,
 * compiled to LTO-IR by the toolkit's libNVVM and linked last (so that the
 * real modules' declarations win). A name no LTO-IR defines comes out as
 * an unused .extern declaration, which the link ignores.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jitlink.h"

typedef struct _nvvmProgram *nvvm_program;

struct nvidia_nvvm {
	int (*create)(nvvm_program *);
	int (*destroy)(nvvm_program *);
	int (*add_module)(nvvm_program, const char *, size_t, const char *);
	int (*compile)(nvvm_program, int, const char **);
	int (*result_size)(nvvm_program, size_t *);
	int (*result)(nvvm_program, char *);
};

static struct nvidia_nvvm nvvm;
static pthread_once_t nvvm_once = PTHREAD_ONCE_INIT;

static bool bind(void *dl)
{
	*(void **)&nvvm.create = dlsym(dl, "nvvmCreateProgram");
	*(void **)&nvvm.destroy = dlsym(dl, "nvvmDestroyProgram");
	*(void **)&nvvm.add_module = dlsym(dl, "nvvmAddModuleToProgram");
	*(void **)&nvvm.compile = dlsym(dl, "nvvmCompileProgram");
	*(void **)&nvvm.result_size = dlsym(dl, "nvvmGetCompiledResultSize");
	*(void **)&nvvm.result = dlsym(dl, "nvvmGetCompiledResult");
	if (nvvm.create && nvvm.destroy && nvvm.add_module && nvvm.compile &&
	    nvvm.result_size && nvvm.result)
		return true;
	nvvm = (struct nvidia_nvvm){ 0 };
	return false;
}

/* libNVVM of the toolkit: nvvm/lib64 in NVIDIA's layout, else lib64. */
static void load_nvvm(void)
{
	static const char *const tails[] = { "nvvm/lib64/libnvvm.so",
					     "lib64/libnvvm.so.4" };
	char path[512];

	toolkit_open(tails, 2, RTLD_NOW | RTLD_LOCAL, bind, path,
		     sizeof(path));
}

/* A growing string; @failed once an allocation failed. */
struct text {
	char *s;
	size_t len;
	bool failed;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *grown;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	grown = n < 0 ? NULL : realloc(t->s, t->len + (size_t)n + 1);
	if (!grown) {
		t->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(grown + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->s = grown;
	t->len += (size_t)n;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The name after ".extern .func" at @p (past its return parameter). */
static size_t extern_func_name(const char *p, const char **name)
{
	while (is_space(*p))
		p++;
	if (*p == '(') {
		p = strchr(p, ')');
		if (!p)
			return 0;
		for (p++; is_space(*p); p++)
			;
	}
	*name = p;
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_$%");
}

/*
 * Functions the driver provides (printf, malloc, assert, the device
 * runtime's cuda*): never in LTO-IR, and NVVM knows some of them by
 * their types, which a keeper must not declare otherwise.
 */
static bool provided(const char *name, size_t len)
{
	static const char *const names[] = { "vprintf", "malloc", "free",
					     "__assertfail" };

	if (len >= 4 && !strncmp(name, "cuda", 4))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncmp(name, names[i], len))
			return true;
	return false;
}

/* Whether @decls declares @name already (two inputs may declare it). */
static bool declared(const struct text *decls, const char *name, size_t len)
{
	char key[4096];

	if (!decls->s || len + 4 > sizeof(key))
		return false;
	snprintf(key, sizeof(key), "@\"%.*s\"(", (int)len, name);
	return strstr(decls->s, key) != NULL;
}

/* Declares each function @text declares .extern, and lists it in @used. */
static size_t collect(const char *text, struct text *decls, struct text *used,
		      size_t count)
{
	const char *p = text, *name;
	size_t len;

	while ((p = strstr(p, ".extern"))) {
		for (p += 7; is_space(*p); p++)
			;
		if (strncmp(p, ".func", 5))
			continue;
		len = extern_func_name(p + 5, &name);
		if (!len || provided(name, len) || declared(decls, name, len))
			continue;
		add(decls, "declare void @\"%.*s\"()\n", (int)len, name);
		add(used, "%si8* bitcast (void ()* @\"%.*s\" to i8*)",
		    count ? ", " : "", (int)len, name);
		count++;
	}
	return count;
}

/* The keeper module for the PTX inputs of @set, or NULL (none needed). */
static char *keeper_ir(const struct link_set *set)
{
	struct text decls = { 0 }, used = { 0 }, ir = { 0 };
	size_t count = 0;

	for (size_t i = 0; i < set->count; i++)
		count = collect(set->inputs[i].text, &decls, &used, count);
	if (count && !decls.failed && !used.failed) {
		add(&ir, "target triple = \"nvptx64-nvidia-cuda\"\n"
			 "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-"
			 "i16:16:16-i32:32:32-i64:64:64-i128:128:128-"
			 "f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-"
			 "v128:128:128-n16:32:64\"\n%s", decls.s);
		add(&ir, "@llvm.used = appending global [%zu x i8*] [%s], "
			 "section \"llvm.metadata\"\n", count, used.s);
		add(&ir, "!nvvmir.version = !{!0}\n"
			 "!0 = !{i32 2, i32 0, i32 3, i32 1}\n");
	}
	free(decls.s);
	free(used.s);
	if (!count || ir.failed) {
		free(ir.s);
		return NULL;
	}
	return ir.s;
}

/* @ir compiled to LTO-IR for compute_@arch by libNVVM. */
static void *compile_lto(const char *ir, unsigned int arch, size_t *size)
{
	char arch_opt[32];
	const char *opts[] = { arch_opt, "-gen-lto" };
	nvvm_program prog;
	void *out = NULL;
	bool ok;

	snprintf(arch_opt, sizeof(arch_opt), "-arch=compute_%u", arch);
	if (nvvm.create(&prog))
		return NULL;
	ok = !nvvm.add_module(prog, ir, strlen(ir), "vcuda-keep") &&
	     !nvvm.compile(prog, 2, opts) && !nvvm.result_size(prog, size) &&
	     (out = malloc(*size)) && !nvvm.result(prog, out);
	nvvm.destroy(&prog);
	if (!ok) {
		free(out);
		out = NULL;
	}
	return out;
}

void *jitlink_keeper(const struct nvJitLink *link, size_t *size)
{
	char *ir;
	void *lto;

	pthread_once(&nvvm_once, load_nvvm);
	if (!nvvm.create)
		return NULL;
	ir = keeper_ir(&link->set);
	if (!ir)
		return NULL;
	lto = compile_lto(ir, link->options.arch, size);
	free(ir);
	return lto;
}
