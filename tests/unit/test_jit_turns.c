// SPDX-License-Identifier: MIT
/*
 * A loop whose groups take turns (libcuda/ptx/jit_emit_vyield.c) looks
 * at the launch's kill flag once a turn rather than once a trip: a
 * kernel spinning forever in such a loop must still stop, with
 * PTX_FAULT_KILLED, once the flag is set while it runs; on the
 * interpreter, the scalar JIT and the vector JIT alike. The vector
 * form's compile-time counts (jit_stats) must show that the loop did
 * take turns, else the test would prove nothing about them.
 */
#include "harness.h"
#include "jit.h"
#include "tap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NMODES = 3, NTESTS = NMODES + 1 };

/* Each thread reads its byte of @in until it is 7: all are 0, so the
 * loop never ends; its load streams (the lanes read 8 addresses). */
static const char spin_text[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry turns_spin(.param .u64 in)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [in];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n\tcvt.u64.u32 %rd2, %r1;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"$Lloop:\n\tld.global.u8 %r2, [%rd3];\n"
	"\tsetp.ne.u32 %p1, %r2, 7;\n\t@%p1 bra $Lloop;\n"
	"\tret;\n}\n";

/* @m's build; a comment of its own keeps the JIT from sharing code. */
static struct ptx_program *build_mode(int m)
{
	char text[sizeof(spin_text) + 32], log[1024] = "";
	struct ptx_program *p = NULL;
	snprintf(text, sizeof(text), "// mode %d\n%s", m, spin_text);
	const char *texts[] = { text }, *names[] = { "turns_spin.ptx" };
	if (build_texts(texts, names, 1, &p, log, sizeof(log)) != PTX_OK)
		tap_diag("turns_spin.ptx: %s", log);
	return p;
}

static void *kill_later(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	atomic_store((atomic_bool *)arg, true);
	return NULL;
}

/* turns_spin on mode @m, its kill flag set 50 ms into the launch. */
static void check_killed(int m)
{
	set_exec_mode(m);
	struct ptx_program *p = build_mode(m);
	uint8_t *in = test_alloc(256);
	memset(in, 0, 256);
	atomic_bool kill = false;
	struct launch_cfg cfg = { .grid = { 2 }, .block = { 64, 1, 1 },
				  .kill = &kill };
	const void *args[] = { &in };
	struct ptx_fault f = { 0 };
	pthread_t t;
	/* compiled first, so that the flag is set while the loop runs,
	 * not before the launch starts */
	struct ptx_kernel *k =
		(struct ptx_kernel *)ptx_program_kernel(p, "turns_spin");
	bool ok = k && (!m || jit_compile_wait(k)) &&
		  !pthread_create(&t, NULL, kill_later, &kill);
	if (ok) {
		ok = !run(p, "turns_spin", &cfg, args, &f) &&
		     f.kind == PTX_FAULT_KILLED;
		pthread_join(t, NULL);
	}
	if (!ok)
		tap_diag("fault kind %d: %s", f.kind, f.message);
	tap_ok(ok, "a loop taking turns stops when killed (%s)",
	       exec_mode_name[m]);
	if (p)
		ptx_program_destroy(p);
	unset_exec_mode();
}

/* The vector form of turns_spin takes turns and prefetches. */
static void check_turns_compiled(void)
{
	set_exec_mode(2);
	struct ptx_program *p = build_mode(2);
	struct ptx_kernel *k =
		(struct ptx_kernel *)ptx_program_kernel(p, "turns_spin");
	bool ok = k && jit_compile_wait(k) && k->jit;
	const struct jit_stats *s = ok ? &k->jit->stats : NULL;
	ok = ok && s->counted && s->vector && s->turn_loops >= 1 &&
	     s->prefetch >= 1;
	if (s && !ok)
		tap_diag("vector %d, turn loops %u, prefetch %u", s->vector,
			 s->turn_loops, s->prefetch);
	tap_ok(ok, "turns_spin's vector form takes turns");
	if (p)
		ptx_program_destroy(p);
	unset_exec_mode();
}

int main(void)
{
	tap_plan(NTESTS);
	alarm(60);	/* a loop that is never stopped fails, not hangs */
	const char *ex = getenv("VCUDA_EXECUTOR");
	bool interp_only = ex && !strcmp(ex, "interp");
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	check_killed(0);
	for (int m = 1; m < NMODES; m++)
		if (interp_only)
			tap_ok(true, "# SKIP no JIT under VCUDA_EXECUTOR=interp");
		else
			check_killed(m);
	if (interp_only)
		tap_ok(true, "# SKIP no JIT under VCUDA_EXECUTOR=interp");
	else
		check_turns_compiled();
	test_free_all();
	return tap_done();
}
