// SPDX-License-Identifier: MIT
/*
 * A bounded-time fuzzer for the test suite: runs a target's
 * LLVMFuzzerTestOneInput (fuzz.h) on seed files, then on mutations of
 * them for FUZZ_SECONDS (default 20), and prints TAP. Built with ASan and
 * UBSan (tests/fuzz/fuzz.mk), so a memory error, undefined behaviour or
 * a crash aborts the run: the input that did it is written to
 * $FUZZ_CRASH_DIR (build/fuzz) first. Deterministic for a FUZZ_SEED.
 *
 *   fuzz_ptx [SEED_FILE...]     (FUZZ_SECONDS=60 FUZZ_SEED=7 ...)
 *
 * Without seed files, the seeds are the files of FUZZ_SEED_DIR (built in:
 * the test corpus) whose names end in one of FUZZ_SEED_SUFFIXES and that
 * are at most FUZZ_SEED_MAX bytes (small inputs mutate and run faster).
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FUZZ_MAX_INPUT (256u << 10)	/* larger seeds are cut: keeps runs fast */

struct input {
	uint8_t *data;
	size_t len;
};

static uint64_t rng_state;
static struct input current;	/* what the target is running on */
static const char *target_name = "fuzz";

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* ASan and UBSan call this before they abort. */
static void save_crash(void)
{
	const char *dir = getenv("FUZZ_CRASH_DIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/crash-%s", dir ? dir : ".",
		 target_name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(current.data, 1, current.len, f);
		fclose(f);
		fprintf(stderr, "fuzz: input saved to %s\n", path);
	}
}

static bool wanted(const char *name)
{
	char suffixes[] = FUZZ_SEED_SUFFIXES;	/* "a,b": strtok writes */
	size_t n = strlen(name);
	for (char *t = strtok(suffixes, ","); t; t = strtok(NULL, ",")) {
		size_t k = strlen(t);
		if (n >= k && !strcmp(name + n - k, t))
			return true;
	}
	return false;
}

static bool read_file(const char *path, struct input *in);

/* The seed files of FUZZ_SEED_DIR, into @seeds (room for @max). */
static size_t seed_dir(struct input *seeds, size_t max)
{
	DIR *d = opendir(FUZZ_SEED_DIR);
	size_t n = 0;
	for (struct dirent *e; d && n < max && (e = readdir(d));) {
		char path[1024];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_SEED_DIR, e->d_name);
		if (wanted(e->d_name) && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && st.st_size <= FUZZ_SEED_MAX &&
		    read_file(path, &seeds[n]))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static bool read_file(const char *path, struct input *in)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	in->data = malloc(FUZZ_MAX_INPUT);
	in->len = in->data ? fread(in->data, 1, FUZZ_MAX_INPUT, f) : 0;
	fclose(f);
	return in->data != NULL;
}

/* ---- mutations: each rewrites buf[0..*len) in place (cap bytes) ---- */

static void flip_bits(uint8_t *buf, size_t *len, size_t cap)
{
	(void)cap;
	for (unsigned n = 1 + below(4); n-- && *len;)
		buf[below(*len)] ^= (uint8_t)(1u << below(8));
}

/* A little-endian field set to an edge value: sizes and offsets. */
static void set_field(uint8_t *buf, size_t *len, size_t cap)
{
	static const uint64_t edges[] = { 0, 1, 0x7f, 0x80, 0xff, 0xffff,
					  0x7fffffff, 0x80000000, 0xffffffff,
					  ~0ull, 0x10000, 64 };
	(void)cap;
	size_t width = (size_t)1 << below(4);	/* 1, 2, 4, 8 bytes */
	if (*len < width)
		return;
	size_t at = below(*len - width + 1) & ~(width - 1);
	uint64_t v = edges[below(sizeof(edges) / sizeof(edges[0]))];
	if (below(2))
		v += below(16);
	memcpy(buf + at, &v, width);	/* little-endian host */
}

static void erase(uint8_t *buf, size_t *len, size_t cap)
{
	(void)cap;
	if (!*len)
		return;
	size_t at = below(*len), n = 1 + below(below(2) ? 8 : 256);
	if (n > *len - at)
		n = *len - at;
	memmove(buf + at, buf + at + n, *len - at - n);
	*len -= n;
}

static void insert(uint8_t *buf, size_t *len, size_t cap, const void *src,
		   size_t n)
{
	if (*len + n > cap)
		return;
	size_t at = below(*len + 1);
	memmove(buf + at + n, buf + at, *len - at);
	memcpy(buf + at, src, n);
	*len += n;
}

static void insert_token(uint8_t *buf, size_t *len, size_t cap)
{
	size_t n = 0;
	while (fuzz_dictionary[n])
		n++;
	const char *t = fuzz_dictionary[below(n)];
	insert(buf, len, cap, t, strlen(t));
}

/* A copy of a run of the input elsewhere: lines, instructions, headers
 * repeated. */
static void duplicate(uint8_t *buf, size_t *len, size_t cap)
{
	if (!*len)
		return;
	size_t from = below(*len), n = 1 + below(64);
	if (n > *len - from)
		n = *len - from;
	uint8_t tmp[64];
	memcpy(tmp, buf + from, n);
	insert(buf, len, cap, tmp, n);
}

static void random_bytes(uint8_t *buf, size_t *len, size_t cap)
{
	uint8_t tmp[16];
	size_t n = 1 + below(sizeof(tmp));
	for (size_t i = 0; i < n; i++)
		tmp[i] = (uint8_t)rnd();
	insert(buf, len, cap, tmp, n);
}

static void mutate(uint8_t *buf, size_t *len, size_t cap)
{
	typedef void (*mutation)(uint8_t *, size_t *, size_t);
	static const mutation all[] = { flip_bits, set_field, erase,
					insert_token, duplicate,
					random_bytes };
	for (unsigned n = 1 + below(3); n--;)
		all[below(sizeof(all) / sizeof(all[0]))](buf, len, cap);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(const uint8_t *data, size_t len)
{
	current.data = (uint8_t *)data;
	current.len = len;
	LLVMFuzzerTestOneInput(data, len);
}

int main(int argc, char **argv)
{
	const char *s = getenv("FUZZ_SECONDS"), *seed = getenv("FUZZ_SEED");
	double seconds = s ? atof(s) : FUZZ_SECONDS_DEFAULT;
	rng_state = seed ? strtoull(seed, NULL, 0) : 0x9e3779b97f4a7c15ull;
	if (!rng_state)
		rng_state = 1;
	target_name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 :
					     argv[0];
	__sanitizer_set_death_callback(save_crash);
	size_t max = argc > 1 ? (size_t)argc : 512, nseeds = 0;
	struct input *seeds = calloc(max, sizeof(*seeds));
	for (int i = 1; seeds && i < argc; i++)
		if (read_file(argv[i], &seeds[nseeds]))
			nseeds++;
	if (seeds && argc == 1)
		nseeds = seed_dir(seeds, max);
	printf("1..1\n");
	if (!nseeds) {
		printf("not ok 1 - %s: no seed files\n", target_name);
		return 1;
	}
	for (size_t i = 0; i < nseeds; i++)
		run(seeds[i].data, seeds[i].len);
	uint8_t *buf = malloc(FUZZ_MAX_INPUT);
	unsigned long execs = nseeds;
	double start = now();
	while (buf && now() - start < seconds) {
		const struct input *from = &seeds[below(nseeds)];
		size_t len = from->len;
		memcpy(buf, from->data, len);
		for (unsigned k = 0; k < 16; k++, execs++) {	/* mutants of mutants */
			mutate(buf, &len, FUZZ_MAX_INPUT);
			run(buf, len);
		}
	}
	printf("ok 1 - %s: %lu inputs in %.0f s from %zu seeds, no crash, "
	       "no sanitizer report\n", target_name, execs, now() - start,
	       nseeds);
	free(buf);
	for (size_t i = 0; i < nseeds; i++)
		free(seeds[i].data);
	free(seeds);
	return 0;
}
