// SPDX-License-Identifier: MIT
/*
 * CUDA_VISIBLE_DEVICES: for each value, a fresh process (the variable is
 * read once, by cuInit) prints what cuInit returns, how many devices it
 * sees and, for each, whether it is the first device of the unfiltered
 * list (by UUID). The expected output was recorded on an NVIDIA H200, a
 * machine with one GPU (2026-11-27). "visible_devices_api --uuids" prints
 * the UUIDs of the devices this process sees, in order, with which
 * tests/vm/module-reload.sh checks the order of several devices.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cuda.h>

extern char **environ;

/* The UUID of device @i, as nvidia-smi writes it ("GPU-none" if none). */
static void uuid_of(int i, char out[41])
{
	CUdevice dev;
	CUuuid u;
	int n;

	if (cuDeviceGet(&dev, i) || cuDeviceGetUuid(&u, dev)) {
		strcpy(out, "GPU-none");
		return;
	}
	n = sprintf(out, "GPU-");
	for (int b = 0; b < 16; b++) {
		n += sprintf(out + n, "%02x", (unsigned char)u.bytes[b]);
		if (b == 3 || b == 5 || b == 7 || b == 9)
			out[n++] = '-';
	}
	out[n] = '\0';
}

static int print_uuids(void)
{
	char text[41];
	int count = 0;

	if (cuInit(0) == CUDA_SUCCESS)
		cuDeviceGetCount(&count);
	for (int i = 0; i < count; i++) {
		uuid_of(i, text);
		printf("%s\n", text);
	}
	return 0;
}

/* The child: what this process sees; @first is device 0's UUID unfiltered. */
static int show(const char *label, const char *first)
{
	CUresult res = cuInit(0);
	int count = -1;

	printf("%s: cuInit %d", label, (int)res);
	if (cuDeviceGetCount(&count) == CUDA_SUCCESS)
		printf(", count %d", count);
	for (int i = 0; i < count; i++) {
		char text[41];

		uuid_of(i, text);
		printf(", [%d] %s", i, strcmp(text, first) ? "other" : "first");
	}
	printf("\n");
	return 0;
}

static void run(char *self, const char *label, const char *value,
		const char *first)
{
	char var[128], *argv[] = { self, "--child", (char *)label,
				   (char *)first, NULL };
	char **env;
	size_t n = 0;
	pid_t pid;
	int status;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21))
			env[n++] = *e;
	if (value) {
		snprintf(var, sizeof(var), "CUDA_VISIBLE_DEVICES=%s", value);
		env[n++] = var;
	}
	fflush(stdout);
	if (posix_spawn(&pid, self, NULL, NULL, argv, env) ||
	    waitpid(pid, &status, 0) != pid)
		printf("%s: could not run\n", label);
	free(env);
}

int main(int argc, char **argv)
{
	char first[41], prefix[16], full[41], upper[41];

	if (argc == 4 && !strcmp(argv[1], "--child"))
		return show(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "--uuids"))
		return print_uuids();
	if (cuInit(0) == CUDA_SUCCESS)
		uuid_of(0, first);
	else
		strcpy(first, "GPU-none");
	snprintf(prefix, sizeof(prefix), "%.12s", first);	/* GPU-xxxxxxxx */
	strcpy(full, first);
	strcpy(upper, first);
	for (char *p = upper + 4; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p -= 'a' - 'A';
	run(argv[0], "unset", NULL, first);
	run(argv[0], "\"0\"", "0", first);
	run(argv[0], "empty", "", first);
	run(argv[0], "\"1\"", "1", first);
	run(argv[0], "\"-1\"", "-1", first);
	run(argv[0], "\"0,0\"", "0,0", first);
	run(argv[0], "\"0,1\"", "0,1", first);
	run(argv[0], "\"1,0\"", "1,0", first);
	run(argv[0], "\"0,-1\"", "0,-1", first);
	run(argv[0], "\" 0\"", " 0", first);
	run(argv[0], "\"0 \"", "0 ", first);
	run(argv[0], "\"00\"", "00", first);
	run(argv[0], "\"+0\"", "+0", first);
	run(argv[0], "\"abc\"", "abc", first);
	run(argv[0], "\"0,abc\"", "0,abc", first);
	run(argv[0], "\",0\"", ",0", first);
	run(argv[0], "uuid prefix", prefix, first);
	run(argv[0], "full uuid", full, first);
	run(argv[0], "upper-case uuid", upper, first);
	run(argv[0], "\"GPU-\"", "GPU-", first);
	run(argv[0], "\"GPU-zzzz\"", "GPU-zzzz", first);
	return 0;
}
