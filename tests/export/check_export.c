// SPDX-License-Identifier: MIT
/*
 * The private export tables against what NVIDIA's driver did on an H100
 * (tools/cudalog's recordings in this directory):
 *  - integrity.c gives the driver's recorded answers for the recorded
 *    inputs (integrity-h100.txt);
 *  - every table NVIDIA's runtime 13.0 asks for exists, with the size word
 *    and the empty slots of the driver's;
 *  - the slots that need no device answer as the driver did: the callback
 *    areas and their sizes, "not a wrapped context", the integrity check's
 *    fixed answers for runtime versions ending in 0 and 1.
 * Prints TAP; run from the top of the tree.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrity.h"

typedef struct { unsigned char bytes[16]; } uuid16;
typedef int (*get_table_fn)(const void **, const uuid16 *);

static int failures, number;

static void result(int ok, const char *what)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++number, what);
	failures += !ok;
}

static void hex_bytes(const char *hex, uint8_t *out, int n)
{
	for (int i = 0; i < n; i++)
		sscanf(hex + 2 * i, "%2hhx", &out[i]);
}

static void check_recorded_answers(void)
{
	FILE *f = fopen("tests/export/integrity-h100.txt", "r");
	char line[1024];
	int lines = 0, good = 0;

	while (f && fgets(line, sizeof(line), f)) {
		struct integrity_device dev;
		struct integrity_input in = { .devices = &dev };
		char uuid[40], answer[40];
		uint8_t want[16], got[16];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %u %u %x %lx %lx %lx %lx %u %32s %u %u %u %32s",
			   &in.driver_version, &in.runtime_version, &in.pid, &in.tid,
			   &in.runtime_table, &in.check_table, &in.check_fn, &in.timestamp,
			   &in.ndevices, uuid, &dev.pci_domain, &dev.pci_bus,
			   &dev.pci_device, answer) != 14)
			continue;
		hex_bytes(uuid, dev.uuid, 16);
		hex_bytes(answer, want, 16);
		integrity_answer(&in, got);
		lines++;
		good += !memcmp(got, want, 16);
	}
	if (f)
		fclose(f);
	result(lines == 3 && good == lines, "integrity answers equal the H100 driver's");
}

static const void *const *table(get_table_fn get, const char *hex)
{
	const void *t = NULL;
	uuid16 id;

	hex_bytes(hex, id.bytes, 16);
	return get(&t, &id) == 0 ? t : NULL;
}

int main(void)
{
	void *lib = dlopen("build/lib/libcuda.so.1", RTLD_NOW);
	get_table_fn get = lib ? (get_table_fn)dlsym(lib, "cuGetExportTable") : NULL;
	/* UUID, size word (0: none), and a slot the driver leaves empty. */
	static const struct { const char *id; uintptr_t size; int empty; } shapes[] = {
		{ "f8cff95121468b4eb9e2fb469e7c0dd9", 0x18, -1 },
		{ "6bd5fb6c5bf4e74a8987d93912fd9df9", 0x68, 10 },
		{ "a094798c2e742e7493f20800200c0a66", 0x38, -1 },
		{ "42d85a8123f6cb478298f6e78a3aecdc", 0x18, -1 },
		{ "c693336e1121df11a8c368f355d89593", 0, 3 },
		{ "263e88607cd2614392f6bbd5006dfa7e", 0x78, -1 },
		{ "d4082055bde6704b8d34ba123c66e1f2", 0x18, -1 },
	};

	printf("1..6\n");
	check_recorded_answers();
	if (!get) {
		result(0, "cuGetExportTable exported");
		return 1;
	}
	int shapes_ok = 1;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const void *const *t = table(get, shapes[i].id);

		if (!t || (shapes[i].size && (uintptr_t)t[0] != shapes[i].size) ||
		    (shapes[i].empty >= 0 && t[shapes[i].empty]))
			shapes_ok = 0;
	}
	result(shapes_ok, "the seven tables have the driver's sizes and empty slots");
	result(!table(get, "00000000000000000000000000000000"), "an unknown table is refused");

	const void *const *callbacks = table(get, "a094798c2e742e7493f20800200c0a66");
	void *area = NULL, *area2 = NULL;
	size_t size = 0, size2 = 0;
	void *r1 = ((void *(*)(void **, size_t *))callbacks[2])(&area, &size);
	void *r2 = ((void *(*)(void **, size_t *))callbacks[6])(&area2, &size2);

	result(area && r1 == area && size == 0x400 && area2 && r2 == area2 && size2 == 14,
	       "callback areas as the driver gives them (1024 and 14)");

	const void *const *checks = table(get, "263e88607cd2614392f6bbd5006dfa7e");
	int wrapped = 7;
	int r = ((int (*)(void *, int *, void *))checks[2])(NULL, &wrapped, NULL);

	result(r == 0 && wrapped == 0, "contexts are not wrapped");

	const void *const *integrity = table(get, "d4082055bde6704b8d34ba123c66e1f2");
	uint8_t a0[16], a1[16], want[16];
	int (*check)(unsigned int, uint64_t, uint8_t *) =
		(int (*)(unsigned int, uint64_t, uint8_t *))integrity[1];

	hex_bytes("5c67cb031c184133e8d14c1faa83d38e", want, 16);
	int fixed = check(13000, 0x6b065cb2, a0) == 0 && !memcmp(a0, want, 16);

	want[7] = 0x18;
	fixed = fixed && check(13001, 0x6b065cb2, a1) == 0 && !memcmp(a1, want, 16);
	result(fixed, "the integrity check's fixed answers (13000, 13001)");
	return failures != 0;
}
