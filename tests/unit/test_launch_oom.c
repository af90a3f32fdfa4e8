// SPDX-License-Identifier: MIT
/*
 * A launch whose CTAs the host has no memory for fails with
 * PTX_FAULT_OUT_OF_RESOURCES (libcuda: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
 * not as an instruction of the kernel would, and the process goes on: a
 * later launch that fits runs. The kernel asks for 1 GiB of dynamic
 * shared memory while the address space is capped a little above what
 * the process uses; the ptx_* layer does not cap shared memory itself
 * (cuLaunchKernel does). Run under the executor VCUDA_EXECUTOR names;
 * the cooperative case runs the JIT's fibers or the interpreter's
 * resident CTAs.
 */
#include "harness.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define HUGE_SHARED (1u << 30)
#define HEADROOM (64ull << 20)	/* for malloc's own growth */

static const char kernel_text[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".visible .entry touch(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, 41;\n"
	"\tst.shared.u32 [dyn], %r1;\n\tbar.sync 0;\n"
	"\tld.shared.u32 %r2, [dyn];\n\tadd.u32 %r2, %r2, 1;\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

/* Bytes of address space in use now (VmSize), 0 if unknown. */
static unsigned long long address_space_used(void)
{
	unsigned long long kib = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return kib * 1024;
}

static bool launch(struct ptx_program *p, uint32_t shared, uint32_t flags,
		   uint32_t *out, struct ptx_fault *fault)
{
	struct launch_cfg cfg = { .grid = { 2 }, .block = { 32 },
				  .shared = shared, .flags = flags };
	const void *args[] = { &out };
	memset(fault, 0, sizeof(*fault));
	return run(p, "touch", &cfg, args, fault);
}

static void check(struct ptx_program *p, uint32_t flags, const char *what)
{
	uint32_t *out = test_alloc(4);
	struct ptx_fault f;
	bool ok = launch(p, HUGE_SHARED, flags, out, &f);
	printf("# %s: %s (%s)\n", what, ok ? "ran" : "failed", f.message);
	tap_ok(!ok && f.kind == PTX_FAULT_OUT_OF_RESOURCES,
	       "%s: 1 GiB of shared memory beyond the host's limit is out of resources",
	       what);
	*out = 0;
	ok = launch(p, 16, flags, out, &f);
	tap_ok(ok && *out == 42, "%s: a launch that fits runs afterwards", what);
}

int main(void)
{
	char log[512];
	const char *texts[] = { kernel_text }, *names[] = { "launch_oom" };
	struct ptx_program *p = NULL;
	tap_plan(5);
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		printf("# build failed: %s\n", log);
	/* Compiled (or lowered) and the worker's memory set up first. */
	uint32_t *out = test_alloc(4);
	struct ptx_fault f;
	bool ran = p && launch(p, 16, 0, out, &f);
	if (p && !ran)
		printf("# fault: %s\n", f.message);
	tap_ok(ran && *out == 42, "the kernel runs with 16 bytes of shared memory");
	unsigned long long used = address_space_used();
	struct rlimit cap = { used + HEADROOM, used + HEADROOM };
	if (!p || !used || setrlimit(RLIMIT_AS, &cap)) {
		/* without the limit the test proves nothing: it fails */
		for (int i = 0; i < 4; i++)
			tap_ok(false, "no address-space limit could be set");
	} else {
		check(p, 0, "a launch");
		check(p, PTX_LAUNCH_COOPERATIVE, "a cooperative launch");
	}
	ptx_program_destroy(p);
	test_free_all();
	return tap_done();
}
