// SPDX-License-Identifier: MIT
/*
 * Records what a CUDA driver answers to cuGetProcAddress_v2 (and the
 * version-1 cuGetProcAddress) for every name read from standard input, at
 * every version given on the command line, with each of the three flags.
 * Only the points where the answer changes as the version grows are
 * printed, one line each:
 *
 *   v2 NAME FLAGS VERSION RESULT STATUS SYMBOL
 *
 * SYMBOL names the function returned (by dladdr on the driver library),
 * "-" when none. The answer for any version is that of the last line at or
 * below it. Then argument errors, one line each. Built and run on a machine
 * with NVIDIA's driver; its output is tests/procaddr/h100.txt, and
 * check_procaddr.c asks vcuda the same questions.
 *
 *   record_procaddr LIBCUDA VERSION... < names
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*proc_v2_fn)(const char *, void **, int, uint64_t, int *);
typedef int (*proc_v1_fn)(const char *, void **, int, uint64_t);
typedef int (*init_fn)(unsigned int);

static const char *symbol_name(void *p, char *buf, size_t len)
{
	Dl_info info;

	if (!p)
		return "-";
	if (dladdr(p, &info) && info.dli_sname && info.dli_saddr == p)
		return info.dli_sname;
	if (dladdr(p, &info) && info.dli_fbase) {
		snprintf(buf, len, "(internal+0x%lx)", (unsigned long)((uintptr_t)p - (uintptr_t)info.dli_fbase));
		return buf;
	}
	return "(unknown)";
}

static void record_name(proc_v2_fn v2, proc_v1_fn v1, const char *name, int nver, const int *ver)
{
	for (uint64_t flags = 0; flags < 3; flags++) {
		char last[512] = "";

		for (int i = 0; i < nver; i++) {
			char line[512], buf[64];
			void *p = NULL;
			int status = -1;
			int r = v2(name, &p, ver[i], flags, &status);

			snprintf(line, sizeof(line), "%d %d %s", r, status, symbol_name(p, buf, sizeof(buf)));
			if (strcmp(line, last)) {
				printf("v2 %s %lu %d %s\n", name, (unsigned long)flags, ver[i], line);
				strcpy(last, line);
			}
		}
	}
	char last[512] = "";

	for (int i = 0; i < nver; i++) {
		char line[512], buf[64];
		void *p = NULL;
		int r = v1(name, &p, ver[i], 0);

		snprintf(line, sizeof(line), "%d %s", r, symbol_name(p, buf, sizeof(buf)));
		if (strcmp(line, last)) {
			printf("v1 %s 0 %d %s\n", name, ver[i], line);
			strcpy(last, line);
		}
	}
}

/* Runs one argument-error case in a child, so that a driver that crashes
 * on it is recorded as doing so. */
static void record_errors_case(proc_v2_fn v2, int which);

static void record_errors(proc_v2_fn v2)
{
	for (int which = 0; which < 13; which++) {
		pid_t pid;
		int ws;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			record_errors_case(v2, which);
			fflush(stdout);
			_exit(0);
		}
		waitpid(pid, &ws, 0);
		if (!WIFEXITED(ws))
			printf("err case %d crashed (signal %d)\n", which, WTERMSIG(ws));
	}
}

static void record_errors_case(proc_v2_fn v2, int which)
{
	static const int bad_versions[] = { -1, 0, 1 };
	void *p = (void *)1;
	int status = 77;
	int r;

	switch (which) {
	case 0:
		r = v2(NULL, &p, 13000, 0, &status);
		printf("err null-symbol %d %d %s\n", r, status, p ? "set" : "null");
		break;
	case 1:
		r = v2("cuInit", NULL, 13000, 0, &status);
		printf("err null-pfn %d %d\n", r, status);
		break;
	case 2:
		r = v2("cuInit", &p, 13000, 0, NULL);
		printf("err null-status %d %s\n", r, p ? "set" : "null");
		break;
	case 3:
		r = v2("", &p, 13000, 0, &status);
		printf("err empty-symbol %d %d %s\n", r, status, p ? "set" : "null");
		break;
	case 4: case 5: case 6: case 7: case 8: case 9: {
		uint64_t flags = (uint64_t)which - 1;	/* 3..8 */

		r = v2("cuInit", &p, 13000, flags, &status);
		printf("err flags=%lu %d %d %s\n", (unsigned long)flags, r, status, p ? "set" : "null");
		break;
	}
	default: {
		int v = bad_versions[which - 10];

		r = v2("cuInit", &p, v, 0, &status);
		printf("err version=%d %d %d %s\n", v, r, status, p ? "set" : "null");
		break;
	}
	}
}

int main(int argc, char **argv)
{
	void *lib = argc > 2 ? dlopen(argv[1], RTLD_NOW) : NULL;
	int nver = argc - 2, *ver;
	char name[256];

	if (!lib) {
		fprintf(stderr, "usage: record_procaddr LIBCUDA VERSION... < names\n");
		return 2;
	}
	proc_v2_fn v2 = (proc_v2_fn)dlsym(lib, "cuGetProcAddress_v2");
	proc_v1_fn v1 = (proc_v1_fn)dlsym(lib, "cuGetProcAddress");
	init_fn init = (init_fn)dlsym(lib, "cuInit");

	ver = calloc(nver, sizeof(*ver));
	for (int i = 0; i < nver; i++)
		ver[i] = atoi(argv[i + 2]);
	/* Answers before cuInit, then after. */
	record_errors(v2);
	printf("init %d\n", init(0));
	record_errors(v2);
	while (scanf("%255s", name) == 1)
		record_name(v2, v1, name, nver, ver);
	return 0;
}
